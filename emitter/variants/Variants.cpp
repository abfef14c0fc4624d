#include "variants/Variants.h"

#include <set>

#include "absl/strings/str_cat.h"

namespace impact::emitter {

namespace {

void addSide(const TreeFacts& facts, const Layout& layout, bool head, Plan& plan,
             std::set<std::pair<std::string, std::string>>& seenNotInspected) {
  // (family, name, arch) -> spec: one name with two specs is a failure
  std::map<std::tuple<std::string, std::string, std::string>, std::string> byName;
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Descriptor) continue;
    if (!f->ok) {
      if (seenNotInspected.insert({path, f->error}).second) plan.notInspected.push_back({path, f->error});
      continue;
    }
    if (!f->descriptor) continue;
    for (const auto& why : f->descriptor->notInspected)
      if (seenNotInspected.insert({path, why}).second) plan.notInspected.push_back({path, why});
    for (const auto& l : f->descriptor->launches) {
      std::vector<std::string> archs = !l.arch.empty() ? l.arch : f->descriptor->arch;
      if (archs.empty()) {
        std::string a = archFromPath(l.source);
        archs.push_back(a.empty() ? "gfx950" : a);
      }
      FamilyPlan& fam = plan.families[absl::StrCat(l.source, ":", l.builder)];
      fam.source = l.source;
      fam.builder = l.builder;
      fam.path = layout.libraryPath(l.source);
      auto& list = head ? fam.head : fam.base;
      for (const auto& arch : archs) {
        auto key = std::make_tuple(fam.key(), l.ukdName, arch);
        if (auto it = byName.find(key); it != byName.end()) {
          if (it->second != l.spec)
            plan.failures.push_back({fam.key(), absl::StrCat(head ? "head" : "base", ": two variants named ", l.ukdName,
                                                             " (", arch, ") with different specs (", path, ")")});
          continue;
        }
        byName[key] = l.spec;
        bool dup = false;
        for (const auto& v : list) dup = dup || (v.spec == l.spec && v.arch == arch);
        if (!dup) list.push_back({l.ukdName, arch, l.spec});
      }
    }
  }
}

}  // namespace

Plan planVariants(const TreeFacts& base, const TreeFacts& head, const Layout& layout) {
  Plan plan;
  std::set<std::pair<std::string, std::string>> seen;
  addSide(head, layout, true, plan, seen);
  addSide(base, layout, false, plan, seen);
  return plan;
}

}  // namespace impact::emitter
