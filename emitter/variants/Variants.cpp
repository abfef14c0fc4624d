#include "variants/Variants.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "contracts/AotProducers.h"

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
        if (!dup) list.push_back({l.ukdName, arch, l.spec, ""});
      }
    }
  }
}

// The path relative to the import root it lies under (the longest), "" when under none.
std::string importRelative(const std::string& path, const Layout& layout) {
  std::string best;
  for (const auto& r : layout.importRoots) {
    std::string root = r.ends_with("/") ? r : r + "/";
    if (path.starts_with(root) && root.size() > best.size()) best = root;
  }
  return best.empty() ? "" : path.substr(best.size());
}

std::string dottedOf(std::string rel) {
  if (rel.ends_with(".py")) rel.resize(rel.size() - 3);
  if (rel.ends_with("/__init__")) rel.resize(rel.size() - 9);
  for (char& c : rel)
    if (c == '/') c = '.';
  return rel;
}

// Every kernel the tree's AOT producers build, as variants of the family (builder module, builder).
void addAotSide(const TreeFacts& facts, const Layout& layout, bool head, Plan& plan) {
  std::map<std::tuple<std::string, std::string, std::string>, std::string> byName;
  for (const auto& [path, producer] : facts.producers) {
    if (!producer) continue;
    for (size_t i = 0; i < producer->kernels.size(); ++i) {
      const AotProduced& k = producer->kernels[i];
      std::string rel = importRelative(k.builderPath, layout);
      FamilyPlan& fam = plan.families[absl::StrCat(rel.empty() ? k.builderPath : rel, ":", k.builderName)];
      fam.source = rel.empty() ? k.builderPath : rel;
      fam.builder = k.builderName;
      fam.path = k.builderPath;
      if (std::find(fam.producers.begin(), fam.producers.end(), path) == fam.producers.end())
        fam.producers.push_back(path);
      VariantSpec v;
      v.name = k.names.empty() ? absl::StrCat(k.builderName, "#", i + 1, " of ", path) : k.names.front();
      v.arch = aotProducerArch(facts, path, k.names);
      v.spec = k.specJson.empty() ? "{}" : k.specJson;
      nlohmann::json aot = {{"producer", path}};
      std::string specRel = importRelative(k.specModule, layout);
      if (!k.notRun.empty()) aot["not_run"] = k.notRun;
      else if (rel.empty()) aot["not_run"] = "the builder's module " + k.builderPath + " is under no import root";
      else if (v.arch.empty()) aot["not_run"] = "no catalog entry beside the producer names its arch";
      else if (!k.specModule.empty() && specRel.empty())
        aot["not_run"] = absl::StrCat("the spec class ", k.specClass, "'s module ", k.specModule, " is under no import root");
      else {
        aot["call"] = nlohmann::json::parse(k.callJson, nullptr, false);
        if (!k.specModule.empty()) aot["spec_class"] = {{"module", dottedOf(specRel)}, {"name", k.specClass}};
      }
      v.aot = aot.dump();
      auto& list = head ? fam.head : fam.base;
      auto key = std::make_tuple(fam.key(), v.name, v.arch);
      if (auto it = byName.find(key); it != byName.end()) {
        if (it->second != v.spec)
          plan.failures.push_back({fam.key(), absl::StrCat(head ? "head" : "base", ": two kernels named ", v.name, " (",
                                                           v.arch, ") with different specs (", path, ")")});
        continue;
      }
      byName[key] = v.spec;
      list.push_back(std::move(v));
    }
  }
}

}  // namespace

Plan planVariants(const TreeFacts& base, const TreeFacts& head, const Layout& layout) {
  Plan plan;
  std::set<std::pair<std::string, std::string>> seen;
  addSide(head, layout, true, plan, seen);
  addSide(base, layout, false, plan, seen);
  addAotSide(head, layout, true, plan);
  addAotSide(base, layout, false, plan);
  return plan;
}

}  // namespace impact::emitter
