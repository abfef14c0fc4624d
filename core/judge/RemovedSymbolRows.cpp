// R2.6: a function, class, method or module-level name present at the base and removed at the
// head (or whose parameter list changed) is traced to every reader at the head.
//  - A reader's import or use is resolved along its own import path (module aliases, relative
//    imports, package __init__ re-exports) in the head; when that fails, the same path is
//    followed in the base. If the base reaches the removed definition, the reader still uses it
//    from its old module: mismatch. Another module defining the same name does not rescue it.
//  - A member counts as removed only if the head's class and its bases (in MRO order, through
//    module aliases and imports) no longer define it: a class moved to a shared base is no removal.
//  - Receiver types: `self`/`cls` in a method is its class; a parameter annotated with a class of
//    the repository (`spec: AttentionDenseSpec`, through aliases and imports) is that class. A
//    member read on such a receiver whose class no longer has it: mismatch.
//  - A member removed from a class and read through a subclass, or on a receiver of unknown type
//    (an unannotated parameter, a local) in a module whose imports reach the class: changed.
//  - A member read on a name imported from outside the repository is not a reader; a name the
//    resolver cannot follow inside the repository may still be the class: mismatch.
//  - A re-signed function or method: every reader that resolves to it is changed.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "judge/Archs.h"
#include "judge/Contracts.h"
#include "python/ModuleGraph.h"

namespace impact {

namespace {

struct Gone {
  bool removed = true;      // false: re-signed
  PyDef::Kind kind = PyDef::Kind::Function;
  std::string before, after;  // parameter lists (re-signed)
  uint32_t line = 0;          // 0-based line at the base
};
using GoneMap = std::map<SymbolRef, Gone>;

struct RemovedFinding {
  Status status = Status::Changed;
  std::string function;
  uint32_t line = 0;
  std::string how;
};

// A re-signed definition: its parameter lists before and after, sorted; nullopt when equal.
std::optional<Gone> resigned(Gone g, std::vector<std::string> before, std::vector<std::string> after) {
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  if (after.empty() || before == after) return std::nullopt;
  g.removed = false;
  g.before = absl::StrJoin(before, " | ");
  g.after = absl::StrJoin(after, " | ");
  return g;
}

// Whether the base's definitions `ds` of `name` in `path` went away or changed their parameters.
std::optional<Gone> goneOfName(const ModuleGraph& hg, const std::string& path, const std::string& name,
                               const std::vector<const PyDef*>& ds,
                               const std::map<std::string, std::vector<std::string>>& headParams) {
  Gone g;
  g.kind = ds[0]->kind;
  g.line = ds[0]->nameLine;
  std::vector<std::string> before;
  for (const PyDef* d : ds) before.push_back(d->params);
  auto it = headParams.find(name);
  if (it == headParams.end() && name.find('.') != std::string::npos) {
    // A member is removed only if the head's class and its bases (in MRO order) no longer
    // define it: `AttentionDenseSpec = Gfx950AttentionDenseSpec`, whose base moved to
    // kernels/common, still has `.batch`.
    Trace t = hg.trace(path, "", name);
    if (t.complete() && t.steps.back().kind == Resolution::Kind::Def) {
      const Resolution& at = t.steps.back();
      auto hs = hg.defs(at.ref.path, at.ref.symbol);
      if (g.kind != PyDef::Kind::Method || hs.empty() || hs[0]->kind != PyDef::Kind::Method) return std::nullopt;
      std::vector<std::string> after;
      for (const PyDef* d : hs) after.push_back(d->params);
      return resigned(g, before, after);
    }
  }
  if (it == headParams.end()) return g;
  if (g.kind != PyDef::Kind::Function && g.kind != PyDef::Kind::Method) return std::nullopt;
  return resigned(g, before, it->second);
}

// 1. What went away or changed its parameters between the base and the head.
GoneMap findGone(const JudgeContext& cx) {
  GoneMap gone;
  for (const std::string& path : cx.baseGraph.modules()) {
    if (!touched(cx.base, cx.head, path)) continue;
    const FileFacts* bf = cx.base.facts.find(path);
    const FileFacts* hf = cx.head.facts.find(path);
    if (!bf || !bf->ok) continue;
    if (hf && !hf->ok) continue;  // the head does not parse: its file row says so
    std::map<std::string, std::vector<std::string>> headParams;
    if (hf)
      for (const auto& d : hf->module.defs) headParams[d.name].push_back(d.params);
    std::map<std::string, std::vector<const PyDef*>> baseDefs;
    for (const auto& d : bf->module.defs) baseDefs[d.name].push_back(&d);
    for (auto& [name, ds] : baseDefs)
      if (auto g = goneOfName(cx.headGraph, path, name, ds, headParams)) gone[{path, name}] = *g;
  }
  return gone;
}

// 2. Readers at the head of what went away. One finding per (definition, reader module), the
// worst kept.
class ReaderScan {
 public:
  using Found = std::map<std::pair<SymbolRef, std::string>, RemovedFinding>;
  ReaderScan(const JudgeContext& cx, const GoneMap& gone) : hg_(cx.headGraph), bg_(cx.baseGraph), gone_(gone) {
    // Removed members by name, for untyped receivers: member name -> classes' members.
    for (const auto& [ref, g] : gone)
      if (g.removed && ref.symbol.find('.') != std::string::npos)
        removedMembers_[ref.symbol.substr(ref.symbol.rfind('.') + 1)].push_back(ref);
  }

  Found run(const Revision& head) {
    for (const std::string& R : hg_.modules()) {
      const PyModuleFacts* m = hg_.module(R);
      const FileFacts* rf = head.facts.find(R);
      if (!m || !rf || !rf->ok) continue;
      reader_ = R;
      closureDone_ = false;
      imports(*m);
      for (const auto& d : m->defs) {
        refs(d.name, d.nameLine, d.refs);
        members(d.name, d.nameLine, d.members, d.typedReads);
      }
      refs("", 0, m->moduleRefs);
    }
    return std::move(found_);
  }

 private:
  const Gone* isGone(const Resolution& r, bool removed) const {
    if (r.kind != Resolution::Kind::Def) return nullptr;
    auto it = gone_.find(r.ref);
    if (it == gone_.end() || it->second.removed != removed) return nullptr;
    return &it->second;
  }
  void note(const SymbolRef& target, RemovedFinding f) {
    auto key = std::make_pair(target, reader_);
    auto it = found_.find(key);
    if (it == found_.end() || (f.status == Status::Mismatch && it->second.status != Status::Mismatch)) found_[key] = f;
  }
  bool reaches(const std::string& P) {
    if (P == reader_) return true;
    if (!closureDone_) {
      closure_ = hg_.importClosure(reader_);
      closureDone_ = true;
    }
    return closure_.count(P) > 0;
  }

  void imports(const PyModuleFacts& m) {
    for (const auto& imp : m.imports) {
      if (imp.name.empty() || imp.name == "*") continue;
      Resolution h = hg_.resolveImport(reader_, imp);
      if (h.found() || h.kind == Resolution::Kind::External) {
        if (isGone(h, false)) note(h.ref, {Status::Changed, imp.function, imp.line, "imports it from " + imp.module});
        continue;
      }
      Resolution b = bg_.resolveImport(reader_, imp);
      if (isGone(b, true)) note(b.ref, {Status::Mismatch, imp.function, imp.line, "still imports it from " + imp.module});
    }
  }

  void refs(const std::string& fromDef, uint32_t line, const std::vector<std::string>& names) {
    for (const auto& ref : names) {
      Trace t = hg_.trace(reader_, fromDef, ref);
      if (t.steps.empty()) continue;
      if (t.complete()) {
        for (const auto& s : t.steps)
          if (isGone(s, false)) note(s.ref, {Status::Changed, fromDef, line, "uses " + ref});
        continue;
      }
      if (t.steps.back().kind == Resolution::Kind::External) continue;
      if (viaBase(fromDef, line, ref, t) || t.parts.size() < 2) continue;
      unresolvedClass(fromDef, line, ref, t);
    }
  }

  // The head cannot follow `ref`: the base's path, when it reaches a removed definition.
  bool viaBase(const std::string& fromDef, uint32_t line, const std::string& ref, const Trace& t) {
    Trace bt = bg_.trace(reader_, fromDef, ref);
    for (size_t j = t.steps.size() - 1; j < bt.steps.size(); ++j) {
      if (!isGone(bt.steps[j], true)) continue;
      const SymbolRef& target = bt.steps[j].ref;
      Status st = Status::Mismatch;
      std::string how = "still uses " + ref;
      // A member found through another class than the one that defined it: a subclass.
      if (j > 0 && target.symbol.find('.') != std::string::npos && bt.steps[j - 1].kind == Resolution::Kind::Def) {
        std::string owner = target.symbol.substr(0, target.symbol.rfind('.'));
        const SymbolRef& via = bt.steps[j - 1].ref;
        if (!(via.path == target.path && via.symbol == owner)) {
          st = Status::Changed;
          how = "reads it through " + t.parts[j - 1] + " (a subclass) in " + ref;
        }
      }
      note(target, {st, fromDef, line, how});
      return true;
    }
    return false;
  }

  // A name the resolver cannot follow inside the repository may still be the class.
  void unresolvedClass(const std::string& fromDef, uint32_t line, const std::string& ref, const Trace& t) {
    for (size_t k = 0; k + 1 < t.parts.size(); ++k) {
      auto mm = removedMembers_.find(t.parts[k + 1]);
      if (mm == removedMembers_.end()) continue;
      for (const SymbolRef& target : mm->second) {
        std::string owner = target.symbol.substr(0, target.symbol.rfind('.'));
        std::string ownerBare = owner.substr(owner.rfind('.') == std::string::npos ? 0 : owner.rfind('.') + 1);
        if (t.parts[k] != ownerBare || k >= t.steps.size()) continue;
        const Resolution& s = t.steps[k];
        if (s.kind == Resolution::Kind::External) continue;
        if (s.kind == Resolution::Kind::Def) continue;  // a repository definition: decided above
        note(target, {Status::Mismatch, fromDef, line,
                      "still uses " + ref + " (" + t.parts[k] + " could not be resolved; it may be the class)"});
      }
    }
  }

  // Members read on typed receivers (annotated parameters, self/cls) and on untyped ones.
  void members(const std::string& fromDef, uint32_t line, const std::vector<std::string>& names,
               const std::vector<PyTypedRead>& typed) {
    std::vector<std::string> untyped = names;
    for (const PyTypedRead& tr : typed) {
      std::string chain = tr.type + "." + tr.member;
      std::string on = " on " + tr.receiver + ": " + tr.type;
      Trace t = hg_.trace(reader_, fromDef, chain);
      if (t.complete()) {
        for (const auto& s : t.steps)
          if (isGone(s, false)) note(s.ref, {Status::Changed, fromDef, line, "calls ." + tr.member + on});
        continue;
      }
      // The annotation names a class of the repository that (with its bases) no longer has the
      // member: the read fails at run time.
      bool typeIsClass = t.steps.size() >= 2 && t.steps.size() == t.parts.size() &&
                         t.steps[t.steps.size() - 2].kind == Resolution::Kind::Def;
      if (typeIsClass) {
        Trace bt = bg_.trace(reader_, fromDef, chain);
        for (const auto& s : bt.steps)
          if (isGone(s, true) && s.ref.symbol.find('.') != std::string::npos)
            note(s.ref, {Status::Mismatch, fromDef, line,
                         "reads ." + tr.member + on + ", which no longer defines it (nor do its bases)"});
        continue;
      }
      if (t.steps.empty() || t.steps[0].kind == Resolution::Kind::NotFound) untyped.push_back(tr.member);
    }
    for (const auto& name : untyped) {
      auto mm = removedMembers_.find(name);
      if (mm == removedMembers_.end()) continue;
      for (const SymbolRef& target : mm->second)
        if (reaches(target.path))
          note(target, {Status::Changed, fromDef, line,
                        "reads ." + name + " on a receiver of unknown type" + (fromDef.empty() ? "" : " in " + fromDef) +
                            ", and its imports reach the class"});
    }
  }

  const ModuleGraph& hg_;
  const ModuleGraph& bg_;
  const GoneMap& gone_;
  std::map<std::string, std::vector<SymbolRef>> removedMembers_;
  Found found_;
  std::string reader_;
  std::set<std::string> closure_;
  bool closureDone_ = false;
};

}  // namespace

ContractRows judgeRemovedSymbols(const JudgeContext& cx) {
  ContractRows out;
  GoneMap gone = findGone(cx);
  if (gone.empty()) return out;
  const ModuleGraph& hg = cx.headGraph;
  const ModuleGraph& bg = cx.baseGraph;
  // 3. Rows.
  for (const auto& [key, f] : ReaderScan(cx, gone).run(cx.head)) {
    const auto& [target, reader] = key;
    const Gone& g = gone.at(target);
    Row r;
    r.contract = "removed-symbol";
    r.status = f.status;
    r.python = Location{target.path, g.line + 1, target.symbol, {}, {}};
    r.mirror = Location{reader, f.line + 1, f.function.empty() ? "(module)" : f.function, {}, {}};
    std::string what = absl::StrCat(bg.displayPath(target.path), ":", target.symbol);
    std::string where = absl::StrCat(hg.displayPath(reader), f.function.empty() ? "" : " " + f.function);
    if (g.removed)
      r.message = absl::StrCat(what, " was removed; ", where, " ", f.how, " (line ", f.line + 1, ")");
    else
      r.message = absl::StrCat(what, " changed its parameters ", g.before, " -> ", g.after, "; ", where, " ", f.how,
                               " (line ", f.line + 1, ")");
    r.key = absl::StrCat("removed-symbol|", target.path, ":", target.symbol, "|", reader);
    std::set<std::string> archs;
    for (const auto* idx : {&cx.headArchs, &cx.baseArchs})
      for (const auto& p : {target.path, reader}) {
        auto a = idx->forModule(p);
        archs.insert(a.begin(), a.end());
      }
    r.archs.assign(archs.begin(), archs.end());
    out.explained.insert(target.path);
    out.covered.insert(target.path);
    out.covered.insert(reader);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
