#include "extract/cpp/NamesArrays.h"

#include <map>
#include <set>

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

// Functions of the file that use a parameter as a key of a kernel's metadata
// (`kernel.metadata.find(field)`, `.at`, `.count`, `.contains`): name -> those parameters' indices.
std::map<std::string, std::set<size_t>> metadataKeyParams(const Ctx& c) {
  std::map<std::string, std::set<size_t>> out;
  for (const auto& fn : c.functions) {
    TSNode fd = field(fn.node, "declarator");
    while (!isNull(fd) && !is(fd, "function_declarator")) fd = field(fd, "declarator");
    if (isNull(fd)) continue;
    std::vector<std::string> params;
    for (TSNode p : items(field(fd, "parameters"))) {
      TSNode d = field(p, "declarator");
      while (!isNull(d) && !is(d, "identifier")) d = field(d, "declarator");
      params.push_back(isNull(d) ? "" : std::string(c.text(d)));
    }
    walk(field(fn.node, "body"), [&](TSNode n) {
      if (!is(n, "call_expression")) return true;
      TSNode callee = field(n, "function");
      if (!is(callee, "field_expression")) return true;
      std::string_view method = c.text(field(callee, "field"));
      if (method != "find" && method != "at" && method != "count" && method != "contains") return true;
      if (!noSpace(c.text(field(callee, "argument"))).ends_with("metadata")) return true;
      auto args = items(field(n, "arguments"));
      if (args.empty() || !is(args[0], "identifier")) return true;
      for (size_t i = 0; i < params.size(); ++i)
        if (params[i] == c.text(args[0])) out[lastComponent(c.text(field(fd, "declarator")))].insert(i);
      return true;
    });
  }
  return out;
}

// Does an element of the array `name` reach a metadata key: `f(kernel, NAME[i])` or, in
// `for (auto x : NAME)`, `f(kernel, x)`, with f using that parameter as a metadata key?
bool keysMetadata(const Ctx& c, const std::string& name, const std::map<std::string, std::set<size_t>>& keyed) {
  if (keyed.empty()) return false;
  std::set<std::string> loopVars;
  c.tree.walkAll([&](TSNode n) {
    if (is(n, "for_range_loop") && noSpace(c.text(field(n, "right"))) == name) {
      TSNode d = field(n, "declarator");
      while (!isNull(d) && !is(d, "identifier")) d = field(d, "declarator");
      if (!isNull(d)) loopVars.insert(std::string(c.text(d)));
    }
    return true;
  });
  bool found = false;
  c.tree.walkAll([&](TSNode n) {
    if (found) return false;
    if (!is(n, "call_expression")) return true;
    auto it = keyed.find(lastComponent(c.text(field(n, "function"))));
    if (it == keyed.end()) return true;
    auto args = items(field(n, "arguments"));
    for (size_t i : it->second) {
      if (i >= args.size()) continue;
      TSNode a = args[i];
      if (is(a, "subscript_expression") && noSpace(c.text(field(a, "argument"))) == name) found = true;
      if (is(a, "identifier") && loopVars.count(std::string(c.text(a)))) found = true;
    }
    return true;
  });
  return found;
}

}  // namespace

void extractNamesArrays(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside) {
  const auto keyed = metadataKeyParams(c);
  c.tree.walkAll([&](TSNode n) {
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
    if (keysMetadata(c, l.variable, keyed)) {  // KMD vocabulary, not argument names
      setAside.push_back({l.range, "names array `" + l.variable + "`",
                          "its names are keys of the kernel's metadata (passed to a function that looks them up in "
                          "`.metadata`), KMD vocabulary rather than argument names"});
      return false;
    }
    out.push_back(std::move(l));
    return false;
  });
}

}  // namespace impact::cpp
