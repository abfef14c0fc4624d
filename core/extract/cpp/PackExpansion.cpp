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
    if (!isNull(call) && pos == 0 && calleeName(c, call) == "apply") from = applySource(c, call, n);
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
