// C++ half of extraction (DOMAIN.md §3): static KernelArgument lists, the add(kind, size, name)
// lambda idiom, and .launch(stream, ...) calls. Everything is read off the tree-sitter tree.
#include "extract/CppFacts.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "queries/cpp_constant.h"
#include "queries/cpp_kernel_argument.h"
#include "queries/cpp_launch_call.h"
#include "queries/cpp_local_lambda.h"

namespace impact {
namespace {

constexpr int kMaxEvalDepth = 48;      // constant chains, nested casts, parentheses
constexpr int kMaxStmtDepth = 256;     // statement nesting followed by the lambda-idiom walk
constexpr int kMaxAscend = 8;          // nested braces between a list and its position
constexpr size_t kMaxUnroll = 4096;    // calls emitted per lambda (loops over literal lists)

// ---------------------------------------------------------------------------------------------
// Small node helpers (null-safe: tree-sitter's C API dereferences null nodes).

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

bool mentionsKernelArgument(std::string_view s) { return s.find("KernelArgument") != std::string_view::npos; }

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

// ---------------------------------------------------------------------------------------------
// Scopes and functions, by byte range.

struct Span {
  uint32_t start = 0, end = 0;
  bool contains(TSNode n) const { return ts_node_start_byte(n) >= start && ts_node_end_byte(n) <= end; }
};

struct Scope {
  Span span;
  std::string name;  // namespace or class name ("" for an anonymous namespace)
};

struct Function {
  Span span;
  TSNode node;
};

// Where a name is used: the namespaces/classes around it and the function it is in.
struct Site {
  std::vector<std::string> scope;
  int function = -1;  // index into Ctx::functions, -1 at namespace scope
};

struct Constant {
  Site site;
  std::string qualified;  // "a::b::NAME" (scope components joined)
  TSNode value;
  TSNode id{};            // the declared identifier
};

struct Ctx {
  const SyntaxTree& tree;
  std::vector<Scope> scopes;
  std::vector<Function> functions;
  std::unordered_map<std::string, std::vector<Constant>> constants;  // by unqualified name
  std::set<std::string> kaVariables;       // names declared with a KernelArgument-mentioning type
  std::set<std::pair<uint32_t, uint32_t>> kaElements;  // byte ranges of KernelArgument{...}

  explicit Ctx(const SyntaxTree& t) : tree(t) {}

  std::string_view text(TSNode n) const { return tree.text(n); }

  int functionOf(TSNode n) const {
    int best = -1;
    for (size_t i = 0; i < functions.size(); ++i) {
      if (!functions[i].span.contains(n)) continue;
      if (sameNode(functions[i].node, n)) continue;
      if (best < 0 || functions[i].span.start >= functions[best].span.start) best = static_cast<int>(i);
    }
    return best;
  }

  Site siteOf(TSNode n) const {
    Site s;
    for (const Scope& sc : scopes)  // scopes are in pre-order: outer before inner
      if (sc.span.contains(n)) s.scope.push_back(sc.name);
    s.function = functionOf(n);
    return s;
  }

  bool isKaElement(TSNode n) const {
    return is(n, "compound_literal_expression") &&
           kaElements.count({ts_node_start_byte(n), ts_node_end_byte(n)}) > 0;
  }
};

// ---------------------------------------------------------------------------------------------
// Function names.

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

bool isGtestMacro(std::string_view name) {
  return name == "TEST" || name == "TEST_F" || name == "TEST_P" || name == "TYPED_TEST" ||
         name == "TYPED_TEST_P" || name == "GTEST_TEST" || name == "FRIEND_TEST";
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

// ---------------------------------------------------------------------------------------------
// Constant lookup and evaluation.

const Constant* lookup(const Ctx& c, std::string_view written, const Site& site) {
  std::string q = noSpace(written);
  std::string qualifier;
  std::string name = q;
  if (auto p = q.rfind("::"); p != std::string::npos) {
    qualifier = q.substr(0, p);
    name = q.substr(p + 2);
  }
  if (qualifier.starts_with("::")) qualifier = qualifier.substr(2);
  auto it = c.constants.find(name);
  if (it == c.constants.end()) return nullptr;
  const Constant* best = nullptr;
  int bestScore = -1;
  for (const Constant& k : it->second) {
    int score = 0;
    if (!qualifier.empty()) {
      // `sizes::PTR` must name a constant whose scope ends with `sizes`.
      std::string want = "::" + qualifier + "::" + name;
      std::string have = "::" + k.qualified;
      if (!have.ends_with(want)) continue;
    }
    if (k.site.function >= 0) {
      if (k.site.function != site.function) continue;  // a local of another function
      score = 10000;
    } else {
      // Longest common scope prefix with the use site.
      size_t m = 0;
      while (m < k.site.scope.size() && m < site.scope.size() && k.site.scope[m] == site.scope[m]) ++m;
      if (m < k.site.scope.size()) score = 0;  // declared in a scope the use is not in
      else score = 1 + static_cast<int>(m);
    }
    if (score > bestScore) {
      bestScore = score;
      best = &k;
    }
  }
  return best;
}

std::optional<uint64_t> parseInteger(std::string_view s) {
  std::string t;
  for (char ch : s)
    if (ch != '\'') t.push_back(ch);
  while (!t.empty() && std::string_view("uUlLzZ").find(t.back()) != std::string_view::npos) t.pop_back();
  if (t.empty()) return std::nullopt;
  int base = 10;
  size_t i = 0;
  if (t.size() > 1 && t[0] == '0') {
    if (t[1] == 'x' || t[1] == 'X') { base = 16; i = 2; }
    else if (t[1] == 'b' || t[1] == 'B') { base = 2; i = 2; }
    else { base = 8; i = 1; }
  }
  if (i >= t.size() && base != 8) return std::nullopt;
  uint64_t v = 0;
  for (; i < t.size(); ++i) {
    int d;
    char ch = t[i];
    if (ch >= '0' && ch <= '9') d = ch - '0';
    else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
    else return std::nullopt;  // a float, or garbage
    if (d >= base) return std::nullopt;
    if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

std::string normaliseTypeName(std::string_view s) {
  std::string t = collapse(s);
  for (std::string_view drop : {"const ", "volatile ", " const", " volatile"}) {
    for (size_t p; (p = t.find(drop)) != std::string::npos;) t.erase(p, drop.size());
  }
  for (size_t p; (p = t.find("std::")) != std::string::npos;) t.erase(p, 5);
  if (t.starts_with("::")) t = t.substr(2);
  return trim(t);
}

std::optional<uint64_t> sizeOfTypeName(std::string_view written) {
  static const std::map<std::string, uint64_t, std::less<>> kSizes = {
      {"int32_t", 4}, {"uint32_t", 4}, {"int", 4}, {"signed", 4}, {"signed int", 4},
      {"unsigned", 4}, {"unsigned int", 4}, {"float", 4},
      {"int64_t", 8}, {"uint64_t", 8}, {"double", 8}, {"size_t", 8}, {"ssize_t", 8},
      {"intptr_t", 8}, {"uintptr_t", 8}, {"ptrdiff_t", 8}, {"long", 8}, {"unsigned long", 8},
      {"long long", 8}, {"unsigned long long", 8}, {"long int", 8}, {"hipDeviceptr_t", 8},
      {"int16_t", 2}, {"uint16_t", 2}, {"short", 2}, {"unsigned short", 2}, {"half", 2},
      {"__half", 2}, {"hip_bfloat16", 2}, {"__hip_bfloat16", 2}, {"_Float16", 2}, {"bfloat16", 2},
      {"int8_t", 1}, {"uint8_t", 1}, {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1}};
  std::string t = normaliseTypeName(written);
  if (t.ends_with("*")) return 8;
  auto it = kSizes.find(t);
  if (it == kSizes.end()) return std::nullopt;
  return it->second;
}

bool isIntegralTypeName(std::string_view written) {
  std::string t = normaliseTypeName(written);
  if (t.ends_with("*")) return false;
  auto s = sizeOfTypeName(t);
  return s.has_value() && t != "float" && t != "double" && t != "half" && t != "__half" &&
         t != "hip_bfloat16" && t != "__hip_bfloat16" && t != "_Float16" && t != "bfloat16";
}

struct Evaluator {
  const Ctx& c;
  // Substitutions for the lambda idiom: a loop variable bound to one literal of its range list.
  const std::map<std::string, TSNode>* env = nullptr;

  TSNode substitute(TSNode n) const {
    if (env && is(n, "identifier")) {
      auto it = env->find(std::string(c.text(n)));
      if (it != env->end()) return it->second;
    }
    return n;
  }

  std::optional<uint64_t> integer(TSNode n, const Site& site, int depth, std::string& why) const {
    if (isNull(n)) { why = "missing size"; return std::nullopt; }
    if (depth > kMaxEvalDepth) { why = "size expression nested too deeply"; return std::nullopt; }
    n = substitute(n);
    std::string_view t = type(n);
    if (t == "number_literal") {
      auto v = parseInteger(c.text(n));
      if (!v) why = "not an integer literal: " + std::string(c.text(n));
      return v;
    }
    if (t == "parenthesized_expression" || t == "initializer_list") {
      auto k = items(n);
      if (k.size() == 1) return integer(k[0], site, depth + 1, why);
      why = "cannot evaluate '" + collapse(c.text(n)) + "'";
      return std::nullopt;
    }
    if (t == "sizeof_expression") {
      TSNode ty = field(n, "type");
      if (!isNull(ty)) {
        // type_descriptor: any (abstract) pointer declarator makes it a pointer.
        TSNode decl = field(ty, "declarator");
        if (!isNull(decl) && c.text(decl).find('*') != std::string_view::npos) return 8;
        TSNode base = field(ty, "type");
        auto v = sizeOfTypeName(isNull(base) ? c.text(ty) : c.text(ty));
        if (!v && !isNull(base)) v = sizeOfTypeName(c.text(base));
        if (!v) why = "unknown type in '" + collapse(c.text(n)) + "'";
        return v;
      }
      TSNode val = field(n, "value");
      std::string inner = noSpace(c.text(val));
      if (inner.size() >= 2 && inner.front() == '(' && inner.back() == ')') inner = inner.substr(1, inner.size() - 2);
      auto v = sizeOfTypeName(inner);
      if (!v) why = "unknown type in '" + collapse(c.text(n)) + "'";
      return v;
    }
    if (t == "call_expression") {
      TSNode fn = field(n, "function");
      auto args = items(field(n, "arguments"));
      bool cast = false;
      if (is(fn, "template_function")) {
        std::string_view name = c.text(field(fn, "name"));
        cast = name == "static_cast" || name == "std::static_cast";
      } else if (is(fn, "primitive_type") || is(fn, "type_identifier") || is(fn, "qualified_identifier") ||
                 is(fn, "identifier") || is(fn, "sized_type_specifier")) {
        cast = isIntegralTypeName(c.text(fn));
      }
      if (cast && args.size() == 1) return integer(args[0], site, depth + 1, why);
      why = "cannot evaluate call '" + collapse(c.text(n)) + "'";
      return std::nullopt;
    }
    if (t == "compound_literal_expression") {
      auto k = items(field(n, "value"));
      if (isIntegralTypeName(c.text(field(n, "type"))) && k.size() == 1) return integer(k[0], site, depth + 1, why);
      why = "cannot evaluate '" + collapse(c.text(n)) + "'";
      return std::nullopt;
    }
    if (t == "cast_expression") return integer(field(n, "value"), site, depth + 1, why);
    if (t == "identifier" || t == "qualified_identifier") {
      const Constant* k = lookup(c, c.text(n), site);
      if (!k) {
        why = "unknown constant '" + noSpace(c.text(n)) + "'";
        return std::nullopt;
      }
      Evaluator plain{c, nullptr};
      return plain.integer(k->value, k->site, depth + 1, why);
    }
    if (t == "binary_expression") {
      std::string op = std::string(c.text(field(n, "operator")));
      auto l = integer(field(n, "left"), site, depth + 1, why);
      if (!l) return std::nullopt;
      auto r = integer(field(n, "right"), site, depth + 1, why);
      if (!r) return std::nullopt;
      if (op == "+") return *l + *r;
      if (op == "-") return *l - *r;
      if (op == "*") return *l * *r;
      if (op == "/" && *r != 0) return *l / *r;
      if (op == "<<" && *r < 64) return *l << *r;
      why = "cannot evaluate '" + collapse(c.text(n)) + "'";
      return std::nullopt;
    }
    why = "cannot evaluate '" + collapse(c.text(n)) + "'";
    return std::nullopt;
  }

  static std::string literalContent(const Ctx& c, TSNode lit) {
    std::string out;
    for (TSNode k : namedChildren(lit)) {
      std::string_view t = type(k);
      if (t == "string_content" || t == "escape_sequence" || t == "raw_string_content") out += c.text(k);
    }
    return out;
  }

  std::optional<std::string> str(TSNode n, const Site& site, int depth) const {
    if (isNull(n) || depth > kMaxEvalDepth) return std::nullopt;
    n = substitute(n);
    std::string_view t = type(n);
    if (t == "string_literal" || t == "raw_string_literal") return literalContent(c, n);
    if (t == "concatenated_string") {
      std::string out;
      for (TSNode k : items(n)) {
        auto s = str(k, site, depth + 1);
        if (!s) return std::nullopt;
        out += *s;
      }
      return out;
    }
    if (t == "parenthesized_expression") {
      auto k = items(n);
      if (k.size() == 1) return str(k[0], site, depth + 1);
      return std::nullopt;
    }
    if (t == "identifier" || t == "qualified_identifier") {
      const Constant* k = lookup(c, c.text(n), site);
      if (!k) return std::nullopt;
      Evaluator plain{c, nullptr};
      return plain.str(k->value, k->site, depth + 1);
    }
    if (t == "call_expression" || t == "compound_literal_expression") {
      // std::string("x"), std::string_view{GLOBAL}, std::string(K)
      TSNode fn = field(n, t == "call_expression" ? "function" : "type");
      auto args = items(field(n, t == "call_expression" ? "arguments" : "value"));
      if (c.text(fn).find("string") != std::string_view::npos && args.size() == 1) return str(args[0], site, depth + 1);
      return std::nullopt;
    }
    return std::nullopt;
  }
};

// ---------------------------------------------------------------------------------------------
// Elements.

// The kind/size/offset/name expressions of one element; null nodes when absent.
struct ElementParts {
  TSNode kind{}, size{}, offset{}, name{};
  size_t count = 0;
  bool designated = false;
};

ElementParts partsOf(const Ctx& c, TSNode braces) {
  ElementParts p;
  auto k = items(braces);
  p.count = k.size();
  if (!k.empty() && is(k[0], "initializer_pair")) {
    p.designated = true;
    for (TSNode pair : k) {
      std::string d = noSpace(c.text(field(pair, "designator")));
      if (!d.empty() && d[0] == '.') d = d.substr(1);
      TSNode v = field(pair, "value");
      if (d == "kind") p.kind = v;
      else if (d == "size") p.size = v;
      else if (d == "offset") p.offset = v;
      else if (d == "name") p.name = v;
    }
    return p;
  }
  if (k.size() >= 1) p.kind = k[0];
  if (k.size() >= 2) p.size = k[1];
  if (k.size() >= 3) p.offset = k[2];
  if (k.size() >= 4) p.name = k[3];
  return p;
}

// A bare `{kind, size, offset[, name]}`: 3 or 4 scalar items, the first not a number.
bool isBareElement(const Ctx& c, TSNode n) {
  if (!is(n, "initializer_list")) return false;
  auto k = items(n);
  if (k.empty()) return false;
  if (is(k[0], "initializer_pair")) {
    for (TSNode pair : k) {
      if (!is(pair, "initializer_pair")) return false;
      std::string d = noSpace(c.text(field(pair, "designator")));
      if (d != ".kind" && d != ".size" && d != ".offset" && d != ".name") return false;
    }
    return true;
  }
  if (k.size() != 3 && k.size() != 4) return false;
  for (TSNode x : k) {
    std::string_view t = type(x);
    if (t == "initializer_list" || t == "compound_literal_expression" || t == "initializer_pair" ||
        t == "lambda_expression" || t == "ERROR")
      return false;
  }
  std::string_view t0 = type(k[0]);
  return t0 != "number_literal" && t0 != "char_literal" && t0 != "true" && t0 != "false";
}

bool isElement(const Ctx& c, TSNode n) { return c.isKaElement(n) || isBareElement(c, n); }

TSNode elementBraces(const Ctx& c, TSNode element) {
  return is(element, "compound_literal_expression") ? field(element, "value") : element;
}

KernelArg argFrom(const Evaluator& ev, const ElementParts& p, const Site& site, SourceRange range) {
  const Ctx& c = ev.c;
  KernelArg a;
  a.range = range;
  std::vector<std::string> reasons;
  if (!p.designated && p.count != 3 && p.count != 4)
    reasons.push_back("element has " + std::to_string(p.count) + " items, expected {kind, size, offset, name}");
  if (isNull(p.kind)) {
    reasons.push_back("no kind");
  } else if (auto k = ev.str(p.kind, site, 0)) {
    a.kind = *k;
  } else {
    reasons.push_back("unknown kind '" + collapse(c.text(ev.substitute(p.kind))) + "'");
  }
  if (isNull(p.size)) {
    reasons.push_back("no size");
  } else {
    TSNode sizeNode = ev.substitute(p.size);
    a.typeText = collapse(c.text(sizeNode));
    std::string why;
    auto v = ev.integer(p.size, site, 0, why);
    if (v && *v <= UINT32_MAX) a.size = static_cast<uint32_t>(*v);
    else reasons.push_back(v ? "size out of range" : why);
  }
  if (!isNull(p.name)) {
    if (auto n = ev.str(p.name, site, 0)) a.name = *n;
  }
  if (!isNull(p.offset)) {
    std::string why;
    if (auto o = ev.integer(p.offset, site, 0, why)) a.offset = static_cast<int64_t>(*o);
  }
  if (!reasons.empty()) {
    a.resolved = false;
    for (size_t i = 0; i < reasons.size(); ++i) a.unresolvedReason += (i ? "; " : "") + reasons[i];
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// Pass 1: scopes, functions, KernelArgument-typed variables, KernelArgument{...} elements,
// constants.

void collect(Ctx& c) {
  TSNode root = c.tree.root();
  walk(root, [&](TSNode n) {
    std::string_view t = type(n);
    if (t == "namespace_definition" || t == "class_specifier" || t == "struct_specifier") {
      TSNode name = field(n, "name");
      if (t != "namespace_definition" && isNull(field(n, "body"))) return true;  // a use, not a definition
      c.scopes.push_back({{ts_node_start_byte(n), ts_node_end_byte(n)}, noSpace(c.text(name))});
    } else if (t == "function_definition") {
      c.functions.push_back({{ts_node_start_byte(n), ts_node_end_byte(n)}, n});
    } else if (t == "declaration" || t == "field_declaration" || t == "parameter_declaration") {
      // `std::vector<KernelArgument> expected;`, `auto sig = std::vector<KernelArgument>{...};`
      TSNode ty = field(n, "type");
      bool typed = mentionsKernelArgument(c.text(ty));
      for (uint32_t i = 0, cnt = ts_node_child_count(n); i < cnt; ++i) {
        const char* f = ts_node_field_name_for_child(n, i);
        if (!f || std::string_view(f) != "declarator") continue;
        TSNode d = ts_node_child(n, i);
        TSNode value = field(d, "value");
        if (!typed && !mentionsKernelArgument(c.text(value))) continue;
        TSNode id = innermostIdentifier(d);
        if (!isNull(id)) c.kaVariables.insert(noSpace(c.text(id)));
      }
    }
    return true;
  });

  static const Query kaQuery(Lang::Cpp, queries::cpp_kernel_argument);
  for (const auto& m : kaQuery.matches(root)) {
    TSNode ty = m.get("type"), el = m.get("element");
    if (isNull(ty) || isNull(el)) continue;
    if (lastComponent(c.text(ty)) == "KernelArgument")
      c.kaElements.insert({ts_node_start_byte(el), ts_node_end_byte(el)});
  }

  static const Query constQuery(Lang::Cpp, queries::cpp_constant);
  for (const auto& m : constQuery.matches(root)) {
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

// ---------------------------------------------------------------------------------------------
// Static lists.

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

bool isAppendCall(std::string_view callee) {
  return callee == "push_back" || callee == "emplace_back" || callee == "insert" || callee == "emplace" ||
         callee == "append" || callee == "push_front" || callee == "emplace_front";
}

// Decides whether a braced list of elements sits where a whole argument list is stated.
// On success fills `variable`.
bool isListPosition(const Ctx& c, TSNode list, bool anyKa, std::string& variable) {
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
      KernelArg a = argFrom(ev, partsOf(c, elementBraces(c, e)), site, rangeOf(e));
      l.named = l.named || !a.name.empty();
      l.args.push_back(std::move(a));
    }
    out.push_back(std::move(l));
    return false;  // elements are not lists
  });
}

// ---------------------------------------------------------------------------------------------
// The lambda idiom: auto add = [&](const char* kind, uint32_t size, const char* name) {...};

struct Slot {
  int param = -1;  // index of the lambda parameter that supplies it
  TSNode fixed{};  // or an expression inside the lambda
};

struct LambdaShape {
  std::string name;
  std::string vector;                 // the vector appended to, if seen
  Slot kind, size, argName;
  TSNode lambda{};
};

// Finds the append inside a lambda body and maps kind/size/name to parameters.
bool lambdaShape(const Ctx& c, TSNode lambda, LambdaShape& shape) {
  std::vector<std::string> params;
  TSNode decl = field(lambda, "declarator");
  for (TSNode p : items(field(decl, "parameters"))) params.push_back(declaredName(c, field(p, "declarator")));
  TSNode body = field(lambda, "body");
  if (isNull(body)) return false;

  std::vector<TSNode> parts;  // kind, size, offset, name expressions as constructed
  bool found = false;
  walk(body, [&](TSNode n) {
    if (found) return false;
    if (is(n, "lambda_expression") && !sameNode(n, lambda)) return false;
    if (is(n, "call_expression")) {
      std::string callee = calleeName(c, n);
      if (callee == "push_back" || callee == "emplace_back") {
        TSNode fn = field(n, "function");
        if (is(fn, "field_expression")) shape.vector = noSpace(c.text(field(fn, "argument")));
        auto args = items(field(n, "arguments"));
        if (args.size() == 1 && (c.isKaElement(args[0]) || is(args[0], "initializer_list"))) {
          parts = items(elementBraces(c, args[0]));
        } else if (args.size() >= 3) {
          parts = args;  // emplace_back(kind, size, offset, name)
        }
        found = !parts.empty();
        return false;
      }
    }
    if (c.isKaElement(n)) {  // KernelArgument{kind, size, offset, name} built some other way
      parts = items(field(n, "value"));
      found = !parts.empty();
      return false;
    }
    return true;
  });
  if (!found) return false;
  if (parts.size() < 2) return false;

  auto slotFor = [&](TSNode e) {
    Slot s;
    std::string t = noSpace(c.text(e));
    for (size_t i = 0; i < params.size(); ++i)
      if (!params[i].empty() && params[i] == t) s.param = static_cast<int>(i);
    if (s.param < 0) s.fixed = e;
    return s;
  };
  shape.kind = slotFor(parts[0]);
  shape.size = slotFor(parts[1]);
  if (parts.size() >= 4) shape.argName = slotFor(parts[3]);
  else if (parts.size() == 3 && params.size() == 3) shape.argName = slotFor(parts[2]);
  shape.lambda = lambda;
  return true;
}

struct CallContext {
  std::vector<std::string> conditions;
  std::map<std::string, TSNode> env;
  std::string loopReason;  // non-empty inside a loop that could not be unrolled
};

std::string conditionText(const Ctx& c, TSNode ifStmt) {
  TSNode cond = field(ifStmt, "condition");
  TSNode value = field(cond, "value");
  std::string s = collapse(c.text(isNull(value) ? cond : value));
  if (isNull(value) && s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trim(s.substr(1, s.size() - 2));
  return s;
}

class LambdaCalls {
 public:
  LambdaCalls(const Ctx& c, const LambdaShape& shape, const Site& site, std::vector<KernelArg>& out)
      : c_(c), shape_(shape), site_(site), out_(out) {}

  void visit(TSNode n, CallContext& ctx, int depth) {
    if (isNull(n) || out_.size() >= kMaxUnroll) return;
    if (depth > kMaxStmtDepth) { truncated_ = true; return; }
    std::string_view t = type(n);
    if (t == "lambda_expression") return;
    if (t == "call_expression" && is(field(n, "function"), "identifier") &&
        c_.text(field(n, "function")) == shape_.name) {
      emit(n, ctx);
      // arguments may hold further calls only in odd code; do not descend
      return;
    }
    if (t == "if_statement" || t == "conditional_expression") {
      visit(field(n, "condition"), ctx, depth + 1);
      std::string cond = t == "if_statement" ? conditionText(c_, n) : collapse(c_.text(field(n, "condition")));
      ctx.conditions.push_back(cond);
      visit(field(n, "consequence"), ctx, depth + 1);
      ctx.conditions.back() = "!(" + cond + ")";
      visit(field(n, "alternative"), ctx, depth + 1);
      ctx.conditions.pop_back();
      return;
    }
    if (t == "for_range_loop") {
      TSNode right = field(n, "right");
      TSNode body = field(n, "body");
      std::string var = declaredName(c_, field(n, "declarator"));
      TSNode listNode = right;
      if (is(right, "identifier") || is(right, "qualified_identifier")) {
        if (const Constant* k = lookup(c_, c_.text(right), site_)) listNode = k->value;
      }
      if (is(listNode, "initializer_list") && !var.empty()) {
        for (TSNode e : items(listNode)) {
          auto saved = ctx.env.find(var) != ctx.env.end() ? std::optional<TSNode>(ctx.env[var]) : std::nullopt;
          ctx.env[var] = e;
          visit(body, ctx, depth + 1);
          if (saved) ctx.env[var] = *saved;
          else ctx.env.erase(var);
        }
        return;
      }
      std::string saved = ctx.loopReason;
      ctx.loopReason = "called inside a loop over '" + collapse(c_.text(right)) + "' that cannot be unrolled";
      visit(body, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    if (t == "for_statement" || t == "while_statement" || t == "do_statement") {
      std::string saved = ctx.loopReason;
      ctx.loopReason = "called inside a loop that cannot be unrolled";
      for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
  }

  bool truncated() const { return truncated_; }

 private:
  TSNode slotNode(const Slot& s, const std::vector<TSNode>& args) const {
    if (s.param >= 0) return static_cast<size_t>(s.param) < args.size() ? args[s.param] : TSNode{};
    return s.fixed;
  }

  void emit(TSNode call, const CallContext& ctx) {
    auto args = items(field(call, "arguments"));
    ElementParts p;
    p.count = 4;
    p.kind = slotNode(shape_.kind, args);
    p.size = slotNode(shape_.size, args);
    p.name = slotNode(shape_.argName, args);
    Evaluator ev{c_, &ctx.env};
    // Fixed parts live inside the lambda; parameters are evaluated where the call is.
    KernelArg a = argFrom(ev, p, site_, rangeOf(call));
    if (!ctx.conditions.empty()) {
      a.conditional = true;
      for (size_t i = 0; i < ctx.conditions.size(); ++i) a.condition += (i ? " && " : "") + ctx.conditions[i];
    }
    if (!ctx.loopReason.empty()) {
      a.resolved = false;
      a.unresolvedReason += (a.unresolvedReason.empty() ? "" : "; ") + ctx.loopReason;
    }
    out_.push_back(std::move(a));
  }

  const Ctx& c_;
  const LambdaShape& shape_;
  const Site& site_;
  std::vector<KernelArg>& out_;
  bool truncated_ = false;
};

void extractLambdas(const Ctx& c, std::vector<CppArgList>& out) {
  static const Query q(Lang::Cpp, queries::cpp_local_lambda);
  for (const auto& m : q.matches(c.tree.root())) {
    TSNode name = m.get("name"), lambda = m.get("lambda"), decl = m.get("decl");
    if (isNull(name) || isNull(lambda) || isNull(decl)) continue;
    int f = c.functionOf(decl);
    if (f < 0) continue;
    LambdaShape shape;
    shape.name = std::string(c.text(name));
    if (!lambdaShape(c, lambda, shape)) continue;
    TSNode def = c.functions[f].node;
    TSNode body = field(def, "body");
    Site site = c.siteOf(decl);
    CppArgList l;
    l.form = CppArgList::Form::Lambda;
    l.symbol = functionName(c, def);
    l.variable = shape.vector;
    TSNode fd = functionDeclarator(def);
    l.range = rangeOf(isNull(fd) ? def : fd);
    CallContext ctx;
    LambdaCalls calls(c, shape, site, l.args);
    calls.visit(body, ctx, 0);
    if (l.args.empty()) continue;
    l.fingerprint = codeFingerprint(c.tree, def);
    for (const KernelArg& a : l.args) l.named = l.named || !a.name.empty();
    out.push_back(std::move(l));
  }
}

// ---------------------------------------------------------------------------------------------
// Launch calls: kernel.launch(stream, a, b, ...)

void extractLaunches(const Ctx& c, std::vector<CppArgList>& out) {
  static const Query q(Lang::Cpp, queries::cpp_launch_call);
  for (const auto& m : q.matches(c.tree.root())) {
    TSNode method = m.get("method"), args = m.get("args"), call = m.get("call");
    if (isNull(method) || isNull(args) || isNull(call)) continue;
    if (c.text(method) != "launch") continue;
    auto a = items(args);
    if (a.size() < 2) continue;
    bool forwarding = false;
    for (TSNode x : a) forwarding = forwarding || is(x, "parameter_pack_expansion");
    if (forwarding) continue;  // launch(stream, args...) inside a variadic wrapper
    int f = c.functionOf(call);
    CppArgList l;
    l.form = CppArgList::Form::Launch;
    l.range = rangeOf(call);
    if (f >= 0) {
      TSNode def = c.functions[f].node;
      l.symbol = functionName(c, def);
      if (lastComponent(l.symbol) == "launch") continue;  // the wrapper's own forwarding call
      l.fingerprint = codeFingerprint(c.tree, def);
    } else {
      l.fingerprint = codeFingerprint(c.tree, call);
    }
    for (size_t i = 1; i < a.size(); ++i) {
      KernelArg k;
      k.name = collapse(c.text(a[i]));
      k.range = rangeOf(a[i]);
      l.args.push_back(std::move(k));
    }
    l.named = true;
    out.push_back(std::move(l));
  }
}

// ---------------------------------------------------------------------------------------------
// Symbol strings, KMD field reads and includes (SPEC R2.5, R2.8).

bool isMetadataRead(std::string_view method) {
  // getIntMetadata, getStringMetadata (and other get*Metadata); tryGetMetadata is "may be absent".
  return method.starts_with("get") && method.ends_with("Metadata") && method.size() > 11;
}

// The *_FIELD constant (or any identifier) an argument reads through.
std::string fieldConstantIn(const Ctx& c, TSNode arg) {
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
  // KMD reads and includes.
  walk(c.tree.root(), [&](TSNode n) {
    if (is(n, "preproc_include")) {
      TSNode p = field(n, "path");
      std::string_view t = c.text(p);
      if (t.size() >= 2) out.includes.emplace_back(t.substr(1, t.size() - 2));
      return false;
    }
    if (!is(n, "call_expression")) return true;
    TSNode fn = field(n, "function");
    std::string method;
    if (is(fn, "field_expression")) method = std::string(c.text(field(fn, "field")));
    else if (is(fn, "identifier") || is(fn, "qualified_identifier")) method = lastComponent(c.text(fn));
    if (!isMetadataRead(method)) return true;
    auto args = items(field(n, "arguments"));
    if (args.empty()) return true;
    Site site = c.siteOf(n);
    CppKmdRead r;
    r.method = method;
    r.constant = fieldConstantIn(c, args[0]);
    auto v = ev.str(args[0], site, 0);
    if (!v && !r.constant.empty()) {
      if (const Constant* k = lookup(c, r.constant, site)) v = ev.str(k->value, k->site, 0);
    }
    if (!v) return true;  // a field name computed at run time: nothing to compare
    r.field = *v;
    SourceRange rg = rangeOf(n);
    r.line = rg.line;
    r.col = rg.col;
    out.kmdReads.push_back(std::move(r));
    return true;
  });
}

bool before(const SourceRange& a, const SourceRange& b) {
  return std::tie(a.line, a.col, a.endLine, a.endCol) < std::tie(b.line, b.col, b.endLine, b.endCol);
}

}  // namespace

void extractCpp(const SyntaxTree& tree, FileFacts& out) {
  try {
    if (ts_node_is_null(tree.root())) return;
    Ctx c(tree);
    collect(c);
    std::vector<CppArgList> lists;
    extractStatic(c, lists);
    extractLambdas(c, lists);
    extractLaunches(c, lists);
    std::stable_sort(lists.begin(), lists.end(),
                     [](const CppArgList& a, const CppArgList& b) { return before(a.range, b.range); });
    for (auto& l : lists) out.lists.push_back(std::move(l));
    extractSymbols(c, out.symbols);
  } catch (const std::exception& e) {
    if (out.ok) {
      out.ok = false;
      out.error = std::string("C++ extraction failed: ") + e.what();
    }
  } catch (...) {
    if (out.ok) {
      out.ok = false;
      out.error = "C++ extraction failed";
    }
  }
}

}  // namespace impact
