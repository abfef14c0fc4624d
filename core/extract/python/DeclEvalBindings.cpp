// The builder evaluator (DeclEval.h): where names get their values — an assignment's target (a
// name, an unpacking with a starred target, a subscript, an instance's attribute), the names of
// two arms of an `if` joined, and what a function defined in a frame closes over.
#include "extract/python/DeclEvalImpl.h"

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
}  // namespace

std::shared_ptr<std::map<std::string, AV>> DeclEval::Impl::closureFor(const DFrame& f) {
  // Kept among the evaluator's objects: a list the closure sees may come to hold the function
  // (`fs.append(g)`), a cycle of shared pointers only emptying the map at the end frees.
  auto c = newObject();
  *c = f.env.map();
  if (f.closure)
    for (auto& [k, v] : *f.closure) {
      AV u = v;  // the enclosing function's own name: its closure is the one it was found in
      if (u.selfInClosure) u.closure = f.closure, u.selfInClosure = false;
      c->emplace(k, std::move(u));
    }
  return c;
}

void DeclEval::Impl::join(DFrame& f, DPath& p, DFrame& thenF, DPath& thenP, size_t base, const Guard* g) {
  std::vector<std::pair<KernelArg, std::vector<Guard>>> decls(thenP.decls.begin(), thenP.decls.end());
  decls.insert(decls.end(), p.decls.begin() + base, p.decls.end());
  p.decls = std::move(decls);
  if (p.tailHelper.empty()) p.tailHelper = thenP.tailHelper, p.tailModule = thenP.tailModule, p.tailCall = thenP.tailCall;
  if (f.env.sameAs(thenF.env)) return;  // neither arm bound a name
  Env::Map merged;
  for (auto& [k, v] : thenF.env) {
    auto it = f.env.find(k);
    merged[k] = it == f.env.end() ? AV::unknown("'" + k + "' is bound on one branch only")
                : g                 ? chooseValues(*g, v, it->second)
                                    : mergeValues(v, it->second);
  }
  for (auto& [k, v] : f.env)
    if (!thenF.env.count(k)) merged[k] = AV::unknown("'" + k + "' is bound on one branch only");
  f.env.replace(std::move(merged));
}

void DeclEval::Impl::assign(TSNode target, const AV& v, DFrame& f, DPath& p, int d) {
  std::string_view ty = type(target);
  if (ty == "identifier") {
    f.env[text(f, target)] = v;
    return;
  }
  if (ty == "pattern_list" || ty == "tuple_pattern" || ty == "list_pattern" || ty == "tuple" || ty == "list" ||
      ty == "expression_list" || ty == "parenthesized_expression") {
    std::vector<TSNode> kids;
    for (TSNode k : namedChildren(target))
      if (!is(k, "comment")) kids.push_back(k);
    bool ok = false;
    std::vector<AV> els = elementsOf(v, &ok);
    // `x, *rest = seq`: the starred target takes what the others leave, as a list.
    size_t star = kids.size();
    for (size_t i = 0; i < kids.size(); ++i)
      if (is(kids[i], "list_splat_pattern") || is(kids[i], "list_splat")) star = i;
    size_t fixed = kids.size() - (star < kids.size() ? 1 : 0);
    ok = ok && (star < kids.size() ? els.size() >= fixed : els.size() == kids.size());
    AV unknown = AV::unknown("unpacked from " + clip(text(f, target), 40));
    for (size_t i = 0, at = 0; i < kids.size(); ++i) {
      if (i == star) {
        size_t n = ok ? els.size() - fixed : 0;
        TSNode inner = namedChildren(kids[i]).empty() ? kids[i] : namedChildren(kids[i])[0];
        assign(inner, ok ? AV::seq(K::List, std::vector<AV>(els.begin() + at, els.begin() + at + n)) : unknown, f, p, d);
        at += n;
        continue;
      }
      assign(kids[i], ok ? els[at] : unknown, f, p, d);
      ++at;
    }
    return;
  }
  if (ty == "subscript") {
    AV obj = expr(field(target, "value"), f, p, d + 1);
    AV key = expr(field(target, "subscript"), f, p, d + 1);
    bool keyKnown = key.k != K::Unknown && key.k != K::Sym;
    if (obj.k == K::Dict && keyKnown) {
      for (size_t i = 0; i + 1 < obj.items->size(); i += 2)
        if (sameAV((*obj.items)[i], key)) {
          (*obj.items)[i + 1] = v;
          return;
        }
      obj.items->push_back(key);
      obj.items->push_back(v);
      return;
    } else if (obj.k == K::List && key.k == K::Int && key.i >= 0 && size_t(key.i) < obj.items->size()) {
      (*obj.items)[key.i] = v;
      return;
    } else if ((obj.k == K::Dict || obj.k == K::List) && !keyKnown) {
      // Which element changed is not known: every one may have (a dict may have a key more), so
      // none keeps a value a later read would take as known.
      AV changed = AV::unknown("changed by " + clip(text(f, target), 60) + " = ...");
      for (size_t i = obj.k == K::Dict ? 1 : 0; i < obj.items->size(); i += obj.k == K::Dict ? 2 : 1)
        (*obj.items)[i] = changed;
      if (obj.k == K::Dict) obj.items->push_back(changed), obj.items->push_back(changed);
    }
    // A value reaching the IRBuilder stored where the evaluator does not follow it: what reads it
    // there may declare (DeclEvalReach.cpp).
    cannotFollow(reach(v), "stored into " + clip(text(f, target), 60) + ", which the evaluator does not follow", target, f, p);
    return;
  }
  if (ty == "attribute") {  // `self.b = b`: an attribute of an instance of the module's classes
    AV obj = expr(field(target, "object"), f, p, d + 1);
    if (obj.k == K::Instance && obj.closure) (*obj.closure)[text(f, field(target, "attribute"))] = v;
    else
      cannotFollow(reach(v), "stored into " + clip(text(f, target), 60) + ", which the evaluator does not follow", target, f, p);
  }
  // the rest: nothing a declaration reads later
}

}  // namespace impact::pyextract
