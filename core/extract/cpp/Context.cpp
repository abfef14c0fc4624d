#include "extract/cpp/Context.h"

#include <algorithm>
#include <cctype>


namespace impact::cpp {

bool isNull(TSNode n) { return ts_node_is_null(n); }

// Named children that are not comments.
std::vector<TSNode> items(TSNode n) {
  std::vector<TSNode> out;
  if (isNull(n)) return out;
  for (TSNode c : namedChildren(n))
    if (!is(c, "comment")) out.push_back(c);
  return out;
}

TSNode parentOf(TSNode n) { return isNull(n) ? n : ts_node_parent(n); }

bool sameNode(TSNode a, TSNode b) {
  return !isNull(a) && !isNull(b) && ts_node_start_byte(a) == ts_node_start_byte(b) &&
         ts_node_end_byte(a) == ts_node_end_byte(b) && type(a) == type(b);
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// Whitespace runs collapsed to one space, trimmed.
std::string collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::string noSpace(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

// Last `::` component of a (possibly qualified / templated) name.
std::string lastComponent(std::string_view s) {
  std::string t = noSpace(s);
  if (auto lt = t.find('<'); lt != std::string::npos) t = t.substr(0, lt);
  if (auto p = t.rfind("::"); p != std::string::npos) t = t.substr(p + 2);
  return t;
}

// The identifier a declarator declares: through pointer/reference/array/init declarators.
TSNode innermostIdentifier(TSNode n) {
  for (int guard = 0; guard < 32 && !isNull(n); ++guard) {
    std::string_view t = type(n);
    if (t == "identifier" || t == "field_identifier" || t == "qualified_identifier") return n;
    TSNode d = field(n, "declarator");
    if (isNull(d)) {
      // reference_declarator / variadic_declarator hold the inner declarator unnamed.
      auto kids = items(n);
      if (kids.empty()) return TSNode{};
      d = kids.back();
    }
    n = d;
  }
  return TSNode{};
}

bool hasConstQualifier(const SyntaxTree& tree, TSNode decl) {
  for (TSNode c : children(decl)) {
    if (!is(c, "type_qualifier")) continue;
    std::string_view t = tree.text(c);
    if (t == "const" || t == "constexpr" || t == "constinit") return true;
  }
  // `const char* const X`: const on the pointer declarator.
  return false;
}

int Ctx::functionOf(TSNode n) const {
  int best = -1;
  for (size_t i = 0; i < functions.size(); ++i) {
    if (!functions[i].span.contains(n)) continue;
    if (sameNode(functions[i].node, n)) continue;
    if (best < 0 || functions[i].span.start >= functions[best].span.start) best = static_cast<int>(i);
  }
  return best;
}

Site Ctx::siteOf(TSNode n) const {
  Site s;
  for (const Scope& sc : scopes)  // scopes are in pre-order: outer before inner
    if (sc.span.contains(n)) s.scope.push_back(sc.name);
  s.function = functionOf(n);
  return s;
}

TSNode functionDeclarator(TSNode def) {
  TSNode d = field(def, "declarator");
  for (int guard = 0; guard < 16 && !isNull(d); ++guard) {
    if (is(d, "function_declarator")) return d;
    TSNode inner = field(d, "declarator");
    if (isNull(inner)) {
      auto kids = items(d);
      if (kids.empty()) break;
      inner = kids.back();
    }
    d = inner;
  }
  return TSNode{};
}

static bool isGtestMacro(std::string_view name) {
  return name == "TEST" || name == "TEST_F" || name == "TEST_P" || name == "TYPED_TEST" ||
         name == "TYPED_TEST_P" || name == "GTEST_TEST" || name == "FRIEND_TEST";
}

bool isTestCase(const Ctx& c, TSNode def) {
  TSNode fd = functionDeclarator(def);
  return !isNull(fd) && isGtestMacro(noSpace(c.text(field(fd, "declarator"))));
}

std::string functionName(const Ctx& c, TSNode def) {
  TSNode fd = functionDeclarator(def);
  if (isNull(fd)) return "";
  TSNode name = field(fd, "declarator");
  std::string n = noSpace(c.text(name));
  if (isGtestMacro(n)) {
    auto params = items(field(fd, "parameters"));
    if (params.size() == 2) return trim(c.text(params[0])) + "." + trim(c.text(params[1]));
  }
  return n;
}

// The text of a function definition before its body: return type, name, parameters.
std::string_view functionHead(const Ctx& c, TSNode def) {
  TSNode body = field(def, "body");
  std::string_view all = c.text(def);
  if (isNull(body)) return all;
  uint32_t len = ts_node_start_byte(body) - ts_node_start_byte(def);
  return all.substr(0, std::min<size_t>(len, all.size()));
}

std::string declaredName(const Ctx& c, TSNode declarator) {
  TSNode id = innermostIdentifier(declarator);
  return isNull(id) ? "" : noSpace(c.text(id));
}

std::string calleeName(const Ctx& c, TSNode call) {
  TSNode fn = field(call, "function");
  if (is(fn, "field_expression")) return noSpace(c.text(field(fn, "field")));
  if (is(fn, "template_function")) return lastComponent(c.text(field(fn, "name")));
  return lastComponent(c.text(fn));
}

// constants.

void collect(Ctx& c) {
  TSNode root = c.tree.root();
  c.matches = QuerySet::of(Lang::Cpp).run(root);
  const bool typesToo = c.types.claimWalk();  // not walked yet for the macros
  c.tree.walkAll([&](TSNode n) {
    std::string_view t = type(n);
    if (t == "namespace_definition" || t == "class_specifier" || t == "struct_specifier") {
      TSNode name = field(n, "name");
      if (t != "namespace_definition" && isNull(field(n, "body"))) return true;  // a use, not a definition
      c.scopes.push_back({{ts_node_start_byte(n), ts_node_end_byte(n)}, noSpace(c.text(name))});
    } else if (t == "function_definition") {
      c.functions.push_back({{ts_node_start_byte(n), ts_node_end_byte(n)}, n});
    }
    if (typesToo) c.types.visit(n);  // aliases, functions, declarations: in pre-order, each before its uses
    return true;
  });

  for (const auto& m : c.matches[QueryId::CppKernelArgument]) {
    TSNode ty = m.get("type"), el = m.get("element");
    if (isNull(ty) || isNull(el)) continue;
    if (c.types.ofType(ty) == KaKind::Element)
      c.kaElements.insert({ts_node_start_byte(el), ts_node_end_byte(el)});
  }

  for (const auto& m : c.matches[QueryId::CppConstant]) {
    TSNode decl = m.get("decl"), name = m.get("name"), value = m.get("value");
    if (isNull(decl) || isNull(name) || isNull(value)) continue;
    if (!hasConstQualifier(c.tree, decl)) {
      // `const char* const K = "..."`: const on the pointer.
      if (!(is(name, "pointer_declarator") && c.text(name).find("const") != std::string_view::npos)) continue;
    }
    TSNode id = innermostIdentifier(name);
    if (isNull(id)) continue;
    Constant k;
    k.site = c.siteOf(decl);
    k.value = value;
    std::string id_text = noSpace(c.text(id));
    std::string q;
    for (const auto& s : k.site.scope)
      if (!s.empty()) q += s + "::";
    k.qualified = q + id_text;
    k.id = id;
    c.constants[lastComponent(id_text)].push_back(std::move(k));
  }
}

}  // namespace impact::cpp
