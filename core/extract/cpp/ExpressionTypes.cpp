// The declared type of a launch argument's expression, from the file's own declarations
// (SPEC R2.1, issue 16 form 4): a local or parameter (an `auto` one: its initializer's), a field
// of a class this file defines (reached through an object whose type it states, or by its name
// alone when it does not), the return type of a function or method this file declares
// (`const std::array<int32_t, 3>& bytes() const`), the element of a `std::array` / C array /
// pointer (`bytes[0]`), a cast's target type. What the file does not state comes back with the
// reason; a field of a class declared elsewhere says once which class and where it would be.
#include <optional>

#include "extract/cpp/ArgumentKinds.h"
#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {
namespace {

TSNode stripParens(TSNode n) {
  for (int i = 0; i < 16 && is(n, "parenthesized_expression"); ++i) {
    auto k = items(n);
    if (k.size() != 1) break;
    n = k[0];
  }
  return n;
}

// A type as typeOf writes it: no const, no std::, no reference.
std::string clean(std::string_view t) {
  std::string s = normaliseTypeName(t);
  while (s.ends_with("&")) s = trim(s.substr(0, s.size() - 1));
  return s;
}

// The element type of an array, pointer or standard container type:
// "array<int32_t, 3>" -> "int32_t", "float*" -> "float", "int32_t[]" -> "int32_t".
std::optional<std::string> elementOf(const std::string& t) {
  if (t.ends_with("[]")) return clean(t.substr(0, t.size() - 2));
  if (t.ends_with("*")) return clean(t.substr(0, t.size() - 1));
  size_t lt = t.find('<');
  if (lt == std::string::npos || !t.ends_with(">")) return std::nullopt;
  std::string head = trim(t.substr(0, lt));
  if (head != "array" && head != "vector" && head != "span" && head != "valarray") return std::nullopt;
  int depth = 0;
  size_t end = t.size() - 1;
  for (size_t i = lt + 1; i + 1 < t.size(); ++i) {
    char ch = t[i];
    if (ch == '<' || ch == '(') ++depth;
    else if (ch == '>' || ch == ')') --depth;
    else if (ch == ',' && depth == 0) {
      end = i;
      break;
    }
  }
  return clean(t.substr(lt + 1, end - lt - 1));
}

std::string article(const std::string& w) {
  char c = w.empty() ? 'x' : static_cast<char>(std::tolower(static_cast<unsigned char>(w[0])));
  return (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') ? "an" : "a";
}

// The C++ type a literal's class stands for (typeOf of `1.0F` is "float").
std::string typeOfClass(const std::string& cls) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {"f32", "float"}, {"f64", "double"}, {"s32", "int"}, {"u32", "unsigned"},
      {"s64", "long"},  {"u64", "unsigned long"}, {"i1", "bool"}};
  for (auto& [c, t] : kTypes)
    if (cls == c) return t;
  return "";
}

}  // namespace

const DeclaredTypes::Decl* DeclaredTypes::local(const std::string& name, int function) const {
  // A local or parameter of the same function first, then a field (a member used bare),
  // then a namespace-scope variable.
  const Decl* best = nullptr;
  int bestRank = 3;
  for (const Decl& d : decls_) {
    if (d.name != name) continue;
    int rank = d.function >= 0 ? (d.function == function ? 0 : 3) : d.field ? 1 : 2;
    if (rank < bestRank) {
      bestRank = rank;
      best = &d;
    }
  }
  return best;
}

std::string DeclaredTypes::whereDeclared() const {
  if (includes_.empty()) return "another file (this file includes none)";
  std::string s;
  for (const auto& i : includes_) s += (s.empty() ? "" : ", ") + i;
  return "one of its includes (" + s + ")";
}

TypeRef DeclaredTypes::typeOfDecl(const Decl& d, int depth) const {
  if (!isNull(d.typeOf) && d.suffix.empty()) {
    TypeRef r = typeOf(d.typeOf, d.site, depth + 1);
    if (!r.known()) r.why = "'" + d.name + "' is declared as the type of " + collapse(c_.text(d.typeOf)) + ": " + r.why;
    return r;
  }
  std::string t = clean(d.type);
  if (t == "auto" || t == "decltype(auto)") {
    if (isNull(d.value)) return {"", "'" + d.name + "' is declared auto"};
    TypeRef r = typeOf(d.value, d.function, depth + 1);
    if (r.known()) return r;
    return {"", "'" + d.name + "' is declared auto and its initializer states no type (" + r.why + ")"};
  }
  return {t + d.suffix, ""};
}

TypeRef DeclaredTypes::fieldType(TSNode n, int function, int depth) const {
  std::string member = noSpace(c_.text(field(n, "field")));
  TSNode obj = field(n, "argument");
  TypeRef ot = typeOf(obj, function, depth + 1);
  if (ot.known()) {
    std::string t = ot.text;
    if (c_.text(field(n, "operator")) == "->" && t.ends_with("*")) t = clean(t.substr(0, t.size() - 1));
    std::string cls = lastComponent(t);
    if (classes_.count(cls)) {
      for (const Decl& d : decls_)
        if (d.field && d.owner == cls && d.name == member) return typeOfDecl(d, depth + 1);
      return {"", "no field '" + member + "' in `" + cls + "`"};
    }
    if (!cls.empty() && !sizeOfTypeName(t) && !t.ends_with("*") && !t.ends_with("]"))
      return {"", "fields of `" + collapse(c_.text(obj)) + "`, " + article(cls) + " `" + cls +
                      "` not declared in this file: its declaration would be in " + whereDeclared()};
  }
  // The object's type is not stated: a field of this file with that name; all such must agree.
  std::optional<TypeRef> found;
  for (const Decl& d : decls_) {
    if (!d.field || d.name != member) continue;
    TypeRef k = typeOfDecl(d, depth + 1);
    if (!found) {
      found = k;
      continue;
    }
    InferredKind a = kindOfType(found->text, false), b = kindOfType(k.text, false);
    bool same = found->text == k.text ||
                (a.known() && b.known() && a.kind == b.kind && a.size == b.size && a.cls == b.cls);
    if (!same) return {"", "fields named '" + member + "' of different types in this file"};
  }
  if (found) return *found;
  return {"", "no field '" + member + "' declared in this file"};
}

TypeRef DeclaredTypes::callType(TSNode call, int function, int depth) const {
  TSNode fn = field(call, "function");
  std::string written = collapse(c_.text(fn)), name, owner;
  if (is(fn, "field_expression")) {
    name = noSpace(c_.text(field(fn, "field")));
    TypeRef ot = typeOf(field(fn, "argument"), function, depth + 1);
    if (ot.known()) {
      std::string t = ot.text;
      if (t.ends_with("*")) t = clean(t.substr(0, t.size() - 1));
      if (classes_.count(lastComponent(t))) owner = lastComponent(t);
    }
  } else if (is(fn, "template_function")) {
    name = lastComponent(c_.text(field(fn, "name")));
  } else {
    name = lastComponent(c_.text(fn));
  }
  std::optional<std::string> ret;
  bool deduced = false;
  for (const FnDecl& f : fns_) {
    if (f.name != name || (!owner.empty() && f.owner != owner)) continue;
    if (f.ret.empty() || f.ret.starts_with("auto") || f.ret.starts_with("decltype")) {
      deduced = true;
      continue;
    }
    if (!ret) ret = f.ret;
    else if (*ret != f.ret) return {"", "functions named '" + name + "' return different types in this file"};
  }
  if (ret) return {*ret, ""};
  if (deduced) return {"", "the result type of '" + written + "(...)' is deduced (auto)"};
  return {"", "the result type of '" + written + "(...)' is not stated in this file"};
}

TypeRef DeclaredTypes::typeOf(TSNode expr, int function, int depth) const {
  if (depth > kMaxEvalDepth) return {"", "expression nested too deeply"};
  TSNode n = stripParens(expr);
  std::string_view t = type(n);
  std::string text = collapse(c_.text(n));
  if (t == "number_literal" || t == "true" || t == "false") {
    std::string ty = typeOfClass(infer(n, function, depth + 1).cls);
    if (!ty.empty()) return {ty, ""};
  }
  if (t == "identifier" || t == "qualified_identifier" || t == "this") {
    std::string name = noSpace(text);
    if (const Decl* d = local(name, function)) return typeOfDecl(*d, depth + 1);
    if (const Constant* k = lookup(c_, name, c_.siteOf(n))) {
      TSNode decl = parentOf(parentOf(k->value));
      if (is(decl, "declaration") || is(decl, "field_declaration")) {
        Decl d;
        d.name = name;
        d.type = std::string(c_.text(field(decl, "type")));
        d.value = k->value;
        d.function = k->site.function;
        return typeOfDecl(d, depth + 1);
      }
    }
    return {"", "'" + name + "' is not declared in this file"};
  }
  if (t == "field_expression") {
    if (noSpace(c_.text(field(n, "field"))) == "ptr") return {"void*", ""};
    return fieldType(n, function, depth + 1);
  }
  if (t == "call_expression") {
    TSNode fn = field(n, "function");
    if (is(fn, "template_function")) {
      std::string cast = noSpace(c_.text(field(fn, "name")));
      if (cast == "static_cast" || cast == "reinterpret_cast" || cast == "const_cast" ||
          cast == "dynamic_cast" || cast == "bit_cast" || cast == "std::bit_cast") {
        std::string inner = collapse(c_.text(field(fn, "arguments")));
        if (inner.size() >= 2) inner = trim(inner.substr(1, inner.size() - 2));
        return {clean(inner), ""};
      }
    }
    if (is(fn, "primitive_type") || is(fn, "sized_type_specifier") ||
        ((is(fn, "identifier") || is(fn, "qualified_identifier")) && sizeOfTypeName(c_.text(fn))))
      return {clean(c_.text(fn)), ""};
    return callType(n, function, depth + 1);
  }
  if (t == "subscript_expression") {
    TSNode base = field(n, "argument");
    TypeRef b = typeOf(base, function, depth + 1);
    if (!b.known()) return b;
    if (auto e = elementOf(b.text)) return {*e, ""};
    return {"", "'" + collapse(c_.text(base)) + "' is a '" + b.text + "', whose elements' type is not stated"};
  }
  if (t == "pointer_expression" && c_.text(field(n, "operator")) == "*") {
    TypeRef b = typeOf(field(n, "argument"), function, depth + 1);
    if (!b.known()) return b;
    if (b.text.ends_with("*") || b.text.ends_with("[]")) return {*elementOf(b.text), ""};
    // `*opt` of a `std::optional<T>`: its T (the AOT adapters bind `ScalarValue{*eps}`).
    if (b.text.starts_with("optional<") && b.text.ends_with(">"))
      return {trim(b.text.substr(9, b.text.size() - 10)), ""};
    return {"", "'" + text + "' dereferences a '" + b.text + "'"};
  }
  if (t == "cast_expression") return {clean(c_.text(field(n, "type"))), ""};
  return {"", "the kind of '" + text + "' is not stated in this file"};
}

}  // namespace impact::cpp
