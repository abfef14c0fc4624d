#include "run/PackTime.h"

#include <set>

namespace impact::emitter {

using nlohmann::json;

namespace {

// A finding's identity across revisions: what it says, not the variant it was found through or
// the builder's error text.
std::string identity(const json& f) {
  json id = {{"kind", f.value("kind", "")},
             {"field", f.value("field", "")},
             {"value", f.value("value", json())},
             {"predicate", f.value("predicate", json())},
             {"accepted_by", f.value("accepted_by", json())},
             {"refused_by", f.value("refused_by", json())}};
  return id.dump();
}

}  // namespace

json packTimeTables(const std::vector<ProbeSides>& families) {
  json findings = json::array();
  json timedOut = json::array();
  size_t fresh = 0, first = 0;
  for (const auto& fam : families) {
    if (!fam.head.is_object()) continue;
    if (fam.head.value("timed_out", false) || (fam.base.is_object() && fam.base.value("timed_out", false)))
      timedOut.push_back(fam.family);
    std::set<std::string> before;
    if (fam.base.is_object())
      for (const auto& f : fam.base.value("findings", json::array())) before.insert(identity(f));
    std::set<std::string> seen;
    for (const auto& f : fam.head.value("findings", json::array())) {
      if (!f.is_object() || !seen.insert(identity(f)).second) continue;
      json out = f;
      out["family"] = fam.family;
      if (before.count(identity(f))) {
        out["status"] = "pre-existing";
      } else if (!fam.shippedAtBase) {
        out["status"] = "first-shipped";
        ++first;
      } else {
        out["status"] = "new";
        ++fresh;
      }
      findings.push_back(std::move(out));
    }
  }
  return {{"findings", findings}, {"new", fresh}, {"first_shipped", first}, {"timed_out", timedOut}};
}

}  // namespace impact::emitter
