#include "extract/cpp/StaticLists.h"

#include "extract/cpp/NamedElements.h"


namespace impact::cpp {

static bool isAppendCall(std::string_view callee) {
  return callee == "push_back" || callee == "emplace_back" || callee == "insert" || callee == "emplace" ||
         callee == "append" || callee == "push_front" || callee == "emplace_front";
}

// What the function or lambda around `n` returns: a lambda's own return type when it states one,
// else the function's (a lambda without one returns what it returns inside that function).
static KaKind returnedAt(const Ctx& c, TSNode n) {
  for (TSNode p = parentOf(n); !isNull(p); p = parentOf(p)) {
    if (is(p, "lambda_expression")) {
      KaKind k = c.types.returnOf(p);
      if (k != KaKind::None) return k;
    }
    if (is(p, "function_definition")) return c.types.returnOf(p);
  }
  return KaKind::None;
}

// Whether a braced list passed as argument #i of `call` is a KernelArgument list: the parameter
// of the file's function it is passed to is one (by the callee's declaration, never its name).
static bool listParameter(const Ctx& c, TSNode call, TSNode arg) {
  size_t i = 0;
  for (TSNode a : items(field(call, "arguments"))) {
    if (sameNode(a, arg)) break;
    ++i;
  }
  for (TSNode f : c.types.functionsNamed(calleeName(c, call)))
    if (c.types.parameterOf(f, i) == KaKind::List) return true;
  return false;
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
    if (c.types.ofType(field(p, "type")) != KaKind::List) return false;
    TSNode holder = parentOf(p);
    if (is(holder, "init_declarator")) variable = declaredName(c, field(holder, "declarator"));
    else if (is(holder, "assignment_expression")) variable = noSpace(c.text(field(holder, "left")));
    return true;
  }
  if (t == "return_statement") return anyKa || returnedAt(c, list) == KaKind::List;
  if (t == "init_declarator") {
    TSNode decl = parentOf(p);
    variable = declaredName(c, field(p, "declarator"));
    return anyKa || c.types.ofDeclared(decl, p) == KaKind::List;
  }
  if (t == "field_declaration") {
    variable = declaredName(c, field(p, "declarator"));
    return anyKa || c.types.ofDeclared(p, field(p, "declarator")) == KaKind::List;
  }
  if (t == "assignment_expression") {
    TSNode left = field(p, "left");
    if (!sameNode(field(p, "right"), child)) return false;
    variable = noSpace(c.text(left));
    return anyKa || c.types.ofValue(left) == KaKind::List;
  }
  if (t == "argument_list") {
    TSNode owner = parentOf(p);
    if (is(owner, "init_declarator")) {  // std::vector<KernelArgument> sig({...});
      TSNode decl = parentOf(owner);
      variable = declaredName(c, field(owner, "declarator"));
      return anyKa || c.types.ofDeclared(decl, owner) == KaKind::List;
    }
    if (!is(owner, "call_expression")) return false;
    if (isAppendCall(calleeName(c, owner))) return false;
    return anyKa || listParameter(c, owner, child);
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
