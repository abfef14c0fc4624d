#include "extract/cpp/SymbolsAndKmdReads.h"

#include <algorithm>

#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {

static bool isMetadataRead(std::string_view method) {
  // getIntMetadata, getStringMetadata (and other get*Metadata); tryGetMetadata is "may be absent".
  return method.starts_with("get") && method.ends_with("Metadata") && method.size() > 11;
}

// The *_FIELD constant (or any identifier) an argument reads through.
static std::string fieldConstantIn(const Ctx& c, TSNode arg) {
  std::string found, any;
  walk(arg, [&](TSNode n) {
    if (!found.empty()) return false;
    if (is(n, "identifier") || is(n, "qualified_identifier")) {
      std::string t = lastComponent(c.text(n));
      if (t.ends_with("_FIELD")) found = noSpace(c.text(n));
      else if (any.empty() && c.constants.count(t)) any = noSpace(c.text(n));
      return false;
    }
    return true;
  });
  return found.empty() ? any : found;
}

// Is `receiver` a parameter of the function around `call` declared as a SymbolScope
// (`void registerXSymbols(SymbolScope<Handle>& scope)`)?
static bool isSymbolScopeParameter(const Ctx& c, TSNode call, std::string_view receiver) {
  int fi = c.functionOf(call);
  if (fi < 0) return false;
  TSNode params = field(functionDeclarator(c.functions[fi].node), "parameters");
  for (TSNode p : items(params)) {
    if (!is(p, "parameter_declaration")) continue;
    TSNode id = innermostIdentifier(field(p, "declarator"));
    if (isNull(id) || c.text(id) != receiver) continue;
    return c.text(field(p, "type")).find("SymbolScope") != std::string_view::npos;
  }
  return false;
}

// Symbols registered by a literal: `scope.add("hipkernel.rocke_sdpa.score", &score);` on a
// SymbolScope parameter. The literal is a pack symbol like a constant (a constant given to
// `add` is one already: only literals are added here). `call` is a call_expression.
static void registeredLiteral(const Ctx& c, const Evaluator& ev, TSNode call, CppSymbolFacts& out) {
  TSNode fn = field(call, "function");
  if (!is(fn, "field_expression") || c.text(field(fn, "field")) != "add") return;
  TSNode receiver = field(fn, "argument");
  if (!is(receiver, "identifier")) return;
  auto args = items(field(call, "arguments"));
  if (args.size() != 2 ||
      !(is(args[0], "string_literal") || is(args[0], "concatenated_string") || is(args[0], "raw_string_literal")))
    return;
  if (!isSymbolScopeParameter(c, call, c.text(receiver))) return;
  auto v = ev.str(args[0], c.siteOf(call), 0);
  if (!v) return;
  CppStringConstant k;
  k.name = std::string(c.text(receiver)) + ".add";
  k.qualified = functionName(c, c.functions[c.functionOf(call)].node);
  k.value = *v;
  SourceRange r = rangeOf(args[0]);
  k.line = r.line;
  k.col = r.col;
  out.constants.push_back(std::move(k));
}

void extractSymbols(const Ctx& c, CppSymbolFacts& out) {
  // String constants, in source order.
  std::vector<const Constant*> all;
  for (const auto& [name, ks] : c.constants)
    for (const Constant& k : ks) all.push_back(&k);
  std::sort(all.begin(), all.end(), [](const Constant* a, const Constant* b) {
    return ts_node_start_byte(a->value) < ts_node_start_byte(b->value);
  });
  Evaluator ev{c, nullptr};
  for (const Constant* k : all) {
    if (k->site.function >= 0) continue;  // a local, not a registered symbol
    auto v = ev.str(k->value, k->site, 0);
    if (!v) continue;
    CppStringConstant s;
    s.name = isNull(k->id) ? lastComponent(k->qualified) : noSpace(c.text(k->id));
    s.qualified = k->qualified;
    s.value = *v;
    SourceRange r = rangeOf(isNull(k->id) ? k->value : k->id);
    s.line = r.line;
    s.col = r.col;
    out.constants.push_back(std::move(s));
  }
  // Literals registered on the symbol scope, KMD reads and includes.
  for (TSNode n : c.matches.of(NodeKind::PreprocInclude)) {
    std::string_view t = c.text(field(n, "path"));
    if (t.size() >= 2) out.includes.emplace_back(t.substr(1, t.size() - 2));
  }
  for (TSNode n : c.matches.of(NodeKind::CallExpression)) {
    registeredLiteral(c, ev, n, out);
    TSNode fn = field(n, "function");
    std::string method;
    if (is(fn, "field_expression")) method = std::string(c.text(field(fn, "field")));
    else if (is(fn, "identifier") || is(fn, "qualified_identifier")) method = lastComponent(c.text(fn));
    if (!isMetadataRead(method)) continue;
    auto args = items(field(n, "arguments"));
    if (args.empty()) continue;
    Site site = c.siteOf(n);
    CppKmdRead r;
    r.method = method;
    r.constant = fieldConstantIn(c, args[0]);
    auto v = ev.str(args[0], site, 0);
    if (!v && !r.constant.empty()) {
      if (const Constant* k = lookup(c, r.constant, site)) v = ev.str(k->value, k->site, 0);
    }
    if (!v) continue;  // a field name computed at run time: nothing to compare
    r.field = *v;
    SourceRange rg = rangeOf(n);
    r.line = rg.line;
    r.col = rg.col;
    out.kmdReads.push_back(std::move(r));
  }
}

}  // namespace impact::cpp
