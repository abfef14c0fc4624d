#include "contracts/Accounting.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/DeclaredSurfaces.h"
#include "contracts/kernargs/NameLists.h"
#include "contracts/kernargs/PackDeclarations.h"
#include "python/ModuleGraph.h"

namespace impact {
namespace {

// A pair's note as a copy's detail: "not compared: " once, whether or not the note says it.
std::string notComparedDetail(const std::string& note) {
  static constexpr std::string_view kLead = "not compared: ";
  return note.starts_with(kLead) ? note : std::string(kLead) + note;
}

std::string describe(const CppArgList& l) {
  std::string where = l.symbol.empty() ? "" : " in " + l.symbol;
  std::string var = l.variable.empty() ? "" : " `" + l.variable + "`";
  if (l.catalog) return absl::StrCat("catalog entry ", l.catalog->symbol, " args_signature");
  if (l.builderHint) return absl::StrCat("descriptor signature", var.empty() ? "" : var);
  switch (l.form) {
    case CppArgList::Form::Static: return absl::StrCat("KernelArgument list", var, where);
    case CppArgList::Form::Lambda: return absl::StrCat("KernelArgument list", var, " built by appends", where);
    case CppArgList::Form::Launch: return absl::StrCat("launch call", where);
    case CppArgList::Form::NameKeyed: return absl::StrCat("name-keyed check", where);
    case CppArgList::Form::Names: return absl::StrCat("names array", var, where);
  }
  return "list";
}

// The builders the tree's declarations name, keyed "module|name", with the declarations.
std::map<std::string, std::vector<std::string>> declaredBuilders(const TreeFacts& facts, const Layout& layout) {
  std::map<std::string, std::vector<std::string>> out;
  auto add = [&](const std::string& module, const std::string& name, const std::string& by) {
    if (module.empty() || name.empty()) return;
    auto& v = out[module + "|" + name];
    if (std::find(v.begin(), v.end(), by) == v.end()) v.push_back(by);
  };
  // An entry naming a restatement (a SignatureBuilder function read as a copy) declares that
  // copy, not a builder: the copy is accounted among the copies.
  auto restatement = [&](const std::string& module, const std::string& name) {
    const FileFacts* f = facts.find(module);
    if (!f) return false;
    for (const auto& b : f->builders)
      if (b.name == name) return false;
    for (const auto& l : f->lists)
      if (l.symbol == name) return true;
    return false;
  };
  for (const DeclaredSurface& ds : declaredSurfaces(facts, layout))
    if (ds.kernargs && !restatement(ds.module, ds.builder))
      add(ds.module, ds.builder, absl::StrCat("profile ", ds.manifest, " launch_surface ", ds.entry->name));
  for (const auto& [pack, decls] : kernargs_detail::packDeclarations(facts, layout))
    for (const auto& d : decls)
      for (const auto& [module, name] : d.builders) add(module, name, d.pairedBy);
  for (const auto& [path, f] : facts.files) {
    if (f->manifest && !f->manifest->builder.empty() && !f->manifest->source.empty())
      add(profileLayout(*f->manifest, layout).libraryPath(f->manifest->source), f->manifest->builder,
          absl::StrCat("profile ", path, " builder"));
    if (f->descriptor)
      for (const auto& l : f->descriptor->launches)
        if (!l.source.empty()) add(layout.libraryPath(l.source), l.builder,
              absl::StrCat(f->descriptor->type == "kdp" ? "KDP " : "descriptor ", path, " kernel_source"));
  }
  return out;
}

const PyBuilder* findBuilder(const TreeFacts& facts, const std::string& module, const std::string& name) {
  const FileFacts* f = facts.find(module);
  if (!f) return nullptr;
  for (const auto& b : f->builders)
    if (b.name == name || b.name.ends_with("." + name)) return &b;
  return nullptr;
}

// What a function that is not a builder calls in other modules, by what those names resolve to:
// "; it calls build_x of kernels/a.py (a builder, read there) and build_y, build_z of
// kernels.b (not in the tree)". "" when it calls into no other module.
std::string dispatchTargets(const TreeFacts& facts, const Layout& layout, const std::string& module, const PyDef& def) {
  ModuleGraph graph(facts, layout);
  std::map<std::string, std::vector<std::string>> builders, others, absent;  // by module shown
  for (const std::string& ref : def.refs) {
    auto dot = ref.rfind('.');
    if (dot == std::string::npos) continue;
    const std::string fn = ref.substr(dot + 1);
    Trace t = graph.trace(module, def.name, ref);
    if (t.complete() && t.steps.back().kind == Resolution::Kind::Def) {
      const SymbolRef& to = t.steps.back().ref;
      if (to.path == module) continue;
      if (findBuilder(facts, to.path, to.symbol)) builders[graph.displayPath(to.path)].push_back(fn);
      continue;
    }
    // The chain's receiver is an import whose module the tree does not hold.
    if (t.steps.size() == 1 && t.parts.size() == 2 && t.steps[0].kind == Resolution::Kind::Unresolved)
      absent[t.steps[0].note].push_back(fn);
  }
  std::vector<std::string> parts;
  for (const auto& [m, fns] : builders)
    parts.push_back(absl::StrCat(absl::StrJoin(fns, ", "), " of ", m, fns.size() > 1 ? " (builders" : " (a builder",
                                 ", read there)"));
  for (const auto& [m, fns] : absent) parts.push_back(absl::StrCat(absl::StrJoin(fns, ", "), " (", m, ")"));
  if (parts.empty()) return "";
  return absl::StrCat("; it calls ", absl::StrJoin(parts, " and "),
                      ": a function that returns another module's builder is not followed as a dispatch, so its "
                      "arguments are whichever builder it returns");
}

// Why a named builder has no arguments impactd can compare; "" when it has.
std::string whyNotRead(const TreeFacts& facts, const Layout& layout, const std::string& module, const std::string& name,
                       const PyBuilder* b) {
  if (b) return builderNotRead(*b, module);
  const FileFacts* f = facts.find(module);
  if (!f) return absl::StrCat("arguments not read: ", module, " is not in the tree");
  if (!f->ok) return absl::StrCat("arguments not read: ", module, " could not be read: ", f->error);
  for (const auto& d : f->module.defs)
    if (d.name == name) {
      std::string calls = dispatchTargets(facts, layout, module, d);
      return absl::StrCat("arguments not read: ", name, " in ", module, " holds no IRBuilder and declares nothing itself",
                          calls.empty() ? " (a function that returns another module's builder is not read as a "
                                          "builder: its targets are accounted as their own)"
                                        : calls);
    }
  return absl::StrCat("arguments not read: ", module, " defines no ", name);
}

void accountNames(const TreeFacts& facts, const Layout& layout, bool compare, Accounting& a) {
  std::map<const CppArgList*, const NameListPair*> byArray;
  const std::vector<NameListPair> pairs = pairNameLists(facts, layout);
  for (const auto& p : pairs) byArray.emplace(p.array, &p);
  // Every argument name a builder or an evaluated names list of the tree declares: an array none
  // of whose names is one restates nothing impactd reads (compiler options, table keys).
  std::set<std::string> argumentNames;
  for (const auto& [path, f] : facts.files) {
    for (const auto& b : f->builders)
      for (const auto& abi : b.abis)
        for (const auto& x : abi.args) argumentNames.insert(x.name);
    for (const auto& l : f->nameLists) argumentNames.insert(l.names.begin(), l.names.end());
  }
  auto namesAny = [&](const CppArgList& arr) {
    for (const auto& x : arr.args)
      if (argumentNames.count(x.name)) return true;
    return false;
  };
  for (const auto& [path, f] : facts.files)
    for (const auto& arr : f->nameArrays) {
      AccountedCopy c{AccountedCopy::State::NotCompared, path, arr.range, describe(arr), "", "", ""};
      auto it = byArray.find(&arr);
      if (it == byArray.end() && !namesAny(arr)) {
        c.state = AccountedCopy::State::NotACopy;
        c.detail = "not a copy: none of its names is an argument name any builder or names list of the tree declares";
      } else if (it == byArray.end()) {
        c.detail = "not compared: pairs with no Python names list (no profile entry names this file, and no "
                   "evaluated list holds most of its names)";
      } else {
        const NameListPair& p = *it->second;
        c.builder = absl::StrCat(p.pyPath, ":", p.list->function);
        c.pairedBy = p.manifest.empty() ? "argument names" : absl::StrCat("profile ", p.manifest, " launch_surface ", p.entry);
        if (!p.list->evaluated) {
          c.detail = absl::StrCat("not compared: ", p.list->function, " is ", p.list->reason);
        } else {
          c.state = AccountedCopy::State::Compared;
          if (compare) c.detail = compareNames(*p.list, arr, nullptr).message;
        }
      }
      a.copies.push_back(std::move(c));
    }
}

}  // namespace

std::string builderNotRead(const PyBuilder& b, const std::string& module) {
  if (!b.notRead.empty()) return b.notRead.starts_with("arguments not read") ? b.notRead : "arguments not read: " + b.notRead;
  for (const auto& abi : b.abis)
    if (!abi.args.empty() || !abi.tailHelper.empty()) return "";
  return absl::StrCat("arguments not read: ", b.name, " in ", module, " declares no argument impactd can find");
}

Accounting account(const TreeFacts& facts, const Layout& layout, const std::vector<KernargsPair>& pairs,
                   const std::vector<KernargsPair>& unpaired, bool compare) {
  Accounting a;
  std::map<std::string, AccountedBuilder> builders;  // by "module|name"
  for (const auto& [key, by] : declaredBuilders(facts, layout)) {
    auto bar = key.find('|');
    AccountedBuilder& b = builders[key];
    b.path = key.substr(0, bar);
    b.name = key.substr(bar + 1);
    b.declaredBy = by;
  }
  for (const KernargsPair& p : pairs) {
    AccountedCopy c{AccountedCopy::State::NotCompared, p.copy.path, p.copy.list->range, describe(*p.copy.list), "",
                    p.pairedBy, ""};
    if (!p.builder) {
      c.detail = notComparedDetail(p.note.empty() ? std::string("pairs with no builder") : p.note);
    } else if (p.copy.list->args.empty() && (!p.copy.list->openTail.empty() || !p.copy.list->openStart.empty())) {
      // A copy known from its first argument on only (a macro the extractor could not expand):
      // nothing of it is compared.
      c.builder = absl::StrCat(p.builder->path, ":", p.builder->builder->name);
      c.detail = "not compared: " + (p.copy.list->openStart.empty() ? p.copy.list->openTail : p.copy.list->openStart);
    } else {
      c.builder = absl::StrCat(p.builder->path, ":", p.builder->builder->name);
      AccountedBuilder& b = builders[p.builder->key()];
      b.path = p.builder->path;
      b.name = p.builder->builder->name;
      std::string why = whyNotRead(facts, layout, b.path, b.name, p.builder->builder);
      if (!why.empty()) {
        c.detail = "not compared: the builder's " + why;
      } else {
        c.state = AccountedCopy::State::Compared;
        if (compare) {
          Comparison cmp = comparePair(p);
          c.detail = cmp.outcome == Comparison::Outcome::Disagree ? "mismatch: " + cmp.message
                     : cmp.outcome == Comparison::Outcome::AgreeWithoutConditional
                         ? "agrees without conditional arguments: " + cmp.message
                         : absl::StrCat("agrees (", cmp.pairs.size(), " arguments)",
                                        cmp.shippedNote.empty() ? "" : "; " + cmp.shippedNote);
          if (!cmp.notCompared.empty()) c.detail += "; not compared: " + absl::StrJoin(cmp.notCompared, "; ");
        }
      }
    }
    a.copies.push_back(std::move(c));
  }
  for (const KernargsPair& p : unpaired)
    a.copies.push_back({AccountedCopy::State::NotCompared, p.copy.path, p.copy.list->range, describe(*p.copy.list), "",
                        "", notComparedDetail(p.note)});
  accountNames(facts, layout, compare, a);
  for (const auto& [path, f] : facts.files)
    for (const SetAside& s : f->setAside)
      a.copies.push_back({AccountedCopy::State::NotACopy, path, s.range, s.what, "", "", "not a copy: " + s.why});
  std::stable_sort(a.copies.begin(), a.copies.end(), [](const AccountedCopy& x, const AccountedCopy& y) {
    return std::tie(x.path, x.range.line, x.range.col) < std::tie(y.path, y.range.line, y.range.col);
  });
  for (const AccountedCopy& c : a.copies) {
    if (c.state == AccountedCopy::State::NotACopy) continue;
    ++a.copiesTotal;
    if (c.state == AccountedCopy::State::Compared) ++a.copiesCompared;
  }
  for (auto& [key, b] : builders) {
    b.builder = findBuilder(facts, b.path, b.name);
    b.notRead = whyNotRead(facts, layout, b.path, b.name, b.builder);
    b.read = b.notRead.empty();
    ++a.buildersTotal;
    if (b.read) ++a.buildersRead;
    a.builders.push_back(std::move(b));
  }
  return a;
}

std::string coverageLine(const Accounting& a) {
  return absl::StrCat("copies compared ", a.copiesCompared, " of ", a.copiesTotal, "; builders read ", a.buildersRead,
                      " of ", a.buildersTotal);
}

}  // namespace impact
