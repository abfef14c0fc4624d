// A helper that may declare the builder's arguments for it: `params = emit_param_block(b, names)`
// (rocKE's AOT conv builders; the helper lives in another module, often one that is not in the
// tree). What counts is what the call is, never its name: a function this reader cannot see (one
// imported from a module other than rocKE's IR library, `rocke.*`) or a function of this module
// that reaches a declaration, given the IRBuilder (positionally or by keyword). The first such
// call of a body is where its list stops being known:
// the arguments declared there and after it are not guessed; the list records the helper and
// the module it is imported from, and the comparison says "not compared: arguments after #N are
// declared by <helper> (<module>)". A hook given as a parameter of the builder
// (`extra_params(b) if extra_params is not None else None`) is not such a helper: it resolves to a
// parameter, not to a function of this module or an import.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/DeclEval.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

void BuilderExtractor::helperCall(const Event& ev, const Scope& s, FnFacts& f) {
  TSNode callee = field(ev.node, "function");
  if (!is(callee, "identifier")) return;
  Use u{ts_node_start_byte(ev.node), &ev.ctx.path};
  Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
  bool givenBuilder = false;
  Args args = argsOf(ev.node);
  auto isBuilder = [&](TSNode a) {
    return is(a, "identifier") && resolver_.expr(a, s, u, loops, 0).k == VK::IRBuilder;
  };
  for (TSNode a : args.pos) givenBuilder = givenBuilder || isBuilder(a);
  for (auto& [k, a] : args.kw) givenBuilder = givenBuilder || isBuilder(a);
  if (!givenBuilder) return;
  std::string name = text(callee);
  std::string module;
  bool local = false;
  for (const Fn& fn : fns_) local = local || fn.name == name;
  if (local) {
    if (!eval_->mayDeclare(name)) return;  // it reaches no declaration: it emits code
  } else {
    Value v = resolver_.expr(callee, s, u, loops, 0);
    if (v.k != VK::Module) return;  // a parameter (a hook) or a value: not a helper of this kind
    const std::string pre = "imported from ";
    if (v.str.rfind(pre, 0) != 0) return;
    std::string from = v.str.substr(pre.size());
    if (!mayHoldDeclaringHelpers(from)) return;  // rocKE's IR library: it emits code
    module = modulePathOf(from);
  }
  f.tailHelper = name;
  f.tailModule = local ? "" : module;
  f.tailCall = text(ev.node).substr(0, 200);
  f.tailAt = f.params.size();
  f.hasParams = true;  // a builder even when the helper declares every argument
}

}  // namespace impact::pyextract
