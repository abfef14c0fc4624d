// Hooks of a builder (issue 16, form 3): a parameter of the builder called with its IRBuilder
// (`extra_context = extra_params(b) if extra_params is not None else None`) can insert arguments
// of its own between the b.param calls. The list stays the b.param calls (an entry point that
// passes no hook declares exactly those); the hook's name is kept so rows can say it is there.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include <algorithm>

namespace impact::pyextract {

void BuilderExtractor::hooksOf(size_t i) {
  const Fn& fn = fns_[i];
  FnFacts& f = facts_[i];
  const Scope& s = *scopes_[i];
  if (!f.hasParams) return;
  static const Path kTop;
  // Only a call before the last b.param: between the calls the list is made of.
  std::pair<uint32_t, uint32_t> last{0, 0};
  for (const KernelArg& a : f.params) last = std::max(last, std::pair{a.range.line, a.range.col});
  walk(field(fn.def, "body"), [&](TSNode n) {
    if (f.hooks.size() >= 16) return false;
    if (is(n, "function_definition") || is(n, "class_definition") || is(n, "lambda")) return false;
    if (!is(n, "call")) return true;
    TSPoint at = ts_node_start_point(n);
    if (std::pair{at.row, at.column} >= last) return false;
    TSNode callee = field(n, "function");
    if (!is(callee, "identifier")) return true;
    std::string name = text(callee);
    auto it = s.names.find(name);
    if (it == s.names.end()) return true;
    bool param = std::any_of(it->second.begin(), it->second.end(),
                             [](const Binding& b) { return b.kind == Binding::Param; });
    if (!param) return true;
    Use u{ts_node_start_byte(n), &kTop};
    Args args = argsOf(n);
    bool passesBuilder = false;
    for (TSNode a : args.pos)
      passesBuilder = passesBuilder || resolver_.expr(a, s, u, Loops{}, 0).k == VK::IRBuilder;
    for (auto& [k, v] : args.kw)
      passesBuilder = passesBuilder || resolver_.expr(v, s, u, Loops{}, 0).k == VK::IRBuilder;
    if (passesBuilder && std::find(f.hooks.begin(), f.hooks.end(), name) == f.hooks.end()) f.hooks.push_back(name);
    return true;
  });
}

}  // namespace impact::pyextract
