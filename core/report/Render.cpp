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

nlohmann::json loc(const Location& l) {
  if (l.empty()) return nullptr;
  return {{"path", l.path}, {"line", l.line}, {"symbol", l.symbol}};
}
}  // namespace

std::string renderText(const Report& r) {
  std::string out;
  for (const auto& row : r.rows) {
    std::string status = statusName(row.status);
    if (row.preexisting) status += " (pre-existing)";
    if (!row.view.empty()) status += " [" + row.view + "]";
    absl::StrAppend(&out, status, "  ", row.contract, "  ", where(row.python), "  <->  ", where(row.mirror),
                    "  ", row.message);
    if (row.status == Status::Changed && !row.archs.empty())
      absl::StrAppend(&out, "  [device: ", absl::StrJoin(row.archs, ", "), "]");
    out += "\n";
  }
  for (const auto& n : r.notes) absl::StrAppend(&out, "note: ", n, "\n");
  if (!r.packTime.empty()) absl::StrAppend(&out, r.packTime, "\n");
  absl::StrAppend(&out, r.rollup.line(), "\n");
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
                                              : nlohmann::json(row.view)}});
  }
  nlohmann::json j = {{"schema", 1},
                      {"base", r.base},
                      {"merge_base", r.mergeBase},
                      {"head", r.head},
                      {"rollup", {{"verdict", r.rollup.verdict}, {"archs", r.rollup.archs}, {"lanes", r.rollup.lanes}}},
                      {"rows", rows},
                      {"notes", r.notes}};
  if (!r.packTime.empty()) j["pack_time"] = r.packTime;
  return j.dump(2) + "\n";
}

}  // namespace impact
