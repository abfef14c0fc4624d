#include "server/Positions.h"

#include <algorithm>
#include <cstring>

namespace impact::server {

namespace {
// Appends the line starts of the newlines in text[from, to).
void addStarts(std::string_view text, size_t from, size_t to, std::vector<size_t>& out) {
  const char* base = text.data();
  for (size_t i = from; i < to;) {
    const void* nl = std::memchr(base + i, '\n', to - i);
    if (!nl) break;
    i = static_cast<size_t>(static_cast<const char*>(nl) - base) + 1;
    out.push_back(i);
  }
}
}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  addStarts(text, 0, text.size(), starts_);
}

void LineIndex::replace(std::string_view after, size_t start, size_t oldEnd, size_t newEnd) {
  // Starts in (start, oldEnd] follow a removed newline; those after oldEnd move by the delta.
  auto first = std::upper_bound(starts_.begin(), starts_.end(), start);
  auto last = std::upper_bound(first, starts_.end(), oldEnd);
  std::vector<size_t> added;
  addStarts(after, start, newEnd, added);
  size_t keep = static_cast<size_t>(first - starts_.begin());
  size_t tail = static_cast<size_t>(starts_.end() - last);
  std::vector<size_t> next;
  next.reserve(keep + added.size() + tail);
  next.insert(next.end(), starts_.begin(), first);
  next.insert(next.end(), added.begin(), added.end());
  for (auto it = last; it != starts_.end(); ++it) next.push_back(*it - oldEnd + newEnd);
  starts_ = std::move(next);
  text_ = after;
}

namespace {
// Length in UTF-16 units of the UTF-8 sequence starting with lead byte c.
int utf8Len(unsigned char c) { return c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1; }
}  // namespace

size_t LineIndex::offset(Pos p) const {
  if (p.line >= starts_.size()) return text_.size();
  size_t i = starts_[p.line];
  size_t end = p.line + 1 < starts_.size() ? starts_[p.line + 1] - 1 : text_.size();
  uint32_t units = 0;
  while (i < end && units < p.character) {
    int len = utf8Len(static_cast<unsigned char>(text_[i]));
    units += len == 4 ? 2 : 1;
    i = std::min(end, i + len);
  }
  return i;
}

Pos LineIndex::position(uint32_t line, uint32_t byteCol) const {
  if (line >= starts_.size()) return {line, 0};
  size_t i = starts_[line];
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
  size_t stop = std::min(end, i + byteCol);
  uint32_t units = 0;
  while (i < stop) {
    int len = utf8Len(static_cast<unsigned char>(text_[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return {line, units};
}

TSPoint LineIndex::point(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  uint32_t row = static_cast<uint32_t>(it - starts_.begin() - 1);
  return {row, static_cast<uint32_t>(offset - starts_[row])};
}

bool applyChanges(std::string& text, const std::vector<ContentChange>& changes, std::vector<TSInputEdit>& edits) {
  LineIndex lines(text);
  return applyChanges(text, lines, changes, edits);
}

bool applyChanges(std::string& text, LineIndex& lines, const std::vector<ContentChange>& changes,
                  std::vector<TSInputEdit>& edits) {
  std::string out = text;
  LineIndex idx = lines;
  idx.rebind(out);
  std::vector<TSInputEdit> es;
  bool reusable = true;
  for (const auto& c : changes) {
    if (!c.range) {
      out = c.text;
      idx = LineIndex(out);
      reusable = false;
      continue;
    }
    size_t start = idx.offset(c.range->start), end = idx.offset(c.range->end);
    if (end < start) return false;
    TSInputEdit e;
    e.start_byte = static_cast<uint32_t>(start);
    e.old_end_byte = static_cast<uint32_t>(end);
    e.start_point = idx.point(start);
    e.old_end_point = idx.point(end);
    out.replace(start, end - start, c.text);
    idx.replace(out, start, end, start + c.text.size());
    e.new_end_byte = static_cast<uint32_t>(start + c.text.size());
    e.new_end_point = idx.point(start + c.text.size());
    es.push_back(e);
  }
  text = std::move(out);
  lines = std::move(idx);
  lines.rebind(text);
  if (reusable) edits.insert(edits.end(), es.begin(), es.end());
  else edits.clear();
  return true;
}

}  // namespace impact::server
