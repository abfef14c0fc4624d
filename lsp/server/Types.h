// The server API's own types: LSP's meaning, no JSON (lsp/protocol converts them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace impact::server {

struct Pos {
  uint32_t line = 0;
  uint32_t character = 0;  // UTF-16 code units, as LSP counts them
  bool operator==(const Pos&) const = default;
};
struct Rng {
  Pos start, end;
  bool operator==(const Rng&) const = default;
};
struct FileLoc {
  std::string path;  // absolute
  Rng range;
};

enum class Severity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct Related {
  FileLoc location;
  std::string message;
};

struct Diag {
  Rng range;
  Severity severity = Severity::Warning;
  std::string code;     // stable per contract: "kernargs", "launch-surface", ...
  std::string message;
  std::vector<Related> related;
  std::string rowKey;   // the row it stands for (code actions find it again)
  std::string status;   // mismatch | changed | preexisting
  bool operator==(const Diag& o) const {
    return range == o.range && severity == o.severity && code == o.code && message == o.message &&
           rowKey == o.rowKey && related.size() == o.related.size();
  }
};

struct HoverInfo {
  Rng range;
  std::string markdown;
  std::string plaintext;
};

struct Edit {
  Rng range;
  std::string newText;
};

struct Action {
  std::string title;
  std::string kind;                  // "quickfix" or "" (a command)
  std::optional<FileLoc> showMirror; // the command impact.showMirror
  std::string editPath;              // absolute; with edits
  std::vector<Edit> edits;
  std::vector<Diag> diagnostics;     // the diagnostics a quick fix resolves
  bool preferred = false;
};

struct ContentChange {
  std::optional<Rng> range;  // none: the whole text
  std::string text;
};

struct RunRequest {
  std::string base, head, targetTip;
};

// Where a report row's two sides are in the editor: the builder (python) and the copy (mirror),
// each at its focus (the argument the row is about; line 0 of the file for a whole-file row).
// Absent for a side the row does not have.
struct RowLocations {
  std::optional<FileLoc> python, mirror;
};

struct RunResult {
  std::string text;  // the text report
  std::string json;  // the JSON report (docs/report-json.md)
  std::vector<RowLocations> rows;  // one per row of json's "rows", in order
};

// impact.refs: what a client offers as ranges to compare with.
struct RefsResult {
  std::string target;      // the target the server compares with (the setting, else the default found)
  std::string headBranch;  // "" when HEAD is detached
  std::vector<std::string> branches, remoteBranches, tags;
};

// The background emitter's or geometry differential's work-done progress (families done / total).
struct EmitProgress {
  enum class Kind { Begin, Report, End } kind = Kind::Begin;
  uint64_t run = 0;
  size_t done = 0, total = 0;
  std::string message;
  // Whose run: each numbers its runs, so the pair names one ($/progress token impact.emit-N / impact.geometry-N).
  enum class Task { Emitter, Geometry } task = Task::Emitter;
};

}  // namespace impact::server
