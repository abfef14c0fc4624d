#include "contracts/CatalogBindings.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/AotProducers.h"
#include "extract/cpp/LaunchAbiRules.h"

namespace impact {

namespace {

std::string bindingFolder(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// What LaunchAbi.cpp packs an entry argument of catalog type `type` from (bindArgs: the maps
// looked in, in order; packArgs: the ScalarValue alternative it std::gets).
struct Rule {
  std::vector<std::string> maps;
  std::string alternative;  // "" for a pointer
};
Rule ruleFor(const std::string& type, const LaunchAbiRules* abi) {
  if (abi && abi->notRead.empty()) {
    auto it = abi->byType.find(type);
    if (it == abi->byType.end()) it = abi->byType.find("*");
    if (it != abi->byType.end()) return {it->second.maps, it->second.alternative};
  }
  // impactd's table of LaunchAbi.cpp at fb9307b1, when the tree has none to read.
  if (type == "ptr") return {{"pointerValues", "pointerUids"}, ""};
  if (type == "f32") return {{"scalars"}, "float"};
  return {{"scalars"}, "int64_t"};  // i32 (static_cast<int32_t> of it), i64
}

}  // namespace

std::pair<std::string, std::string> entryArg(const KernelArg& a) {
  auto colon = a.typeText.rfind(": ");
  if (colon == std::string::npos) return {"", a.typeText};
  return {a.typeText.substr(0, colon), a.typeText.substr(colon + 2)};
}

std::vector<BindingPair> pairBindings(const TreeFacts& facts, std::vector<std::string>* unpaired) {
  std::map<std::string, std::pair<std::string, std::string>> opKindOf;  // class -> (op kind, file)
  std::map<std::string, std::vector<std::pair<std::string, const CppArgList*>>> byOpKind, byFolder;
  for (const auto& [path, f] : facts.files) {
    for (const auto& [cls, kind] : f->opKinds) opKindOf.emplace(cls, std::make_pair(kind, path));
    if (aotFamilyFolder(path).empty()) continue;
    for (const CppArgList& l : f->lists) {
      if (!l.catalog) continue;
      if (!l.catalog->opKind.empty()) byOpKind[l.catalog->opKind].emplace_back(path, &l);
      byFolder[bindingFolder(path)].emplace_back(path, &l);
    }
  }
  std::vector<BindingPair> out;
  for (const auto& [path, f] : facts.files) {
    for (const BindingSet& s : f->bindingSets) {
      BindingPair p;
      p.path = path;
      p.set = &s;
      std::string cls = s.function.find("::") != std::string::npos ? s.function.substr(0, s.function.rfind("::")) : "";
      if (auto c = opKindOf.find(cls.substr(cls.rfind(':') == std::string::npos ? 0 : cls.rfind(':') + 1));
          !cls.empty() && c != opKindOf.end()) {
        auto it = byOpKind.find(c->second.first);
        if (it != byOpKind.end()) p.entries = it->second;
        p.pairedBy = absl::StrCat("op kind ", c->second.first, " (", c->first, "::opKind() in ", c->second.second,
                                  " = the catalogs' op_kind)");
      } else if (auto it = byFolder.find(bindingFolder(path)); it != byFolder.end()) {
        p.entries = it->second;
        p.pairedBy = absl::StrCat("family folder ", bindingFolder(path));
      }
      if (p.entries.empty()) {
        if (unpaired)
          unpaired->push_back(absl::StrCat(path, " ", s.function, ": binds kernel arguments by name (", s.variable,
                                           "); no catalog has the op kind of its class's opKind() nor sits in its folder"));
        continue;
      }
      p.abi = facts.launchAbi.get();
      out.push_back(std::move(p));
    }
  }
  return out;
}

void readLaunchAbi(TreeFacts& facts, const TreeReader& read, const TreeIds& ids) {
  std::string from;
  for (const auto& [path, f] : facts.files)
    if (path.ends_with("aot_catalog_engine/launch/LaunchAbi.cpp")) absl::StrAppend(&from, path, "\n", ids ? ids(path) : "", "\n");
  // The same files with the same content ids (known ids only): what was read stands.
  if (ids && from == facts.launchAbiFrom && from.find("\n\n") == std::string::npos) return;
  facts.launchAbiFrom = ids ? from : "";
  facts.launchAbi.reset();
  for (const auto& [path, f] : facts.files) {
    if (!path.ends_with("aot_catalog_engine/launch/LaunchAbi.cpp")) continue;
    if (auto text = read(path)) {
      facts.launchAbi = std::make_shared<const LaunchAbiRules>(cpp::readLaunchAbiRules(path, std::move(*text)));
      if (facts.launchAbi->notRead.empty()) return;  // else a later copy may read
    }
  }
}

BindingCheck checkBindings(const BindingPair& p) {
  BindingCheck out;
  out.rules = p.abi && p.abi->notRead.empty()
                  ? absl::StrCat("LaunchAbi's rules read from ", p.abi->path)
                  : absl::StrCat("LaunchAbi's rules are impactd's table (", p.abi ? p.abi->notRead : "no aot_catalog_engine/launch/LaunchAbi.cpp in the tree", ")");
  std::map<std::string, std::vector<const NameBinding*>> bound;  // name -> its bindings
  for (const NameBinding& b : p.set->bindings) bound[b.name].push_back(&b);
  // problem text -> the entries it holds for (the catalog's symbols)
  std::map<std::string, std::vector<std::string>> problems;
  std::map<std::string, const NameBinding*> focusOf;
  std::vector<std::string> order;
  std::set<std::string> read;
  for (const auto& [cpath, e] : p.entries) {
    for (const KernelArg& a : e->args) {
      auto [name, type] = entryArg(a);
      Rule rule = ruleFor(type, p.abi);
      read.insert(name);
      std::string problem;
      const NameBinding* at = nullptr;
      auto it = bound.find(name);
      const NameBinding* hit = nullptr;
      if (it != bound.end())
        for (const std::string& m : rule.maps)
          for (const NameBinding* b : it->second)
            if (!hit && b->map == m) hit = b;
      if (!hit) {
        problem = it == bound.end()
                      ? absl::StrCat("binds no ", name, " (", type, ")")
                      : absl::StrCat("binds ", name, " in ", it->second[0]->map, "; LaunchAbi looks for a ", type,
                                     " argument in ", absl::StrJoin(rule.maps, " or "));
        if (it != bound.end()) at = it->second[0];
      } else if (!rule.alternative.empty() && hit->valueType.empty()) {
        std::string u = absl::StrCat(name, ": ", hit->why);
        if (std::find(out.unstated.begin(), out.unstated.end(), u) == out.unstated.end()) out.unstated.push_back(u);
      } else if (!rule.alternative.empty() && hit->valueType != rule.alternative) {
        at = hit;
        problem = absl::StrCat("binds ", name, " as ", hit->valueType, "; LaunchAbi packs a ", type,
                                     " argument from std::get<", rule.alternative, "> (bad_variant_access)");
      }
      if (problem.empty()) continue;
      if (!problems.count(problem)) order.push_back(problem), focusOf[problem] = at;
      problems[problem].push_back(e->catalog ? e->catalog->symbol : e->symbol);
    }
  }
  for (const std::string& pr : order) {
    const auto& syms = problems[pr];
    out.problems.push_back(absl::StrCat(pr, ", which ", syms.size(), " of ", p.entries.size(), " entr",
                                        p.entries.size() == 1 ? "y" : "ies", " need (", syms.front(),
                                        syms.size() > 1 ? ", …" : "", ")"));
    if (!out.focus) out.focus = focusOf[pr];
  }
  for (const auto& [name, bs] : bound)
    if (!read.count(name)) out.unused.push_back(absl::StrCat(name, " (", bs[0]->map, ")"));
  return out;
}

}  // namespace impact
