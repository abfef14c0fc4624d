#include "server/RunLocations.h"

#include <optional>

#include "io/DiskRead.h"
#include "server/Positions.h"

namespace impact::server {

namespace {
class Texts {
 public:
  Texts(const std::string& root, const std::map<std::string, std::string>& overlay) : root_(root), overlay_(overlay) {}

  // The text of a repository-relative path; nullptr when it cannot be read.
  const std::string* get(const std::string& rel) {
    if (auto it = overlay_.find(rel); it != overlay_.end()) return &it->second;
    auto [it, fresh] = disk_.try_emplace(rel);
    if (fresh) {
      // The guarded read (io/DiskRead.h): a row on a FIFO or a device never blocks this thread.
      auto text = readRegularFile(root_ + rel, DiskReadLimits::within(root_));
      if (text.ok()) it->second = std::move(*text);
    }
    return it->second ? &*it->second : nullptr;
  }

 private:
  const std::string& root_;
  const std::map<std::string, std::string>& overlay_;
  std::map<std::string, std::optional<std::string>> disk_;
};

std::optional<FileLoc> locate(const Location& l, const std::string& root, Texts& texts) {
  if (l.empty()) return std::nullopt;
  // A whole-file row (line 0) points at the file's start, as its diagnostic does.
  SourceRange r = l.line ? l.focus : SourceRange{};
  if (l.line && r == SourceRange{} && l.line > 1) r = {l.line - 1, 0, l.line - 1, 0};
  FileLoc out{root + l.path, {}};
  if (const std::string* text = texts.get(l.path)) {
    out.range = LineIndex(*text).range(r);
  } else {
    out.range = {{r.line, r.col}, {r.endLine, r.endCol}};
  }
  return out;
}
}  // namespace

std::vector<RowLocations> rowLocations(const Report& report, const std::string& root,
                                       const std::map<std::string, std::string>& overlay) {
  Texts texts(root, overlay);
  std::vector<RowLocations> out;
  out.reserve(report.rows.size());
  for (const auto& row : report.rows) out.push_back({locate(row.python, root, texts), locate(row.mirror, root, texts)});
  return out;
}

}  // namespace impact::server
