#include "extract/cpp/GeometryFlow.h"

#include "extract/cpp/GeometryReads.h"
#include "absl/strings/str_cat.h"

namespace impact::cpp::geometry {

namespace {

constexpr int kMaxTraceDepth = 32;

bool isNothing(const Ctx& c, TSNode n) {
  std::string t = noSpace(c.text(n));
  return t == "std::nullopt" || t == "nullopt" || t == "nullptr" || t == "{}" || t == "std::nullopt_t{}";
}

std::string where(const Ctx& c, TSNode n) {
  int fi = c.functionOf(n);
  std::string text = collapse(c.text(n));
  if (text.size() > 80) text = absl::StrCat(text.substr(0, 77), "...");
  return fi >= 0 ? "`" + text + "` in " + functionName(c, c.functions[fi].node) : "`" + text + "`";
}

// The struct an aggregate initialiser builds: its written type, or the enclosing function's
// return type (`std::optional<ConvLaunch>`) for a bare `{...}`.
std::string aggregateType(const Ctx& c, TSNode n) {
  std::string t;
  if (is(n, "compound_literal_expression")) {
    t = noSpace(c.text(field(n, "type")));
  } else {
    int fi = c.functionOf(n);
    if (fi < 0) return "";
    t = noSpace(c.text(field(c.functions[fi].node, "type")));
  }
  for (const char* wrap : {"std::optional<", "optional<"})
    if (t.starts_with(wrap) && t.ends_with(">")) t = t.substr(std::string_view(wrap).size(), t.size() - std::string_view(wrap).size() - 1);
  return lastComponent(t);
}

// The position of member `name` in the file's declaration of struct `type`, or -1.
int memberIndex(const Ctx& c, const std::string& type, const std::string& name) {
  int found = -1;
  c.tree.walkAll([&](TSNode n) {
    if (found >= 0) return false;
    if (!is(n, "struct_specifier") || c.text(field(n, "name")) != type || isNull(field(n, "body"))) return true;
    int i = 0;
    for (TSNode f : items(field(n, "body"))) {
      if (!is(f, "field_declaration")) continue;
      for (TSNode d : items(f)) {
        TSNode id = innermostIdentifier(d);
        if (!is(d, "field_identifier") && !is(d, "init_declarator") && !is(d, "array_declarator")) continue;
        if (!isNull(id) && c.text(id) == name) found = i;
        if (is(d, "field_identifier") && c.text(d) == name) found = i;
        ++i;
      }
    }
    return false;
  });
  return found;
}

struct Tracer {
  const Ctx& c;
  std::string_view callee;
  std::vector<Reach> out;
  bool values = false;  // memberValues: stop where no member is left to read
  std::vector<TSNode> found;

  void other(TSNode n) { out.push_back(Reach{{}, {}, where(c, n)}); }

  void returns(int g, std::vector<std::string> path, int depth) {
    walk(field(c.functions[g].node, "body"), [&](TSNode n) {
      if (is(n, "lambda_expression")) return false;
      if (!is(n, "return_statement")) return true;
      auto k = items(n);
      if (k.size() == 1 && !isNothing(c, k[0])) trace(k[0], path, depth + 1);
      return false;
    });
  }

  void aggregate(TSNode n, std::vector<std::string> path, int depth) {
    TSNode list = is(n, "compound_literal_expression") ? field(n, "value") : n;
    auto elems = items(list);
    if (path.empty()) return other(n);
    for (TSNode e : elems)
      if (is(e, "initializer_pair")) {
        if (noSpace(c.text(field(e, "designator"))) == "." + path[0] || c.text(field(e, "designator")) == path[0])
          return trace(field(e, "value"), {path.begin() + 1, path.end()}, depth + 1);
      }
    int i = memberIndex(c, aggregateType(c, n), path[0]);
    if (i < 0 || size_t(i) >= elems.size()) return other(n);
    trace(elems[i], {path.begin() + 1, path.end()}, depth + 1);
  }

  void call(TSNode n, std::vector<std::string> path, int depth) {
    std::string name = calleeName(c, n);
    TSNode fn = field(n, "function");
    auto args = items(field(n, "arguments"));
    if (name == callee) {
      out.push_back(Reach{n, path, ""});
      return;
    }
    if (is(fn, "field_expression") && name == "value" && args.empty())
      return trace(field(fn, "argument"), path, depth + 1);
    std::string written = noSpace(c.text(fn));
    bool wraps = name == "make_optional" || written.starts_with("std::optional<") || written.starts_with("optional<");
    if ((wraps || (is(fn, "template_function") && lastComponent(c.text(field(fn, "name"))) == "static_cast")) &&
        args.size() == 1)
      return trace(args[0], path, depth + 1);
    if (int g = is(fn, "field_expression") ? -1 : functionNamed(c, name); g >= 0) return returns(g, path, depth);
    other(n);
  }

  void trace(TSNode n, std::vector<std::string> path, int depth) {
    if (isNull(n) || depth > kMaxTraceDepth) return other(n);
    if (isNothing(c, n)) return;
    if (values && path.empty()) {
      found.push_back(n);
      return;
    }
    std::string_view t = type(n);
    if (t == "parenthesized_expression" || (t == "pointer_expression" && c.text(field(n, "operator")) == "*")) {
      auto k = t == "parenthesized_expression" ? items(n) : std::vector<TSNode>{field(n, "argument")};
      return k.size() == 1 ? trace(k[0], path, depth + 1) : other(n);
    }
    if (t == "field_expression") {
      path.insert(path.begin(), std::string(c.text(field(n, "field"))));
      return trace(field(n, "argument"), path, depth + 1);
    }
    if (t == "call_expression") return call(n, path, depth);
    if (t == "conditional_expression") {
      trace(field(n, "consequence"), path, depth + 1);
      trace(field(n, "alternative"), path, depth + 1);
      return;
    }
    if (t == "compound_literal_expression" || t == "initializer_list") return aggregate(n, path, depth);
    if (t == "identifier") {
      TSNode init = localInitializer(c, c.functionOf(n), c.text(n), n);
      return isNull(init) ? other(n) : trace(init, path, depth + 1);
    }
    other(n);
  }
};

}  // namespace

std::vector<Reach> traceToCall(const Ctx& c, TSNode expr, std::string_view callee) {
  Tracer t{c, callee, {}, false, {}};
  t.trace(expr, {}, 0);
  return t.out;
}

std::vector<TSNode> memberValues(const Ctx& c, TSNode fieldRead) {
  if (!is(fieldRead, "field_expression")) return {};
  Tracer t{c, "", {}, true, {}};
  t.trace(field(fieldRead, "argument"), {std::string(c.text(field(fieldRead, "field")))}, 0);
  if (!t.out.empty()) return {};
  return t.found;
}

}  // namespace impact::cpp::geometry
