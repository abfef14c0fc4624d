#include "extract/cpp/LaunchCalls.h"

#include "queries/cpp_launch_call.h"

namespace impact::cpp {

void extractLaunches(const Ctx& c, std::vector<CppArgList>& out) {
  static const Query q(Lang::Cpp, queries::cpp_launch_call);
  for (const auto& m : q.matches(c.tree.root())) {
    TSNode method = m.get("method"), args = m.get("args"), call = m.get("call");
    if (isNull(method) || isNull(args) || isNull(call)) continue;
    if (c.text(method) != "launch") continue;
    auto a = items(args);
    if (a.size() < 2) continue;
    bool forwarding = false;
    for (TSNode x : a) forwarding = forwarding || is(x, "parameter_pack_expansion");
    if (forwarding) continue;  // launch(stream, args...) inside a variadic wrapper
    int f = c.functionOf(call);
    CppArgList l;
    l.form = CppArgList::Form::Launch;
    l.range = rangeOf(call);
    if (f >= 0) {
      TSNode def = c.functions[f].node;
      l.symbol = functionName(c, def);
      if (lastComponent(l.symbol) == "launch") continue;  // the wrapper's own forwarding call
      l.fingerprint = codeFingerprint(c.tree, def);
    } else {
      l.fingerprint = codeFingerprint(c.tree, call);
    }
    for (size_t i = 1; i < a.size(); ++i) {
      KernelArg k;
      k.name = collapse(c.text(a[i]));
      k.range = rangeOf(a[i]);
      l.args.push_back(std::move(k));
    }
    l.named = true;
    out.push_back(std::move(l));
  }
}

}  // namespace impact::cpp
