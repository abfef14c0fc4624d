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
    bool seen = std::any_of(f.hooks.begin(), f.hooks.end(), [&](const PyHook& h) { return h.name == name; });
    if (passesBuilder && !seen) {
      PyHook h;
      h.name = name;
      h.function = fn.name;
      std::pair<uint32_t, uint32_t> before{0, 0};  // the last b.param before the call
      for (const KernelArg& a : f.params)
        if (std::pair{a.range.line, a.range.col} < std::pair{at.row, at.column} &&
            std::pair{a.range.line, a.range.col} >= before) {
          before = {a.range.line, a.range.col};
          h.after = a.name;
        }
      f.hooks.push_back(std::move(h));
    }
    return true;
  });
}

bool BuilderExtractor::passesParameter(TSNode call, size_t fn, const std::string& param) {
  Args args = argsOf(call);
  for (const auto& [k, v] : args.kw)
    if (k == param) return !is(v, "none");  // `extra_params=None` gives none
  // `**kwargs` or `*args` in the call: it may.
  for (TSNode a : namedChildren(field(call, "arguments")))
    if (is(a, "dictionary_splat") || is(a, "list_splat")) return true;
  size_t pos = 0;
  // `self._impl(...)` / `cls._impl(...)`: the method's first parameter is the receiver.
  bool skipReceiver = !fns_[fn].cls.empty() && is(field(call, "function"), "attribute");
  for (TSNode p : namedChildren(field(fns_[fn].def, "parameters"))) {
    if (is(p, "keyword_separator") || is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern")) break;
    if (is(p, "positional_separator") || is(p, "comment")) continue;
    std::string name;
    if (is(p, "identifier")) name = text(p);
    else if (is(p, "typed_parameter") && ts_node_named_child_count(p) > 0) name = text(ts_node_named_child(p, 0));
    else name = text(field(p, "name"));
    if (skipReceiver) {
      skipReceiver = false;
      continue;
    }
    if (name == param) return pos < args.pos.size() && !is(args.pos[pos], "none");
    ++pos;
  }
  return false;
}

}  // namespace impact::pyextract
