#include "extract/cpp/GeometryCalls.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "extract/cpp/ConstantEval.h"
#include "extract/cpp/Context.h"

namespace impact {

namespace {

using cpp::Ctx;

bool isMetadataGetter(std::string_view method) {
  return method.starts_with("get") && method.ends_with("Metadata") && method.size() > 11;
}

// The local `name` is bound to in function `fi` (its initializer), or a null node.
TSNode localInitializer(const Ctx& c, int fi, std::string_view name, TSNode before) {
  TSNode found{};
  for (const auto& m : c.matches[QueryId::CppTypedDeclaration]) {
    TSNode decl = m.get("decl");
    if (!is(decl, "declaration") || c.functionOf(decl) != fi) continue;
    if (ts_node_start_byte(decl) >= ts_node_start_byte(before)) continue;
    for (TSNode d : cpp::items(decl)) {
      if (!is(d, "init_declarator")) continue;
      TSNode id = cpp::innermostIdentifier(field(d, "declarator"));
      if (!cpp::isNull(id) && c.text(id) == name) found = field(d, "value");
    }
  }
  return found;
}

bool isDescriptorId(const Ctx& c, TSNode n) {
  if (is(n, "field_expression")) return c.text(field(n, "field")) == "kernelId";
  if (!is(n, "call_expression")) return false;
  std::string callee = cpp::calleeName(c, n);
  auto args = cpp::items(field(n, "arguments"));
  return (callee == "toString" || callee == "to_string" || callee == "string") && args.size() == 1 &&
         isDescriptorId(c, args[0]);
}

// The metadata key a read stands for: a getter (`kernel.getIntMetadata(std::string(K))`), or a
// call of a local lambda whose body returns a getter of its parameter (`intField(K)`); "" otherwise.
std::string metadataKey(const Ctx& c, TSNode n, std::string* method) {
  if (!is(n, "call_expression")) return "";
  auto args = cpp::items(field(n, "arguments"));
  if (args.size() != 1) return "";
  std::string callee = cpp::calleeName(c, n);
  cpp::Evaluator ev{c, nullptr};
  if (is(field(n, "function"), "field_expression") && isMetadataGetter(callee)) {
    auto key = ev.str(args[0], c.siteOf(n), 0);
    if (method) *method = callee;
    return key ? *key : "";
  }
  if (!is(field(n, "function"), "identifier")) return "";
  TSNode lambda = localInitializer(c, c.functionOf(n), callee, n);
  if (!is(lambda, "lambda_expression")) return "";
  bool getter = false;
  walk(field(lambda, "body"), [&](TSNode k) {
    if (is(k, "call_expression") && is(field(k, "function"), "field_expression") &&
        isMetadataGetter(cpp::calleeName(c, k))) {
      getter = true;
      if (method) *method = cpp::calleeName(c, k);
    }
    return !getter;
  });
  if (!getter) return "";
  auto key = ev.str(args[0], c.siteOf(n), 0);
  return key ? *key : "";
}

// Where a field read `x.f` comes from: "<callee of x's initializer>().f" when x is a local bound
// to a call (`const auto problem = problemFor(*q, *k);`), "" otherwise. Two reads of one origin
// in two functions read the same field of the same computation.
std::string origin(const Ctx& c, TSNode n) {
  if (!is(n, "field_expression")) return "";
  TSNode x = field(n, "argument");
  if (!is(x, "identifier")) return "";
  TSNode init = localInitializer(c, c.functionOf(n), c.text(x), n);
  if (!is(init, "call_expression")) return "";
  return cpp::calleeName(c, init) + "()." + std::string(c.text(field(n, "field")));
}

struct Witness {
  std::string key, method, function;
  bool ambiguous = false;
};

// Matcher equality witnesses: `read(K) != x.f` / `==` anywhere in the file, by origin. Bounds
// (`<`, `>`, `%`) are not witnesses; one origin equated with two keys is no witness.
std::map<std::string, Witness> witnesses(const Ctx& c) {
  std::map<std::string, Witness> out;
  walk(c.tree.root(), [&](TSNode n) {
    if (!is(n, "binary_expression")) return true;
    std::string op(c.text(field(n, "operator")));
    if (op != "!=" && op != "==") return true;
    TSNode l = field(n, "left"), r = field(n, "right");
    for (int side = 0; side < 2; ++side) {
      std::string method;
      std::string key = metadataKey(c, side ? r : l, &method);
      std::string from = origin(c, side ? l : r);
      if (key.empty() || from.empty()) continue;
      int fi = c.functionOf(n);
      std::string fn = fi >= 0 ? cpp::functionName(c, c.functions[fi].node) : "";
      auto [it, fresh] = out.emplace(from, Witness{key, method, fn, false});
      if (!fresh && it->second.key != key) it->second.ambiguous = true;
    }
    return true;
  });
  return out;
}

using Witnesses = std::map<std::string, Witness>;

void resolveField(const Ctx& c, const Witnesses& table, TSNode n, GeometryArgument& out) {
  auto it = table.find(origin(c, n));
  if (it == table.end() || it->second.ambiguous) return;
  out.source = "metadata";
  out.value = it->second.key;
  out.method = it->second.method;
  out.via += (out.via.empty() ? "" : "; ") + absl::StrCat("witness: ", it->second.function, " requires ",
                                                           it->second.method, "(", it->second.key, ") == ", std::string(c.text(n)));
}

// An argument's source (GeometryCalls.h), following locals of the same function.
void resolve(const Ctx& c, const Witnesses& w, int fi, TSNode n, GeometryArgument& out, int depth) {
  if (cpp::isNull(n) || depth > cpp::kMaxEvalDepth) return;
  std::string_view t = type(n);
  if (t == "parenthesized_expression") {
    auto k = cpp::items(n);
    if (k.size() == 1) resolve(c, w, fi, k[0], out, depth + 1);
    return;
  }
  if (t == "number_literal" || t == "true" || t == "false" || t == "string_literal" || t == "char_literal") {
    out.source = "literal";
    out.value = cpp::collapse(c.text(n));
    return;
  }
  if (isDescriptorId(c, n)) {
    out.source = "descriptor-id";
    return;
  }
  if (t == "call_expression") {
    TSNode fn = field(n, "function");
    auto args = cpp::items(field(n, "arguments"));
    std::string callee = cpp::calleeName(c, n);
    std::string method;
    if (std::string key = metadataKey(c, n, &method); !key.empty()) {
      out.source = "metadata";
      out.value = key;
      out.method = method;
      return;
    }
    if (is(fn, "field_expression") && isMetadataGetter(callee)) return;  // a key computed at run time
    // static_cast<T>(x): x's source (the harness converts to the parameter's type as the call does).
    if (is(fn, "template_function") && cpp::lastComponent(c.text(field(fn, "name"))) == "static_cast" &&
        args.size() == 1)
      resolve(c, w, fi, args[0], out, depth + 1);
    return;
  }
  if (t == "field_expression") {
    resolveField(c, w, n, out);
    return;
  }
  if (t == "identifier") {
    TSNode init = localInitializer(c, fi, c.text(n), n);
    if (cpp::isNull(init)) return;
    out.via += (out.via.empty() ? "" : "; ") + std::string(c.text(n)) + " = " + cpp::collapse(c.text(init));
    resolve(c, w, fi, init, out, depth + 1);
  }
}

struct SizeCall {
  int function = -1;
  std::string method;
  std::vector<TSNode> args;
  TSNode call{};
};

// Does a set*Size argument read the result variable (`geometry.gridX`, or the variable itself)?
bool reads(const Ctx& c, TSNode arg, std::string_view var) {
  bool hit = false;
  walk(arg, [&](TSNode n) {
    if (hit) return false;
    if (is(n, "identifier") && c.text(n) == var) hit = true;
    return !hit;
  });
  return hit;
}

}  // namespace

std::vector<GeometryCallSite> findGeometryCallSites(std::string_view packText, std::string_view callee) {
  std::vector<GeometryCallSite> out;
  auto tree = SyntaxTree::parse(Lang::Cpp, std::string(packText));
  if (!tree || ts_node_is_null(tree->root())) return out;
  Ctx c(*tree);
  cpp::collect(c);
  const Witnesses w = witnesses(c);
  std::vector<SizeCall> sizes;
  for (const auto& m : c.matches[QueryId::CppLaunchCall]) {
    std::string method(c.text(m.get("method")));
    if (method != "setGridSize" && method != "setBlockSize") continue;
    sizes.push_back({c.functionOf(m.get("call")), method, cpp::items(m.get("args")), m.get("call")});
  }
  for (const auto& m : c.matches[QueryId::CppTypedDeclaration]) {
    TSNode decl = m.get("decl");
    if (!is(decl, "declaration")) continue;
    int fi = c.functionOf(decl);
    if (fi < 0) continue;
    for (TSNode d : cpp::items(decl)) {
      if (!is(d, "init_declarator")) continue;
      TSNode value = field(d, "value");
      if (!is(value, "call_expression") || cpp::calleeName(c, value) != callee) continue;
      TSNode id = cpp::innermostIdentifier(field(d, "declarator"));
      if (cpp::isNull(id)) continue;
      GeometryCallSite site;
      site.resultVar = std::string(c.text(id));
      site.callee = std::string(callee);
      site.function = cpp::functionName(c, c.functions[fi].node);
      site.line = rangeOf(value).line;
      uint64_t fp = fnv1a(cpp::collapse(c.text(value)));
      for (const SizeCall& s : sizes) {
        if (s.function != fi || ts_node_start_byte(s.call) < ts_node_end_byte(value)) continue;
        bool feeds = false;
        for (TSNode a : s.args) feeds = feeds || reads(c, a, site.resultVar);
        if (!feeds) continue;
        auto& axes = s.method == "setGridSize" ? site.grid : site.block;
        axes.clear();
        for (TSNode a : s.args) axes.push_back(cpp::collapse(c.text(a)));
        fp = fnv1a(cpp::collapse(c.text(s.call)), fp);
      }
      if (site.grid.empty() && site.block.empty()) continue;
      for (TSNode a : cpp::items(field(value, "arguments"))) {
        GeometryArgument arg;
        arg.expression = cpp::collapse(c.text(a));
        resolve(c, w, fi, a, arg, 0);
        fp = fnv1a(arg.expression + "|" + arg.source + "|" + arg.value + "|" + arg.via, fp);
        site.args.push_back(std::move(arg));
      }
      site.fingerprint = fp;
      out.push_back(std::move(site));
    }
  }
  return out;
}

GeometryHeader readGeometryHeader(std::string_view headerText, std::string_view function) {
  GeometryHeader h;
  auto tree = SyntaxTree::parse(Lang::Cpp, std::string(headerText));
  if (!tree || ts_node_is_null(tree->root())) return h;
  h.parseError = tree->firstError();
  Ctx c(*tree);
  cpp::collect(c);
  std::set<std::string> statuses;
  walk(tree->root(), [&](TSNode n) {
    if (is(n, "preproc_include")) {
      std::string_view p = c.text(field(n, "path"));
      if (p.size() >= 2) h.includes.emplace_back(p.substr(1, p.size() - 2));
      return false;
    }
    if (is(n, "identifier") && c.text(n).starts_with("HIPDNN_PLUGIN_STATUS_")) statuses.insert(std::string(c.text(n)));
    if (h.found || !is(n, "function_definition")) return true;
    TSNode decl = cpp::functionDeclarator(n);
    if (cpp::lastComponent(c.text(field(decl, "declarator"))) != function) return true;
    h.found = true;
    std::string qualified;
    for (const auto& s : c.siteOf(n).scope)
      if (!s.empty()) qualified += s + "::";
    h.qualified = qualified + std::string(function);
    for (TSNode p : cpp::items(field(decl, "parameters"))) {
      TSNode id = cpp::innermostIdentifier(field(p, "declarator"));
      std::string_view whole = c.text(p);
      GeometryParam gp;
      if (cpp::isNull(id)) {
        gp.type = cpp::collapse(whole);
      } else {
        uint32_t s0 = ts_node_start_byte(p), a = ts_node_start_byte(id) - s0, b = ts_node_end_byte(id) - s0;
        gp.name = std::string(c.text(id));
        gp.type = cpp::collapse(std::string(whole.substr(0, a)) + std::string(whole.substr(b)));
      }
      h.params.push_back(std::move(gp));
    }
    return true;
  });
  h.statusNames.assign(statuses.begin(), statuses.end());
  return h;
}

}  // namespace impact
