#include "extract/cpp/NamesArrays.h"

namespace impact::cpp {

namespace {

// `std::array<E, N>` (or `array<E, N>`) with E a string type; `E` alone for a C array.
bool isStringType(std::string_view t) {
  std::string s = noSpace(t);
  for (const std::string std = "std::"; s.starts_with(std);) s.erase(0, std.size());
  return s == "string_view" || s == "string" || s == "constchar*" || s == "charconst*" || s == "constchar*const";
}

bool isStringArrayType(std::string_view typeText) {
  std::string s = noSpace(typeText);
  if (s.starts_with("std::")) s.erase(0, 5);
  if (!s.starts_with("array<")) return false;
  size_t comma = s.find(',');
  return comma != std::string::npos && isStringType(s.substr(6, comma - 6));
}

// The contents of a plain "..." literal without escapes; false for anything else.
bool literalText(std::string_view text, std::string& out) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return false;
  std::string_view inner = text.substr(1, text.size() - 2);
  if (inner.find('\\') != std::string_view::npos || inner.find('"') != std::string_view::npos) return false;
  out = std::string(inner);
  return true;
}

// The declared array's identifier when `declarator` declares a names array of `typeText`
// (with `isConstChar`: the declaration's type is `char`, as in `const char* NAMES[]`).
TSNode arrayName(const Ctx& c, TSNode declarator, std::string_view typeText) {
  if (isStringArrayType(typeText) && (is(declarator, "identifier") || is(declarator, "field_identifier")))
    return declarator;
  TSNode d = declarator;
  bool pointer = false;
  if (is(d, "pointer_declarator")) {
    pointer = true;
    d = field(d, "declarator");
  }
  if (!is(d, "array_declarator")) return TSNode{};
  const std::string t = noSpace(typeText);
  if (pointer ? t != "char" : !isStringType(t)) return TSNode{};
  TSNode id = field(d, "declarator");
  return is(id, "identifier") || is(id, "field_identifier") ? id : TSNode{};
}

}  // namespace

void extractNamesArrays(const Ctx& c, std::vector<CppArgList>& out) {
  walk(c.tree.root(), [&](TSNode n) {
    TSNode decl{}, value{}, declarator{};
    if (is(n, "init_declarator")) {
      decl = parentOf(n);
      declarator = field(n, "declarator");
      value = field(n, "value");
    } else if (is(n, "field_declaration")) {
      decl = n;
      declarator = field(n, "declarator");
      value = field(n, "default_value");
    } else {
      return true;
    }
    if (!is(value, "initializer_list") || !(is(decl, "declaration") || is(decl, "field_declaration"))) return true;
    TSNode id = arrayName(c, declarator, c.text(field(decl, "type")));
    if (isNull(id)) return true;
    CppArgList l;
    l.form = CppArgList::Form::Names;
    l.variable = std::string(c.text(id));
    l.named = true;
    l.range = rangeOf(id);
    for (TSNode e : items(value)) {
      KernelArg a;
      if (!is(e, "string_literal") || !literalText(c.text(e), a.name)) return true;  // not every element a literal
      a.range = rangeOf(e);
      l.args.push_back(std::move(a));
    }
    if (l.args.empty()) return true;
    Site site = c.siteOf(n);
    if (site.function >= 0) l.symbol = functionName(c, c.functions[site.function].node);
    l.fingerprint = codeFingerprint(c.tree, decl);
    out.push_back(std::move(l));
    return false;
  });
}

}  // namespace impact::cpp
