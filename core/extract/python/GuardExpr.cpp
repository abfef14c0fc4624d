// Guards as structure (SPEC R2.2): the condition of a conditional argument or of an early return
// read from the syntax tree into a Guard (model/Guard.h): and / or / not, comparisons (a chain
// `a < b < c` is `a < b and b < c`), names and attributes with local aliases and literal loop
// variables replaced by what they stand for, literals, and calls. A call of a function of this
// module whose body is one `return <expression>` (`_has_shape_params(spec)` → `not
// spec.persistent`) is read through, its parameters bound to the call's arguments; any other call
// is opaque, equal to another when their texts (aliases resolved) are equal.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include <string_view>

namespace impact::pyextract {

namespace {
using Op = GuardNode::Op;

uint32_t leaf(Guard& g, Op op, std::string text) { return addNode(g, GuardNode{op, std::move(text), {}}); }
}  // namespace

struct BuilderExtractor::GuardSubst {
  struct Arg {
    std::string name;
    TSNode value;
    const Scope* scope;
    Use use;
    const Ctx* ctx;
  };
  std::vector<Arg> args;
  const GuardSubst* outer = nullptr;  // the caller's own substitution (nested read-throughs)
};

Guard BuilderExtractor::guardOf(const Ctx& c, const Scope& s) {
  Guard g;
  std::vector<uint32_t> parts;
  for (const Cond& k : c.conds) {
    uint32_t at = ts_node_is_null(k.node) ? leaf(g, Op::Opaque, k.text)
                                          : guardExpr(g, k.node, s, Use{k.use.pos, k.path.get()}, &c, nullptr, 0);
    if (k.negate) at = addNode(g, GuardNode{Op::Not, "", {at}});
    parts.push_back(at);
  }
  if (parts.empty()) return Guard{};
  g.root = parts.size() == 1 ? parts[0] : addNode(g, GuardNode{Op::And, "", parts});
  return g;
}

long BuilderExtractor::singleReturnFunction(const std::string& name) const {
  long found = -1;
  for (size_t j = 0; j < fns_.size(); ++j)
    if (fns_[j].cls.empty() && fns_[j].name == name) found = long(j);  // the last definition wins
  if (found < 0) return -1;
  std::vector<TSNode> stmts;
  for (TSNode st : namedChildren(field(fns_[found].def, "body")))
    if (!is(st, "comment")) stmts.push_back(st);
  if (!stmts.empty() && is(stmts[0], "expression_statement") && ts_node_named_child_count(stmts[0]) == 1 &&
      is(ts_node_named_child(stmts[0], 0), "string"))
    stmts.erase(stmts.begin());  // the docstring
  if (stmts.size() != 1 || !is(stmts[0], "return_statement") || namedChildren(stmts[0]).size() != 1) return -1;
  return found;
}

uint32_t BuilderExtractor::readThrough(Guard& g, TSNode call, long fn, const Scope& s, Use u, const Ctx* ctx,
                                       const GuardSubst* sub, int depth) {
  Args args = argsOf(call);
  GuardSubst inner;
  inner.outer = sub;
  size_t pos = 0;
  for (TSNode p : namedChildren(field(fns_[fn].def, "parameters"))) {
    std::string name;
    bool hasDefault = false;
    if (is(p, "identifier")) name = text(p);
    else if (is(p, "typed_parameter") && ts_node_named_child_count(p) > 0 && is(ts_node_named_child(p, 0), "identifier"))
      name = text(ts_node_named_child(p, 0));
    else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
      name = text(field(p, "name"));
      hasDefault = true;
    } else if (is(p, "keyword_separator") || is(p, "positional_separator") || is(p, "comment")) continue;
    else return UINT32_MAX;  // *args / **kwargs: not read through
    TSNode value = pos < args.pos.size() ? args.pos[pos++] : args.get(SIZE_MAX, {name.c_str()});
    if (ts_node_is_null(value)) {
      if (!hasDefault) return UINT32_MAX;
      value = field(p, "value");
      inner.args.push_back({name, value, &module_, Use{UINT32_MAX, nullptr}, nullptr});
      continue;
    }
    inner.args.push_back({name, value, &s, u, ctx});
  }
  if (pos < args.pos.size()) return UINT32_MAX;
  TSNode ret;
  for (TSNode st : namedChildren(field(fns_[fn].def, "body")))
    if (is(st, "return_statement")) ret = namedChildren(st)[0];
  static const Path kEmpty;
  return guardExpr(g, ret, module_, Use{UINT32_MAX, &kEmpty}, nullptr, &inner, depth + 1);
}

uint32_t BuilderExtractor::guardExpr(Guard& g, TSNode n, const Scope& s, Use u, const Ctx* ctx,
                                     const GuardSubst* sub, int depth) {
  auto opaque = [&] { return leaf(g, Op::Opaque, condText(n, s, u, ctx, 0)); };
  if (ts_node_is_null(n) || depth > 24 || g.nodes.size() > 512 || --condBudget_ < 0) return opaque();
  std::string_view ty = type(n);
  if (ty == "parenthesized_expression") {
    auto ch = namedChildren(n);
    if (ch.size() == 1) return guardExpr(g, ch[0], s, u, ctx, sub, depth + 1);
    return opaque();
  }
  if (ty == "not_operator") {
    uint32_t k = guardExpr(g, field(n, "argument"), s, u, ctx, sub, depth + 1);
    return addNode(g, GuardNode{Op::Not, "", {k}});
  }
  if (ty == "boolean_operator") {
    std::string op(t_.text(field(n, "operator")));
    uint32_t l = guardExpr(g, field(n, "left"), s, u, ctx, sub, depth + 1);
    uint32_t r = guardExpr(g, field(n, "right"), s, u, ctx, sub, depth + 1);
    return addNode(g, GuardNode{op == "or" ? Op::Or : Op::And, "", {l, r}});
  }
  if (ty == "comparison_operator") {
    std::vector<uint32_t> operands;
    std::vector<std::string> ops;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode ch = ts_node_child(n, i);
      if (is(ch, "comment")) continue;
      if (ts_node_is_named(ch)) operands.push_back(guardExpr(g, ch, s, u, ctx, sub, depth + 1));
      else ops.emplace_back(type(ch));
    }
    if (operands.size() != ops.size() + 1 || ops.empty()) return opaque();
    std::vector<uint32_t> links;
    for (size_t i = 0; i < ops.size(); ++i)
      links.push_back(addNode(g, GuardNode{Op::Compare, ops[i], {operands[i], operands[i + 1]}}));
    return links.size() == 1 ? links[0] : addNode(g, GuardNode{Op::And, "", links});
  }
  if (ty == "identifier") {
    std::string nm = text(n);
    for (const GuardSubst* x = sub; x; x = x->outer)
      for (const auto& a : x->args)
        if (a.name == nm) return guardExpr(g, a.value, *a.scope, a.use, a.ctx, x->outer, depth + 1);
    if (ctx)
      for (size_t i = ctx->loops.size(); i-- > 0;)
        if (ctx->loops[i].name == nm) return guardExpr(g, ctx->loops[i].elem, s, u, nullptr, nullptr, depth + 1);
    if (nm == "True" || nm == "False") return leaf(g, Op::Bool, nm == "True" ? "true" : "false");
    if (nm == "None") return leaf(g, Op::None, "");
    if (!s.isModule && u.path) {
      const Binding* b = nullptr;
      TSNode v = resolver_.aliasOf(nm, s, u, &b);
      if (!ts_node_is_null(v) && b) return guardExpr(g, v, s, Use{b->stmtStart, &b->path}, nullptr, nullptr, depth + 1);
    }
    return leaf(g, Op::Name, nm);
  }
  if (ty == "attribute") {
    uint32_t obj = guardExpr(g, field(n, "object"), s, u, ctx, sub, depth + 1);
    if (g.nodes[obj].op == Op::Name) {
      std::string dotted = g.nodes[obj].text + "." + text(field(n, "attribute"));
      if (obj + 1 == g.nodes.size()) g.nodes.pop_back();  // the object's own leaf is not kept
      return leaf(g, Op::Name, dotted);
    }
    return opaque();
  }
  if (ty == "call") {
    TSNode callee = field(n, "function");
    if (is(callee, "identifier") && !sub) {
      long fn = singleReturnFunction(text(callee));
      if (fn >= 0) {
        size_t mark = g.nodes.size();
        uint32_t at = readThrough(g, n, fn, s, u, ctx, sub, depth);
        if (at != UINT32_MAX) return at;
        g.nodes.resize(mark);
      }
    }
    return leaf(g, Op::Call, condText(n, s, u, ctx, 0));
  }
  if (ty == "string") {
    Value v = resolver_.expr(n, s, u, Loops{}, 0);
    if (v.k == VK::Str) return leaf(g, Op::Str, v.str);
    return opaque();
  }
  if (ty == "integer" || ty == "float") return leaf(g, Op::Num, text(n));
  if (ty == "unary_operator") {
    TSNode arg = field(n, "argument");
    if (is(arg, "integer") || is(arg, "float")) return leaf(g, Op::Num, text(n));
    return opaque();
  }
  if (ty == "true" || ty == "false") return leaf(g, Op::Bool, std::string(ty));
  if (ty == "none") return leaf(g, Op::None, "");
  if (ty == "tuple" || ty == "list" || ty == "set") {
    std::vector<uint32_t> kids;
    for (TSNode ch : namedChildren(n)) {
      if (is(ch, "comment")) continue;
      if (is(ch, "list_splat")) return opaque();
      kids.push_back(guardExpr(g, ch, s, u, ctx, sub, depth + 1));
    }
    return addNode(g, GuardNode{Op::Tuple, "", kids});
  }
  return opaque();
}

}  // namespace impact::pyextract
