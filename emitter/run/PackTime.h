// The pack-time tables of a run (SPEC R5): each family's probe findings at the head, marked
// pre-existing when the base had the same finding, first-shipped when the family did not ship at
// the base, new otherwise. Findings never change a row; they feed the report's Pack-time line.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace impact::emitter {

struct ProbeSides {
  std::string family;      // "source:builder"
  bool shippedAtBase = false;
  nlohmann::json base;     // the driver's "probe" answer at the base (null: not probed)
  nlohmann::json head;
};

// {"findings": [{family, kind, field, value, ..., "status": new|first-shipped|pre-existing}],
//  "new": n, "first_shipped": m, "timed_out": [family, ...]}
nlohmann::json packTimeTables(const std::vector<ProbeSides>& families);

}  // namespace impact::emitter
