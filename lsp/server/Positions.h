// LSP positions (UTF-16 code units) against the byte offsets tree-sitter reports, and applying
// LSP content changes to a buffer while recording tree-sitter edits for incremental re-parsing.
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/Facts.h"
#include "server/Types.h"

namespace impact::server {

// Line starts of a text, for converting positions.
// An open document keeps its index and updates it with each edit (`replace`: the line starts of
// the edited range are spliced, the later ones shifted), so a keystroke does not rescan the text.
class LineIndex {
 public:
  LineIndex() : LineIndex(std::string_view()) {}
  explicit LineIndex(std::string_view text);
  // The text now is `after`: bytes [start, oldEnd) of the indexed text were replaced by
  // after[start, newEnd).
  void replace(std::string_view after, size_t start, size_t oldEnd, size_t newEnd);
  // The same content at another address (the owning string moved).
  void rebind(std::string_view text) { text_ = text; }
  const std::vector<size_t>& starts() const { return starts_; }
  // Byte offset of an LSP position (clamped to the line's end and the text's end).
  size_t offset(Pos p) const;
  // LSP position of a (0-based line, byte column) point.
  Pos position(uint32_t line, uint32_t byteCol) const;
  Rng range(const SourceRange& r) const {
    return {position(r.line, r.col), position(r.endLine, r.endCol)};
  }
  // tree-sitter point (row, byte column) of a byte offset.
  TSPoint point(size_t offset) const;

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

// Applies the changes in order; returns false (text untouched) when a range is out of bounds.
// Each range change adds its TSInputEdit; a whole-text change clears the edits (no reuse).
bool applyChanges(std::string& text, const std::vector<ContentChange>& changes, std::vector<TSInputEdit>& edits);
// The same, keeping `lines` (the index of `text`) in step with the text.
bool applyChanges(std::string& text, LineIndex& lines, const std::vector<ContentChange>& changes,
                  std::vector<TSInputEdit>& edits);

}  // namespace impact::server
