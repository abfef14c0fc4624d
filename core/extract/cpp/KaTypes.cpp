#include "extract/cpp/KaTypes.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace impact::cpp {
namespace {

constexpr int kMaxTypeDepth = 16;  // alias chains, auto through calls and copies

// The standard (and common) sequence containers: a container of KernelArguments is a list.
bool isSequenceContainer(std::string_view name) {
  static const std::set<std::string_view> kNames = {
      "vector", "array", "initializer_list", "span", "deque", "list", "forward_list", "valarray",
      "SmallVector", "small_vector", "static_vector", "inplace_vector"};
  return kNames.count(name) > 0;
}

bool kaNull(TSNode n) { return ts_node_is_null(n); }

// Where a declaration at `n` is visible: the nearest enclosing block, namespace or class body,
// loop, lambda or function (a parameter's), or the whole file.
std::pair<uint32_t, uint32_t> kaScopeOf(TSNode n) {
  for (TSNode p = ts_node_parent(n); !kaNull(p); p = ts_node_parent(p)) {
    std::string_view t = type(p);
    if (t == "compound_statement" || t == "declaration_list" || t == "field_declaration_list" ||
        t == "translation_unit" || t == "for_range_loop" || t == "for_statement" || t == "lambda_expression" ||
        t == "function_definition")
      return {ts_node_start_byte(p), ts_node_end_byte(p)};
  }
  return {0, UINT32_MAX};
}

bool kaFileLevel(TSNode n) {
  for (TSNode p = ts_node_parent(n); !kaNull(p); p = ts_node_parent(p)) {
    std::string_view t = type(p);
    if (t == "translation_unit") return true;
    if (t != "declaration_list" && t != "namespace_definition" && t != "template_declaration" &&
        t != "linkage_specification")
      return false;
  }
  return true;
}

// The identifier a declarator declares (through pointer/reference/array/init declarators).
TSNode kaDeclaredId(TSNode n) {
  for (int guard = 0; guard < 32 && !kaNull(n); ++guard) {
    std::string_view t = type(n);
    if (t == "identifier" || t == "field_identifier" || t == "qualified_identifier" || t == "type_identifier")
      return n;
    TSNode d = field(n, "declarator");
    if (kaNull(d)) {
      if (ts_node_named_child_count(n) == 0) return TSNode{};
      d = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
    }
    n = d;
  }
  return TSNode{};
}

std::string kaLastName(std::string_view s) {
  std::string t;
  for (char ch : s)
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') t.push_back(ch);
  if (auto lt = t.find('<'); lt != std::string::npos) t = t.substr(0, lt);
  if (auto p = t.rfind("::"); p != std::string::npos) t = t.substr(p + 2);
  return t;
}

TSNode kaFunctionDeclarator(TSNode n) {
  TSNode d = field(n, "declarator");
  for (int guard = 0; guard < 16 && !kaNull(d); ++guard) {
    if (is(d, "function_declarator") || is(d, "abstract_function_declarator")) return d;
    if (is(d, "init_declarator")) return TSNode{};
    TSNode inner = field(d, "declarator");
    if (kaNull(inner)) {
      if (ts_node_named_child_count(d) == 0) break;
      inner = ts_node_named_child(d, ts_node_named_child_count(d) - 1);
    }
    d = inner;
  }
  return TSNode{};
}

TSNode kaTrailingReturn(TSNode fd) {
  if (kaNull(fd)) return TSNode{};
  for (uint32_t i = 0; i < ts_node_named_child_count(fd); ++i) {
    TSNode k = ts_node_named_child(fd, i);
    if (is(k, "trailing_return_type") && ts_node_named_child_count(k) > 0) return ts_node_named_child(k, 0);
  }
  return TSNode{};
}

bool kaIsAuto(TSNode type) { return is(type, "placeholder_type_specifier") || is(type, "auto"); }

std::vector<TSNode> kaKids(TSNode n) {
  std::vector<TSNode> out;
  if (kaNull(n)) return out;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    TSNode k = ts_node_named_child(n, i);
    if (!is(k, "comment")) out.push_back(k);
  }
  return out;
}

}  // namespace

std::vector<TSNode> declaratorsOf(TSNode decl) {
  std::vector<TSNode> out;
  TSNode ty = field(decl, "type");
  for (TSNode k : kaKids(decl)) {
    if (!kaNull(ty) && ts_node_start_byte(k) == ts_node_start_byte(ty) && ts_node_end_byte(k) == ts_node_end_byte(ty))
      continue;
    std::string_view t = type(k);
    if (t == "identifier" || t == "field_identifier" || t == "type_identifier" || t == "qualified_identifier" ||
        t.ends_with("declarator"))
      out.push_back(k);
  }
  return out;
}

void KaTypes::seed(const std::vector<KaAlias>& aliases) {
  for (const auto& [name, kind] : aliases) {
    Decl d;
    d.scopeStart = 0;
    d.scopeEnd = UINT32_MAX;
    d.scoped = true;
    d.kind = kind;
    d.seeded = true;
    aliases_[name].push_back(d);
  }
}

void KaTypes::noteAlias(std::string name, TSNode type, TSNode declarator, TSNode at) {
  if (name.empty()) return;
  Decl d;
  d.at = ts_node_start_byte(at);
  d.type = type;
  d.declarator = declarator;
  d.node = at;
  aliases_[std::move(name)].push_back(d);
}

KaKind KaTypes::aliasKind(const Decl& d, int depth) const {
  if (d.seeded) return d.kind;
  KaKind k = ofTypeAt(d.type, depth + 1);
  return kaNull(d.declarator) ? k : ofDeclarator(k, d.declarator);
}

void KaTypes::visit(TSNode n) {
  std::string_view t = type(n);
  if (t == "alias_declaration") {
    noteAlias(std::string(tree_.text(field(n, "name"))), field(n, "type"), TSNode{}, n);
  } else if (t == "type_definition") {
    TSNode ty = field(n, "type");
    for (TSNode d : declaratorsOf(n)) {
      TSNode id = kaDeclaredId(d);
      if (kaNull(id)) continue;
      // `typedef KernelArgument Args[4];`: the declarator's array makes it a list.
      noteAlias(std::string(tree_.text(id)), ty, is(d, "type_identifier") ? TSNode{} : d, n);
    }
  } else if (t == "function_definition" || t == "declaration" || t == "field_declaration" ||
             t == "parameter_declaration" || t == "optional_parameter_declaration" || t == "for_range_loop") {
    declarations_.push_back(n);  // indexed when a name is first looked up (most files never do)
  }
}

void KaTypes::index() const {
  if (indexed_ >= declarations_.size()) return;
  for (; indexed_ < declarations_.size(); ++indexed_) {
    TSNode n = declarations_[indexed_];
    std::string_view t = type(n);
    if (t == "function_definition") {
      TSNode fd = kaFunctionDeclarator(n);
      if (!kaNull(fd)) functions_[kaLastName(tree_.text(field(fd, "declarator")))].push_back(n);
    } else if (t == "for_range_loop") {
      TSNode id = kaDeclaredId(field(n, "declarator"));
      if (kaNull(id)) continue;
      Decl v;
      v.at = ts_node_start_byte(n);
      v.scopeStart = ts_node_start_byte(n);
      v.scopeEnd = ts_node_end_byte(n);
      v.scoped = true;
      v.node = n;
      variables_[std::string(tree_.text(id))].push_back(v);
    } else {
      for (TSNode d : declaratorsOf(n)) {
        if (t == "declaration" && !kaNull(kaFunctionDeclarator(n)) && !is(d, "init_declarator")) {
          TSNode fd = kaFunctionDeclarator(n);  // a function's declaration: its parameters are known
          functions_[kaLastName(tree_.text(field(fd, "declarator")))].push_back(n);
          continue;
        }
        TSNode id = kaDeclaredId(d);
        if (kaNull(id)) continue;
        Decl v;
        v.at = ts_node_start_byte(n);
        v.node = n;
        v.declarator = d;
        variables_[kaLastName(tree_.text(id))].push_back(v);
      }
    }
  }
}

KaKind KaTypes::variableKind(const Decl& d, int depth) const {
  if (d.state == 2) return d.kind;
  if (d.state == 1) return KaKind::None;  // a cycle (`auto a = b; auto b = a;` in odd code)
  d.state = 1;
  KaKind k;
  if (is(d.node, "for_range_loop")) {
    TSNode ty = field(d.node, "type");
    k = kaIsAuto(ty) ? (ofValueAt(field(d.node, "right"), depth + 1) == KaKind::List ? KaKind::Element : KaKind::None)
                   : ofDeclarator(ofTypeAt(ty, depth + 1), field(d.node, "declarator"));
  } else {
    k = ofDeclaredAt(d.node, d.declarator, depth + 1);
  }
  d.kind = k;
  d.state = 2;
  return k;
}

void KaTypes::ensure() const {
  if (kaNull(pending_)) return;
  TSNode root = pending_;
  pending_ = TSNode{};
  const_cast<KaTypes*>(this)->scan(root);
}

void KaTypes::scan(TSNode root) {
  scanned_ = true;
  walk(root, [&](TSNode n) {
    visit(n);
    return true;
  });
}

const KaTypes::Decl* KaTypes::find(const std::map<std::string, std::vector<Decl>, std::less<>>& m,
                                   std::string_view name, uint32_t at, bool qualified) const {
  // The walk is needed for variables, and for aliases only in a file that can declare one (the
  // headers' are seeded): a file of macros and plain types is never walked for this.
  if (&m != &aliases_ || mayAlias()) ensure();
  if (&m == &variables_) index();
  auto it = m.find(name);
  if (it == m.end()) return nullptr;
  const Decl* best = nullptr;
  for (const Decl& d : it->second) {
    if (!d.seeded && d.at > at) continue;
    if (!d.scoped) {
      std::tie(d.scopeStart, d.scopeEnd) = kaScopeOf(d.node);
      d.scoped = true;
    }
    const bool visible = at >= d.scopeStart && at < d.scopeEnd;
    const bool named = !visible && qualified && !kaNull(d.node) && is(ts_node_parent(d.node), "declaration_list");
    if (!d.seeded && (d.at > at || !(visible || named))) continue;
    if (!best || d.scopeStart >= best->scopeStart) best = &d;  // the innermost, the later one
  }
  return best;
}

KaKind KaTypes::ofType(TSNode type) const {
  return ofTypeAt(type, 0);
}

KaKind KaTypes::ofTypeAt(TSNode ty, int depth, bool qualified) const {
  if (kaNull(ty) || depth > kMaxTypeDepth) return KaKind::None;
  std::string_view t = type(ty);
  if (t == "type_descriptor") return ofDeclarator(ofTypeAt(field(ty, "type"), depth + 1), field(ty, "declarator"));
  if (t == "qualified_identifier") return ofTypeAt(field(ty, "name"), depth + 1, true);
  if (t == "decltype") {
    auto k = kaKids(ty);
    return k.empty() ? KaKind::None : ofValueAt(k[0], depth + 1);
  }
  if (t == "type_identifier" || t == "template_type") {
    std::string_view name = tree_.text(t == "template_type" ? field(ty, "name") : ty);
    if (t == "type_identifier" && name == "KernelArgument") return KaKind::Element;
    if (t == "template_type" && isSequenceContainer(name)) {
      auto args = kaKids(field(ty, "arguments"));
      if (args.empty()) return KaKind::None;
      return ofTypeAt(args[0], depth + 1) == KaKind::None ? KaKind::None : KaKind::List;
    }
    const Decl* a = find(aliases_, name, ts_node_start_byte(ty), qualified);
    return a ? aliasKind(*a, depth) : KaKind::None;
  }
  return KaKind::None;
}

KaKind KaTypes::ofDeclarator(KaKind base, TSNode d) const {
  for (int guard = 0; guard < 32 && !kaNull(d) && base != KaKind::None; ++guard) {
    std::string_view t = type(d);
    if (t == "array_declarator" || t == "abstract_array_declarator") {
      base = KaKind::List;
    } else if (t == "pointer_declarator" || t == "abstract_pointer_declarator" || t == "function_declarator" ||
               t == "abstract_function_declarator" || t == "structured_binding_declarator") {
      return KaKind::None;
    } else if (t == "identifier" || t == "field_identifier" || t == "type_identifier" || t == "qualified_identifier") {
      return base;
    }
    TSNode inner = field(d, "declarator");
    if (kaNull(inner)) {
      auto k = kaKids(d);
      if (k.empty()) return base;
      inner = k.back();
    }
    d = inner;
  }
  return base;
}

KaKind KaTypes::ofDeclared(TSNode decl, TSNode declarator) const {
  return ofDeclaredAt(decl, declarator, 0);
}

KaKind KaTypes::ofDeclaredAt(TSNode decl, TSNode declarator, int depth) const {
  TSNode ty = field(decl, "type");
  if (!kaIsAuto(ty)) return ofDeclarator(ofTypeAt(ty, depth + 1), declarator);
  // `auto x = value;`, `auto x{value};`, `auto& x = value;`
  TSNode d = declarator;
  while (!kaNull(d) && !is(d, "init_declarator") && !kaNull(field(d, "declarator"))) d = field(d, "declarator");
  if (!is(d, "init_declarator")) return KaKind::None;
  TSNode v = field(d, "value");
  if (is(v, "initializer_list")) {
    auto k = kaKids(v);
    if (k.size() != 1) return KaKind::None;
    v = k[0];
  }
  KaKind k = ofValueAt(v, depth + 1);
  return ofDeclarator(k, field(d, "declarator"));
}

KaKind KaTypes::ofValue(TSNode expr) const {
  return ofValueAt(expr, 0);
}

KaKind KaTypes::ofValueAt(TSNode e, int depth) const {
  if (kaNull(e) || depth > kMaxTypeDepth) return KaKind::None;
  std::string_view t = type(e);
  if (t == "parenthesized_expression") {
    auto k = kaKids(e);
    return k.size() == 1 ? ofValueAt(k[0], depth + 1) : KaKind::None;
  }
  if (t == "compound_literal_expression") return ofTypeAt(field(e, "type"), depth + 1);
  if (t == "identifier" || t == "qualified_identifier") {
    const Decl* v = find(variables_, kaLastName(tree_.text(e)), ts_node_start_byte(e));
    return v ? variableKind(*v, depth) : KaKind::None;
  }
  if (t == "conditional_expression") {
    KaKind a = ofValueAt(field(e, "consequence"), depth + 1);
    return a != KaKind::None ? a : ofValueAt(field(e, "alternative"), depth + 1);
  }
  if (t == "subscript_expression")
    return ofValueAt(field(e, "argument"), depth + 1) == KaKind::List ? KaKind::Element : KaKind::None;
  if (t == "call_expression") {
    TSNode fn = field(e, "function");
    auto args = kaKids(field(e, "arguments"));
    std::string name;
    if (is(fn, "field_expression")) name = kaLastName(tree_.text(field(fn, "field")));
    else if (is(fn, "template_function")) name = kaLastName(tree_.text(field(fn, "name")));
    else name = kaLastName(tree_.text(fn));
    if ((name == "move" || name == "forward" || name == "as_const") && args.size() == 1)
      return ofValueAt(args[0], depth + 1);
    if (name == "KernelArgument" || (is(fn, "qualified_identifier") && is(field(fn, "name"), "template_type")))
      return ofTypeAt(is(fn, "qualified_identifier") ? field(fn, "name") : fn, depth + 1);  // a functional cast
    for (TSNode f : functionsNamed(name))
      if (KaKind k = returnAt(f, depth + 1); k != KaKind::None) return k;
    if (const Decl* a = find(aliases_, name, ts_node_start_byte(e)); a && !is(fn, "field_expression"))
      return aliasKind(*a, depth);
  }
  return KaKind::None;
}

KaKind KaTypes::returnOf(TSNode fn) const {
  return returnAt(fn, 0);
}

KaKind KaTypes::returnAt(TSNode fn, int depth) const {
  if (kaNull(fn) || depth > kMaxTypeDepth) return KaKind::None;
  TSNode fd = is(fn, "lambda_expression") ? field(fn, "declarator") : kaFunctionDeclarator(fn);
  TSNode ty = kaTrailingReturn(fd);
  if (!kaNull(ty)) return ofTypeAt(ty, depth + 1);
  if (is(fn, "lambda_expression")) ty = TSNode{};
  else ty = field(fn, "type");
  if (!is(fn, "lambda_expression") && kaNull(ty)) return KaKind::None;  // a constructor, a gtest TEST(...) body
  if (!kaNull(ty) && !kaIsAuto(ty)) {
    // `T f()`, `const T& f()`; `T* f()` returns a pointer.
    for (TSNode d = field(fn, "declarator"); !kaNull(d) && !ts_node_eq(d, fd); d = field(d, "declarator"))
      if (is(d, "pointer_declarator")) return KaKind::None;
    return ofTypeAt(ty, depth + 1);
  }
  // `auto f() { return v; }` and a lambda without a return type: from its returns (once a function).
  auto memo = returns_.find(ts_node_start_byte(fn));
  if (memo != returns_.end()) return memo->second;
  returns_[ts_node_start_byte(fn)] = KaKind::None;  // while deducing: a recursion reads none
  TSNode body = field(fn, "body");
  KaKind found = KaKind::None;
  walk(body, [&](TSNode n) {
    if (found != KaKind::None) return false;
    if (is(n, "lambda_expression") || is(n, "function_definition") || is(n, "class_specifier") ||
        is(n, "struct_specifier"))
      return false;
    if (!is(n, "return_statement")) return true;
    auto k = kaKids(n);
    if (!k.empty()) found = ofValueAt(k[0], depth + 1);
    return false;
  });
  returns_[ts_node_start_byte(fn)] = found;
  return found;
}

KaKind KaTypes::parameterOf(TSNode fn, size_t i) const {
  TSNode fd = is(fn, "lambda_expression") ? field(fn, "declarator") : kaFunctionDeclarator(fn);
  std::vector<TSNode> params;
  for (TSNode p : kaKids(field(fd, "parameters")))
    if (is(p, "parameter_declaration") || is(p, "optional_parameter_declaration") ||
        is(p, "variadic_parameter_declaration"))
      params.push_back(p);
  if (i >= params.size()) return KaKind::None;
  return ofDeclaredAt(params[i], field(params[i], "declarator"), 0);
}

bool KaTypes::headTyped(TSNode fn) const {
  if (returnOf(fn) != KaKind::None) return true;
  TSNode fd = kaFunctionDeclarator(fn);
  size_t n = kaKids(field(fd, "parameters")).size();
  for (size_t i = 0; i < n; ++i)
    if (parameterOf(fn, i) != KaKind::None) return true;
  return false;
}

bool KaTypes::mayAlias() const {
  if (mayAlias_ < 0) {
    const std::string& t = tree_.text();
    mayAlias_ = t.find("using") != std::string::npos || t.find("typedef") != std::string::npos;
  }
  return mayAlias_ > 0;
}

bool KaTypes::namesType(std::string_view identifier) const {
  if (identifier == "KernelArgument") return true;
  if (mayAlias()) ensure();
  auto it = aliases_.find(identifier);
  if (it == aliases_.end()) return false;
  for (const Decl& d : it->second)
    if (aliasKind(d, 0) != KaKind::None) return true;
  return false;
}

const std::vector<TSNode>& KaTypes::functionsNamed(std::string_view name) const {
  static const std::vector<TSNode> kNone;
  ensure();
  index();
  auto it = functions_.find(name);
  return it == functions_.end() ? kNone : it->second;
}

std::vector<KaAlias> KaTypes::exported() const {
  ensure();
  std::vector<KaAlias> out;
  for (const auto& [name, decls] : aliases_)
    for (const Decl& d : decls) {
      if (!d.seeded && !kaFileLevel(d.node)) continue;
      if (KaKind k = aliasKind(d, 0); k != KaKind::None) out.emplace_back(name, k);
    }
  return out;
}

}  // namespace impact::cpp
