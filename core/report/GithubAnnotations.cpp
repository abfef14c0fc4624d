#include "report/GithubAnnotations.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact {

namespace {
std::string escape(std::string_view s, bool property) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

const char* commandOf(const Row& row) {
  if (row.status == Status::Mismatch) return row.preexisting ? "notice" : "error";
  return "warning";
}

std::string side(const Location& l) {
  if (l.empty()) return "";
  std::string s = l.line ? absl::StrCat(l.path, ":", l.line) : l.path;
  if (!l.symbol.empty()) absl::StrAppend(&s, " ", l.symbol);
  return s;
}
}  // namespace

std::string githubEscapeData(std::string_view s) { return escape(s, false); }
std::string githubEscapeProperty(std::string_view s) { return escape(s, true); }

std::string renderGithub(const Report& r) {
  std::string out;
  for (const auto& row : r.rows) {
    if (row.status != Status::Mismatch && row.status != Status::Changed) continue;
    // The annotation sits on the copy (where the fix goes); a row without one, on its Python side.
    const Location& at = !row.mirror.empty() ? row.mirror : row.python;
    std::string props;
    if (!at.empty()) {
      props = "file=" + githubEscapeProperty(at.path);
      if (at.line) absl::StrAppend(&props, ",line=", at.line);
    }
    std::string title = absl::StrCat("impact ", row.contract, " ", statusName(row.status),
                                     row.preexisting ? " (pre-existing)" : "", row.view.empty() ? "" : " [" + row.view + "]");
    absl::StrAppend(&props, props.empty() ? "" : ",", "title=", githubEscapeProperty(title));
    std::string msg = row.message;
    if (!row.python.empty() && !row.mirror.empty()) absl::StrAppend(&msg, "\nbuilder: ", side(row.python));
    if (row.status == Status::Changed && row.label.empty())
      absl::StrAppend(&msg, "\nrun on a device: ", row.archs.empty() ? "all ingestor archs" : absl::StrJoin(row.archs, ", "));
    if (!row.label.empty()) absl::StrAppend(&msg, "\nleft to the ", row.label, " lane");
    absl::StrAppend(&out, "::", commandOf(row), " ", props, "::", githubEscapeData(msg), "\n");
  }
  for (const auto& n : r.notes) absl::StrAppend(&out, "::notice title=impact note::", githubEscapeData(n), "\n");
  if (!r.packTime.empty()) absl::StrAppend(&out, "::notice title=impact pack-time::", githubEscapeData(r.packTime), "\n");
  std::string verdict = r.rollup.line();
  const char* level = r.rollup.verdict == "BREAKS" ? "error" : r.rollup.verdict == "NEEDS-DEVICE" ? "warning" : "notice";
  absl::StrAppend(&out, "::", level, " title=impact verdict::", githubEscapeData(verdict), "\n");
  absl::StrAppend(&out, verdict, "\n");
  return out;
}

}  // namespace impact
