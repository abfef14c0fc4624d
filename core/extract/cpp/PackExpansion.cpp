#include "extract/cpp/PackExpansion.h"

namespace impact::cpp {
namespace {

// The name a pack expansion expands (`values...` -> "values"); "" for an expression pattern.
std::string expandedName(const Ctx& c, TSNode expansion) {
  TSNode pattern = field(expansion, "pattern");
  if (isNull(pattern)) {
    auto k = items(expansion);
    if (!k.empty()) pattern = k[0];
  }
  return is(pattern, "identifier") ? noSpace(c.text(pattern)) : "";
}

// The parameter list of a lambda (its abstract_function_declarator's).
TSNode parametersOf(TSNode def) {
  for (TSNode d = field(def, "declarator"); !isNull(d); d = field(d, "declarator")) {
    TSNode p = field(d, "parameters");
    if (!isNull(p)) return p;
  }
  return TSNode{};
}

// A variadic parameter named `name` in a parameter list.
bool declaresPack(const Ctx& c, TSNode params, const std::string& name) {
  for (TSNode p : items(params)) {
    if (!is(p, "variadic_parameter_declaration") && c.text(p).find("...") == std::string_view::npos) continue;
    TSNode id = innermostIdentifier(field(p, "declarator"));
    if (!isNull(id) && (name.empty() || noSpace(c.text(id)) == name)) return true;
  }
  return false;
}

// A parameter (variadic or not) named `name`.
bool declaresParameter(const Ctx& c, TSNode params, const std::string& name) {
  for (TSNode p : items(params)) {
    TSNode id = innermostIdentifier(field(p, "declarator"));
    if (!isNull(id) && noSpace(c.text(id)) == name) return true;
  }
  return false;
}

// The call a lambda is an argument of, and at which position (-1: none).
TSNode callTaking(TSNode lambda, int& position) {
  position = -1;
  TSNode list = parentOf(lambda);
  if (!is(list, "argument_list")) return TSNode{};
  auto a = items(list);
  for (size_t i = 0; i < a.size(); ++i)
    if (sameNode(a[i], lambda)) position = static_cast<int>(i);
  TSNode call = parentOf(list);
  return is(call, "call_expression") ? call : TSNode{};
}

// `std::apply(<lambda>, tuple)`: where the tuple comes from. A parameter of an enclosing lambda
// that `std::visit(<that lambda>, v)` calls is an alternative of the std::variant `v`.
std::string applySource(const Ctx& c, TSNode apply, TSNode innerLambda) {
  auto a = items(field(apply, "arguments"));
  if (a.size() < 2) return "from std::apply";
  std::string tuple = collapse(c.text(a[1]));
  for (TSNode n = parentOf(innerLambda); !isNull(n); n = parentOf(n)) {
    if (!is(n, "lambda_expression")) continue;
    if (!is(a[1], "identifier") || !declaresParameter(c, parametersOf(n), tuple)) continue;
    int pos = -1;
    TSNode visit = callTaking(n, pos);
    if (!isNull(visit) && pos == 0 && calleeName(c, visit) == "visit") return "from a std::variant";
    break;
  }
  return "from std::apply over '" + tuple + "'";
}

constexpr int kMaxTupleDepth = 16;  // tuples of tuples, locals initialised with tuples

// The local `name` of the function around `use`, declared before it: its initializer.
TSNode localInitializer(const Ctx& c, const std::string& name, TSNode use) {
  int f = c.functionOf(use);
  if (f < 0) return TSNode{};
  TSNode found{};
  walk(field(c.functions[f].node, "body"), [&](TSNode n) {
    if (ts_node_start_byte(n) >= ts_node_start_byte(use)) return false;
    if (!is(n, "init_declarator")) return true;
    if (declaredName(c, field(n, "declarator")) == name) found = field(n, "value");
    return true;
  });
  // `auto t{std::make_tuple(...)}`: the braces' one element.
  if (is(found, "initializer_list") && items(found).size() == 1) found = items(found)[0];
  return found;
}

// The elements of a tuple the file builds, appended to `out`; false (with `why`) when the
// expression is no tuple the reader can enumerate.
bool tupleElements(const Ctx& c, TSNode e, int depth, std::vector<TSNode>& out, std::string& why) {
  if (depth > kMaxTupleDepth) return why = "tuples nest deeper than the reader follows", false;
  if (is(e, "parenthesized_expression") && items(e).size() == 1) return tupleElements(c, items(e)[0], depth + 1, out, why);
  if (is(e, "identifier")) {
    TSNode init = localInitializer(c, noSpace(c.text(e)), e);
    if (isNull(init)) return why = "'" + noSpace(c.text(e)) + "' is no local this function initialises", false;
    return tupleElements(c, init, depth + 1, out, why);
  }
  if (is(e, "compound_literal_expression") && lastComponent(c.text(field(e, "type"))) == "tuple") {
    for (TSNode x : items(field(e, "value"))) out.push_back(x);
    return true;
  }
  if (!is(e, "call_expression")) return why = "'" + collapse(c.text(e)) + "' is no tuple the file builds", false;
  const std::string callee = calleeName(c, e);
  auto args = items(field(e, "arguments"));
  if (callee == "make_tuple" || callee == "forward_as_tuple" || callee == "tie" || callee == "tuple") {
    out.insert(out.end(), args.begin(), args.end());
    return true;
  }
  if (callee == "tuple_cat") {
    for (TSNode a : args)
      if (!tupleElements(c, a, depth + 1, out, why)) return false;
    return true;
  }
  return why = "'" + collapse(c.text(e)) + "' is no tuple the file builds", false;
}

// A lambda whose only parameter is the pack it expands: std::apply gives it every element.
bool onlyThePack(const Ctx& c, TSNode lambda, const std::string& name) {
  auto ps = items(parametersOf(lambda));
  return ps.size() == 1 && declaresPack(c, parametersOf(lambda), name);
}

}  // namespace

PackUse packUse(const Ctx& c, const std::vector<TSNode>& args, int function) {
  PackUse u;
  size_t at = args.size();
  for (size_t i = 0; i < args.size() && at == args.size(); ++i)
    if (is(args[i], "parameter_pack_expansion")) at = i;
  if (at == args.size()) return u;
  u.at = at;
  std::string name = expandedName(c, args[at]);
  std::string label = name.empty() ? "a parameter pack" : "parameter pack " + name + "...";
  std::string place = at + 1 == args.size() ? "the trailing " + label : label + " and the arguments after it";
  // The nearest lambda declaring the pack.
  for (TSNode n = parentOf(args[at]); !isNull(n); n = parentOf(n)) {
    if (is(n, "function_definition")) break;
    if (!is(n, "lambda_expression") || !declaresPack(c, parametersOf(n), name)) continue;
    int pos = -1;
    TSNode call = callTaking(n, pos);
    std::string from = "a lambda's parameters";
    if (!isNull(call) && pos == 0 && calleeName(c, call) == "apply") {
      auto applied = items(field(call, "arguments"));
      std::vector<TSNode> values;
      std::string why;
      if (applied.size() == 2 && onlyThePack(c, n, name) && tupleElements(c, applied[1], 0, values, why)) {
        u.kind = PackUse::Kind::Values;
        u.values = std::move(values);
        return u;
      }
      from = applySource(c, call, n);
    }
    u.kind = PackUse::Kind::Tail;
    u.what = place + " (" + from + ")";
    return u;
  }
  if (function >= 0 && declaresPack(c, field(functionDeclarator(c.functions[function].node), "parameters"), name)) {
    u.kind = PackUse::Kind::Wrapper;
    return u;
  }
  u.kind = PackUse::Kind::Tail;
  u.what = place + " (declared by no lambda or function parameter of this call)";
  return u;
}

}  // namespace impact::cpp
