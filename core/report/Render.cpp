#include "report/Render.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact {

namespace {
std::string where(const Location& l) {
  if (l.empty()) return "-";
  std::string s = l.line ? absl::StrCat(l.path, ":", l.line) : l.path;
  if (!l.symbol.empty()) s += " " + l.symbol;
  return s;
}

constexpr const char* kReset = "\x1b[0m";
const char* colorOf(const Row& row) {
  switch (row.status) {
    case Status::Mismatch: return row.preexisting ? "\x1b[35m" : "\x1b[1;31m";  // magenta / bold red
    case Status::Changed: return "\x1b[33m";                                     // yellow
    case Status::Inert: return "\x1b[32m";                                       // green
    case Status::Outside: return "\x1b[2m";                                      // dim
  }
  return "";
}
const char* verdictColor(const std::string& v) {
  return v == "BREAKS" ? "\x1b[1;31m" : v == "NEEDS-DEVICE" ? "\x1b[1;33m" : v == "NONE" ? "\x1b[1;32m" : "\x1b[1m";
}

nlohmann::json loc(const Location& l) {
  if (l.empty()) return nullptr;
  return {{"path", l.path}, {"line", l.line}, {"symbol", l.symbol}};
}
}  // namespace

std::string summaryLine(const Report& r) {
  size_t counts[4] = {0, 0, 0, 0}, preexisting = 0;
  for (const auto& row : r.rows) {
    ++counts[static_cast<int>(row.status)];
    if (row.preexisting) ++preexisting;
  }
  std::vector<std::string> parts;
  for (Status s : {Status::Mismatch, Status::Changed, Status::Inert, Status::Outside}) {
    size_t n = counts[static_cast<int>(s)];
    if (!n) continue;
    std::string part = absl::StrCat(n, " ", statusName(s));
    if (s == Status::Mismatch && preexisting) absl::StrAppend(&part, " (", preexisting, " pre-existing)");
    parts.push_back(part);
  }
  return parts.empty() ? "summary: no rows" : "summary: " + absl::StrJoin(parts, ", ");
}

std::string renderText(const Report& r, const TextStyle& style) {
  std::string out;
  for (const auto& row : r.rows) {
    std::string status = statusName(row.status);
    if (row.preexisting) status += " (pre-existing)";
    if (style.color) status = colorOf(row) + status + kReset;
    if (!row.view.empty()) status += style.color ? absl::StrCat(" \x1b[36m[", row.view, "]", kReset) : " [" + row.view + "]";
    absl::StrAppend(&out, status, "  ", row.contract, "  ", where(row.python), "  <->  ", where(row.mirror),
                    "  ", row.message);
    if (row.status == Status::Changed && !row.archs.empty())
      absl::StrAppend(&out, "  [device: ", absl::StrJoin(row.archs, ", "), "]");
    out += "\n";
  }
  // A change that touched nothing analysed (no row, N/A) needs no coverage; the JSON has it always.
  if (r.coverage.known && !r.rows.empty())
    absl::StrAppend(&out, "Coverage: copies compared ", r.coverage.copiesCompared, " of ", r.coverage.copiesTotal,
                    "; builders read ", r.coverage.buildersRead, " of ", r.coverage.buildersTotal,
                    r.coverage.copiesCompared < r.coverage.copiesTotal || r.coverage.buildersRead < r.coverage.buildersTotal
                        ? " (impact check says what and why)"
                        : "",
                    "\n");
  for (const auto& n : r.notes) absl::StrAppend(&out, "note: ", n, "\n");
  if (!r.packTime.empty()) absl::StrAppend(&out, r.packTime, "\n");
  if (style.summary) absl::StrAppend(&out, summaryLine(r), "\n");
  if (style.color) {
    std::string line = r.rollup.line();
    const std::string head = "Runtime impact: ";
    absl::StrAppend(&out, head, verdictColor(r.rollup.verdict), line.substr(head.size()), kReset, "\n");
  } else {
    absl::StrAppend(&out, r.rollup.line(), "\n");
  }
  return out;
}

std::string renderJson(const Report& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    rows.push_back({{"contract", row.contract},
                    {"status", statusName(row.status)},
                    {"preexisting", row.preexisting},
                    {"python", loc(row.python)},
                    {"mirror", loc(row.mirror)},
                    {"message", row.message},
                    {"archs", row.archs},
                    {"label", row.label.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.label)},
                    {"view", row.view.empty() ? nlohmann::json(nullptr)  // head vs base
                                              : nlohmann::json(row.view)},
                    {"paired_by", row.pairedBy.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.pairedBy)}});
  }
  nlohmann::json j = {{"schema", 1},
                      {"base", r.base},
                      {"merge_base", r.mergeBase},
                      {"head", r.head},
                      {"rollup", {{"verdict", r.rollup.verdict}, {"archs", r.rollup.archs}, {"lanes", r.rollup.lanes}}},
                      {"rows", rows},
                      {"notes", r.notes}};
  if (!r.packTime.empty()) j["pack_time"] = r.packTime;
  if (r.coverage.known)
    j["coverage"] = {{"copies_compared", r.coverage.copiesCompared},
                     {"copies_total", r.coverage.copiesTotal},
                     {"builders_read", r.coverage.buildersRead},
                     {"builders_total", r.coverage.buildersTotal}};
  return j.dump(2) + "\n";
}

}  // namespace impact
