#include "model/Report.h"

#include <set>

#include "absl/strings/str_join.h"

namespace impact {

const char* statusName(Status s) {
  switch (s) {
    case Status::Mismatch: return "mismatch";
    case Status::Changed: return "changed";
    case Status::Inert: return "inert";
    case Status::Outside: return "outside";
  }
  return "?";
}

std::string Rollup::line() const {
  std::string s = "Runtime impact: " + verdict;
  if (verdict == "NEEDS-DEVICE" && !archs.empty()) s += " " + absl::StrJoin(archs, ", ");
  if (!lanes.empty())
    s += "; " + absl::StrJoin(lanes, ", ") + (lanes.size() > 1 ? " left to their lanes" : " left to its lane");
  return s;
}

Rollup rollUp(const std::vector<Row>& rows) {
  Rollup r;
  bool breaks = false, changed = false, inert = false;
  std::set<std::string> archs;
  bool allArchs = false;
  std::set<std::string> lanes;
  for (const auto& row : rows) {
    // BUILD / DEPS rows are left to those lanes: no device run, not "no impact" either.
    if (!row.label.empty() && row.status != Status::Mismatch) {
      if (row.status == Status::Changed) lanes.insert(row.label);
      continue;
    }
    if (row.status == Status::Mismatch && !row.preexisting) breaks = true;
    if (row.status == Status::Mismatch && row.preexisting && row.inertTouch) {
      inert = true;
      continue;
    }
    if (row.status == Status::Changed || (row.status == Status::Mismatch && row.preexisting)) {
      changed = true;
      if (row.archs.empty()) allArchs = true;
      archs.insert(row.archs.begin(), row.archs.end());
    }
    if (row.status == Status::Inert) inert = true;
  }
  if (breaks) r.verdict = "BREAKS";
  else if (changed) {
    r.verdict = "NEEDS-DEVICE";
    if (allArchs) r.archs.push_back("all-ingestor-archs");
    r.archs.insert(r.archs.end(), archs.begin(), archs.end());
  } else if (inert) r.verdict = "NONE";
  else r.verdict = "N/A";
  for (const char* l : {"BUILD", "DEPS"})
    if (lanes.erase(l)) r.lanes.push_back(l);
  r.lanes.insert(r.lanes.end(), lanes.begin(), lanes.end());
  return r;
}

}  // namespace impact
