#include "extract/cpp/GeometryCalls.h"

#include <map>
#include <set>

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

// An argument's source (GeometryCalls.h), following locals of the same function.
void resolve(const Ctx& c, int fi, TSNode n, GeometryArgument& out, int depth) {
  if (cpp::isNull(n) || depth > cpp::kMaxEvalDepth) return;
  std::string_view t = type(n);
  if (t == "parenthesized_expression") {
    auto k = cpp::items(n);
    if (k.size() == 1) resolve(c, fi, k[0], out, depth + 1);
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
    if (is(fn, "field_expression") && isMetadataGetter(callee) && args.size() == 1) {
      cpp::Evaluator ev{c, nullptr};
      if (auto key = ev.str(args[0], c.siteOf(n), 0)) {
        out.source = "metadata";
        out.value = *key;
        out.method = callee;
      }
      return;
    }
    // static_cast<T>(x): x's source (the harness converts to the parameter's type as the call does).
    if (is(fn, "template_function") && cpp::lastComponent(c.text(field(fn, "name"))) == "static_cast" &&
        args.size() == 1)
      resolve(c, fi, args[0], out, depth + 1);
    return;
  }
  if (t == "identifier") {
    TSNode init = localInitializer(c, fi, c.text(n), n);
    if (cpp::isNull(init)) return;
    out.via += (out.via.empty() ? "" : "; ") + std::string(c.text(n)) + " = " + cpp::collapse(c.text(init));
    resolve(c, fi, init, out, depth + 1);
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
        resolve(c, fi, a, arg, 0);
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
