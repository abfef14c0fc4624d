#include "support/Mutation.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

#include "support/ReportText.h"

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
    std::vector<std::string> f = rowFields(line);
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
    p.untouchedRow[r.copy] = r.line;
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
      m.label = std::string(x.kind == y.kind ? "swap same-kind " : "swap ") + x.name + "<->" + y.name;
      m.source = src.substr(0, x.begin) + src.substr(y.begin, y.end - y.begin) + src.substr(x.end, y.begin - x.end) +
                 src.substr(x.begin, x.end - x.begin) + src.substr(y.end);
    } else {
      m.note = "no two adjacent unconditional declarations";
    }
    muts.push_back(m);
  }
  auto swapAt = [&](int i) {
    const Decl& x = *flat[i];
    const Decl& y = *flat[i + 1];
    return src.substr(0, x.begin) + src.substr(y.begin, y.end - y.begin) + src.substr(x.end, y.begin - x.end) +
           src.substr(x.begin, x.end - x.begin) + src.substr(y.end);
  };
  {  // (d) drop the last unconditional declaration (its variable kept, as None)
    const Decl& d = *flat.back();
    std::string text = src.substr(d.begin, d.end - d.begin);
    size_t eq = text.find(" = ");
    std::string repl = eq != std::string::npos && eq < text.find(".param(") ? text.substr(0, eq) + " = None\n" : "";
    muts.push_back({"drop " + d.name, src.substr(0, d.begin) + repl + src.substr(d.end), ""});
  }
  for (size_t i = 0; i + 1 < flat.size(); ++i) {  // (e) two adjacent same-kind declarations swapped
    const Decl& x = *flat[i];
    const Decl& y = *flat[i + 1];
    if (src.substr(x.end, y.begin - x.end).find_first_not_of(" \t\n") != std::string::npos) continue;
    if (x.kind != y.kind || x.klass != y.klass) continue;
    if (muts[2].label == "swap same-kind " + x.name + "<->" + y.name) break;  // already the swap above
    muts.push_back({"swap same-kind " + x.name + "<->" + y.name, swapAt(static_cast<int>(i)), ""});
    break;
  }
  return muts;
}

}  // namespace impact::testing

namespace impact::testing {
namespace {

// Splits "a, f(b, c), k=1" at top-level commas.
std::vector<std::string> splitArgs(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      cur += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  std::vector<std::string> trimmed;
  for (auto& a : out) {
    size_t b = a.find_first_not_of(" \t\n"), e = a.find_last_not_of(" \t\n");
    if (b != std::string::npos) trimmed.push_back(a.substr(b, e - b + 1));
  }
  return trimmed;
}

struct Call {
  std::string var, name, positional, keywords;  // name: the string literal; rest as Python text
};

bool parseCall(const std::string& text, const std::string& receiver, Call& c) {
  size_t eq = text.find(" = ");
  size_t call = text.find(receiver + ".param(");
  if (eq == std::string::npos || call == std::string::npos || eq > call) return false;
  c.var = text.substr(text.find_first_not_of(" \t"), eq - text.find_first_not_of(" \t"));
  size_t open = call + receiver.size() + 7;
  size_t close = text.rfind(')');
  std::vector<std::string> args = splitArgs(text.substr(open, close - open));
  if (args.empty() || args[0].size() < 2 || args[0][0] != '"') return false;
  c.name = args[0];
  std::vector<std::string> pos, kw;
  for (size_t i = 1; i < args.size(); ++i) {
    size_t e = args[i].find('=');
    bool isKw = e != std::string::npos && e > 0 && std::isalpha(static_cast<unsigned char>(args[i][0])) &&
                args[i].find('(') > e;
    (isKw ? kw : pos).push_back(args[i]);
  }
  for (auto& p : pos) c.positional += p + ", ";
  for (size_t i = 0; i < kw.size(); ++i) c.keywords += (i ? ", " : "") + kw[i];
  return true;
}

// Identifiers a type expression reads from the builder's scope (dtype, kv_io_dtype, ...).
std::set<std::string> freeNames(const std::vector<Call>& calls) {
  static const std::set<std::string> known{"PtrType", "I32", "F32", "True", "False", "None"};
  std::set<std::string> out;
  for (const auto& c : calls) {
    const std::string& s = c.positional;
    char quote = 0;
    for (size_t i = 0; i < s.size();) {
      char ch = s[i];
      if (quote) {
        if (ch == quote) quote = 0;
        ++i;
        continue;
      }
      if (ch == '"' || ch == '\'') {
        quote = ch;
        ++i;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
        size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
        std::string id = s.substr(i, j - i);
        if (!known.count(id) && (i == 0 || s[i - 1] != '.')) out.insert(id);
        i = j;
        continue;
      }
      ++i;
    }
  }
  return out;
}

std::string dedent(const std::string& text, size_t n) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += (line.size() >= n ? line.substr(n) : line) + "\n";
  return out;
}

}  // namespace

std::vector<Rewrite> rewritesOf(const std::string& src, const std::vector<Decl>& decls) {
  std::vector<Rewrite> out;
  if (decls.empty()) return out;
  const std::string ind = decls.front().indent;
  const std::string b = decls.front().receiver;
  // The contiguous run of simple unconditional declarations from the first one.
  std::vector<Call> calls;
  size_t runBegin = decls.front().begin, runEnd = runBegin;
  for (const auto& d : decls) {
    if (d.indent != ind || src.substr(runEnd, d.begin - runEnd).find_first_not_of(" \t\n") != std::string::npos) break;
    Call c;
    if (!parseCall(src.substr(d.begin, d.end - d.begin), b, c)) break;
    calls.push_back(c);
    runEnd = d.end;
  }
  if (calls.size() < 2) return out;
  std::set<std::string> free = freeNames(calls);
  std::string vars, table, freeList;
  for (size_t i = 0; i < calls.size(); ++i) vars += (i ? ", " : "") + calls[i].var;
  for (const auto& f : free) freeList += ", " + f;
  for (const auto& c : calls)
    table += ind + "    (" + c.name + ", (" + c.positional + "), dict(" + c.keywords + ")),\n";

  auto make = [&](const std::string& label, const std::string& module, const std::string& run) {
    Rewrite r{label, "", ""};
    r.source = src.substr(0, runBegin) + run + src.substr(runEnd);
    if (!module.empty()) {
      // A module-level helper: inserted before the enclosing top-level def.
      size_t def = src.rfind("\ndef ", runBegin);
      if (def == std::string::npos) return r;
      r.source = src.substr(0, def + 1) + module + "\n\n" + r.source.substr(def + 1);
    }
    // The recording stand-in: every param call recorded as (name, type, keywords); the run's
    // variables must be bound to the same recorded handles.
    std::string stub =
        "import functools\n"
        "class PtrType:\n"
        "    def __init__(self, *a, **k): self.a = (a, tuple(sorted(k.items())))\n"
        "    def __eq__(self, o): return isinstance(o, PtrType) and self.a == o.a\n"
        "    def __repr__(self): return 'PtrType%r' % (self.a,)\n"
        "I32, F32 = 'I32', 'F32'\n"
        "class B:\n"
        "    def __init__(self): self.calls = []\n"
        "    def param(self, name, ty, **kw):\n"
        "        self.calls.append((name, ty, tuple(sorted(kw.items()))))\n"
        "        return ('handle', name)\n";
    std::string env;
    for (const auto& f : free) env += "    " + f + " = " + "'" + f + "_value'\n";
    std::string check = stub + module + "\n";
    std::string orig;
    std::istringstream oin(dedent(src.substr(runBegin, runEnd - runBegin), ind.size()));
    for (std::string line; std::getline(oin, line);) orig += "    " + line + "\n";
    check += "def original(" + b + "):\n" + env + orig + "    return [" + vars + "]\n";
    std::string body;
    std::istringstream in(dedent(run, ind.size()));
    for (std::string line; std::getline(in, line);) body += "    " + line + "\n";
    check += "def rewrite(" + b + "):\n" + env + body + "    return [" + vars + "]\n";
    check +=
        "x, y = B(), B()\n"
        "vx, vy = original(x), rewrite(y)\n"
        "print('same' if x.calls == y.calls and vx == vy and len(x.calls) == " +
        std::to_string(calls.size()) + " else 'differ %r %r' % (x.calls, y.calls))\n";
    r.check = check;
    return r;
  };

  // A module-level helper the builder calls with `b` (and the values its types read).
  {
    std::string helper = "def _impactd_declare(" + b + freeList + "):\n";
    for (const auto& c : calls)
      helper += "    " + c.var + " = " + b + ".param(" + c.name + ", " + c.positional + c.keywords + ")\n";
    helper += "    return " + vars + "\n";
    std::string args;
    for (const auto& f : free) args += ", " + f;
    out.push_back(make("helper", helper, ind + vars + " = _impactd_declare(" + b + args + ")\n"));
    // The same helper in another module of the tree, under a name that says nothing of what it
    // does: what the call is (a function of a module the builder's file does not hold, given the
    // IRBuilder) makes impactd follow it, never its name.
    std::string moved = helper;
    moved.replace(0, std::string("def _impactd_declare").size(), "def declare_inputs");
    Rewrite r = make("helper in another module", moved, ind + vars + " = declare_inputs(" + b + args + ")\n");
    size_t at = r.source.find(moved);
    if (at != std::string::npos) {
      r.source.replace(at, moved.size(), "from kernels.common._impactd_inputs import declare_inputs\n");
      r.modulePath = "kernels/common/_impactd_inputs.py";
      r.moduleSource = "from rocke.core.ir import PtrType, I32, F32\n\n\n" + moved;
      out.push_back(std::move(r));
    }
  }
  // A table of (name, positional, keywords) iterated in a `for`.
  {
    std::string run = ind + "_impactd_decl = {}\n" + ind + "for _n, _a, _k in (\n" + table + ind + "):\n" + ind +
                      "    _impactd_decl[_n] = " + b + ".param(_n, *_a, **_k)\n";
    for (const auto& c : calls) run += ind + c.var + " = _impactd_decl[" + c.name + "]\n";
    out.push_back(make("for over a table", "", run));
  }
  // A dict comprehension over the same table.
  {
    std::string run = ind + "_impactd_decl = {_n: " + b + ".param(_n, *_a, **_k) for _n, _a, _k in (\n" + table + ind +
                      ")}\n";
    for (const auto& c : calls) run += ind + c.var + " = _impactd_decl[" + c.name + "]\n";
    out.push_back(make("dict comprehension", "", run));
  }
  // Objects: a class of the module holding `b`, whose method declares (the values the types read
  // given to it); a table of dataclass records.
  {
    std::string cls = "class _ImpactdArgs:\n    def __init__(self, " + b + "):\n        self.b = " + b +
                      "\n\n    def declare(self" + freeList + "):\n";
    for (const auto& c : calls)
      cls += "        " + c.var + " = self.b.param(" + c.name + ", " + c.positional + c.keywords + ")\n";
    cls += "        return " + vars + "\n";
    std::string args;
    for (const auto& f : free) args += (args.empty() ? "" : ", ") + f;
    out.push_back(make("an object holding b", cls, ind + vars + " = _ImpactdArgs(" + b + ").declare(" + args + ")\n"));
    std::string rec = "import dataclasses as _impactd_dc\n\n\n@_impactd_dc.dataclass(frozen=True)\nclass _ImpactdArg:\n"
                      "    name: str\n    args: tuple\n    kw: dict\n";
    std::string run = ind + "_impactd_decl = {}\n" + ind + "for _r in [_ImpactdArg(*_row) for _row in (\n" + table + ind +
                      ")]:\n" + ind + "    _impactd_decl[_r.name] = " + b + ".param(_r.name, *_r.args, **_r.kw)\n";
    for (const auto& c : calls) run += ind + c.var + " = _impactd_decl[" + c.name + "]\n";
    out.push_back(make("dataclass records", rec, run));
  }
  // A lambda mapped over the table, its pairs made a dict.
  {
    std::string run = ind + "_impactd_decl = dict(map(lambda _t: (_t[0], " + b + ".param(_t[0], *_t[1], **_t[2])), (\n" +
                      table + ind + ")))\n";
    for (const auto& c : calls) run += ind + c.var + " = _impactd_decl[" + c.name + "]\n";
    out.push_back(make("lambda mapped over a table", "", run));
  }
  // An alias of b.param; functools.partial of it; f-strings for the names.
  {
    std::string alias = ind + "_p = " + b + ".param\n";
    std::string partial = ind + "import functools\n" + ind + "_p = functools.partial(" + b + ".param)\n";
    std::string fstr;
    for (const auto& c : calls) {
      alias += ind + c.var + " = _p(" + c.name + ", " + c.positional + c.keywords + ")\n";
      partial += ind + c.var + " = _p(" + c.name + ", " + c.positional + c.keywords + ")\n";
      std::string n = c.name.substr(1, c.name.size() - 2);
      std::string f = n.ends_with("_ptr") ? "f\"{_impactd_stem}_ptr\"" : "f\"{'" + n + "'}\"";
      if (n.ends_with("_ptr")) fstr += ind + "_impactd_stem = \"" + n.substr(0, n.size() - 4) + "\"\n";
      fstr += ind + c.var + " = " + b + ".param(" + f + ", " + c.positional + c.keywords + ")\n";
    }
    out.push_back(make("alias p = b.param", "", alias));
    out.push_back(make("functools.partial(b.param)", "", partial));
    out.push_back(make("f-string names", "", fstr));
  }
  return out;
}

}  // namespace impact::testing
