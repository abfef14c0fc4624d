#include "support/Mutation.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace impact::testing {

SharedTreeRepo::SharedTreeRepo(const std::string& sub) {
  std::string shared = sharedDir();
  if (shared.empty()) return;
  fs::path src = fs::path(shared) / "real-data" / sub;
  std::error_code ec;
  if (!fs::is_directory(src, ec)) return;
  // shared/ is read-only: copy the files, then let them be edited in the fixture.
  fs::copy(src, dir(), fs::copy_options::recursive);
  for (auto& e : fs::recursive_directory_iterator(dir())) {
    if (e.path().filename() == ".git") continue;
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add, ec);
  }
  untouched = commit("Real tree " + sub + " (untouched)");
  auto trim = [](std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
  };
  empty = trim(git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty"));
  all = trim(git("commit-tree " + untouched + "^{tree} -p " + empty + " -m whole-tree"));
  git("checkout -q -b mutations");
  ok_ = true;
}

std::string dropLine(std::string s) {
  auto colon = s.find(':');
  auto space = s.find(' ');
  if (colon != std::string::npos && (space == std::string::npos || colon < space)) {
    size_t end = colon + 1;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    if (end > colon + 1) s.erase(colon, end - colon);
  }
  return s;
}

std::vector<ReportRow> parseRows(const std::string& out) {
  std::vector<ReportRow> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    for (size_t at = 0;;) {
      size_t next = line.find("  ", at);
      f.push_back(line.substr(at, next == std::string::npos ? std::string::npos : next - at));
      if (next == std::string::npos) break;
      at = next + 2;
    }
    if (f.size() < 5 || f[3] != "<->") continue;
    rows.push_back({f[0], f[1], dropLine(f[2]), dropLine(f[4]), line});
  }
  return rows;
}

std::vector<BuilderPairs> pairsFromReport(const std::string& out) {
  std::map<std::string, BuilderPairs> by;
  for (const auto& r : parseRows(out)) {
    if (r.contract != "kernargs") continue;
    auto space = r.python.find(' ');
    if (space == std::string::npos) continue;
    std::string file = r.python.substr(0, space), fn = r.python.substr(space + 1);
    if (!file.ends_with(".py")) continue;
    auto& p = by[r.python];
    p.file = file;
    p.function = fn;
    p.copies.insert(r.copy);
  }
  std::vector<BuilderPairs> v;
  for (auto& [k, p] : by) v.push_back(p);
  return v;
}

namespace {

size_t lineStart(const std::string& s, int line) {  // 1-based line -> offset
  size_t at = 0;
  for (int l = 1; l < line && at != std::string::npos; ++l) {
    at = s.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? s.size() : at;
}

// Offset just past the line holding the parenthesis that closes the first '(' at or after `from`.
size_t statementEnd(const std::string& s, size_t from) {
  size_t open = s.find('(', from);
  if (open == std::string::npos) return std::string::npos;
  int depth = 0;
  char quote = 0;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '#') i = s.find('\n', i) - 1;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        size_t nl = s.find('\n', i);
        return nl == std::string::npos ? s.size() : nl + 1;
      }
    }
  }
  return std::string::npos;
}

}  // namespace

std::vector<Decl> locateDecls(const std::string& factsJson, const std::string& function, const std::string& source,
                              std::string& why) {
  std::vector<Decl> out;
  nlohmann::json facts = nlohmann::json::parse(factsJson, nullptr, false);
  if (facts.is_discarded() || !facts.contains("builders")) {
    why = "facts have no builders";
    return out;
  }
  const nlohmann::json* abi = nullptr;
  for (const auto& b : facts["builders"])
    if (b.value("name", "") == function)
      for (const auto& a : b["abis"])
        if (a.value("guard", "") == "" && !abi) abi = &a;
  if (!abi) {
    why = "no unconditional abi for " + function + " in the facts";
    return out;
  }
  for (const auto& a : (*abi)["args"]) {
    Decl d;
    d.name = a.value("name", "");
    d.kind = a.value("kind", "");
    d.klass = a.value("class", "");
    d.type = a.value("type", "");
    int line = a.value("line", 0);
    d.begin = lineStart(source, line);
    d.end = statementEnd(source, d.begin);
    if (d.end == std::string::npos) {
      why = "no call at line " + std::to_string(line) + " for " + d.name;
      return {};
    }
    size_t ind = d.begin;
    while (ind < source.size() && (source[ind] == ' ' || source[ind] == '\t')) ++ind;
    d.indent = source.substr(d.begin, ind - d.begin);
    std::string text = source.substr(d.begin, d.end - d.begin);
    size_t dot = text.find(".param(");
    if (dot == std::string::npos) {
      why = d.name + " is not declared by a .param( call at line " + std::to_string(line);
      return {};
    }
    size_t r = dot;
    while (r > 0 && (std::isalnum(static_cast<unsigned char>(text[r - 1])) || text[r - 1] == '_')) --r;
    d.receiver = text.substr(r, dot - r);
    out.push_back(d);
  }
  if (out.empty()) why = function + " has no arguments in the facts";
  return out;
}

std::vector<Mutation> mutationsOf(const std::string& src, const std::vector<Decl>& decls) {
  std::vector<Mutation> muts;
  if (decls.empty()) return muts;
  const std::string base = decls.front().indent;
  // Unconditional declarations: at the indentation of the first one.
  std::vector<const Decl*> flat;
  for (const auto& d : decls)
    if (d.indent == base) flat.push_back(&d);

  {  // (a) append an unconditional I32 after the last declaration, at the body's indentation
    Mutation m{"append I32", "", ""};
    size_t at = decls.back().end;
    if (decls.back().indent != base) {
      // The last declaration is nested (under an `if`): insert after that block, i.e. before
      // the next non-blank line at the body's indentation or less.
      size_t p = at;
      while (p < src.size()) {
        size_t nl = src.find('\n', p);
        std::string ln = src.substr(p, (nl == std::string::npos ? src.size() : nl) - p);
        size_t ind = ln.find_first_not_of(" \t");
        if (ind != std::string::npos && ind <= base.size()) break;
        p = nl == std::string::npos ? src.size() : nl + 1;
      }
      at = p;
    }
    m.source = src.substr(0, at) + base + "_impactd_mut = " + decls.front().receiver +
               ".param(\"impactd_mut\", I32)\n" + src.substr(at);
    muts.push_back(m);
  }
  {  // (b) one scalar's type at equal size: the first unconditional I32 or F32
    Mutation m{"retype", "", ""};
    for (const Decl* d : flat) {
      if (d->type != "I32" && d->type != "F32") continue;
      std::string to = d->type == "I32" ? "F32" : "I32";
      std::string text = src.substr(d->begin, d->end - d->begin);
      size_t t = text.rfind(d->type);
      if (t == std::string::npos) continue;
      text.replace(t, d->type.size(), to);
      m.label = "retype " + d->name + " " + d->type + "->" + to;
      m.source = src.substr(0, d->begin) + text + src.substr(d->end);
      break;
    }
    if (m.source.empty()) m.note = "no unconditional I32/F32 scalar declared as such";
    muts.push_back(m);
  }
  {  // (c) swap two adjacent declarations, preferring a pointer/scalar boundary
    Mutation m{"swap", "", ""};
    int pick = -1;
    for (size_t i = 0; i + 1 < flat.size(); ++i) {
      const Decl& x = *flat[i];
      const Decl& y = *flat[i + 1];
      if (src.substr(x.end, y.begin - x.end).find_first_not_of(" \t\n") != std::string::npos) continue;
      if (pick < 0) pick = static_cast<int>(i);
      if (x.kind != y.kind) {
        pick = static_cast<int>(i);
        break;
      }
    }
    if (pick >= 0) {
      const Decl& x = *flat[pick];
      const Decl& y = *flat[pick + 1];
      m.label = "swap " + x.name + "<->" + y.name;
      m.source = src.substr(0, x.begin) + src.substr(y.begin, y.end - y.begin) + src.substr(x.end, y.begin - x.end) +
                 src.substr(x.begin, x.end - x.begin) + src.substr(y.end);
    } else {
      m.note = "no two adjacent unconditional declarations";
    }
    muts.push_back(m);
  }
  {  // (d) drop the last unconditional declaration (its variable kept, as None)
    const Decl& d = *flat.back();
    std::string text = src.substr(d.begin, d.end - d.begin);
    size_t eq = text.find(" = ");
    std::string repl = eq != std::string::npos && eq < text.find(".param(") ? text.substr(0, eq) + " = None\n" : "";
    muts.push_back({"drop " + d.name, src.substr(0, d.begin) + repl + src.substr(d.end), ""});
  }
  return muts;
}

}  // namespace impact::testing
