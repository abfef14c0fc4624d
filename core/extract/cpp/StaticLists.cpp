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

// A test file that states its ABI once outside its test cases (a pin function such as
// `pythonAbi()`, a namespace constant) builds, inside its test cases, the values it hands to its
// checks — the pin derived, or a neighbouring list the pack must refuse (the real 12de7def
// `RefusesBuffersAndScalarsTransposed`). Those are not copies: they are set aside, with why. A
// file whose lists all sit in test cases keeps them (its test cases are where it pins).
static void setAsideTestValues(const Ctx& c, std::vector<CppArgList>& lists, const std::vector<int>& caseOf,
                               std::vector<CppArgList>& out, std::vector<SetAside>& setAside) {
  const CppArgList* pin = nullptr;
  for (size_t i = 0; i < lists.size() && !pin; ++i)
    if (caseOf[i] < 0) pin = &lists[i];
  for (size_t i = 0; i < lists.size(); ++i) {
    if (!pin || caseOf[i] < 0) continue;
    const CppArgList& l = lists[i];
    std::string pinName = pin->symbol.empty() ? pin->variable : pin->symbol;
    setAside.push_back(SetAside{
        l.range,
        "KernelArgument list " + (l.variable.empty() ? std::string("") : "`" + l.variable + "` ") + "in test case " +
            functionName(c, c.functions[caseOf[i]].node),
        "a value the test case builds for its checks (to accept or to refuse), not a copy: the file pins the ABI in " +
            (pinName.empty() ? std::string("its list") : pinName) + " (line " + std::to_string(pin->range.line + 1) +
            "), which is compared"});
  }
  for (size_t i = 0; i < lists.size(); ++i)
    if (!pin || caseOf[i] < 0) out.push_back(std::move(lists[i]));
}

void extractStatic(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside) {
  Evaluator ev{c, nullptr};
  std::vector<CppArgList> lists;
  std::vector<int> caseOf;  // the test case a list sits in, else -1
  TSNode last{};  // the last list read: its elements are not lists
  for (TSNode n : c.matches.of(NodeKind::InitializerList)) {
    if (!isNull(last) && isUnder(n, last)) continue;
    auto elems = items(n);
    if (elems.empty()) continue;
    bool anyKa = false, elements = true;
    for (TSNode e : elems) {
      if (!isNull(namedElementBraces(c, e))) {  // `buffer`, a local KernelArgument{...}
        anyKa = true;
        continue;
      }
      if (!isElement(c, e)) {
        elements = false;
        break;
      }
      anyKa = anyKa || c.isKaElement(e);
    }
    std::string variable;
    if (!elements || !isListPosition(c, n, anyKa, variable)) continue;
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
    caseOf.push_back(site.function >= 0 && isTestCase(c, c.functions[site.function].node) ? site.function : -1);
    lists.push_back(std::move(l));
    last = n;
  }
  setAsideTestValues(c, lists, caseOf, out, setAside);
}

}  // namespace impact::cpp
