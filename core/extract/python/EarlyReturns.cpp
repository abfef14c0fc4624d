// Early returns: `return other(spec)` before the first b.param adds other's lists (same module,
// cycle-safe); one to another module's function makes the own list's `when` exclude it (the
// evaluator reads that return as a list open at that function: DeclEvalStatements.cpp).
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include <algorithm>

#include "extract/python/Literals.h"

namespace impact::pyextract {

long BuilderExtractor::lookup(const Fn& from, TSNode callee) {
  std::string want;
  if (is(callee, "identifier")) want = text(callee);
  else if (is(callee, "attribute")) {
    TSNode obj = field(callee, "object");
    std::string o = text(obj), attr = text(field(callee, "attribute"));
    if (!from.cls.empty() && (o == "self" || o == "cls")) want = from.cls + "." + attr;
    else if (is(obj, "identifier")) {
      // Class.method of a class in this module
      bool isClass = false;
      for (const Fn& f : fns_)
        if (f.cls == o) { isClass = true; break; }
      if (isClass) want = o + "." + attr;
    }
  }
  if (want.empty()) return -1;
  long found = -1;
  for (size_t j = 0; j < fns_.size(); ++j)
    if (fns_[j].name == want) found = static_cast<long>(j);  // the last definition wins
  return found;
}

BuilderInfo& BuilderExtractor::builder(size_t i, int depth) {
  BuilderInfo& bi = info_[i];
  if (bi.state != BuilderInfo::New) return bi;
  bi.state = BuilderInfo::Busy;
  const Fn& fn = fns_[i];
  const FnFacts& f = facts_[i];
  std::vector<PyAbi> abis;
  std::vector<uint64_t> targetFps;  // folded into the fingerprint, in order, if this is a builder
  if (f.hasParams) abis.push_back(PyAbi{fn.name, "", f.params, f.tailHelper, f.tailModule, {}, f.tailCall});
  std::vector<PyHook> hooks = f.hooks;
  bool anyTarget = false;
  std::vector<const ReturnTarget*> taken;  // early returns to a builder (here or elsewhere)
  for (const ReturnTarget& r : f.returns) {
    long j = depth < 64 ? lookup(fn, r.callee) : -1;
    if (j >= 0) {
      if (info_[j].state == BuilderInfo::Busy) continue;  // a cycle
      BuilderInfo& tb = builder(static_cast<size_t>(j), depth + 1);
      if (!tb.isBuilder) continue;
      anyTarget = true;
      for (const PyAbi& a : tb.abis) {
        PyAbi c = a;
        if (!r.guard.empty()) c.guard = a.guard.empty() ? r.guard : r.guard + " and " + a.guard;
        c.when = guardAnd(r.guardExpr, a.when);
        abis.push_back(std::move(c));
      }
      taken.push_back(&r);
      targetFps.push_back(tb.fingerprint);
      for (PyHook h : tb.hooks) {
        if (h.given == PyHook::Given::ByCaller) {  // the target's own parameter: this call decides
          auto vals = namedChildren(r.ret);
          bool passed = !vals.empty() && passesParameter(vals[0], size_t(j), h.name);
          h.given = passed ? PyHook::Given::Passed : PyHook::Given::NotPassed;
          h.entry = fn.name;
        }
        if (std::find(hooks.begin(), hooks.end(), h) == hooks.end()) hooks.push_back(std::move(h));
      }
      continue;
    }
    // Not a function of this module: a builder elsewhere, unless it is a builtin or a method
    // of the builder objects (b.build(), sig.build()).
    std::string term = is(r.callee, "identifier") ? text(r.callee) : text(field(r.callee, "attribute"));
    if (is(r.callee, "identifier") && isBuiltinCall(term)) continue;
    Use ru{ts_node_start_byte(r.ret), &r.path};
    Value cv = resolver_.expr(r.callee, *scopes_[i], ru, Loops{}, 0);
    if (cv.k == VK::PtrCtor || cv.k == VK::IRBuilderCtor || cv.k == VK::SigCtor) continue;
    if (is(r.callee, "attribute")) {
      Value recv = resolver_.expr(field(r.callee, "object"), *scopes_[i], ru, Loops{}, 0);
      if (recv.k == VK::IRBuilder || recv.k == VK::Sig) continue;
    }
    taken.push_back(&r);
  }
  // The own body's list is declared only when no early return before it was taken.
  if (f.hasParams && !abis.empty())
    for (const ReturnTarget* r : taken)
      if (!r->guardExpr.empty()) abis[0].when = guardAnd(abis[0].when, guardNot(r->guardExpr));
  bi.isBuilder = f.hasParams || anyTarget;
  bi.abis = std::move(abis);
  bi.hooks = std::move(hooks);
  // Read only for a builder (its own and as a target's): not computed for other functions.
  if (bi.isBuilder) {
    uint64_t fp = codeFingerprint(t_, fn.def);
    for (uint64_t tfp : targetFps) fp = fnv1a(std::string_view(reinterpret_cast<const char*>(&tfp), sizeof tfp), fp);
    bi.fingerprint = fp;
  }
  bi.state = BuilderInfo::Done;
  return bi;
}

}  // namespace impact::pyextract
