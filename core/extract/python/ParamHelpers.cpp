// A helper that declares the builder's arguments for it: `params = emit_param_block(b, names)`
// (rocKE's AOT conv builders; the helper lives in another module, often one that is not in the
// tree). A call counts as one when its function is a plain name that says it declares
// parameters (the name contains "param": emit_param_block, emit_direct_params) and one of its
// positional arguments is the IRBuilder. The builder's list is then known only up to that call:
// the arguments declared there and after it are not guessed; the list records the helper and
// the module it is imported from, and the comparison says "not compared: arguments after #N are
// declared by <helper> (<module>)". A hook given as a parameter of the builder
// (`extra_params(b) if extra_params is not None else None`) is not such a helper: it resolves to a
// parameter, not to a function of this module or an import.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {
namespace {

// "kernels.common._conv_implicit_gemm_common" -> "kernels/common/_conv_implicit_gemm_common.py";
// a relative import is kept as written.
std::string modulePath(std::string from) {
  if (from.empty() || from.front() == '.') return from;
  for (char& ch : from)
    if (ch == '.') ch = '/';
  return from + ".py";
}

}  // namespace

void BuilderExtractor::helperCall(const Event& ev, const Scope& s, FnFacts& f) {
  TSNode callee = field(ev.node, "function");
  if (!is(callee, "identifier")) return;
  Use u{ts_node_start_byte(ev.node), &ev.ctx.path};
  Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
  bool givenBuilder = false;
  for (TSNode a : argsOf(ev.node).pos)
    if (is(a, "identifier") && resolver_.expr(a, s, u, loops, 0).k == VK::IRBuilder) givenBuilder = true;
  if (!givenBuilder) return;
  std::string name = text(callee);
  std::string module;
  bool local = false;
  for (const Fn& fn : fns_) local = local || fn.name == name;
  if (!local) {
    Value v = resolver_.expr(callee, s, u, loops, 0);
    if (v.k != VK::Module) return;  // a parameter (a hook) or a value: not a helper of this kind
    const std::string pre = "imported from ";
    if (v.str.rfind(pre, 0) == 0) module = modulePath(v.str.substr(pre.size()));
  }
  f.tailHelper = name;
  f.tailModule = local ? "" : module;
  f.tailAt = f.params.size();
  f.hasParams = true;  // a builder even when the helper declares every argument
}

}  // namespace impact::pyextract
