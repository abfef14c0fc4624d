#include "support/CopyRewrites.h"

#include <cctype>

namespace impact::testing {
namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\n");
  size_t b = s.find_last_not_of(" \t\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The top-level arguments of the call whose '(' is at `open` (comments dropped), and the offset of
// its ')'. False when the list does not close.
bool splitArguments(const std::string& s, size_t open, std::vector<std::string>& args, size_t& close) {
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 1 < s.size()) cur += s[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      i = s.find('\n', i);
      if (i == std::string::npos) return false;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') {
      if (depth++ == 0) continue;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        args.push_back(trim(cur));
        close = i;
        return true;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  return false;
}

}  // namespace

std::vector<CopyRewrite> launchRewritesOf(const std::string& src, int line, std::string& why) {
  std::vector<CopyRewrite> out;
  size_t start = 0;
  for (int l = 1; l < line && start != std::string::npos; ++l) {
    start = src.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  size_t eol = start == std::string::npos ? std::string::npos : src.find('\n', start);
  size_t at = start == std::string::npos ? std::string::npos : src.find("launch(", start);
  if (at == std::string::npos || at > eol) {
    why = "no launch( on line " + std::to_string(line);
    return out;
  }
  size_t open = at + std::string("launch").size();
  std::vector<std::string> args;
  size_t close = 0;
  if (!splitArguments(src, open, args, close) || args.size() < 2) {
    why = "the launch's argument list does not close or passes no kernel argument";
    return out;
  }
  const std::string indent = src.substr(start, src.find_first_not_of(" \t", start) - start);
  const std::string head = src.substr(0, start), stmt = src.substr(start, open + 1 - start);
  const std::string tail = src.substr(close);
  // Through `const auto` locals.
  {
    std::string decls, call = args[0];
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i].ends_with("...")) {  // a parameter pack's expansion stays where it is expanded
        call += ", " + args[i];
        continue;
      }
      std::string n = "impactdArg" + std::to_string(i);
      decls += indent + "const auto " + n + " = " + args[i] + ";\n";
      call += ", " + n;
    }
    out.push_back({"launch through const auto locals", head + decls + stmt + call + tail});
  }
  // Through a local struct whose fields are initialised from the arguments (types deduced by
  // `decltype`, as the locals above would be).
  {
    std::string fields, init, call = args[0];
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i].ends_with("...")) {
        call += ", " + args[i];
        continue;
      }
      std::string n = "a" + std::to_string(i);
      fields += indent + "    std::decay_t<decltype(" + args[i] + ")> " + n + ";\n";
      init += (init.empty() ? "" : ", ") + args[i];
      call += ", impactdArgs." + n;
    }
    std::string decl = indent + "struct ImpactdLaunchArgs {\n" + fields + indent + "};\n" + indent +
                       "const ImpactdLaunchArgs impactdArgs{" + init + "};\n";
    out.push_back({"launch through a struct's fields", head + decl + stmt + call + tail});
  }
  return out;
}

namespace {

// Where namespace-scope declarations may go: after the file's last `#include` line.
size_t afterIncludes(const std::string& s) {
  size_t at = 0;
  for (size_t p = s.find("#include"); p != std::string::npos; p = s.find("#include", p + 1))
    if (p == 0 || s[p - 1] == '\n') at = s.find('\n', p) + 1;
  return at;
}

std::string quoted(const std::string& n) { return "\"" + n + "\""; }

bool isName(const std::string& lit, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (lit == quoted(n)) return true;
  return false;
}

}  // namespace

std::vector<CopyRewrite> nameKeyedRewritesOf(const std::string& src, const std::vector<std::string>& names,
                                             std::string& why) {
  std::vector<CopyRewrite> out;
  const size_t top = afterIncludes(src);
  // Names through named constants.
  {
    std::string body = src.substr(top), decls;
    for (const auto& n : names) {
      const std::string lit = quoted(n), id = "kImpactdName_" + n;
      size_t hits = 0;
      for (size_t p = body.find(lit); p != std::string::npos; p = body.find(lit, p + id.size()), ++hits)
        body.replace(p, lit.size(), id);
      if (hits) decls += "constexpr const char* " + id + " = " + lit + ";\n";
    }
    if (!decls.empty()) out.push_back({"names through named constants", src.substr(0, top) + decls + body});
  }
  // Names from a constexpr array: `: {"a", "b", …})` of a range-for.
  {
    std::string body = src.substr(top), decls;
    int k = 0;
    for (size_t p = body.find(": {\""); p != std::string::npos; p = body.find(": {\"", p + 1)) {
      std::vector<std::string> els;
      size_t close = 0;
      if (!splitArguments(body, p + 2, els, close)) continue;
      bool all = !els.empty();
      for (const auto& e : els) all = all && isName(e, names);
      size_t next = body.find_first_not_of(" \t\n", close + 1);
      if (!all || next == std::string::npos || body[next] != ')') continue;
      std::string id = "kImpactdNames" + std::to_string(k++), list;
      for (const auto& e : els) list += (list.empty() ? "" : ", ") + e;
      decls += "constexpr std::array<const char*, " + std::to_string(els.size()) + "> " + id + "{" + list + "};\n";
      body.replace(p + 2, close + 1 - (p + 2), id);
    }
    if (!decls.empty())
      out.push_back({"names from a constexpr array", src.substr(0, top) + "#include <array>\n" + decls + body});
  }
  // Sizes through sizeof of a local.
  {
    std::string s = src;
    const std::string what = "== sizeof(float)";
    int k = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) {
      size_t stmt = s.find_last_of(";{}", p);
      if (stmt == std::string::npos) break;
      size_t first = s.find_first_not_of(" \t\n", stmt + 1);
      size_t lineStart = s.rfind('\n', first) + 1;
      std::string indent = s.substr(lineStart, first - lineStart);
      std::string local = "impactdF32_" + std::to_string(k++);
      s.replace(p, what.size(), "== sizeof(" + local + ")");
      s.insert(lineStart, indent + "const float " + local + " = 0.0F;\n");
      p = s.find(local + ")", p) ;
    }
    if (k) out.push_back({"sizes through sizeof of a local", s});
  }
  if (out.empty()) why = "no name literal, range-for over names, or sizeof(float) in the file";
  return out;
}

}  // namespace impact::testing
