#include "extract/python/BindingWalk.h"
#include "extract/python/Nodes.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "extract/python/Limits.h"
#include "extract/python/Literals.h"

namespace impact::pyextract {
namespace {

// Does a call pass a plain name, by position or keyword (`f(b, ...)`, `f(builder=b)`)? Only such a
// call can be given the IRBuilder; the others are not recorded as helper calls (a keystroke walks
// every call of a 4,600-line builder).
bool namesAnArgument(TSNode args) {
  for (TSNode a : namedChildren(args)) {
    if (is(a, "keyword_argument")) a = field(a, "value");
    if (is(a, "identifier")) return true;
  }
  return false;
}

// Walks a function body (or the module's top level) in source order.
class Walker {
 public:
  Walker(const SyntaxTree& t, Scope& scope, std::vector<Event>* events, const Scope* moduleScope)
      : t_(t), scope_(scope), events_(events), module_(moduleScope) {}

  void walkModule(TSNode module) {
    Ctx c;
    for (TSNode ch : namedChildren(module)) visit(ch, c, 1);
    finish();
  }

  void walkFunction(TSNode def) {
    Ctx c;
    bindParameters(field(def, "parameters"));
    TSNode body = field(def, "body");
    for (TSNode ch : namedChildren(body)) visit(ch, c, 1);
    finish();
  }

 private:
  const SyntaxTree& t_;
  Scope& scope_;
  std::vector<Event>* events_;
  const Scope* module_;
  uint32_t effectiveAt_ = 0;  // non-zero: where the binding being made starts to hold

  std::string str(TSNode n) const { return std::string(t_.text(n)); }
  void finish() {
    for (auto& [name, v] : scope_.names)
      std::stable_sort(v.begin(), v.end(),
                       [](const Binding& a, const Binding& b) { return a.effective < b.effective; });
  }

  static uint64_t branchId(TSNode n) { return (uint64_t(ts_node_start_byte(n)) << 32) | ts_node_end_byte(n); }

  void bind(const std::string& name, Binding b, uint32_t stmtStart) {
    if (name.empty()) return;
    if (!scope_.seen.insert({stmtStart, name}).second) return;
    b.stmtStart = stmtStart;
    scope_.names[name].push_back(std::move(b));
  }

  Binding base(Binding::Kind k, TSNode stmt, const Ctx& c) {
    Binding b;
    b.kind = k;
    b.effective = effectiveAt_ ? effectiveAt_ : ts_node_end_byte(stmt);
    b.path = c.path;
    return b;
  }

  void bindParameters(TSNode params) {
    for (TSNode p : namedChildren(params)) {
      TSNode id{};
      if (is(p, "identifier")) id = p;
      else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) id = field(p, "name");
      else if (is(p, "typed_parameter") || is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern")) {
        for (TSNode ch : namedChildren(p)) {
          if (is(ch, "identifier")) { id = ch; break; }
          if (is(ch, "list_splat_pattern") || is(ch, "dictionary_splat_pattern")) {
            for (TSNode g : namedChildren(ch))
              if (is(g, "identifier")) { id = g; break; }
            break;
          }
        }
      }
      if (!is(id, "identifier")) continue;
      Binding b;
      b.kind = Binding::Param;
      b.effective = 0;
      bind(str(id), std::move(b), ts_node_start_byte(id));
    }
  }

  // Binds an assignment-like target to a value expression (null value: unknown, `why`).
  void bindTarget(TSNode target, TSNode value, TSNode stmt, const Ctx& c, Binding::Kind kind,
                  const std::string& why, int depth) {
    if (depth > 16 || ts_node_is_null(target)) return;
    if (is(target, "identifier")) {
      Binding b = base(ts_node_is_null(value) ? kind : Binding::Assign, stmt, c);
      if (ts_node_is_null(value)) b.what = why;
      else b.value = value;
      bind(str(target), std::move(b), ts_node_start_byte(stmt));
      return;
    }
    if (is(target, "pattern_list") || is(target, "tuple_pattern") || is(target, "list_pattern") ||
        is(target, "tuple") || is(target, "list") || is(target, "expression_list") ||
        is(target, "parenthesized_expression")) {
      std::vector<TSNode> ts = namedChildren(target), vs;
      if (!ts_node_is_null(value) &&
          (is(value, "expression_list") || is(value, "tuple") || is(value, "list") || is(value, "pattern_list")))
        vs = namedChildren(value);
      bool pair = vs.size() == ts.size() && !ts.empty();
      for (TSNode v : vs)
        if (is(v, "list_splat") || is(v, "comment")) pair = false;
      for (size_t i = 0; i < ts.size(); ++i) {
        if (pair) bindTarget(ts[i], vs[i], stmt, c, kind, why, depth + 1);
        else
          bindTarget(ts[i], TSNode{}, stmt, c, kind == Binding::Assign ? Binding::Other : kind,
                     why.empty() ? "unpacked from " + clip(t_.text(value)) : why, depth + 1);
      }
      return;
    }
    if (is(target, "list_splat_pattern") || is(target, "list_splat")) {
      for (TSNode ch : namedChildren(target))
        bindTarget(ch, TSNode{}, stmt, c, Binding::Other, "unpacked with *", depth + 1);
    }
    // attribute / subscript targets bind no name
  }

  void visitAssignment(TSNode n, Ctx& c, int depth) {
    TSNode left = field(n, "left"), right = field(n, "right");
    if (ts_node_is_null(right)) return;  // annotation only
    visit(right, c, depth + 1);
    TSNode value = right;
    int guard = 0;
    while (is(value, "assignment") && guard++ < 64) value = field(value, "right");  // a = b = X
    bindTarget(left, value, n, c, Binding::Assign, "", 0);
  }

  void visitImport(TSNode n, const Ctx& c) {
    if (is(n, "import_statement")) {
      for (TSNode ch : namedChildren(n)) {
        Binding b = base(Binding::ImportModule, n, c);
        if (is(ch, "dotted_name")) {
          b.what = str(ch);
          auto ids = namedChildren(ch);
          if (!ids.empty()) bind(str(ids[0]), std::move(b), ts_node_start_byte(n));
        } else if (is(ch, "aliased_import")) {
          b.what = str(field(ch, "name"));
          bind(str(field(ch, "alias")), std::move(b), ts_node_start_byte(n));
        }
      }
      return;
    }
    TSNode mod = field(n, "module_name");
    std::string from = str(mod);
    for (TSNode ch : namedChildren(n)) {
      if (ts_node_eq(ch, mod)) continue;
      if (is(ch, "wildcard_import")) continue;
      Binding b = base(Binding::ImportName, n, c);
      b.from = from;
      if (is(ch, "dotted_name")) {
        b.what = str(ch);
        auto ids = namedChildren(ch);
        if (!ids.empty()) bind(str(ids.back()), std::move(b), ts_node_start_byte(n));
      } else if (is(ch, "aliased_import")) {
        b.what = str(field(ch, "name"));
        bind(str(field(ch, "alias")), std::move(b), ts_node_start_byte(n));
      }
    }
  }

  void record(Event::Type type, TSNode n, const Ctx& c) {
    if (!events_ || events_->size() >= kMaxEvents) return;
    events_->push_back(Event{type, n, c});
  }

  void pushCond(Ctx& c, TSNode cond, bool negate, std::string text = "") {
    Cond k;
    k.node = cond;
    k.negate = negate;
    k.text = std::move(text);
    k.path = std::make_shared<Path>(c.path);
    k.use = Use{ts_node_is_null(cond) ? 0u : ts_node_start_byte(cond), nullptr};
    c.conds.push_back(std::move(k));
  }

  // Visits a body that may not run (a branch, a loop or try body): a binding made inside does
  // not always hold after it. Conditions are pushed separately (try/loop bodies push none).
  template <class F>
  void branch(Ctx& c, TSNode id, F&& body) {
    c.path.push_back(branchId(id));
    body();
    c.path.pop_back();
  }

  // Elements of a literal tuple/list (following names bound to one), or nullopt.
  std::optional<std::vector<TSNode>> literalSeq(TSNode e, const Ctx& c, int depth) {
    if (depth > 32 || ts_node_is_null(e)) return std::nullopt;
    if (is(e, "parenthesized_expression")) {
      auto ch = namedChildren(e);
      if (ch.size() != 1) return std::nullopt;
      return literalSeq(ch[0], c, depth + 1);
    }
    if (is(e, "tuple") || is(e, "list") || is(e, "expression_list")) return literalElements(e);
    if (is(e, "identifier")) {
      std::string n = str(e);
      for (size_t i = c.loops.size(); i-- > 0;)
        if (c.loops[i].name == n) return literalSeq(c.loops[i].elem, c, depth + 1);
      Use u{ts_node_start_byte(e), &c.path};
      bool anyLocal = false;
      auto cs = candidates(scope_, n, u, &anyLocal);
      if (cs.empty() && !anyLocal && module_ && module_ != &scope_) {
        Path empty;
        cs = candidates(*module_, n, Use{UINT32_MAX, &empty}, nullptr);
      }
      if (cs.size() != 1 || cs[0]->kind != Binding::Assign) return std::nullopt;
      Ctx none;
      return literalSeq(cs[0]->value, none, depth + 1);
    }
    return std::nullopt;
  }

  void visitFor(TSNode n, Ctx& c, int depth) {
    TSNode left = field(n, "left"), right = field(n, "right"), body = field(n, "body");
    visit(right, c, depth + 1);
    effectiveAt_ = ts_node_end_byte(left);  // the loop variable holds inside the body
    bindTarget(left, TSNode{}, n, c, Binding::Loop, "bound by a for loop over " + clip(t_.text(right)), 0);
    effectiveAt_ = 0;
    auto elems = literalSeq(right, c, 0);
    std::vector<TSNode> targets;
    bool tupleTarget = false;
    if (is(left, "identifier")) targets.push_back(left);
    else if (is(left, "pattern_list") || is(left, "tuple_pattern") || is(left, "list_pattern")) {
      tupleTarget = true;
      for (TSNode ch : namedChildren(left)) {
        if (!is(ch, "identifier")) { targets.clear(); break; }
        targets.push_back(ch);
      }
    }
    bool unroll = elems && !elems->empty() && elems->size() <= kMaxUnroll && !targets.empty();
    std::vector<std::vector<TSNode>> perElem;
    if (unroll) {
      for (TSNode el : *elems) {
        std::vector<TSNode> vals;
        if (!tupleTarget) vals.push_back(el);
        else {
          TSNode x = el;
          if (is(x, "parenthesized_expression") && ts_node_named_child_count(x) == 1) x = ts_node_named_child(x, 0);
          if (!(is(x, "tuple") || is(x, "list"))) { unroll = false; break; }
          vals = namedChildren(x);
          if (vals.size() != targets.size()) { unroll = false; break; }
        }
        perElem.push_back(std::move(vals));
      }
    }
    if (unroll) {
      // A non-empty literal loop always runs its body: no branch for definiteness.
      for (auto& vals : perElem) {
        size_t mark = c.loops.size();
        for (size_t i = 0; i < targets.size(); ++i)
          c.loops.push_back(LoopVar{str(targets[i]), vals[i], ts_node_start_byte(n)});
        visit(body, c, depth + 1);
        c.loops.resize(mark);
        if (events_ && events_->size() >= kMaxEvents) break;
      }
    } else {
      branch(c, body, [&] { visit(body, c, depth + 1); });
    }
    TSNode alt = field(n, "alternative");
    if (!ts_node_is_null(alt)) branch(c, alt, [&] { visit(alt, c, depth + 1); });
  }

  void visitIf(TSNode n, Ctx& c, int depth) {
    TSNode cond = field(n, "condition");
    visit(cond, c, depth + 1);
    bool litTrue = is(cond, "true");
    std::vector<TSNode> priors;
    {
      size_t mark = c.conds.size();
      if (!litTrue) pushCond(c, cond, false);
      TSNode cons = field(n, "consequence");
      if (litTrue) visit(cons, c, depth + 1);
      else branch(c, cons, [&] { visit(cons, c, depth + 1); });
      c.conds.resize(mark);
    }
    priors.push_back(cond);
    for (TSNode alt : namedChildren(n)) {
      bool elif = is(alt, "elif_clause");
      if (!elif && !is(alt, "else_clause")) continue;
      size_t mark = c.conds.size();
      for (TSNode p : priors) pushCond(c, p, true);
      TSNode econd{};
      if (elif) {
        econd = field(alt, "condition");
        visit(econd, c, depth + 1);
        pushCond(c, econd, false);
      }
      TSNode body = field(alt, elif ? "consequence" : "body");
      branch(c, alt, [&] { visit(body, c, depth + 1); });
      c.conds.resize(mark);
      if (elif) priors.push_back(econd);
    }
  }

  void visit(TSNode n, Ctx& c, int depth) {
    if (ts_node_is_null(n) || depth > kMaxVisitDepth) return;
    if (events_ && events_->size() >= kMaxEvents) return;
    std::string_view ty = type(n);
    if (ty == "comment") return;
    if (ty == "function_definition" || ty == "class_definition") {
      Binding b = base(Binding::Other, n, c);
      b.what = ty == "class_definition" ? "a class" : "a function";
      bind(str(field(n, "name")), std::move(b), ts_node_start_byte(n));
      return;
    }
    if (ty == "decorated_definition") {
      visit(field(n, "definition"), c, depth + 1);
      return;
    }
    if (ty == "lambda") return;
    if (ty == "if_statement") return visitIf(n, c, depth);
    if (ty == "for_statement") return visitFor(n, c, depth);
    if (ty == "while_statement") {
      visit(field(n, "condition"), c, depth + 1);
      TSNode body = field(n, "body");
      branch(c, body, [&] { visit(body, c, depth + 1); });
      TSNode alt = field(n, "alternative");
      if (!ts_node_is_null(alt)) branch(c, alt, [&] { visit(alt, c, depth + 1); });
      return;
    }
    if (ty == "try_statement") {
      TSNode body = field(n, "body");
      branch(c, body, [&] { visit(body, c, depth + 1); });
      for (TSNode ch : namedChildren(n)) {
        if (ts_node_eq(ch, body)) continue;
        if (is(ch, "finally_clause")) visit(ch, c, depth + 1);  // always runs
        else branch(c, ch, [&] { visit(ch, c, depth + 1); });
      }
      return;
    }
    if (ty == "except_clause") {
      TSNode alias = field(n, "alias");
      if (!ts_node_is_null(alias)) {
        effectiveAt_ = ts_node_end_byte(alias);
        bindTarget(alias, TSNode{}, n, c, Binding::Other, "an exception", 0);
        effectiveAt_ = 0;
      }
      for (TSNode ch : namedChildren(n))
        if (!ts_node_eq(ch, alias)) visit(ch, c, depth + 1);
      return;
    }
    if (ty == "with_item") {
      TSNode v = field(n, "value");
      visit(v, c, depth + 1);
      if (is(v, "as_pattern")) {
        TSNode alias = field(v, "alias");
        auto ch = namedChildren(v);
        TSNode expr = ch.empty() ? TSNode{} : ch[0];
        TSNode target = alias;
        if (is(target, "as_pattern_target") && ts_node_named_child_count(target) == 1)
          target = ts_node_named_child(target, 0);
        bindTarget(target, expr, n, c, Binding::Assign, "", 0);
      }
      return;
    }
    if (ty == "match_statement") {
      TSNode subject = field(n, "subject");
      visit(subject, c, depth + 1);
      TSNode body = field(n, "body");
      for (TSNode cc : namedChildren(body)) {
        if (!is(cc, "case_clause")) continue;
        std::string pats;
        for (TSNode p : namedChildren(cc))
          if (is(p, "case_pattern")) pats += (pats.empty() ? "" : ", ") + str(p);
        size_t mark = c.conds.size();
        if (pats != "_") pushCond(c, TSNode{}, false, "match " + str(subject) + ": case " + pats);
        TSNode cons = field(cc, "consequence");
        branch(c, cc, [&] { visit(cons, c, depth + 1); });
        c.conds.resize(mark);
      }
      return;
    }
    if (ty == "conditional_expression") {
      auto ch = namedChildren(n);
      if (ch.size() == 3) {
        visit(ch[1], c, depth + 1);
        size_t mark = c.conds.size();
        pushCond(c, ch[1], false);
        branch(c, ch[0], [&] { visit(ch[0], c, depth + 1); });
        c.conds.resize(mark);
        pushCond(c, ch[1], true);
        branch(c, ch[2], [&] { visit(ch[2], c, depth + 1); });
        c.conds.resize(mark);
        return;
      }
    }
    if (ty == "assignment") return visitAssignment(n, c, depth);
    if (ty == "augmented_assignment") {
      visit(field(n, "right"), c, depth + 1);
      bindTarget(field(n, "left"), TSNode{}, n, c, Binding::Other, "changed by an augmented assignment", 0);
      return;
    }
    if (ty == "named_expression") {
      visit(field(n, "value"), c, depth + 1);
      bindTarget(field(n, "name"), field(n, "value"), n, c, Binding::Assign, "", 0);
      return;
    }
    if (ty == "import_statement" || ty == "import_from_statement") return visitImport(n, c);
    if (ty == "call") {
      TSNode fn = field(n, "function");
      visit(fn, c, depth + 1);  // the receiver chain first: source order of chained calls
      if (is(fn, "attribute")) {
        std::string_view m = t_.text(field(fn, "attribute"));
        if (m == "param") record(Event::Param, n, c);
        else if (m == "ptr" || m == "scalar" || m == "extend") record(Event::SigMethod, n, c);
      } else if (is(fn, "identifier") && namesAnArgument(field(n, "arguments"))) {
        record(Event::HelperCall, n, c);  // `f(b, ...)`: is it a function the reader cannot see? ParamHelpers.cpp
      }
      visit(field(n, "arguments"), c, depth + 1);
      return;
    }
    if (ty == "return_statement") {
      record(Event::Return, n, c);
      for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
      return;
    }
    if (ty == "list_comprehension" || ty == "set_comprehension" || ty == "dictionary_comprehension" ||
        ty == "generator_expression") {
      // Own scope; any call inside runs zero or more times.
      branch(c, n, [&] {
        for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
      });
      return;
    }
    for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
  }
};

}  // namespace

void walkModule(const SyntaxTree& t, TSNode module, Scope& scope) {
  Walker w(t, scope, nullptr, &scope);
  w.walkModule(module);
}

void walkFunction(const SyntaxTree& t, TSNode def, Scope& scope, std::vector<Event>& events, const Scope* moduleScope) {
  Walker w(t, scope, &events, moduleScope);
  w.walkFunction(def);
}

}  // namespace impact::pyextract
