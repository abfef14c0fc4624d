#include "extract/cpp/GeometryReads.h"

#include "extract/cpp/ConstantEval.h"

namespace impact::cpp::geometry {

namespace {

constexpr int kMaxOriginDepth = 16;

bool isMetadataGetter(std::string_view method) {
  return method.starts_with("get") && method.ends_with("Metadata") && method.size() > 11;
}

std::vector<std::string> parameterNames(const Ctx& c, int fi) {
  std::vector<std::string> out;
  if (fi < 0) return out;
  TSNode decl = functionDeclarator(c.functions[fi].node);
  for (TSNode p : items(field(decl, "parameters"))) {
    TSNode id = innermostIdentifier(field(p, "declarator"));
    out.push_back(isNull(id) ? "" : std::string(c.text(id)));
  }
  return out;
}

TSNode strip(TSNode n) {
  while (is(n, "parenthesized_expression") || (is(n, "pointer_expression") && ts_node_named_child_count(n) == 1)) {
    auto k = items(n);
    if (k.size() != 1) break;
    n = k[0];
  }
  return n;
}

// A function of the file that reads a descriptor's metadata by a key parameter: its body calls
// `<x>.metadata.find(<param>)`. A comparator also compares `==` with another parameter.
struct MetadataFunction {
  int key = -1, expected = -1;
};

MetadataFunction metadataFunction(const Ctx& c, std::string_view name) {
  MetadataFunction out;
  int fi = functionNamed(c, name);
  if (fi < 0) return out;
  auto params = parameterNames(c, fi);
  auto indexOf = [&](TSNode n) {
    n = strip(n);
    // `kernel.metadata.find(std::string(field))`: the conversion is the key itself.
    if (is(n, "call_expression") && c.text(field(n, "function")).find("string") != std::string_view::npos &&
        items(field(n, "arguments")).size() == 1)
      n = strip(items(field(n, "arguments"))[0]);
    if (!is(n, "identifier")) return -1;
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i] == c.text(n)) return int(i);
    return -1;
  };
  walk(field(c.functions[fi].node, "body"), [&](TSNode n) {
    if (is(n, "call_expression")) {
      TSNode fn = field(n, "function");
      auto args = items(field(n, "arguments"));
      if (is(fn, "field_expression") && c.text(field(fn, "field")) == "find" && args.size() == 1 &&
          is(field(fn, "argument"), "field_expression") &&
          c.text(field(field(fn, "argument"), "field")) == "metadata")
        out.key = indexOf(args[0]);
    }
    if (is(n, "binary_expression") && c.text(field(n, "operator")) == "==")
      for (TSNode side : {field(n, "left"), field(n, "right")})
        if (int i = indexOf(side); i >= 0) out.expected = i;
    return true;
  });
  if (out.expected == out.key) out.expected = -1;
  return out;
}

std::optional<size_t> indexValue(const Ctx& c, TSNode n, const IndexEnv* env) {
  if (is(n, "number_literal")) {
    auto v = parseInteger(c.text(n));
    if (v) return size_t(*v);
  }
  if (is(n, "identifier") && env) {
    auto it = env->find(std::string(c.text(n)));
    if (it != env->end()) return it->second;
  }
  return std::nullopt;
}

std::string functionOfText(const Ctx& c, TSNode n) {
  int fi = c.functionOf(n);
  return fi >= 0 ? functionName(c, c.functions[fi].node) : "";
}

// `for (const auto& f : rows) comparator(kernel, f.first, f.second)`: the rows of the table.
void tableWitnesses(const Ctx& c, TSNode call, TSNode keyArg, TSNode valueArg, const std::string& method, Witnesses& out) {
  if (!is(keyArg, "field_expression") || !is(valueArg, "field_expression")) return;
  TSNode row = field(keyArg, "argument");
  if (!is(row, "identifier") || c.text(field(valueArg, "argument")) != c.text(row)) return;
  auto position = [&](TSNode fe) { return c.text(field(fe, "field")) == "first" ? 0 : c.text(field(fe, "field")) == "second" ? 1 : -1; };
  int kp = position(keyArg), vp = position(valueArg);
  if (kp < 0 || vp < 0 || kp == vp) return;
  TSNode loop = parentOf(call);
  while (!isNull(loop) && !(is(loop, "for_range_loop") &&
                            c.text(innermostIdentifier(field(loop, "declarator"))) == c.text(row)))
    loop = parentOf(loop);
  if (isNull(loop)) return;
  TSNode table = field(loop, "right");
  if (is(table, "identifier")) table = localInitializer(c, c.functionOf(loop), c.text(table), loop);
  if (isNull(table)) return;
  std::string fn = functionOfText(c, call);
  walk(table, [&](TSNode n) {
    if (!is(n, "initializer_list")) return true;
    auto k = items(n);
    if (k.size() != 2) return true;
    std::string key = constantString(c, k[kp], nullptr);
    std::string from = origin(c, k[vp]);
    if (key.empty() || from.empty()) return true;
    auto [it, fresh] = out.emplace(from, Witness{key, method, fn, collapse(c.text(k[vp])), false});
    if (!fresh && it->second.key != key) it->second.ambiguous = true;
    return false;
  });
}

}  // namespace

TSNode localInitializer(const Ctx& c, int fi, std::string_view name, TSNode before) {
  TSNode found{};
  for (const auto& m : c.matches[QueryId::CppTypedDeclaration]) {
    TSNode decl = m.get("decl");
    if (!is(decl, "declaration") || c.functionOf(decl) != fi) continue;
    if (ts_node_start_byte(decl) >= ts_node_start_byte(before)) continue;
    for (TSNode d : items(decl)) {
      if (!is(d, "init_declarator")) continue;
      TSNode id = innermostIdentifier(field(d, "declarator"));
      if (!isNull(id) && c.text(id) == name) found = field(d, "value");
    }
  }
  return found;
}

std::string parameterType(const Ctx& c, int fi, std::string_view name) {
  if (fi < 0) return "";
  TSNode decl = functionDeclarator(c.functions[fi].node);
  for (TSNode p : items(field(decl, "parameters"))) {
    TSNode id = innermostIdentifier(field(p, "declarator"));
    if (isNull(id) || c.text(id) != name) continue;
    std::string t = lastComponent(c.text(field(p, "type")));
    return t.find('<') == std::string::npos ? t : "";
  }
  return "";
}

int functionNamed(const Ctx& c, std::string_view name) {
  std::string want = lastComponent(name);
  for (size_t i = 0; i < c.functions.size(); ++i) {
    TSNode decl = functionDeclarator(c.functions[i].node);
    if (lastComponent(c.text(field(decl, "declarator"))) == want && !isNull(field(c.functions[i].node, "body")))
      return int(i);
  }
  return -1;
}

std::string constantString(const Ctx& c, TSNode n, const IndexEnv* env) {
  if (is(n, "subscript_expression")) {
    auto idx = items(field(n, "indices"));
    if (idx.size() != 1) return "";
    auto k = indexValue(c, idx[0], env);
    const Constant* arr = k ? lookup(c, c.text(field(n, "argument")), c.siteOf(n)) : nullptr;
    if (!arr) return "";
    TSNode list = arr->value;
    if (is(list, "compound_literal_expression")) list = field(list, "value");
    if (!is(list, "initializer_list")) return "";
    auto elems = items(list);
    if (elems.size() == 1 && is(elems[0], "initializer_list")) elems = items(elems[0]);
    return *k < elems.size() ? constantString(c, elems[*k], nullptr) : "";
  }
  Evaluator ev{c, nullptr};
  auto s = ev.str(n, c.siteOf(n), 0);
  return s ? *s : "";
}

std::string metadataKey(const Ctx& c, TSNode n, std::string* method, const IndexEnv* env) {
  if (!is(n, "call_expression")) return "";
  auto args = items(field(n, "arguments"));
  std::string callee = calleeName(c, n);
  TSNode fn = field(n, "function");
  if (is(fn, "field_expression") && isMetadataGetter(callee) && args.size() == 1) {
    if (method) *method = callee;
    return constantString(c, args[0], env);
  }
  if (!is(fn, "identifier") && !is(fn, "qualified_identifier")) return "";
  if (is(fn, "identifier") && args.size() == 1) {
    TSNode lambda = localInitializer(c, c.functionOf(n), callee, n);
    if (is(lambda, "lambda_expression")) {
      bool getter = false;
      walk(field(lambda, "body"), [&](TSNode k) {
        if (is(k, "call_expression") && is(field(k, "function"), "field_expression") &&
            isMetadataGetter(calleeName(c, k))) {
          getter = true;
          if (method) *method = calleeName(c, k);
        }
        return !getter;
      });
      return getter ? constantString(c, args[0], env) : "";
    }
  }
  MetadataFunction mf = metadataFunction(c, callee);
  if (mf.key < 0 || mf.expected >= 0 || size_t(mf.key) >= args.size()) return "";
  if (method) *method = callee;
  return constantString(c, args[mf.key], env);
}

namespace {

std::string originAt(const Ctx& c, TSNode n, int depth);

// A parameter's origin: the origin of the argument every call of its function in the file passes
// (kernelFits(const MatchedProblem& matched) is called with `*matched` of `matchProblem(context)`
// by prepare and kernelMatches: "matchProblem()"); "" when the calls disagree or one has none.
std::string callerOrigin(const Ctx& c, int fi, std::string_view name, int depth) {
  TSNode decl = functionDeclarator(c.functions[fi].node);
  auto params = items(field(decl, "parameters"));
  size_t k = 0;
  while (k < params.size() && c.text(innermostIdentifier(field(params[k], "declarator"))) != name) ++k;
  if (k == params.size()) return "";
  std::string fn = lastComponent(c.text(field(decl, "declarator")));
  std::string out;
  bool agree = true, any = false;
  c.tree.walkAll([&](TSNode n) {
    if (!agree) return false;
    if (!is(n, "call_expression") || calleeName(c, n) != fn) return true;
    auto args = items(field(n, "arguments"));
    if (args.size() != params.size()) return true;
    std::string o = originAt(c, args[k], depth + 1);
    if (o.empty() || (any && o != out)) agree = false;
    out = o;
    any = true;
    return true;
  });
  return agree && any ? out : "";
}

std::string originAt(const Ctx& c, TSNode n, int depth) {
  for (; depth < kMaxOriginDepth; ++depth) {
    n = strip(n);
    if (is(n, "field_expression")) {
      std::string base = originAt(c, field(n, "argument"), depth + 1);
      return base.empty() ? "" : base + "." + std::string(c.text(field(n, "field")));
    }
    if (!is(n, "identifier")) return "";
    int fi = c.functionOf(n);
    TSNode init = localInitializer(c, fi, c.text(n), n);
    if (isNull(init)) {
      std::string type = parameterType(c, fi, c.text(n));
      if (type.empty()) return "";
      std::string callers = callerOrigin(c, fi, c.text(n), depth);
      return callers.empty() ? type : callers;
    }
    if (is(init, "call_expression") && !metadataKey(c, init, nullptr).size()) return calleeName(c, init) + "()";
    n = init;  // an alias: `const auto& p = matched.problem;`
  }
  return "";
}

}  // namespace

std::string origin(const Ctx& c, TSNode n) { return originAt(c, n, 0); }

Witnesses witnesses(const Ctx& c) {
  Witnesses out;
  auto add = [&](const std::string& from, Witness w) {
    auto [it, fresh] = out.emplace(from, w);
    if (!fresh && it->second.key != w.key) it->second.ambiguous = true;
  };
  c.tree.walkAll([&](TSNode n) {
    if (is(n, "binary_expression")) {
      std::string op(c.text(field(n, "operator")));
      if (op != "!=" && op != "==") return true;
      TSNode l = field(n, "left"), r = field(n, "right");
      for (int side = 0; side < 2; ++side) {
        std::string method;
        std::string key = metadataKey(c, side ? r : l, &method);
        TSNode other = side ? l : r;
        std::string from = key.empty() ? "" : origin(c, other);
        if (!from.empty()) add(from, Witness{key, method, functionOfText(c, n), collapse(c.text(other)), false});
      }
      return true;
    }
    if (!is(n, "call_expression") || !is(field(n, "function"), "identifier")) return true;
    std::string callee = calleeName(c, n);
    MetadataFunction mf = metadataFunction(c, callee);
    auto args = items(field(n, "arguments"));
    if (mf.key < 0 || mf.expected < 0 || size_t(std::max(mf.key, mf.expected)) >= args.size()) return true;
    std::string key = constantString(c, args[mf.key], nullptr);
    std::string from = key.empty() ? "" : origin(c, args[mf.expected]);
    if (!from.empty())
      add(from, Witness{key, callee, functionOfText(c, n), collapse(c.text(args[mf.expected])), false});
    else if (key.empty())
      tableWitnesses(c, n, args[mf.key], args[mf.expected], callee, out);
    return true;
  });
  return out;
}

}  // namespace impact::cpp::geometry
