// The builder evaluator (DeclEval.h): statements, branches and loops (a call of a value is
// DeclEvalApply.cpp). Where names get their values (assignment
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

}  // namespace impact::pyextract
