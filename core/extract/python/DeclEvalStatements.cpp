// The builder evaluator (DeclEval.h): statements, branches, loops and calls (the module's
// functions inlined with their arguments bound). Where names get their values (assignment
// targets, the join of two arms' names, closures) is DeclEvalBindings.cpp.
#include "extract/python/DeclEvalImpl.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Op = GuardNode::Op;

}  // namespace

void pushConds(std::vector<Guard>& conds, const std::shared_ptr<std::vector<Guard>>& when) {
  if (!when) return;
  for (const Guard& g : *when) {
    std::string key = guardKey(g);
    bool have = std::any_of(conds.begin(), conds.end(), [&](const Guard& c) { return guardKey(c) == key; });
    if (!have) conds.push_back(g);
  }
}

AV tagged(AV v, const std::vector<Guard>& conds) {
  if (conds.empty()) return v;
  auto w = v.when ? std::make_shared<std::vector<Guard>>(*v.when) : std::make_shared<std::vector<Guard>>();
  pushConds(*w, std::make_shared<std::vector<Guard>>(conds));
  v.when = w;
  return v;
}

std::vector<AV> elementsOf(const AV& v, bool* ok) {
  *ok = true;
  if (v.isSeq() || (v.k == K::Instance && v.items) || v.k == K::Iter) return *v.items;  // a record unpacks as a tuple
  if (v.k == K::Dict) {
    std::vector<AV> keys;
    for (size_t i = 0; i < v.items->size(); i += 2) keys.push_back((*v.items)[i]);
    return keys;
  }
  if (v.k == K::Str) {
    std::vector<AV> cs;
    for (char c : v.s) cs.push_back(AV::str(std::string(1, c)));
    return cs;
  }
  *ok = false;
  return {};
}


DFlow DeclEval::Impl::block(TSNode body, DFrame& f, DPath& p, int d) {
  if (d > kMaxVisitDepthEval) throw DStop{"statements nested deeper than " + std::to_string(kMaxVisitDepthEval)};
  if (!is(body, "block") && !is(body, "module")) return statement(body, f, p, d);
  auto sts = namedChildren(body);
  // In a builder's body (it makes an IRBuilder), the kernel's code after the last statement that
  // can declare changes no list (a return of a declaring function is such a statement; a builder
  // otherwise returns its kernel). Any other function runs whole: its value is what its caller
  // reads. Past the last statement that names a declaring call, the body goes on only while a
  // later one uses a local bound to one (an alias of b.param, a partial, a nested function).
  bool tail = f.makesBuilder && ts_node_eq(body, f.body);
  size_t last = sts.size(), named = sts.size();
  if (tail)
    while (named > 0 && !relevant(sts[named - 1], f)) --named;
  for (size_t i = 0; i < last; ++i) {
    if (tail && i >= named) {
      bool more = false;
      for (size_t j = i; j < sts.size() && !more; ++j) more = relevant(sts[j], f);
      if (!more) {
        tailHandsOff(sts, i, f, p);
        break;
      }
    }
    DFlow fl = statement(sts[i], f, p, d + 1);
    if (fl != DFlow::Next) return fl;
  }
  return DFlow::Next;
}

bool DeclEval::Impl::relevant(TSNode st, DFrame& f) {
  // Conservative, by the statement's text: `.param`, a declaring function of the module, a called
  // function the evaluation cannot see (ModIndex::unseen), or a local name bound to a declaring
  // value (an alias of b.param, a partial, a nested function).
  std::string_view body = f.mod->t->text(st);
  auto it = stmts.find(st.id);
  if (it == stmts.end()) {
    StmtInfo info;
    info.declares = hasWord(body, ".param") || hasWord(body, "\"param\"") || hasWord(body, "'param'");
    for (const std::string& n : f.mod->declaring) {
      std::string_view bare = std::string_view(n).substr(n.rfind('.') == std::string::npos ? 0 : n.rfind('.') + 1);
      info.declares = info.declares || hasWord(body, bare);
    }
    for (const std::string& n : f.mod->importedDeclaring) info.declares = info.declares || hasWord(body, n);
    for (const std::string& n : f.mod->unseen) info.declares = info.declares || hasWord(body, n);
    it = stmts.emplace(st.id, std::move(info)).first;
  }
  if (it->second.declares) return true;
  // A value that declares when called (DeclEvalReach.cpp: a function closing over a bound
  // `b.param` declares though its text has no `.param`).
  auto candidate = [](const AV& v) { return v.k == K::ParamMethod || v.k == K::Partial || v.k == K::Func; };
  for (auto& [n, v] : f.env)
    if (candidate(v) && hasWord(body, n) && declarer(v)) return true;
  if (f.closure)
    for (auto& [n, v] : *f.closure)
      if (candidate(v) && !v.selfInClosure && hasWord(body, n) && declarer(v)) return true;
  return false;
}

// An expression statement: assignments (chained, augmented) bound, anything else evaluated.
DFlow DeclEval::Impl::expressionStatement(TSNode s, DFrame& f, DPath& p, int d) {
  for (TSNode e : namedChildren(s)) {
    if (is(e, "assignment")) {
      TSNode right = field(e, "right");
      if (ts_node_is_null(right)) continue;  // `x: int`
      std::vector<TSNode> targets{field(e, "left")};
      while (is(right, "assignment")) targets.push_back(field(right, "left")), right = field(right, "right");
      AV v = expr(right, f, p, d + 1);
      for (TSNode t : targets) assign(t, v, f, p, d);
    } else if (is(e, "augmented_assignment")) {
      TSNode left = field(e, "left");
      AV cur = expr(left, f, p, d + 1);
      AV r = expr(field(e, "right"), f, p, d + 1);
      std::string op = text(f, field(e, "operator"));
      bool ok = false;
      std::vector<AV> add = elementsOf(r, &ok);
      if (op == "+=" && cur.k == K::List && ok) {
        for (AV& el : add) cur.items->push_back(tagged(el, p.conds));
        if (cur.items->size() > DeclEval::kMaxItems) throw DStop{"a list longer than the size limit"};
      } else if (op == "+=" && cur.k == K::Str && r.k == K::Str) {
        assign(left, AV::str(cur.s + r.s), f, p, d);
      } else if (cur.k == K::Int && r.k == K::Int && (op == "+=" || op == "-=" || op == "*=")) {
        assign(left, AV::integer(op == "+=" ? cur.i + r.i : op == "-=" ? cur.i - r.i : cur.i * r.i), f, p, d);
      } else {
        // An operand not known keeps its own reason (what it read), not the operator's.
        AV why = cur.k == K::Unknown ? cur : r.k == K::Unknown ? r : AV::unknown("changed by " + op);
        assign(left, why, f, p, d);
      }
    } else {
      expr(e, f, p, d + 1);
    }
  }
  return DFlow::Next;
}

DFlow DeclEval::Impl::whileStatement(TSNode s, DFrame& f, DPath& p, int d) {
  // While the condition is known, the body runs as Python runs it; from the first check it is
  // not known, the body once more, what it declares named as in a loop of unknown length. Past
  // kMaxIterations (`while True` with no break) the loop is read as one of unknown length from
  // where it started.
  constexpr size_t kMaxIterations = 1024;
  DPath startP = p;
  Env startEnv = f.env;
  std::string why = "a while loop";
  for (size_t n = 0;; ++n) {
    AV c = expr(field(s, "condition"), f, p, d + 1);
    bool truth = false;
    if (!truthKnown(c, &truth)) break;
    if (!truth) return DFlow::Next;
    if (n >= kMaxIterations) {
      p = std::move(startP);
      f.env = std::move(startEnv);
      why = "a while loop that runs past " + std::to_string(kMaxIterations) + " iterations";
      break;
    }
    DFlow fl = block(field(s, "body"), f, p, d + 1);
    if (fl == DFlow::Break) return DFlow::Next;
    if (fl == DFlow::Return || fl == DFlow::Raise) return fl;
  }
  return loop(field(s, "body"), TSNode{}, AV{}, why, f, p, d);
}

// A `try` (its handlers read as the body's declarations) or a `with` (its items bound).
DFlow DeclEval::Impl::tryOrWith(TSNode s, DFrame& f, DPath& p, int d) {
  if (is(s, "with_statement"))
    for (TSNode item : namedChildren(namedChildren(s)[0])) {
      TSNode v = field(item, "value");
      if (is(v, "as_pattern")) {
        auto kids = namedChildren(v);
        AV val = expr(kids[0], f, p, d + 1);
        TSNode alias = field(v, "alias");
        if (!ts_node_is_null(alias)) assign(namedChildren(alias).empty() ? alias : namedChildren(alias)[0], val, f, p, d);
      } else if (!ts_node_is_null(v)) {
        expr(v, f, p, d + 1);
      }
    }
  DFlow fl = block(field(s, "body"), f, p, d + 1);
  for (TSNode part : namedChildren(s)) {
    if (fl != DFlow::Next) break;
    for (TSNode b : namedChildren(part)) {
      if (!is(b, "block")) continue;
      if (is(part, "except_clause")) {
        // A handler runs only when the body raised: its declarations are read as the body's
        // (as the body reader reads them), but its returns and bindings do not end or change
        // the path that went on (`except KeyError: return False, str(e)`).
        DFrame ef = f;
        ef.returns.clear();
        DPath ep = p;
        block(b, ef, ep, d + 1);
        for (size_t i = p.decls.size(); i < ep.decls.size(); ++i) p.decls.push_back(ep.decls[i]);
      } else if (is(part, "else_clause") || is(part, "finally_clause")) {
        fl = block(b, f, p, d + 1);
      }
    }
  }
  return fl;
}

// A nested function: a closure over the frame bound to its name, its decorators applied.
DFlow DeclEval::Impl::definition(TSNode s, DFrame& f, DPath& p, int d) {
  const bool decorated = is(s, "decorated_definition");
  TSNode def = decorated ? field(s, "definition") : s;
  if (!is(def, "function_definition")) return DFlow::Next;
  AV fn = AV::of(K::Func);
  fn.def = def;
  fn.mod = f.mod;
  fn.s = text(f, field(def, "name"));
  // `nonlocal x` in it: a call may change this frame's x, which a closure copy would not see;
  // from here on x is not known (never its old value read as known).
  walk(field(def, "body"), [&](TSNode n) {
    if (is(n, "function_definition") || is(n, "lambda") || is(n, "class_definition")) return false;
    if (is(n, "nonlocal_statement"))
      for (TSNode id : namedChildren(n))
        if (is(id, "identifier")) f.env[text(f, id)] = AV::unknown("changed by " + fn.s + " (nonlocal " + text(f, id) + ")");
    return true;
  });
  fn.closure = closureFor(f);
  f.env[fn.s] = fn;
  AV self = fn;  // the body may call itself: its closure names it, the pointer given back on lookup
  self.closure = nullptr;
  self.selfInClosure = true;
  (*fn.closure)[fn.s] = std::move(self);
  if (decorated) {  // its decorators applied, the innermost first
    std::vector<TSNode> decs;
    for (TSNode dn : namedChildren(s))
      if (is(dn, "decorator") && !namedChildren(dn).empty()) decs.push_back(namedChildren(dn)[0]);
    AV v = fn;
    for (auto it = decs.rbegin(); it != decs.rend(); ++it) v = apply(expr(*it, f, p, d + 1), {v}, {}, *it, f, p, d);
    f.env[fn.s] = v;
  }
  return DFlow::Next;
}

DFlow DeclEval::Impl::statement(TSNode s, DFrame& f, DPath& p, int d) {
  step();
  std::string_view ty = type(s);
  if (ty == "expression_statement") return expressionStatement(s, f, p, d);
  if (ty == "return_statement") {
    auto vals = namedChildren(s);
    AV callee;
    bool isCall = !vals.empty() && is(vals[0], "call");
    // `return f(...)` at the entry, `f` a function of the module that makes no IRBuilder (no
    // builder of its own) but may return another module's kernel: `f` runs as the entry.
    if (isCall) callee = expr(field(vals[0], "function"), f, p, d + 1);
    bool asEntry = isCall && f.entry && callee.k == K::Func && !callee.self && callee.mod == root && f.mod == root &&
                   p.decls.empty() && p.tailHelper.empty() && !root->building.count(callee.s) &&
                   returnsImported(*root, callee.s);
    if (asEntry) tailCall = vals[0].id, tailRaised = false, tailOrigin.clear();
    f.retval = vals.empty() ? AV::of(K::None) : expr(vals[0], f, p, d + 1);
    f.retOrigin.clear();
    if (asEntry && tailCall == nullptr) {  // it ran as the entry: its last path is this one
      f.retOrigin = tailOrigin;
      return tailRaised ? DFlow::Raise : DFlow::Return;
    }
    tailCall = nullptr;
    if (isCall) {
      if (callee.k == K::Func) f.retOrigin = callee.s;
      if (f.entry && callee.k == K::Imported && callee.i == 0) dispatchTo(callee, vals[0], f, p);
    }
    return DFlow::Return;
  }
  if (ty == "if_statement") return ifStatement(s, f, p, d);
  if (ty == "for_statement") return forStatement(s, f, p, d);
  if (ty == "while_statement") return whileStatement(s, f, p, d);
  if (ty == "try_statement" || ty == "with_statement") return tryOrWith(s, f, p, d);
  if (ty == "function_definition" || ty == "decorated_definition") return definition(s, f, p, d);
  if (ty == "raise_statement") {
    if (wholeValues) lastRaise = clip(text(f, s), 80);
    return DFlow::Raise;
  }
  if (ty == "break_statement") return DFlow::Break;
  if (ty == "continue_statement") return DFlow::Continue;
  if (ty == "import_from_statement" || ty == "import_statement") {  // as a module-level import
    bool from = ty == "import_from_statement";
    std::string module = from ? text(f, field(s, "module_name")) : "";
    for (TSNode nm : namedChildren(s)) {
      if (from && ts_node_eq(nm, field(s, "module_name"))) continue;
      bool aliased = is(nm, "aliased_import");
      std::string name = text(f, aliased ? field(nm, "name") : nm);
      std::string alias = aliased ? text(f, field(nm, "alias")) : from ? name : name.substr(0, name.find('.'));
      if (!is(nm, "dotted_name") && !aliased) continue;
      f.env[alias] = from ? imported(f.mod, alias, module, name, d) : imported(f.mod, alias, aliased ? name : alias, "", d);
    }
    return DFlow::Next;
  }
  if (ty == "match_statement") return matchStatement(s, f, p, d);
  return DFlow::Next;  // pass, assert, global, del, class: nothing a declaration reads
}

DFlow DeclEval::Impl::ifStatement(TSNode s, DFrame& f, DPath& p, int d) {
  std::vector<std::pair<TSNode, TSNode>> arms{{field(s, "condition"), field(s, "consequence")}};
  TSNode otherwise{};
  for (TSNode part : namedChildren(s)) {
    if (is(part, "elif_clause")) arms.push_back({field(part, "condition"), field(part, "consequence")});
    else if (is(part, "else_clause")) otherwise = field(part, "body");
  }
  return branches(arms, otherwise, nullptr, f, p, d);
}

DFlow DeclEval::Impl::matchStatement(TSNode s, DFrame& f, DPath& p, int d) {
  // `match x: case "a": ... case _: ...` is an if/elif chain over the cases' conditions.
  TSNode subject = field(s, "subject");
  AV value = expr(subject, f, p, d + 1);
  std::vector<std::pair<TSNode, TSNode>> arms;
  for (TSNode cc : namedChildren(field(s, "body")))
    if (is(cc, "case_clause")) arms.push_back({cc, field(cc, "consequence")});
  auto cond = [&](TSNode cc) { return caseCondition(value, subject, cc, f, p, d); };
  return branches(arms, TSNode{}, cond, f, p, d);
}

DFlow DeclEval::Impl::branches(const std::vector<std::pair<TSNode, TSNode>>& arms, TSNode otherwise,
                               const std::function<AV(TSNode)>& condOf, DFrame& f, DPath& p, int d) {
  std::function<DFlow(size_t)> arm = [&](size_t i) -> DFlow {
    if (i == arms.size()) return ts_node_is_null(otherwise) ? DFlow::Next : block(otherwise, f, p, d + 1);
    AV c = condOf ? condOf(arms[i].first) : expr(arms[i].first, f, p, d + 1);
    bool truth = false;
    if (truthKnown(c, &truth)) return truth ? block(arms[i].second, f, p, d + 1) : arm(i + 1);
    Guard g = *symOf(arms[i].first, c, f).g;
    size_t base = p.decls.size(), nconds = p.conds.size();
    DFrame tf = f;
    tf.returns.clear();
    DPath tp = p;
    tp.conds.push_back(g);
    DFlow tfl = block(arms[i].second, tf, tp, d + 1);
    for (auto& r : tf.returns) f.returns.push_back(std::move(r));
    p.conds.push_back(guardNot(g));
    DFlow efl = arm(i + 1);
    bool tOn = tfl == DFlow::Next || tfl == DFlow::Break || tfl == DFlow::Continue;
    bool eOn = efl == DFlow::Next || efl == DFlow::Break || efl == DFlow::Continue;
    // A path that returned keeps the conditions it returned under; one that goes on drops the arm's.
    if (tOn && eOn) {
      tp.conds.resize(nconds);
      p.conds.resize(nconds);
      join(f, p, tf, tp, base, &g);
      return DFlow::Next;
    }
    if (tfl == DFlow::Return) f.returns.push_back({std::move(tp), tf.retval}), f.returns.back().first.origin = tf.retOrigin;
    if (tOn) {  // the else arm returned or raised: the then arm goes on
      if (efl == DFlow::Return) f.returns.push_back({std::move(p), f.retval}), f.returns.back().first.origin = f.retOrigin;
      p = std::move(tp);
      p.conds.resize(nconds);
      f.env = std::move(tf.env);
      if (efl == DFlow::Return) (f.entry ? p.when : p.conds).push_back(g);
      return DFlow::Next;
    }
    if (eOn) {
      p.conds.resize(nconds);
      if (tfl == DFlow::Return) (f.entry ? p.when : p.conds).push_back(guardNot(g));
      return DFlow::Next;
    }
    return efl == DFlow::Return || tfl == DFlow::Return ? (efl == DFlow::Return ? DFlow::Return : DFlow::Raise)
                                                          : DFlow::Raise;
  };
  return arm(0);
}

DFlow DeclEval::Impl::forStatement(TSNode s, DFrame& f, DPath& p, int d) {
  TSNode right = field(s, "right");
  AV it = iterated(expr(right, f, p, d + 1), d);
  DFlow fl = loop(field(s, "body"), field(s, "left"), it, clip(text(f, right), 60), f, p, d);
  if (fl == DFlow::Next)
    for (TSNode part : namedChildren(s))
      if (is(part, "else_clause")) return block(field(part, "body"), f, p, d + 1);
  return fl;
}

DFlow DeclEval::Impl::loop(TSNode body, TSNode target, const AV& iter, const std::string& why, DFrame& f, DPath& p,
                           int d) {
  bool ok = false;
  std::vector<AV> els = ts_node_is_null(target) ? std::vector<AV>{} : elementsOf(iter, &ok);
  if (ok && iter.k == K::Iter) iter.items->clear();  // a `for` over an iterator takes its elements
  if (ok) {
    for (const AV& el : els) {
      size_t nconds = p.conds.size();
      pushConds(p.conds, el.when);
      assign(target, el, f, p, d);
      DFlow fl = block(body, f, p, d + 1);
      p.conds.resize(std::min(p.conds.size(), nconds));
      if (fl == DFlow::Break) break;
      if (fl == DFlow::Return || fl == DFlow::Raise) return fl;
    }
    return DFlow::Next;
  }
  // Elements not known: the body once, with what it binds unknown; a declaration there is named.
  std::string saved = f.loopWhy;
  f.loopWhy = "declared in a loop over " + why + (iter.k == K::Unknown && !iter.s.empty() ? " (" + iter.s + ")" : "");
  if (!ts_node_is_null(target)) assign(target, AV::unknown("bound by a for loop over " + why), f, p, d);
  DFlow fl = block(body, f, p, d + 1);
  f.loopWhy = saved;
  return fl == DFlow::Return || fl == DFlow::Raise ? fl : DFlow::Next;
}

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
