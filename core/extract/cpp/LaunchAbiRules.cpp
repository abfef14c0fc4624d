#include "extract/cpp/LaunchAbiRules.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "extract/cpp/Context.h"
#include "parse/Syntax.h"

namespace impact::cpp {

namespace {

// The definition of the function `name` (its declarator's last component), or null.
TSNode launchAbiFunction(const SyntaxTree& t, std::string_view name) {
  TSNode found{};
  t.walkAll([&](TSNode n) {
    if (!isNull(found)) return false;
    if (!is(n, "function_definition")) return true;
    TSNode fd = functionDeclarator(n);
    if (!isNull(fd) && lastComponent(noSpace(t.text(field(fd, "declarator")))) == name) found = n;
    return false;
  });
  return found;
}

// The catalog types an `if` condition names: `ArgKind::POINTER` -> "ptr", `ScalarType::F32` -> "f32".
std::vector<std::string> launchAbiTypesNamed(const SyntaxTree& t, TSNode cond) {
  std::vector<std::string> out;
  walk(cond, [&](TSNode n) {
    if (!is(n, "qualified_identifier")) return true;
    std::string q = noSpace(t.text(n));
    auto sep = q.rfind("::");
    if (sep == std::string::npos) return false;
    std::string scope = lastComponent(q.substr(0, sep)), name = q.substr(sep + 2);
    if (scope == "ArgKind" && name == "POINTER") out.push_back("ptr");
    if (scope == "ScalarType") {
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
      out.push_back(name);
    }
    return false;
  });
  return out;
}

// The first `std::get<T>` under `n`: T and where.
std::pair<std::string, SourceRange> launchAbiGet(const SyntaxTree& t, TSNode n) {
  std::pair<std::string, SourceRange> out;
  walk(n, [&](TSNode k) {
    if (!out.first.empty()) return false;
    if (is(k, "template_function") && t.text(field(k, "name")) == "get") {
      std::string args = noSpace(t.text(field(k, "arguments")));
      if (args.size() > 2) out = {args.substr(1, args.size() - 2), rangeOf(k)};
      return false;
    }
    return true;
  });
  return out;
}

// The LaunchBindings maps a branch looks names up in, in order (`bindings.pointerValues.find(…)`).
std::vector<std::string> launchAbiMapsSearched(const SyntaxTree& t, TSNode n) {
  std::vector<std::string> out;
  walk(n, [&](TSNode k) {
    if (is(k, "field_expression") && t.text(field(k, "field")) == "find") {
      TSNode m = field(k, "argument");
      if (is(m, "field_expression")) {
        std::string map(t.text(field(m, "field")));
        if (std::find(out.begin(), out.end(), map) == out.end()) out.push_back(map);
      }
    }
    return true;
  });
  return out;
}

// The statement an `else` holds (its clause's child), or null.
TSNode launchAbiElse(TSNode ifStmt) {
  TSNode alt = field(ifStmt, "alternative");
  if (isNull(alt)) return alt;
  if (is(alt, "else_clause")) {
    std::vector<TSNode> k = items(alt);
    return k.empty() ? TSNode{} : k.back();
  }
  return alt;
}

// The first `if` under `n` whose condition names a catalog type.
TSNode launchAbiTypedIf(const SyntaxTree& t, TSNode n) {
  TSNode found{};
  walk(n, [&](TSNode k) {
    if (!isNull(found)) return false;
    if (is(k, "if_statement") && !launchAbiTypesNamed(t, field(k, "condition")).empty()) {
      found = k;
      return false;
    }
    return true;
  });
  return found;
}

}  // namespace

LaunchAbiRules readLaunchAbiRules(const std::string& path, std::string source) {
  LaunchAbiRules out;
  out.path = path;
  auto tree = SyntaxTree::parse(Lang::Cpp, std::move(source));
  TSNode pack = launchAbiFunction(*tree, "packArgs"), bind = launchAbiFunction(*tree, "bindArgs");
  if (isNull(pack) || isNull(bind)) {
    out.notRead = path + " defines no " + (isNull(pack) ? "packArgs" : "bindArgs");
    return out;
  }
  // bindArgs: the POINTER branch's maps, and its else's (every other kind).
  TSNode bindIf = launchAbiTypedIf(*tree, bind);
  std::vector<std::string> pointerMaps, scalarMaps;
  if (!isNull(bindIf)) {
    pointerMaps = launchAbiMapsSearched(*tree, field(bindIf, "consequence"));
    if (TSNode e = launchAbiElse(bindIf); !isNull(e)) scalarMaps = launchAbiMapsSearched(*tree, e);
  }
  if (pointerMaps.empty() || scalarMaps.empty()) {
    out.notRead = path + ": bindArgs has no `if (arg.kind == ArgKind::POINTER) … else …` looking names up by `.find`";
    return out;
  }
  // packArgs: the chain of `if`s on the argument's kind and scalar type, each branch's std::get.
  std::set<std::string> named;
  for (TSNode s = launchAbiTypedIf(*tree, pack); !isNull(s);) {
    auto types = launchAbiTypesNamed(*tree, field(s, "condition"));
    auto [alt, at] = launchAbiGet(*tree, field(s, "consequence"));
    for (const std::string& ty : types) {
      named.insert(ty);
      out.byType[ty] = LaunchAbiRule{ty == "ptr" ? pointerMaps : scalarMaps, ty == "ptr" ? "" : alt, at};
    }
    TSNode e = launchAbiElse(s);
    if (isNull(e)) break;
    if (is(e, "if_statement")) {
      s = e;
      continue;
    }
    auto [lastAlt, lastAt] = launchAbiGet(*tree, e);
    if (!lastAlt.empty()) out.byType["*"] = LaunchAbiRule{scalarMaps, lastAlt, lastAt};
    break;
  }
  if (!out.byType.count("ptr") || out.byType.size() < 2)
    out.notRead = path + ": packArgs has no `if` chain on ArgKind/ScalarType with a std::get in each branch";
  return out;
}

}  // namespace impact::cpp
