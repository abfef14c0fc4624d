#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {

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

std::string typeClassOfName(std::string_view written) {
  static const std::map<std::string, std::string, std::less<>> kClasses = {
      {"int32_t", "s32"}, {"int", "s32"}, {"signed", "s32"}, {"signed int", "s32"},
      {"uint32_t", "u32"}, {"unsigned", "u32"}, {"unsigned int", "u32"}, {"float", "f32"},
      {"int64_t", "s64"}, {"long", "s64"}, {"long int", "s64"}, {"long long", "s64"},
      {"ssize_t", "s64"}, {"ptrdiff_t", "s64"}, {"intptr_t", "s64"},
      {"uint64_t", "u64"}, {"size_t", "u64"}, {"uintptr_t", "u64"}, {"unsigned long", "u64"},
      {"unsigned long long", "u64"}, {"double", "f64"},
      {"int16_t", "s16"}, {"short", "s16"}, {"uint16_t", "u16"}, {"unsigned short", "u16"},
      {"half", "f16"}, {"__half", "f16"}, {"_Float16", "f16"},
      {"hip_bfloat16", "bf16"}, {"__hip_bfloat16", "bf16"}, {"bfloat16", "bf16"},
      {"int8_t", "s8"}, {"signed char", "s8"}, {"uint8_t", "u8"}, {"unsigned char", "u8"},
      {"char", "i8"}, {"bool", "i1"}};
  std::string t = normaliseTypeName(written);
  auto it = kClasses.find(t);
  return it == kClasses.end() ? std::string() : it->second;
}

bool isIntegralTypeName(std::string_view written) {
  std::string t = normaliseTypeName(written);
  if (t.ends_with("*")) return false;
  auto s = sizeOfTypeName(t);
  return s.has_value() && t != "float" && t != "double" && t != "half" && t != "__half" &&
         t != "hip_bfloat16" && t != "__hip_bfloat16" && t != "_Float16" && t != "bfloat16";
}

namespace {

// The braced row a (substituted) value is: `{…}` or `Row{…}`; null otherwise.
TSNode rowBraces(TSNode n) {
  if (is(n, "compound_literal_expression")) n = field(n, "value");
  return is(n, "initializer_list") ? n : TSNode{};
}

// The struct a row of a table is of: `Row{…}`'s type, else the table's declared element type
// (`constexpr Row kRows[]`, `std::array<Row, N>`), by its last name.
std::string rowTypeName(const Ctx& c, TSNode row) {
  TSNode p = parentOf(row);
  if (is(p, "compound_literal_expression")) return lastComponent(c.text(field(p, "type")));
  for (int i = 0; i < kMaxAscend && is(p, "initializer_list"); ++i) p = parentOf(p);
  if (is(p, "compound_literal_expression")) p = parentOf(p);
  if (!is(p, "init_declarator")) return "";
  TSNode ty = field(parentOf(p), "type");
  if (is(ty, "qualified_identifier")) ty = field(ty, "name");
  if (is(ty, "template_type")) {
    auto args = items(field(ty, "arguments"));
    if (args.empty()) return "";
    ty = field(args[0], "type");
  }
  return lastComponent(c.text(ty));
}

// The non-static data members of the file's struct or class `name`, in declared order.
std::vector<std::string> fieldsOf(const Ctx& c, const std::string& name) {
  std::vector<std::string> out;
  if (name.empty()) return out;
  c.tree.walkAll([&](TSNode n) {
    if (!out.empty()) return false;
    if (!is(n, "struct_specifier") && !is(n, "class_specifier")) return true;
    TSNode body = field(n, "body");
    if (isNull(body) || lastComponent(c.text(field(n, "name"))) != name) return true;
    for (TSNode f : items(body)) {
      if (!is(f, "field_declaration")) continue;
      bool isStatic = false;
      for (TSNode k : namedChildren(f)) isStatic = isStatic || (is(k, "storage_class_specifier") && c.text(k) == "static");
      if (isStatic) continue;
      for (TSNode d : items(f)) {  // its declarators (one field or several: `T a, *b;`)
        std::string_view t = type(d);
        if (t == "field_identifier" || (t.ends_with("declarator") && !is(d, "function_declarator")))
          out.push_back(declaredName(c, d));
      }
    }
    return false;
  });
  return out;
}

}  // namespace

TSNode fieldOfRow(const Ctx& c, TSNode row, std::string_view name) {
  row = rowBraces(row);
  if (isNull(row)) return TSNode{};
  auto k = items(row);
  if (!k.empty() && is(k[0], "initializer_pair")) {
    for (TSNode pair : k)
      if (noSpace(c.text(field(pair, "designator"))) == "." + std::string(name)) return field(pair, "value");
    return TSNode{};
  }
  std::vector<std::string> fields = fieldsOf(c, rowTypeName(c, row));
  for (size_t i = 0; i < fields.size() && i < k.size(); ++i)
    if (fields[i] == name) return k[i];
  return TSNode{};
}

TSNode Evaluator::substitute(TSNode n) const {
  for (int depth = 0; depth < kMaxEvalDepth && !isNull(n); ++depth) {
    std::string_view t = type(n);
    if (env && t == "identifier") {
      auto it = env->find(std::string(c.text(n)));
      return it != env->end() ? it->second : n;
    }
    TSNode next{};
    if (t == "field_expression") {  // r.kind of a row bound by a loop
      TSNode row = substitute(field(n, "argument"));
      if (!isNull(rowBraces(row))) next = fieldOfRow(c, row, noSpace(c.text(field(n, "field"))));
    } else if (t == "subscript_expression") {  // kRows[i]
      auto idx = items(field(n, "indices"));
      std::string why;
      if (idx.size() == 1) {
        uint64_t i = integer(idx[0], c.siteOf(n), 1, why).value_or(UINT64_MAX);
        auto elems = elementsOf(c, substitute(field(n, "argument")));
        if (i < elems.size()) next = elems[i];
      }
    } else if (t == "call_expression" && (is(field(n, "function"), "template_function") ||
                                          is(field(field(n, "function"), "name"), "template_function"))) {
      TSNode fn = field(n, "function");  // std::get<1>(r), get<1>(r)
      if (is(fn, "qualified_identifier")) fn = field(fn, "name");
      auto targs = items(field(fn, "arguments"));
      auto args = items(field(n, "arguments"));
      if (lastComponent(c.text(field(fn, "name"))) == "get" && targs.size() == 1 && args.size() == 1) {
        uint64_t i = parseInteger(c.text(targs[0])).value_or(UINT64_MAX);
        auto row = items(rowBraces(substitute(args[0])));
        if (i < row.size() && !is(row[i], "initializer_pair")) next = row[i];
      }
    }
    if (isNull(next)) return n;
    n = next;
  }
  return n;
}

std::optional<uint64_t> Evaluator::integer(TSNode n, const Site& site, int depth, std::string& why) const {
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
    // std::size(kRows), kRows.size() of a table whose elements are written
    TSNode of = is(fn, "field_expression") && args.empty() ? field(fn, "argument") : args.size() == 1 ? args[0] : TSNode{};
    std::string callee = is(fn, "field_expression") ? noSpace(c.text(field(fn, "field"))) : lastComponent(c.text(fn));
    if (callee == "size" && !isNull(of)) {
      auto elems = elementsOf(c, substitute(of));
      if (!elems.empty()) return elems.size();
    }
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
  if (ints && t == "identifier") {
    if (auto it = ints->find(std::string(c.text(n))); it != ints->end()) return it->second;
  }
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

std::string Evaluator::literalContent(const Ctx& c, TSNode lit) {
  std::string out;
  for (TSNode k : namedChildren(lit)) {
    std::string_view t = type(k);
    if (t == "string_content" || t == "escape_sequence" || t == "raw_string_content") out += c.text(k);
  }
  return out;
}

std::vector<TSNode> elementsOf(const Ctx& c, TSNode n, int depth) {
  while (!isNull(n) && is(n, "parenthesized_expression") && items(n).size() == 1) n = items(n)[0];
  if (isNull(n) || depth > kMaxEvalDepth) return {};
  if (is(n, "initializer_list")) return items(n);
  if (is(n, "compound_literal_expression")) return elementsOf(c, field(n, "value"), depth + 1);
  if (is(n, "identifier") || is(n, "qualified_identifier")) {
    const Constant* k = lookup(c, c.text(n), c.siteOf(n));
    if (!k) return {};
    // `std::array<Row, N> kRows{{ {…}, {…} }}`: the array's own braces around the rows.
    auto v = items(is(k->value, "compound_literal_expression") ? field(k->value, "value") : k->value);
    TSNode decl = parentOf(parentOf(k->value));
    if (v.size() == 1 && is(v[0], "initializer_list") && lastComponent(c.text(field(decl, "type"))) == "array")
      return items(v[0]);
    return elementsOf(c, k->value, depth + 1);
  }
  return {};
}

std::optional<std::string> Evaluator::str(TSNode n, const Site& site, int depth) const {
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

}  // namespace impact::cpp
