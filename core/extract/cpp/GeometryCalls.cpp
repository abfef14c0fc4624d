#include "extract/cpp/GeometryCalls.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "extract/cpp/ConstantEval.h"
#include "extract/cpp/Context.h"
#include "extract/cpp/GeometryFlow.h"
#include "extract/cpp/GeometryReads.h"

namespace impact {

namespace {

using cpp::Ctx;
using cpp::geometry::IndexEnv;
using cpp::geometry::Witnesses;

bool isDescriptorId(const Ctx& c, TSNode n) {
  if (is(n, "field_expression")) return c.text(field(n, "field")) == "kernelId";
  if (!is(n, "call_expression")) return false;
  std::string callee = cpp::calleeName(c, n);
  auto args = cpp::items(field(n, "arguments"));
  return (callee == "toString" || callee == "to_string" || callee == "string") && args.size() == 1 &&
         isDescriptorId(c, args[0]);
}

void addVia(GeometryArgument& out, const std::string& text) { out.via += (out.via.empty() ? "" : "; ") + text; }

void resolveField(const Ctx& c, const Witnesses& table, TSNode n, GeometryArgument& out) {
  out.origin = cpp::geometry::origin(c, n);
  auto it = table.find(out.origin);
  if (it != table.end() && !it->second.ambiguous) {
    out.source = "metadata";
    out.value = it->second.key;
    out.method = it->second.method;
    addVia(out, absl::StrCat("witness: ", it->second.function, " requires ", it->second.method, "(", it->second.key,
                             ") == ", it->second.written));
    return;
  }
  // A struct fed member by member: the witnesses of origin.member.
  if (out.origin.empty()) return;
  const std::string prefix = out.origin + ".";
  for (auto w = table.lower_bound(prefix); w != table.end() && w->first.starts_with(prefix); ++w) {
    std::string member = w->first.substr(prefix.size());
    if (member.find('.') != std::string::npos || w->second.ambiguous) continue;
    out.members[member] = {w->second.key, absl::StrCat(w->second.function, " requires ", w->second.method, "(",
                                                       w->second.key, ") == ", w->second.written)};
  }
}

struct Resolver {
  const Ctx& c;
  const Witnesses& w;
  int fi;

  void resolve(TSNode n, GeometryArgument& out, const IndexEnv* env, int depth);

  // `tuning[2]`: the element an assignment `tuning[i] = <value>` in a loop from 0 (or `tuning[2] =
  // <value>`) stores, read with i bound to 2.
  void element(TSNode n, GeometryArgument& out, int depth) {
    TSNode arr = field(n, "argument");
    auto idx = cpp::items(field(n, "indices"));
    auto k = idx.size() == 1 && is(idx[0], "number_literal") ? cpp::parseInteger(c.text(idx[0])) : std::nullopt;
    if (!is(arr, "identifier") || !k) return;
    walk(c.functions[fi].node, [&](TSNode a) {
      if (!out.source.empty()) return false;
      if (!is(a, "assignment_expression") || c.text(field(a, "operator")) != "=") return true;
      TSNode left = field(a, "left");
      if (!is(left, "subscript_expression") || c.text(field(left, "argument")) != c.text(arr)) return true;
      auto li = cpp::items(field(left, "indices"));
      if (li.size() != 1) return true;
      IndexEnv env;
      std::string how;
      if (is(li[0], "number_literal")) {
        if (cpp::parseInteger(c.text(li[0])) != k) return true;
      } else if (is(li[0], "identifier") && loopFromZero(a, c.text(li[0]))) {
        env[std::string(c.text(li[0]))] = size_t(*k);
        how = absl::StrCat(" (", std::string(c.text(li[0])), " = ", *k, ")");
      } else {
        return true;
      }
      addVia(out, cpp::collapse(c.text(a)) + how);
      resolve(field(a, "right"), out, &env, depth + 1);
      return false;
    });
  }

  // `tile->blockM` of a value a function of the file returns (`candidateTile(kernel)` returns
  // `AttentionDenseTile{*blockM, *blockN}`): the member's expression there, resolved in that
  // function; every return must give the same source.
  void returned(TSNode n, GeometryArgument& out, int depth) {
    auto values = cpp::geometry::memberValues(c, n);
    if (values.empty()) return;
    GeometryArgument first;
    for (size_t i = 0; i < values.size(); ++i) {
      GeometryArgument a;
      Resolver{c, w, c.functionOf(values[i])}.resolve(values[i], a, nullptr, depth + 1);
      if (a.source.empty() || (i > 0 && (a.source != first.source || a.value != first.value))) return;
      if (i == 0) first = a;
    }
    int g = c.functionOf(values[0]);
    addVia(out, absl::StrCat(cpp::collapse(c.text(n)), " is `", cpp::collapse(c.text(values[0])), "` in ",
                             g >= 0 ? cpp::functionName(c, c.functions[g].node) : "the file",
                             first.via.empty() ? "" : " (" + first.via + ")"));
    out.source = first.source;
    out.value = first.value;
    out.method = first.method;
  }

  // Is `a` inside a `for (<int type> i = 0; ...; ++i / i++)` over i?
  bool loopFromZero(TSNode a, std::string_view var) {
    for (TSNode p = cpp::parentOf(a); !cpp::isNull(p); p = cpp::parentOf(p)) {
      if (!is(p, "for_statement")) continue;
      TSNode init = field(p, "initializer");
      std::string text = cpp::noSpace(c.text(init)), upd = cpp::noSpace(c.text(field(p, "update")));
      std::string v(var);
      while (text.ends_with(";")) text.pop_back();
      if (text.ends_with(v + "=0") && (upd == "++" + v || upd == v + "++")) return true;
    }
    return false;
  }
};

// An argument's source (GeometryCalls.h), following locals of the same function.
void Resolver::resolve(TSNode n, GeometryArgument& out, const IndexEnv* env, int depth) {
  if (cpp::isNull(n) || depth > cpp::kMaxEvalDepth) return;
  std::string_view t = type(n);
  if (t == "parenthesized_expression" || (t == "pointer_expression" && c.text(field(n, "operator")) == "*")) {
    auto k = t == "parenthesized_expression" ? cpp::items(n) : std::vector<TSNode>{field(n, "argument")};
    if (k.size() == 1) resolve(k[0], out, env, depth + 1);
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
    std::string method;
    if (std::string key = cpp::geometry::metadataKey(c, n, &method, env); !key.empty()) {
      out.source = "metadata";
      out.value = key;
      out.method = method;
      return;
    }
    // static_cast<T>(x): x's source (the harness converts to the parameter's type as the call does).
    if (is(fn, "template_function") && cpp::lastComponent(c.text(field(fn, "name"))) == "static_cast" &&
        args.size() == 1)
      resolve(args[0], out, env, depth + 1);
    return;
  }
  if (t == "field_expression") {
    resolveField(c, w, n, out);
    if (out.source.empty() && out.members.empty()) returned(n, out, depth);
    return;
  }
  if (t == "subscript_expression") return element(n, out, depth);
  if (t == "identifier") {
    TSNode init = cpp::geometry::localInitializer(c, fi, c.text(n), n);
    if (cpp::isNull(init)) {
      out.origin = cpp::geometry::origin(c, n);
      return;
    }
    addVia(out, std::string(c.text(n)) + " = " + cpp::collapse(c.text(init)));
    resolve(init, out, env, depth + 1);
  }
}

struct SizeCall {
  std::string method;
  std::vector<TSNode> args;
  TSNode call{};
};

// The local a call's value is bound to (`const auto launch = conv::launchGeometry(...)`), or "".
std::string boundName(const Ctx& c, TSNode call) {
  TSNode p = cpp::parentOf(call);
  if (!is(p, "init_declarator")) return "";
  TSNode id = cpp::innermostIdentifier(field(p, "declarator"));
  return cpp::isNull(id) ? "" : std::string(c.text(id));
}

bool isLiteral(TSNode n) { return is(n, "number_literal") || is(n, "true") || is(n, "false"); }

// Does an axis argument compute with `var` and nothing else the harness lacks (written in the
// call's own function: `geometry.gridX * 2`)? Another local (`persistent ? geometry.gridX : 1`)
// is not in the harness: such an axis is unread.
bool reads(const Ctx& c, TSNode arg, std::string_view var) {
  bool hit = false, other = false;
  walk(arg, [&](TSNode n) {
    if (is(n, "identifier")) (c.text(n) == var ? hit : other) = true;
    return true;
  });
  return hit && !other;
}

struct Axis {
  TSNode arg;
  std::vector<cpp::geometry::Reach> reaches;
};

// One site per call of the header function that an axis reads.
std::vector<GeometryCallSite> sitesOf(const Ctx& c, const std::vector<SizeCall>& sizes, std::string_view callee) {
  std::map<uint32_t, GeometryCallSite> byCall;
  std::map<uint32_t, TSNode> calls;
  std::vector<std::pair<const SizeCall*, std::vector<Axis>>> traced;
  for (const SizeCall& s : sizes) {
    std::vector<Axis> axes;
    for (TSNode a : s.args) {
      Axis ax{a, isLiteral(a) ? std::vector<cpp::geometry::Reach>{} : cpp::geometry::traceToCall(c, a, callee)};
      for (const auto& r : ax.reaches)
        if (!cpp::isNull(r.call)) calls[ts_node_start_byte(r.call)] = r.call;
      axes.push_back(std::move(ax));
    }
    traced.emplace_back(&s, std::move(axes));
  }
  std::vector<GeometryCallSite> out;
  for (const auto& [at, call] : calls) {
    GeometryCallSite site;
    int fi = c.functionOf(call);
    site.callee = std::string(callee);
    site.function = fi >= 0 ? cpp::functionName(c, c.functions[fi].node) : "";
    site.line = rangeOf(call).line;
    site.resultVar = boundName(c, call);
    if (site.resultVar.empty()) site.resultVar = "impact_r";
    std::set<std::string> others;
    uint64_t fp = fnv1a(cpp::collapse(c.text(call)));
    for (const auto& [s, axes] : traced) {
      std::vector<std::string> written;
      bool feeds = false;
      for (const Axis& ax : axes) {
        // The member every path to this call reads (`launch.gridX`); in the call's own function,
        // an axis that also reads something else (`persistent ? geometry.gridX : 1`) is compiled
        // as written; elsewhere the paths reaching something else are the launch's other paths.
        std::string expr;
        bool agree = true, mixed = false;
        for (const auto& r : ax.reaches) {
          if (!r.other.empty()) others.insert(r.other);
          mixed = mixed || !cpp::sameNode(r.call, call);
          if (!cpp::sameNode(r.call, call)) continue;
          std::string e = r.path.empty() ? site.resultVar : site.resultVar + "." + absl::StrJoin(r.path, ".");
          agree = agree && (expr.empty() || e == expr);
          expr = e;
        }
        if (!agree) expr.clear();
        bool sameFunction = c.functionOf(ax.arg) == fi;
        if (sameFunction && mixed) expr.clear();  // a computation of its own, not another launch path
        if (isLiteral(ax.arg) || (sameFunction && expr.empty() && reads(c, ax.arg, site.resultVar)))
          expr = cpp::collapse(c.text(ax.arg));
        feeds = feeds || (!expr.empty() && !isLiteral(ax.arg));
        written.push_back(expr.empty() ? "?" + cpp::collapse(c.text(ax.arg)) : expr);
      }
      if (!feeds) continue;
      (s->method == "setGridSize" ? site.grid : site.block) = written;
      fp = fnv1a(cpp::collapse(c.text(s->call)), fp);
    }
    site.others.assign(others.begin(), others.end());
    site.fingerprint = fp;
    byCall[at] = std::move(site);
  }
  for (auto& [at, site] : byCall) out.push_back(std::move(site));
  return out;
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
    sizes.push_back({method, cpp::items(m.get("args")), m.get("call")});
  }
  if (sizes.empty()) return out;
  out = sitesOf(c, sizes, callee);
  if (out.empty()) return out;
  const Witnesses w = cpp::geometry::witnesses(c);
  for (GeometryCallSite& site : out) {
    TSNode call{};
    c.tree.walkAll([&](TSNode n) {
      if (!cpp::isNull(call)) return false;
      if (is(n, "call_expression") && rangeOf(n).line == site.line && cpp::calleeName(c, n) == site.callee) call = n;
      return cpp::isNull(call);
    });
    Resolver r{c, w, c.functionOf(call)};
    if (r.fi < 0) continue;
    uint64_t fp = site.fingerprint;
    for (TSNode a : cpp::items(field(call, "arguments"))) {
      GeometryArgument arg;
      arg.expression = cpp::collapse(c.text(a));
      r.resolve(a, arg, nullptr, 0);
      std::string members;
      for (const auto& [m, kv] : arg.members) members += m + "=" + kv.first + ",";
      fp = fnv1a(arg.expression + "|" + arg.source + "|" + arg.value + "|" + arg.via + "|" + members, fp);
      site.args.push_back(std::move(arg));
    }
    site.fingerprint = fp;
  }
  return out;
}

namespace {

// A declaration's name and its type as written without the name ("const std::string&").
GeometryParam declared(const Ctx& c, TSNode whole, TSNode id) {
  GeometryParam gp;
  std::string_view text = c.text(whole);
  if (cpp::isNull(id)) {
    gp.type = cpp::collapse(text);
    return gp;
  }
  uint32_t s0 = ts_node_start_byte(whole), a = ts_node_start_byte(id) - s0, b = ts_node_end_byte(id) - s0;
  gp.name = std::string(c.text(id));
  gp.type = cpp::collapse(std::string(text.substr(0, a)) + std::string(text.substr(b)));
  return gp;
}

GeometryStruct readStruct(const Ctx& c, TSNode n) {
  GeometryStruct s;
  s.name = std::string(c.text(field(n, "name")));
  auto scopes = c.siteOf(n).scope;
  if (!scopes.empty() && scopes.back() == s.name) scopes.pop_back();  // the struct's own scope
  for (const auto& scope : scopes)
    if (!scope.empty()) s.qualified += scope + "::";
  s.qualified += s.name;
  for (TSNode f : cpp::items(field(n, "body"))) {
    if (!is(f, "field_declaration")) continue;
    std::string type = cpp::collapse(c.text(field(f, "type")));
    bool defaulted = !cpp::isNull(field(f, "default_value"));
    for (TSNode d : cpp::items(f)) {
      if (!is(d, "field_identifier")) continue;
      s.members.push_back(GeometryParam{type, std::string(c.text(d))});
      s.defaulted.push_back(defaulted);
    }
  }
  return s;
}

}  // namespace

GeometryHeader readGeometryHeader(std::string_view headerText, std::string_view function) {
  GeometryHeader h;
  auto tree = SyntaxTree::parse(Lang::Cpp, std::string(headerText));
  if (!tree || ts_node_is_null(tree->root())) return h;
  h.parseError = tree->firstError();
  Ctx c(*tree);
  cpp::collect(c);
  std::set<std::string> statuses;
  tree->walkAll([&](TSNode n) {
    if (is(n, "preproc_include")) {
      std::string_view p = c.text(field(n, "path"));
      if (p.size() >= 2) h.includes.emplace_back(p.substr(1, p.size() - 2));
      return false;
    }
    if (is(n, "identifier") && c.text(n).starts_with("HIPDNN_PLUGIN_STATUS_")) statuses.insert(std::string(c.text(n)));
    if (is(n, "struct_specifier") && !cpp::isNull(field(n, "body"))) h.structs.push_back(readStruct(c, n));
    if (!is(n, "function_definition")) return true;
    TSNode decl = cpp::functionDeclarator(n);
    h.functions.push_back(cpp::lastComponent(c.text(field(decl, "declarator"))));
    if (h.found) return true;
    if (cpp::lastComponent(c.text(field(decl, "declarator"))) != function) return true;
    h.found = true;
    std::string qualified;
    for (const auto& s : c.siteOf(n).scope)
      if (!s.empty()) qualified += s + "::";
    h.qualified = qualified + std::string(function);
    for (TSNode p : cpp::items(field(decl, "parameters"))) {
      h.params.push_back(declared(c, p, cpp::innermostIdentifier(field(p, "declarator"))));
    }
    return true;
  });
  h.statusNames.assign(statuses.begin(), statuses.end());
  return h;
}

}  // namespace impact
