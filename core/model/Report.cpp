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
  return s;
}

Rollup rollUp(const std::vector<Row>& rows) {
  Rollup r;
  bool breaks = false, changed = false, inert = false;
  std::set<std::string> archs;
  bool allArchs = false;
  for (const auto& row : rows) {
    if (row.status == Status::Mismatch && !row.preexisting) breaks = true;
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
  return r;
}

}  // namespace impact
