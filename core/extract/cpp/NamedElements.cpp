#include "extract/cpp/NamedElements.h"

namespace impact::cpp {

namespace {

// `KernelArgument name{...}` (or `= {...}` / `= KernelArgument{...}`, `auto name =
// KernelArgument{...}`, an alias of the type) declared in `scope` before `before`: its braces,
// else a null node.
TSNode declaredBraces(const Ctx& c, TSNode scope, std::string_view name, uint32_t before) {
  TSNode found{};
  walk(scope, [&](TSNode n) {
    if (ts_node_start_byte(n) >= before) return false;
    if (!is(n, "declaration")) return true;
    for (TSNode d : items(n)) {
      if (!is(d, "init_declarator") || c.types.ofDeclared(n, d) != KaKind::Element) continue;
      if (declaredName(c, field(d, "declarator")) != name) continue;
      TSNode v = field(d, "value");
      if (is(v, "compound_literal_expression")) v = field(v, "value");
      if (is(v, "initializer_list")) found = v;  // the last one before the use wins
    }
    return false;
  });
  return found;
}

}  // namespace

TSNode namedElementBraces(const Ctx& c, TSNode element) {
  if (!is(element, "identifier")) return TSNode{};
  int f = c.functionOf(element);
  if (f < 0) return TSNode{};
  TSNode braces = declaredBraces(c, c.functions[f].node, c.text(element), ts_node_start_byte(element));
  if (isNull(braces)) return TSNode{};
  auto k = items(braces);
  if (k.size() != 3 && k.size() != 4) return TSNode{};
  return braces;
}

}  // namespace impact::cpp
