#include "extract/cpp/StaticLists.h"

#include "extract/cpp/NamedElements.h"

#include <cctype>

namespace impact::cpp {

static bool isAppendCall(std::string_view callee) {
  return callee == "push_back" || callee == "emplace_back" || callee == "insert" || callee == "emplace" ||
         callee == "append" || callee == "push_front" || callee == "emplace_front";
}

// Decides whether a braced list of elements sits where a whole argument list is stated.
// On success fills `variable`.
static bool isListPosition(const Ctx& c, TSNode list, bool anyKa, std::string& variable) {
  TSNode child = list;
  TSNode p = parentOf(list);
  for (int i = 0; i < kMaxAscend && is(p, "initializer_list"); ++i) {  // nested: vector<vector<...>>
    child = p;
    p = parentOf(p);
  }
  std::string_view t = type(p);
  if (t == "compound_literal_expression") {
    // std::vector<KernelArgument>{...}
    if (!mentionsKernelArgument(c.text(field(p, "type")))) return false;
    TSNode holder = parentOf(p);
    if (is(holder, "init_declarator")) variable = declaredName(c, field(holder, "declarator"));
    else if (is(holder, "assignment_expression")) variable = noSpace(c.text(field(holder, "left")));
    return true;
  }
  if (t == "return_statement") {
    if (anyKa) return true;
    int f = c.functionOf(list);
    if (f < 0) return false;
    return mentionsKernelArgument(functionHead(c, c.functions[f].node));
  }
  if (t == "init_declarator") {
    TSNode decl = parentOf(p);
    variable = declaredName(c, field(p, "declarator"));
    return anyKa || mentionsKernelArgument(c.text(field(decl, "type")));
  }
  if (t == "field_declaration") {
    variable = declaredName(c, field(p, "declarator"));
    return anyKa || mentionsKernelArgument(c.text(field(p, "type")));
  }
  if (t == "assignment_expression") {
    TSNode left = field(p, "left");
    if (!sameNode(field(p, "right"), child)) return false;
    variable = noSpace(c.text(left));
    if (anyKa) return true;
    if (is(left, "identifier") || is(left, "field_expression") || is(left, "qualified_identifier")) {
      std::string last = is(left, "field_expression") ? noSpace(c.text(field(left, "field")))
                                                      : lastComponent(c.text(left));
      return c.kaVariables.count(last) > 0;
    }
    return false;
  }
  if (t == "argument_list") {
    TSNode owner = parentOf(p);
    if (is(owner, "init_declarator")) {  // std::vector<KernelArgument> sig({...});
      TSNode decl = parentOf(owner);
      variable = declaredName(c, field(owner, "declarator"));
      return anyKa || mentionsKernelArgument(c.text(field(decl, "type")));
    }
    if (!is(owner, "call_expression")) return false;
    std::string callee = calleeName(c, owner);
    if (isAppendCall(callee)) return false;
    if (anyKa) return true;
    std::string lower;
    for (char ch : callee) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    return lower.find("signature") != std::string::npos || mentionsKernelArgument(callee);
  }
  return false;
}

void extractStatic(const Ctx& c, std::vector<CppArgList>& out) {
  Evaluator ev{c, nullptr};
  walk(c.tree.root(), [&](TSNode n) {
    if (!is(n, "initializer_list")) return true;
    auto elems = items(n);
    if (elems.empty()) return true;
    bool anyKa = false;
    for (TSNode e : elems) {
      if (!isNull(namedElementBraces(c, e))) {  // `buffer`, a local KernelArgument{...}
        anyKa = true;
        continue;
      }
      if (!isElement(c, e)) return true;
      anyKa = anyKa || c.isKaElement(e);
    }
    std::string variable;
    if (!isListPosition(c, n, anyKa, variable)) return true;
    CppArgList l;
    l.form = CppArgList::Form::Static;
    l.variable = variable;
    l.range = rangeOf(n);
    Site site = c.siteOf(n);
    if (site.function >= 0) {
      TSNode def = c.functions[site.function].node;
      l.symbol = functionName(c, def);
      l.fingerprint = codeFingerprint(c.tree, def);
    } else {
      l.fingerprint = codeFingerprint(c.tree, n);
    }
    for (TSNode e : elems) {
      TSNode named = namedElementBraces(c, e);
      TSNode braces = isNull(named) ? elementBraces(c, e) : named;
      KernelArg a = argFrom(ev, partsOf(c, braces), site, rangeOf(e));
      l.named = l.named || !a.name.empty();
      l.args.push_back(std::move(a));
    }
    out.push_back(std::move(l));
    return false;  // elements are not lists
  });
}

}  // namespace impact::cpp
