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

struct RemovedFinding {
  Status status = Status::Changed;
  std::string function;
  uint32_t line = 0;
  std::string how;
};

}  // namespace

ContractRows judgeRemovedSymbols(const JudgeContext& cx) {
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  ContractRows out;
  const ModuleGraph& hg = cx.headGraph;
  const ModuleGraph& bg = cx.baseGraph;

  // 1. What went away or changed its parameters.
  std::map<SymbolRef, Gone> gone;
  for (const std::string& path : bg.modules()) {
    if (!touched(base, head, path)) continue;
    const FileFacts* bf = base.facts.find(path);
    const FileFacts* hf = head.facts.find(path);
    if (!bf || !bf->ok) continue;
    if (hf && !hf->ok) continue;  // the head does not parse: its file row says so
    std::map<std::string, std::vector<std::string>> headParams;
    if (hf)
      for (const auto& d : hf->module.defs) headParams[d.name].push_back(d.params);
    std::map<std::string, std::vector<const PyDef*>> baseDefs;
    for (const auto& d : bf->module.defs) baseDefs[d.name].push_back(&d);
    for (auto& [name, ds] : baseDefs) {
      Gone g;
      g.kind = ds[0]->kind;
      g.line = ds[0]->nameLine;
      auto it = headParams.find(name);
      if (it == headParams.end() && name.find('.') != std::string::npos) {
        // A member is removed only if the head's class and its bases (in MRO order) no longer
        // define it: `AttentionDenseSpec = Gfx950AttentionDenseSpec`, whose base moved to
        // kernels/common, still has `.batch`.
        Trace t = hg.trace(path, "", name);
        if (t.complete() && t.steps.back().kind == Resolution::Kind::Def) {
          const Resolution& at = t.steps.back();
          auto ds = hg.defs(at.ref.path, at.ref.symbol);
          if (g.kind != PyDef::Kind::Method || ds.empty()) continue;
          std::vector<std::string> before, after;
          for (const PyDef* d : ds[0]->kind == PyDef::Kind::Method ? ds : std::vector<const PyDef*>{})
            after.push_back(d->params);
          for (const PyDef* d : baseDefs[name]) before.push_back(d->params);
          std::sort(before.begin(), before.end());
          std::sort(after.begin(), after.end());
          if (after.empty() || before == after) continue;
          g.removed = false;
          g.before = absl::StrJoin(before, " | ");
          g.after = absl::StrJoin(after, " | ");
          gone[{path, name}] = g;
          continue;
        }
      }
      if (it == headParams.end()) {
        gone[{path, name}] = g;
        continue;
      }
      if (g.kind != PyDef::Kind::Function && g.kind != PyDef::Kind::Method) continue;
      std::vector<std::string> before;
      for (const PyDef* d : ds) before.push_back(d->params);
      std::vector<std::string> after = it->second;
      std::sort(before.begin(), before.end());
      std::sort(after.begin(), after.end());
      if (before == after) continue;
      g.removed = false;
      g.before = absl::StrJoin(before, " | ");
      g.after = absl::StrJoin(after, " | ");
      gone[{path, name}] = g;
    }
  }
  if (gone.empty()) return out;

  auto isGone = [&](const Resolution& r, bool removed) -> const Gone* {
    if (r.kind != Resolution::Kind::Def) return nullptr;
    auto it = gone.find(r.ref);
    if (it == gone.end() || it->second.removed != removed) return nullptr;
    return &it->second;
  };
  // Removed members by name, for untyped receivers: member name -> classes' members.
  std::map<std::string, std::vector<SymbolRef>> removedMembers;
  for (const auto& [ref, g] : gone)
    if (g.removed && ref.symbol.find('.') != std::string::npos)
      removedMembers[ref.symbol.substr(ref.symbol.rfind('.') + 1)].push_back(ref);

  // 2. Readers at the head. One finding per (definition, reader module), the worst kept.
  std::map<std::pair<SymbolRef, std::string>, RemovedFinding> found;
  auto note = [&](const SymbolRef& target, const std::string& reader, RemovedFinding f) {
    auto key = std::make_pair(target, reader);
    auto it = found.find(key);
    if (it == found.end() || (f.status == Status::Mismatch && it->second.status != Status::Mismatch)) found[key] = f;
  };

  for (const std::string& R : hg.modules()) {
    const PyModuleFacts* m = hg.module(R);
    const FileFacts* rf = head.facts.find(R);
    if (!m || !rf || !rf->ok) continue;
    for (const auto& imp : m->imports) {
      if (imp.name.empty() || imp.name == "*") continue;
      Resolution h = hg.resolveImport(R, imp);
      if (h.found() || h.kind == Resolution::Kind::External) {
        if (isGone(h, false)) note(h.ref, R, {Status::Changed, imp.function, imp.line, "imports it from " + imp.module});
        continue;
      }
      Resolution b = bg.resolveImport(R, imp);
      if (isGone(b, true))
        note(b.ref, R, {Status::Mismatch, imp.function, imp.line, "still imports it from " + imp.module});
    }

    std::set<std::string> closure;
    bool closureDone = false;
    auto reaches = [&](const std::string& P) {
      if (P == R) return true;
      if (!closureDone) {
        closure = hg.importClosure(R);
        closureDone = true;
      }
      return closure.count(P) > 0;
    };

    auto scan = [&](const std::string& fromDef, uint32_t line, const std::vector<std::string>& refs,
                    const std::vector<std::string>& members, const std::vector<PyTypedRead>& typed) {
      for (const auto& ref : refs) {
        Trace t = hg.trace(R, fromDef, ref);
        if (t.steps.empty()) continue;
        if (t.complete()) {
          for (const auto& s : t.steps)
            if (isGone(s, false)) note(s.ref, R, {Status::Changed, fromDef, line, "uses " + ref});
          continue;
        }
        size_t i = t.steps.size() - 1;
        if (t.steps[i].kind == Resolution::Kind::External) continue;
        Trace bt = bg.trace(R, fromDef, ref);
        bool hit = false;
        for (size_t j = i; j < bt.steps.size(); ++j) {
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
          note(target, R, {st, fromDef, line, how});
          hit = true;
          break;
        }
        if (hit || t.parts.size() < 2) continue;
        // A name the resolver cannot follow inside the repository may still be the class.
        for (size_t k = 0; k + 1 < t.parts.size(); ++k) {
          auto mm = removedMembers.find(t.parts[k + 1]);
          if (mm == removedMembers.end()) continue;
          for (const SymbolRef& target : mm->second) {
            std::string owner = target.symbol.substr(0, target.symbol.rfind('.'));
            std::string ownerBare = owner.substr(owner.rfind('.') == std::string::npos ? 0 : owner.rfind('.') + 1);
            if (t.parts[k] != ownerBare || k >= t.steps.size()) continue;
            const Resolution& s = t.steps[k];
            if (s.kind == Resolution::Kind::External) continue;
            if (s.kind == Resolution::Kind::Def) continue;  // a repository definition: decided above
            note(target, R, {Status::Mismatch, fromDef, line, "still uses " + ref + " (" + t.parts[k] + " could not be resolved; it may be the class)"});
          }
        }
      }
      // Untyped receivers.
      std::vector<std::string> untyped = members;
      for (const PyTypedRead& tr : typed) {
        std::string chain = tr.type + "." + tr.member;
        std::string on = " on " + tr.receiver + ": " + tr.type;
        Trace t = hg.trace(R, fromDef, chain);
        if (t.complete()) {
          for (const auto& s : t.steps)
            if (isGone(s, false)) note(s.ref, R, {Status::Changed, fromDef, line, "calls ." + tr.member + on});
          continue;
        }
        // The annotation names a class of the repository that (with its bases) no longer has the
        // member: the read fails at run time.
        bool typeIsClass = t.steps.size() >= 2 && t.steps.size() == t.parts.size() &&
                           t.steps[t.steps.size() - 2].kind == Resolution::Kind::Def;
        if (typeIsClass) {
          Trace bt = bg.trace(R, fromDef, chain);
          for (const auto& s : bt.steps)
            if (isGone(s, true) && s.ref.symbol.find('.') != std::string::npos)
              note(s.ref, R, {Status::Mismatch, fromDef, line,
                              "reads ." + tr.member + on + ", which no longer defines it (nor do its bases)"});
          continue;
        }
        if (t.steps.empty() || t.steps[0].kind == Resolution::Kind::NotFound) untyped.push_back(tr.member);
      }
      for (const auto& name : untyped) {
        auto mm = removedMembers.find(name);
        if (mm == removedMembers.end()) continue;
        for (const SymbolRef& target : mm->second)
          if (reaches(target.path))
            note(target, R, {Status::Changed, fromDef, line,
                             "reads ." + name + " on a receiver of unknown type" +
                                 (fromDef.empty() ? "" : " in " + fromDef) + ", and its imports reach the class"});
      }
    };
    for (const auto& d : m->defs) scan(d.name, d.nameLine, d.refs, d.members, d.typedReads);
    scan("", 0, m->moduleRefs, {}, {});
  }

  // 3. Rows.
  const ArchIndex& headArchs = cx.headArchs;
  const ArchIndex& baseArchs = cx.baseArchs;
  for (const auto& [key, f] : found) {
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
    for (const auto* idx : {&headArchs, &baseArchs})
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
