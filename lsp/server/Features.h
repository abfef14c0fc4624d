// The server API's types for the features beyond diagnostics (issue 38): inlay hints, code lens,
// document and workspace symbols, pull diagnostics and rename. LSP's meaning, no JSON
// (lsp/protocol/Features.cpp converts them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/Types.h"

namespace impact::server {

// One inlay hint: at a copy's value, the builder argument it binds ("q_ptr:", "q_ptr @0:");
// at a builder's b.param, how many copies state it.
struct InlayHint {
  Pos position;
  std::string label;
  enum class Kind { Type = 1, Parameter = 2 } kind = Kind::Parameter;
  bool paddingLeft = false, paddingRight = false;
  bool marked = false;      // the value disagrees with the builder (label starts with "≠ ")
  std::string tooltip;      // set at once for a marked hint; else by resolve
  // Where the argument is (the hint's own file, the value's start) for resolve.
  std::string path;         // absolute
  Pos at;
};

// One code lens: above a builder (its copies) or above a copy (its builder).
struct CodeLens {
  Rng range;
  std::string path;  // absolute, for resolve
  enum class Kind { Builder, Copy } kind = Kind::Builder;
  // Set by resolve (or at once when asked to resolve): the title and the command.
  std::string title;
  std::string command;            // "impact.peekCopies" | "impact.showMirror" | ""
  std::optional<FileLoc> target;  // impact.showMirror: where to jump
  std::vector<FileLoc> locations; // impact.peekCopies: the copies
  bool resolved = false;
};

struct DocumentSymbol {
  std::string name, detail;
  int kind = 12;  // LSP SymbolKind
  Rng range, selection;
  std::vector<DocumentSymbol> children;
};

struct WorkspaceSymbol {
  std::string name, container;
  int kind = 12;
  FileLoc location;
};

// A pull of one document's diagnostics: the same Diags as the last push, with a result id that
// changes when they do; `unchanged` when the client's previous id is still the current one.
struct PulledDiagnostics {
  std::string path;  // absolute
  std::string resultId;
  bool unchanged = false;
  std::vector<Diag> items;
  std::optional<int64_t> version;
};

// prepareRename's answer: the range of the name and its text, or why it cannot be renamed.
struct RenameTarget {
  Rng range;
  std::string placeholder;
  std::string refusal;  // non-empty: not renamable, and why
};

struct RenameResult {
  std::map<std::string, std::vector<Edit>> edits;  // by absolute path
  std::string refusal;
};

}  // namespace impact::server
