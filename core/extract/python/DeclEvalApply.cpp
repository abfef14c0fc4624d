// The builder evaluator (DeclEval.h): a call expression and the application of a value to its
// arguments — a function of the module inlined with its arguments bound, a builtin, a method, a
// class, a partial, a function of another module handed the path's tail (`dispatchTo`).
#include "extract/python/DeclEvalImpl.h"

#include <algorithm>
#include <set>

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Op = GuardNode::Op;
}  // namespace

AV DeclEval::Impl::call(TSNode e, DFrame& f, DPath& p, int d) {
  TSNode callee = field(e, "function");
  AV fn = expr(callee, f, p, d + 1);
  // (A receiver that is the entry's parameter, symbolic, is what a caller gives: a helper's.)
  if (fn.k == K::Unknown && !fn.lib && is(callee, "attribute") && text(f, field(callee, "attribute")) == "param") {
    std::string what = "`" + clip(text(f, e), 60) + "` (line " + std::to_string(ts_node_start_point(e).row + 1) +
                       "): its receiver is not known" + (!fn.s.empty() ? " (" + fn.s + ")" : "");
    if (missed.empty()) missed = what;
    // What it declares is not known: the list is open there (a builder that declares nothing
    // else is not read, DeclResult::missed).
    bool had = declares;
    openAt(what, e, f, p);
    declares = had;
  }
  std::vector<AV> pos;
  std::vector<std::pair<std::string, AV>> kw;
  std::string splat;  // a `*`/`**` spread whose elements are not known
  TSNode args = field(e, "arguments");
  if (is(args, "generator_expression")) pos.push_back(expr(args, f, p, d + 1));
  else
    for (TSNode a : namedChildren(args)) {
      if (is(a, "comment")) continue;
      if (is(a, "keyword_argument")) {
        kw.emplace_back(text(f, field(a, "name")), expr(field(a, "value"), f, p, d + 1));
      } else if (is(a, "list_splat")) {
        AV s = expr(namedChildren(a)[0], f, p, d + 1);
        if (!s.isSeq()) {
          // The positions from here on are not known: one unknown value stands at this one.
          if (splat.empty()) pos.push_back(AV::unknown("unpacked from " + text(f, a) + ", a sequence not known"));
          splat += (splat.empty() ? "" : ", ") + text(f, a) + " of an unknown sequence";
          continue;
        }
        if (splat.empty()) pos.insert(pos.end(), s.items->begin(), s.items->end());
      } else if (is(a, "dictionary_splat")) {
        AV s = expr(namedChildren(a)[0], f, p, d + 1);
        if (s.k != K::Dict) {
          splat += (splat.empty() ? "" : ", ") + text(f, a) + " of a dict not known";
          continue;
        }
        for (size_t i = 0; i + 1 < s.items->size(); i += 2)
          if ((*s.items)[i].k == K::Str) kw.emplace_back((*s.items)[i].s, (*s.items)[i + 1]);
      } else if (splat.empty()) {
        pos.push_back(expr(a, f, p, d + 1));
      } else {
        expr(a, f, p, d + 1);
      }
    }
  if (!splat.empty()) {
    const AV* root = &fn;
    while (root->k == K::Partial && root->self) root = root->self.get();
    if (root->k == K::ParamMethod) {  // a declaration all the same: an entry at its position
      unknownArgs = "a call with " + splat;
      return apply(fn, std::move(pos), std::move(kw), e, f, p, d);
    }
    if (!fn.lib)
      cannotFollow(std::max(reach(fn), reachOf(pos, kw)),
                   clip(text(f, callee), 60) + " (a call with " + splat + ", which the evaluator cannot make)", e, f, p);
    return AV::unknown("a call with " + splat);
  }
  return apply(fn, std::move(pos), std::move(kw), e, f, p, d);
}

namespace {

// The module and the function an imported callee names: `mod:fn`, or `pkg:mod.fn` when an
// imported name of a package is used as a module (`from kernels.common import conv as _c;
// _c.build(...)`).
std::pair<std::string, std::string> importedFunction(const AV& fn) {
  size_t colon = fn.s.find(':');
  if (colon == std::string::npos) return {fn.s, fn.s};
  std::string mod = fn.s.substr(0, colon), name = fn.s.substr(colon + 1);
  if (size_t dot = name.rfind('.'); dot != std::string::npos) mod += "." + name.substr(0, dot), name = name.substr(dot + 1);
  return {mod, name};
}

}  // namespace

void DeclEval::Impl::dispatchTo(const AV& callee, TSNode call, DFrame& f, DPath& p) {
  // `return other.build_x(...)` of a module this evaluation cannot see, by the function evaluated
  // (not a function it calls), on a path that declared nothing: the path's list is whatever that function's kernel declares — open there, like a
  // helper given the IRBuilder (CrossModule follows it when the module is in the tree). The
  // function is named by what is called: `mod:fn`, or `pkg:mod.fn` when an imported name of a
  // package is used as a module.
  if (callee.s.find(':') == std::string::npos || !p.decls.empty() || !p.tailHelper.empty()) return;
  auto [mod, name] = importedFunction(callee);
  if (!mayHoldDeclaringHelpers(mod) || name.empty()) return;
  p.tailHelper = name;
  p.tailModule = modulePathOf(mod);
  p.tailCall = std::string(text(f, call)).substr(0, 200);
  f.retOrigin = name;
}

AV DeclEval::Impl::apply(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at,
                         DFrame& f, DPath& p, int d) {
  switch (fn.k) {
    case K::ParamMethod: {
      declare(pos, kw, at, f, p);
      AV ir = AV::unknown("an IR value");
      ir.lib = true;
      return ir;
    }
    case K::Partial: {
      std::vector<AV> all = *fn.items;
      all.insert(all.end(), pos.begin(), pos.end());
      std::vector<std::pair<std::string, AV>> kws = *fn.kw;
      for (auto& k : kw) kws.push_back(k);
      return apply(*fn.self, std::move(all), std::move(kws), at, f, p, d);
    }
    case K::Func:
      if (fn.self) pos.insert(pos.begin(), *fn.self);  // a bound method
      return invoke(fn, std::move(pos), std::move(kw), at, f, p, d);
    case K::BuilderCtor: return AV::of(K::Builder);
    case K::SigCtor: {
      madeSignature = true;
      AV s = AV::seq(K::Sig, {});
      return s;
    }
    case K::PtrCtor: {
      AV t = AV::of(K::Type);
      t.kind = "global_buffer";
      t.size = 8;
      const AV* elem = !pos.empty() ? &pos[0] : nullptr;
      for (auto& [k, v] : kw)
        if (!elem && (k == "dtype" || k == "elem" || k == "element" || k == "pointee")) elem = &v;
      if (elem && elem->k == K::Type && elem->kind == "by_value") t.cls = elem->cls;
      t.typeText = text(f, at);
      return t;
    }
    case K::Builtin: {
      if (fn.items) return boundBuiltin(fn, std::move(pos), std::move(kw), at, f, p, d);
      AV r = builtin(fn.s, pos, kw, at, f, p, d);
      if (r.opaque) cannotFollow(reachOf(pos, kw), fn.s + "(...) (" + r.s + ": the evaluator does not model it)", at, f, p);
      return r;
    }
    case K::Class: return instantiate(fn, std::move(pos), std::move(kw), at, f, p, d);
    case K::Method:
      if (fn.self && fn.self->k == K::Sig) return signatureMethod(fn, pos, kw, at, f, p);
      if (fn.self && (fn.self->k == K::Class || fn.self->k == K::Instance)) {  // a record's `_make`, `_replace`
        int r = reachOf(pos, kw, fn.self.get());
        AV v = recordMethod(fn, std::move(pos), std::move(kw), at, f, p, d);
        if (v.opaque) cannotFollow(r, calleeText(at, f) + " (" + v.s + ": the evaluator does not model it)", at, f, p);
        return v;
      }
      {
        AV r = method(fn, pos, kw, f, p);
        if (r.opaque)
          cannotFollow(reachOf(pos, kw, fn.self.get()), calleeText(at, f) + " (" + r.s + ": the evaluator does not model it)",
                       at, f, p);
        return r;
      }
    case K::Imported: {  // a function of a module this evaluation was not given: not followed
      // With the tree's modules given, one that is not among them and is given the IRBuilder may
      // declare from here on: the list is open there (rocKE's platform package, `rocke.`, is the
      // IR library: its helpers emit code, not kernel arguments).
      auto [mod, name] = importedFunction(fn);
      if (!moduleLevel && mayHoldDeclaringHelpers(mod) && p.tailHelper.empty() && reachOf(pos, kw) > 0) {
        if (standardLibrary(mod)) {
          openAt(name + "(...) (a call of " + mod + "." + name + " the evaluator does not model)", at, f, p);
        } else {
          declares = true;  // what it declares is not known here: the list is open at it
          p.tailHelper = name;
          p.tailModule = modulePathOf(mod);
          p.tailCall = std::string(text(f, at)).substr(0, 200);  // as the body reader keeps it
        }
      }
      AV r = AV::unknown("a function of another module");
      r.lib = !mayHoldDeclaringHelpers(mod);
      return r;
    }
    case K::Instance: {  // an object of the module's classes called: its `__call__`
      if (fn.mod) {
        AV m = classMember(fn, "__call__", at, f, p, d);
        if (m.k == K::Func) return apply(m, std::move(pos), std::move(kw), at, f, p, d);
      }
      cannotFollow(reachOf(pos, kw, &fn), calleeText(at, f) + " (an object the evaluator cannot call)", at, f, p);
      return AV::unknown("a call of " + calleeText(at, f));
    }
    default: {
      // A call it cannot follow, given a value that reaches the IRBuilder, may declare from here
      // on: the list is open there, as at a function of a module it cannot see (a parameter of
      // the entry called with the IRBuilder is a hook, not this: what a caller passes declares there).
      int r = reachOf(pos, kw);
      std::string callee = calleeText(at, f);
      bool hook = false;
      if (r > 0 && fn.k == K::Sym && fn.g && !fn.g->empty() && fn.g->nodes[fn.g->root].op == GuardNode::Op::Name &&
          entryParams.count(fn.g->nodes[fn.g->root].text)) {
        PyHook h;  // the entry's parameter, called with the IRBuilder: what a caller passes declares here
        h.name = fn.g->nodes[fn.g->root].text;
        if (!p.decls.empty()) h.after = p.decls.back().first.name;
        if (std::find(pendingHooks.begin(), pendingHooks.end(), h) == pendingHooks.end()) pendingHooks.push_back(h);
        hook = true;
      }
      if (r > 0 && !hook && !fn.lib && (fn.k == K::Unknown || fn.k == K::Sym))
        cannotFollow(r, callee + " (a call it cannot follow: " + (fn.s.empty() ? "not known" : clip(fn.s, 80)) + ")", at, f,
                     p);
      AV out = AV::unknown("a call of " + callee);
      out.lib = fn.lib;
      return out;
    }
  }
}

}  // namespace impact::pyextract
