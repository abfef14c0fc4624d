#include "extract/cpp/ArgumentKinds.h"

#include <cctype>

#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {
namespace {

InferredKind pointerKind(std::string typeText, std::string elementClass = "") {
  return {"global_buffer", 8, std::move(typeText), "", std::move(elementClass)};
}

InferredKind byValue(uint32_t size, std::string typeText, std::string cls) {
  return {"by_value", size, std::move(typeText), "", std::move(cls)};
}

InferredKind unknown(std::string why) {
  InferredKind k;
  k.why = std::move(why);
  return k;
}

bool isPointerTypeName(const std::string& t) {
  return t.ends_with("*") || t == "hipDeviceptr_t" || t == "nullptr_t" || t == "intptr_t*";
}

bool isFloatLiteral(std::string_view s) {
  bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) return s.find_first_of("pP") != std::string_view::npos;
  return s.find_first_of(".eE") != std::string_view::npos ||
         (!s.empty() && (s.back() == 'f' || s.back() == 'F'));
}

// The declared type of a declaration: its `type` field, with the declarator's `*` noted.
bool declaratorIsPointer(const Ctx& c, TSNode declarator) {
  for (TSNode n = declarator; !isNull(n);) {
    std::string_view t = type(n);
    if (t == "pointer_declarator" || t == "abstract_pointer_declarator") return true;
    if (t == "identifier" || t == "field_identifier") return false;
    TSNode inner = field(n, "declarator");
    if (isNull(inner)) {
      auto k = items(n);
      if (k.empty()) return false;
      inner = k.back();
    }
    n = inner;
  }
  return false;
}

// Every child of a declaration in its `declarator` field (`int a, b;` has two). Read with a tree
// cursor: ts_node_field_name_for_child miscounts after a leading `const` in tree-sitter 0.20.
std::vector<TSNode> declarators(TSNode decl) {
  std::vector<TSNode> out;
  TSTreeCursor cur = ts_tree_cursor_new(decl);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do {
      const char* name = ts_tree_cursor_current_field_name(&cur);
      if (name && std::string_view(name) == "declarator") out.push_back(ts_tree_cursor_current_node(&cur));
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
  return out;
}

// Strips parentheses around an expression.
TSNode unparen(TSNode n) {
  for (int i = 0; i < 16 && is(n, "parenthesized_expression"); ++i) {
    auto k = items(n);
    if (k.size() != 1) break;
    n = k[0];
  }
  return n;
}

bool isCastName(std::string_view n) {
  return n == "static_cast" || n == "reinterpret_cast" || n == "const_cast" || n == "bit_cast" ||
         n == "std::bit_cast" || n == "dynamic_cast";
}

// The class of an integer or float literal as C++ types it: `1.0F` float, `0.5` double, `7`
// int, `7u` unsigned, `7L` long, `7UL` unsigned long.
InferredKind literalKind(const std::string& s) {
  if (isFloatLiteral(s)) {
    bool f32 = s.back() == 'f' || s.back() == 'F';
    return byValue(f32 ? 4u : 8u, s, f32 ? "f32" : "f64");
  }
  std::string lower;
  bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  for (size_t i = hex ? 2 : 0; i < s.size(); ++i) {
    char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    if (ch == 'l' || ch == 'u') lower.push_back(ch);
  }
  bool wide = lower.find('l') != std::string::npos;
  bool unsignedLit = lower.find('u') != std::string::npos;
  return byValue(wide ? 8u : 4u, s, std::string(unsignedLit ? "u" : "s") + (wide ? "64" : "32"));
}

// The declarator's `*` and `[]`, outermost first: `*p` "*", `a[3]` "[]", `*a[3]` "*[]".
std::string declaratorSuffix(TSNode declarator) {
  std::string out;
  for (TSNode n = declarator; !isNull(n);) {
    std::string_view t = type(n);
    if (t == "pointer_declarator" || t == "abstract_pointer_declarator") out += "*";
    else if (t == "array_declarator" || t == "abstract_array_declarator") out += "[]";
    if (t == "identifier" || t == "field_identifier" || t == "qualified_identifier") break;
    TSNode inner = field(n, "declarator");
    if (isNull(inner)) {
      auto k = items(n);
      if (k.empty()) break;
      inner = k.back();
    }
    n = inner;
  }
  return out;
}

// The function_declarator inside a declarator (`const T& name() const`), or null.
TSNode functionDeclaratorOf(TSNode declarator) {
  for (TSNode n = declarator; !isNull(n);) {
    if (is(n, "function_declarator")) return n;
    if (is(n, "identifier") || is(n, "field_identifier") || is(n, "init_declarator")) break;
    TSNode inner = field(n, "declarator");
    if (isNull(inner)) {
      auto k = items(n);
      if (k.empty()) break;
      inner = k.back();
    }
    n = inner;
  }
  return TSNode{};
}

}  // namespace

TSNode decltypeOperand(const Ctx& c, TSNode ty, int depth) {
  // `decltype(E)` is E's type; the standard traits that strip references and cv-qualifiers
  // (`std::decay_t<T>`, `std::remove_cvref_t<T>`, ...) keep its kind and size.
  static const std::string_view kStrip[] = {"decay_t", "remove_cvref_t", "remove_reference_t", "remove_cv_t",
                                             "remove_const_t"};
  for (TSNode n = ty; !isNull(n) && depth < 8; ++depth) {
    std::string_view t = type(n);
    if (t == "decltype") {
      auto k = items(n);
      return k.empty() ? TSNode{} : k.front();
    }
    if (t == "qualified_identifier") n = field(n, "name");
    else if (t == "type_descriptor") n = field(n, "type");
    else if (t == "template_type") {
      std::string name = lastComponent(c.text(field(n, "name")));
      bool strips = false;
      for (std::string_view s : kStrip) strips = strips || name == s;
      auto args = items(field(n, "arguments"));
      if (!strips || args.size() != 1) return TSNode{};
      n = args.front();
    } else {
      return TSNode{};
    }
  }
  return TSNode{};
}

namespace {

// The class or struct a field declaration sits in: its unqualified name.
std::string ownerClass(const Ctx& c, TSNode decl) {
  TSNode p = parentOf(decl);
  for (int i = 0; i < 3 && !isNull(p); ++i, p = parentOf(p))
    if (is(p, "class_specifier") || is(p, "struct_specifier")) return lastComponent(c.text(field(p, "name")));
  return "";
}

}  // namespace

InferredKind kindOfType(std::string_view typeText, bool pointer) {
  std::string t = normaliseTypeName(typeText);
  while (t.ends_with("&")) t = trim(t.substr(0, t.size() - 1));
  if (pointer) return pointerKind(t + "*", typeClassOfName(t));
  if (isPointerTypeName(t)) {
    std::string elem = t.ends_with("*") ? trim(t.substr(0, t.size() - 1)) : "";
    return pointerKind(t, elem.ends_with("*") ? "" : typeClassOfName(elem));
  }
  if (t == "auto" || t == "decltype(auto)") return unknown("declared auto");
  if (t.ends_with("[]")) return unknown("'" + t + "' is an array, not one value");
  auto size = sizeOfTypeName(t);
  if (!size) return unknown("type '" + t + "' not known");
  return byValue(static_cast<uint32_t>(*size), t, typeClassOfName(t));
}

DeclaredTypes::DeclaredTypes(const Ctx& c) : c_(c) {
  // Struct and class bodies: their fields.
  TSNode root = c.tree.root();
  for (const Scope& sc : c.scopes) {
    TSNode n = ts_node_descendant_for_byte_range(root, sc.span.start, sc.span.end);
    if (is(n, "class_specifier") || is(n, "struct_specifier")) {
      classes_.insert(lastComponent(c.text(field(n, "name"))));
      read(field(n, "body"), true);
    }
  }
  readFunctions();
}

// The file's functions and methods with a stated return type (methods declared in a class
// body are read with its fields), and its includes (where a class it does not define would be).
void DeclaredTypes::readFunctions() {
  for (const Function& f : c_.functions) {
    TSNode def = f.node, ty = field(def, "type");
    TSNode fd = functionDeclarator(def);
    if (isNull(ty) || isNull(fd)) continue;  // constructors, destructors
    std::string written = noSpace(c_.text(field(fd, "declarator")));
    std::string owner;
    if (auto at = written.rfind("::"); at != std::string::npos) owner = lastComponent(written.substr(0, at));
    else owner = ownerClass(c_, def);
    std::string ret = normaliseTypeName(c_.text(ty));
    while (ret.ends_with("&")) ret = trim(ret.substr(0, ret.size() - 1));
    fns_.push_back({lastComponent(written), owner, ret + declaratorSuffix(field(def, "declarator"))});
  }
  std::vector<std::string> quoted, system;
  c_.tree.walkAll([&](TSNode n) {
    if (!is(n, "preproc_include")) return is(n, "translation_unit") || type(n).starts_with("preproc_");
    TSNode p = field(n, "path");
    std::string_view t = c_.text(p);
    if (t.size() >= 2) (is(p, "string_literal") ? quoted : system).emplace_back(t.substr(1, t.size() - 2));
    return false;
  });
  includes_ = quoted.empty() ? system : quoted;
}

void DeclaredTypes::prepare(int function) {
  if (function < 0 || !prepared_.insert(function).second) return;
  read(c_.functions[function].node, false);
}

void DeclaredTypes::read(TSNode root, bool fieldsOnly) {
  if (isNull(root)) return;
  // The file's matches (collect() ran the query set once) that lie under root, in the order a
  // query run over root alone gives them.
  for (const auto& m : c_.matches[QueryId::CppTypedDeclaration]) {
    TSNode ty = m.get("type"), decl = m.get("decl");
    if (isNull(ty) || isNull(decl)) continue;
    if (!isUnder(decl, root)) continue;
    if (fieldsOnly != is(decl, "field_declaration")) continue;
    for (TSNode declarator : declarators(decl)) {
      TSNode value{};
      if (is(declarator, "init_declarator")) {
        value = field(declarator, "value");
        declarator = field(declarator, "declarator");
      }
      if (isNull(declarator)) continue;
      if (fieldsOnly && !isNull(functionDeclaratorOf(declarator))) {
        // A method declared in its class: its return type (defined elsewhere).
        TSNode fd = functionDeclaratorOf(declarator);
        std::string name = lastComponent(c_.text(field(fd, "declarator")));
        std::string ret = normaliseTypeName(c_.text(ty));
        while (ret.ends_with("&")) ret = trim(ret.substr(0, ret.size() - 1));
        fns_.push_back({name, ownerClass(c_, decl), ret + declaratorSuffix(declarator)});
        continue;
      }
      if (is(declarator, "function_declarator")) continue;
      if (!seen_.insert(ts_node_start_byte(declarator)).second) continue;  // nested classes
      TSNode id = innermostIdentifier(declarator);
      if (isNull(id)) continue;
      Decl d;
      d.name = noSpace(c_.text(id));
      d.type = std::string(c_.text(ty));
      d.pointer = declaratorIsPointer(c_, declarator);
      d.suffix = declaratorSuffix(declarator);
      d.field = fieldsOnly;
      if (d.field) d.owner = ownerClass(c_, decl);
      d.function = d.field ? -1 : c_.functionOf(decl);
      d.typeOf = decltypeOperand(c_, ty, 0);
      d.site = c_.functionOf(decl);
      d.value = value;
      if (d.field && isNull(d.value)) d.value = field(decl, "default_value");
      decls_.push_back(std::move(d));
    }
  }
}

InferredKind DeclaredTypes::infer(TSNode expr, int function) const { return infer(expr, function, 0); }

InferredKind DeclaredTypes::ofDecl(const Decl& d, int depth) const {
  if (!isNull(d.typeOf) && d.suffix.empty()) {
    InferredKind v = infer(d.typeOf, d.site, depth + 1);
    if (!v.known()) v.why = "'" + d.name + "' is declared as the type of " + collapse(c_.text(d.typeOf)) + ": " + v.why;
    return v;
  }
  InferredKind k = d.suffix.empty() || d.suffix == "*" ? kindOfType(d.type, d.pointer)
                                                       : kindOfType(normaliseTypeName(d.type) + d.suffix, false);
  if (!k.known() && normaliseTypeName(d.type) == "auto" && !d.pointer && !isNull(d.value)) {
    InferredKind v = infer(d.value, d.function, depth + 1);
    if (v.known()) return v;
    return unknown("'" + d.name + "' is declared auto and its initializer states no kind (" + v.why + ")");
  }
  if (!k.known()) k.why = "'" + d.name + "': " + k.why;
  return k;
}

InferredKind DeclaredTypes::infer(TSNode expr, int function, int depth) const {
  if (depth > kMaxEvalDepth) return unknown("expression nested too deeply");
  TSNode n = unparen(expr);
  std::string_view t = type(n);
  std::string text = collapse(c_.text(n));
  if (t == "null" || text == "nullptr" || text == "NULL") return pointerKind("nullptr");
  if (t == "number_literal") return literalKind(noSpace(text));
  if (t == "true" || t == "false") return byValue(1, text, "i1");
  if (t == "pointer_expression" && c_.text(field(n, "operator")) == "&") return pointerKind("&" + text);
  if (t == "call_expression") {
    TSNode fn = field(n, "function");
    if (is(fn, "template_function") && isCastName(noSpace(c_.text(field(fn, "name"))))) {
      std::string inner = collapse(c_.text(field(fn, "arguments")));
      if (inner.size() >= 2) inner = trim(inner.substr(1, inner.size() - 2));
      InferredKind k = kindOfType(inner, false);
      if (!k.known()) k.why = "cast to " + k.why;
      return k;
    }
    // Functional cast: float(x), int32_t(x).
    if (is(fn, "primitive_type") || is(fn, "sized_type_specifier") ||
        ((is(fn, "identifier") || is(fn, "qualified_identifier")) && sizeOfTypeName(c_.text(fn)))) {
      return kindOfType(c_.text(fn), false);
    }
    // A function or method of this file: its declared return type.
    TypeRef r = callType(n, function, depth + 1);
    if (r.known()) return kindOfType(r.text, false);
    return unknown(r.why);
  }
  if (t == "subscript_expression" || (t == "pointer_expression" && c_.text(field(n, "operator")) == "*")) {
    TypeRef r = typeOf(n, function, depth + 1);
    if (r.known()) return kindOfType(r.text, false);
    return unknown(r.why);
  }
  if (t == "cast_expression") {
    TSNode ty = field(n, "type");
    return kindOfType(c_.text(ty), false);
  }
  if (t == "compound_literal_expression") return kindOfType(c_.text(field(n, "type")), false);
  if (t == "conditional_expression") {
    InferredKind a = infer(field(n, "consequence"), function, depth + 1);
    InferredKind b = infer(field(n, "alternative"), function, depth + 1);
    if (a.known() && b.known() && a.kind == b.kind && a.size == b.size) {
      if (a.cls != b.cls) a.cls.clear();
      return a;
    }
    if (a.known() && b.kind.empty() && is(unparen(field(n, "alternative")), "null")) return a;
    return unknown("the branches of '" + text + "' state different or unknown kinds");
  }
  if (t == "field_expression") {
    std::string member = noSpace(c_.text(field(n, "field")));
    if (member == "ptr") return pointerKind(".ptr member");
    // The field of the object's class when the file states the class; otherwise a field of
    // this file with that name (every such field must agree): fieldType.
    TypeRef r = fieldType(n, function, depth + 1);
    if (r.known()) return kindOfType(r.text, false);
    return unknown(r.why);
  }
  if (t == "identifier" || t == "qualified_identifier") {
    std::string name = noSpace(text);
    // A local or parameter of the same function first, then a field (a member used bare),
    // then a namespace-scope variable or constant.
    if (const Decl* best = local(name, function)) return ofDecl(*best, depth);
    // A namespace-scope constant: `constexpr float kScale = 1.0F;` (its declaration's type).
    if (const Constant* k = lookup(c_, name, c_.siteOf(n))) {
      TSNode decl = parentOf(parentOf(k->value));
      if (is(decl, "declaration") || is(decl, "field_declaration")) {
        Decl d;
        d.name = name;
        d.type = std::string(c_.text(field(decl, "type")));
        d.pointer = declaratorIsPointer(c_, field(parentOf(k->value), "declarator"));
        d.value = k->value;
        d.function = k->site.function;
        return ofDecl(d, depth);
      }
    }
    return unknown("'" + name + "' is not declared in this file");
  }
  return unknown("the kind of '" + text + "' is not stated in this file");
}

}  // namespace impact::cpp
