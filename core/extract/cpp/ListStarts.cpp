// How a vector a function appends KernelArguments to starts (LambdaIdiom.cpp's direct form): empty,
// as a helper's list of the file, or as what a call returns whose list is not read.
#include "extract/cpp/ListStarts.h"

#include <algorithm>

#include "extract/cpp/KaTypes.h"

namespace impact::cpp {

// A local `std::vector<KernelArgument> v;` (an alias of one, `auto v =
// std::vector<KernelArgument>{};`) declared without elements (`v;`, `v{}`, `v()`): the vector the
// direct appends of its function build.
std::string emptyKernelArgumentVector(const Ctx& c, TSNode decl) {
  TSNode d = field(decl, "declarator");
  if (c.types.ofDeclared(decl, d) != KaKind::List) return "";
  if (is(d, "identifier")) return std::string(c.text(d));
  if (!is(d, "init_declarator") || !is(field(d, "declarator"), "identifier")) return "";
  TSNode v = field(d, "value");
  if (is(v, "compound_literal_expression")) v = field(v, "value");
  if ((is(v, "initializer_list") || is(v, "argument_list")) && items(v).empty())
    return std::string(c.text(field(d, "declarator")));
  return "";
}

// The list a call of one of the file's functions returns: the one list read in that function
// (a static list returned, a list built by appends); null when none or several.
const CppArgList* helperList(const Ctx& c, TSNode call, int f, const std::vector<const CppArgList*>& pool) {
  if (!is(call, "call_expression")) return nullptr;
  if (!is(field(call, "function"), "identifier") && !is(field(call, "function"), "qualified_identifier")) return nullptr;
  const std::string callee = calleeName(c, call);
  const std::string self = f < 0 ? "" : functionName(c, c.functions[f].node);
  const CppArgList* found = nullptr;
  for (const CppArgList* l : pool) {
    if (l->symbol.empty() || l->symbol == self || lastComponent(l->symbol) != callee) continue;
    if (found) return nullptr;
    found = l;
  }
  return found;
}

// The locals of function `f` each initialised by a call of a helper whose list was read
// (`auto s = scalarArguments(off);`), by name.
std::map<std::string, const CppArgList*> helperLocals(const Ctx& c, int f, const std::vector<const CppArgList*>& pool) {
  std::map<std::string, const CppArgList*> out;
  walk(field(c.functions[f].node, "body"), [&](TSNode n) {
    if (is(n, "lambda_expression")) return false;
    if (!is(n, "init_declarator")) return true;
    if (const CppArgList* l = helperList(c, field(n, "value"), f, pool)) {
      std::string name = declaredName(c, field(n, "declarator"));
      if (!name.empty()) out[name] = l;
    }
    return false;
  });
  return out;
}

// The call a local is initialised with (`auto v = f(…);`, `auto v{f(…)}`, `auto v(f(…))`); null
// when it is initialised some other way.
TSNode initialCall(TSNode initDeclarator) {
  TSNode v = field(initDeclarator, "value");
  if ((is(v, "initializer_list") || is(v, "argument_list")) && items(v).size() == 1) v = items(v)[0];
  return is(v, "call_expression") ? v : TSNode{};
}

// Whether the local `v` of function `f` (its declaration and init declarator) is a KernelArgument list:
// its type says so (KaTypes), or an element appended or inserted into it is a KernelArgument.
bool holdsKernelArguments(const Ctx& c, TSNode decl, TSNode initDeclarator, const std::string& v, int f) {
  if (c.types.ofDeclared(decl, initDeclarator) == KaKind::List) return true;
  bool found = false;
  walk(field(c.functions[f].node, "body"), [&](TSNode n) {
    if (found || is(n, "lambda_expression")) return false;
    if (!is(n, "call_expression")) return true;
    TSNode fn = field(n, "function");
    if (!is(fn, "field_expression") || noSpace(c.text(field(fn, "argument"))) != v) return true;
    const std::string callee = calleeName(c, n);
    if (callee != "push_back" && callee != "emplace_back" && callee != "insert") return true;
    for (TSNode a : items(field(n, "arguments"))) {
      found = found || c.isKaElement(a) || c.types.ofValue(a) == KaKind::Element;
      if (is(a, "initializer_list"))
        for (TSNode e : items(a)) found = found || c.isKaElement(e);
    }
    return false;
  });
  return found;
}

// Why the list a call returns is not read (`helperList` found none): said at the list's open start.
std::string unreadCallWhy(const Ctx& c, TSNode call, const std::vector<const CppArgList*>& pool) {
  TSNode fn = field(call, "function");
  if (!is(fn, "identifier") && !is(fn, "qualified_identifier")) return "a call the reader does not follow";
  const std::string callee = calleeName(c, call);
  size_t lists = 0;
  for (const CppArgList* l : pool) lists += !l->symbol.empty() && lastComponent(l->symbol) == callee;
  if (lists > 1) return "a function of this file with more than one list";
  const auto& named = c.types.functionsNamed(callee);
  if (std::none_of(named.begin(), named.end(), [](TSNode d) { return is(d, "function_definition"); }))
    return "a function whose list is not read (not defined in this file)";
  return "a function whose list is not read (its body builds no list the reader follows)";
}

}  // namespace impact::cpp
