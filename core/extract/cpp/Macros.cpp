#include "extract/cpp/Macros.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"

namespace impact::cpp {
namespace {

// Preprocessing tokens: what a macro's body and an invocation's arguments are made of.
struct Tok {
  enum class K { Ident, Number, Str, Punct } k = K::Punct;
  std::string s;
  bool space = false;             // whitespace before it
  bool paste = false;             // a `##` of a replacement list
  std::vector<std::string> hide;  // the macros whose expansion produced it (no re-expansion)
};

bool identStart(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_'; }
bool identChar(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

// One token of `s` from `i` (whitespace, comments and line continuations before it skipped and
// noted in `space`). False at the end, or with `why` on an unclosed literal or comment.
bool lexOne(std::string_view s, size_t& i, Tok& t, std::string& why) {
  t = Tok{};
  for (;;) {
    if (i >= s.size()) return false;
    char ch = s[i];
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i, t.space = true;
    } else if (ch == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
      i += 2, t.space = true;
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      t.space = true;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      if (e == std::string_view::npos) return why = "an unclosed comment", false;
      i = e + 2, t.space = true;
    } else {
      break;
    }
  }
  size_t b = i;
  char ch = s[i];
  auto quoted = [&](char q) {
    for (++i; i < s.size() && s[i] != q; ++i)
      if (s[i] == '\\') ++i;
    if (i >= s.size()) return why = "an unclosed literal", false;
    ++i;
    t.k = Tok::K::Str;
    t.s = std::string(s.substr(b, i - b));
    return true;
  };
  if (identStart(ch)) {
    while (i < s.size() && identChar(s[i])) ++i;
    std::string_view word = s.substr(b, i - b);
    bool prefix = word == "L" || word == "u" || word == "U" || word == "u8";
    bool raw = word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R";
    if (raw && i < s.size() && s[i] == '"') {
      size_t open = s.find('(', i);
      if (open == std::string_view::npos) return why = "an unclosed raw string", false;
      std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
      size_t e = s.find(close, open);
      if (e == std::string_view::npos) return why = "an unclosed raw string", false;
      i = e + close.size();
      t.k = Tok::K::Str;
      t.s = std::string(s.substr(b, i - b));
      return true;
    }
    if (prefix && i < s.size() && (s[i] == '"' || s[i] == '\'')) return quoted(s[i]);
    t.k = Tok::K::Ident;
    t.s = std::string(word);
    return true;
  }
  if (std::isdigit(static_cast<unsigned char>(ch)) ||
      (ch == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
    for (++i; i < s.size(); ++i) {
      char c = s[i];
      if ((c == '+' || c == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P')) continue;
      if (!identChar(c) && c != '.' && c != '\'') break;
    }
    t.k = Tok::K::Number;
    t.s = std::string(s.substr(b, i - b));
    return true;
  }
  if (ch == '"' || ch == '\'') return quoted(ch);
  static const char* multi[] = {"...", "##", "::", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--"};
  for (const char* m : multi) {
    size_t n = std::char_traits<char>::length(m);
    if (s.compare(i, n, m) == 0) {
      i += n;
      t.s = m;
      return true;
    }
  }
  ++i;
  t.s = std::string(1, ch);
  return true;
}

bool lexAll(std::string_view s, std::vector<Tok>& out, std::string& why) {
  size_t i = 0;
  Tok t;
  while (lexOne(s, i, t, why)) out.push_back(t);
  return why.empty();
}

std::string spell(const std::vector<Tok>& toks) {
  std::string out;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Tok& t = toks[i];
    bool glue = i > 0 && !out.empty() && identChar(out.back()) && !t.s.empty() && identChar(t.s[0]);
    if (i > 0 && (t.space || glue)) out.push_back(' ');
    out += t.s;
  }
  return out;
}

struct Def {
  std::string name;
  bool function = false;
  std::vector<std::string> params;
  bool variadic = false;  // the last parameter takes the rest (`...` as __VA_ARGS__, or `rest...`)
  std::vector<Tok> body;
  uint32_t start = 0;     // byte where the #define is
  bool kernelArgument = false;
  std::string why;        // the definition itself cannot be read
};

using Table = std::map<std::string, std::vector<Def>>;

void readDefinition(const SyntaxTree& tree, TSNode n, Table& table) {
  Def d;
  d.name = std::string(tree.text(field(n, "name")));
  if (d.name.empty()) return;
  d.start = ts_node_start_byte(n);
  d.function = is(n, "preproc_function_def");
  if (d.function) {
    std::vector<Tok> ps;
    std::string_view text = tree.text(field(n, "parameters"));
    if (!lexAll(text, ps, d.why)) d.why = "its parameters: " + d.why;
    for (size_t i = 0; i < ps.size() && d.why.empty(); ++i) {
      const Tok& p = ps[i];
      if (p.s == "(" || p.s == ")" || p.s == ",") continue;
      if (p.s == "...") {
        d.variadic = true;
        if (!(i > 0 && ps[i - 1].k == Tok::K::Ident)) d.params.push_back("__VA_ARGS__");
      } else if (p.k == Tok::K::Ident) {
        d.params.push_back(p.s);
      } else {
        d.why = "its parameter list `" + std::string(text) + "`";
      }
    }
  }
  std::string_view value = tree.text(field(n, "value"));
  if (d.why.empty() && !lexAll(value, d.body, d.why)) d.why = "its body has " + d.why;
  if (!d.body.empty()) d.body.front().space = false;
  d.kernelArgument = value.find("KernelArgument") != std::string_view::npos;
  table[d.name].push_back(std::move(d));
}

class Expander {
 public:
  explicit Expander(const Table& t) : table_(t) {}
  std::string failure;
  bool kernelArgument = false;

  // The definition of `name` in force at byte `at`; null when none (not a macro there).
  const std::vector<const Def*> defsAt(const std::string& name, uint32_t at) const {
    std::vector<const Def*> out;
    auto it = table_.find(name);
    if (it == table_.end()) return out;
    for (const Def& d : it->second)
      if (d.start < at) out.push_back(&d);
    return out;
  }

  bool run(std::vector<Tok> in, std::vector<Tok>& out, uint32_t at, int depth) {
    std::deque<Tok> work(std::make_move_iterator(in.begin()), std::make_move_iterator(in.end()));
    while (!work.empty() && failure.empty()) {
      Tok t = std::move(work.front());
      work.pop_front();
      auto defs = t.k == Tok::K::Ident ? defsAt(t.s, at) : std::vector<const Def*>{};
      if (defs.empty()) {
        if (t.s == "__VA_OPT__") return fail("`__VA_OPT__` is not modelled");
        out.push_back(std::move(t));
        if (out.size() > kMaxMacroTokens) return fail(absl::StrCat("it expands to more than ", kMaxMacroTokens, " tokens"));
        continue;
      }
      const Def& d = *defs.back();
      kernelArgument = kernelArgument || d.kernelArgument;
      if (defs.size() > 1) return fail(absl::StrCat("macro ", t.s, " is defined ", defs.size(),
                                                    " times (which `#if` arm holds is not decided)"));
      if (!d.why.empty()) return fail(absl::StrCat("macro ", t.s, ": ", d.why, " is not read"));
      if (std::find(t.hide.begin(), t.hide.end(), t.s) != t.hide.end())
        return fail(absl::StrCat("macro ", t.s, " refers to itself"));
      if (depth + static_cast<int>(t.hide.size()) > kMaxMacroDepth)
        return fail(absl::StrCat("expansions nest deeper than ", kMaxMacroDepth));
      if (++steps_ > kMaxMacroSteps) return fail(absl::StrCat("more than ", kMaxMacroSteps, " macro replacements"));
      std::vector<std::vector<Tok>> args;
      if (d.function) {
        if (work.empty() || work.front().s != "(") {  // the name alone: not an invocation
          out.push_back(std::move(t));
          continue;
        }
        if (!takeArguments(work, d, args)) return false;
      }
      std::vector<Tok> repl;
      if (!substitute(d, args, at, depth, repl)) return false;
      std::vector<std::string> hide = t.hide;
      hide.push_back(t.s);
      for (Tok& r : repl) {
        for (const auto& h : hide)
          if (std::find(r.hide.begin(), r.hide.end(), h) == r.hide.end()) r.hide.push_back(h);
      }
      if (!repl.empty()) repl.front().space = t.space;
      work.insert(work.begin(), std::make_move_iterator(repl.begin()), std::make_move_iterator(repl.end()));
    }
    return failure.empty();
  }

 private:
  bool fail(std::string why) {
    if (failure.empty()) failure = std::move(why);
    return false;
  }

  // The arguments of an invocation whose `(` is at the front of `work`, split at top-level commas
  // (a variadic macro's last parameter takes the rest, commas included).
  bool takeArguments(std::deque<Tok>& work, const Def& d, std::vector<std::vector<Tok>>& args) {
    work.pop_front();
    args.emplace_back();
    int level = 1;
    for (;;) {
      if (work.empty()) return fail(absl::StrCat("the invocation of ", d.name, " is not closed"));
      Tok t = std::move(work.front());
      work.pop_front();
      if (t.s == "(") ++level;
      if (t.s == ")" && --level == 0) break;
      if (t.s == "," && level == 1 && !(d.variadic && args.size() == d.params.size())) {
        args.emplace_back();
        continue;
      }
      args.back().push_back(std::move(t));
    }
    if (d.params.empty() && args.size() == 1 && args[0].empty()) args.clear();
    if (d.variadic && args.size() + 1 == d.params.size()) args.emplace_back();
    if (args.size() != d.params.size())
      return fail(absl::StrCat("macro ", d.name, " takes ", d.params.size(), " argument", d.params.size() == 1 ? "" : "s",
                               ", given ", args.size()));
    return true;
  }

  int paramIndex(const Def& d, const Tok& t) const {
    if (t.k != Tok::K::Ident) return -1;
    for (size_t i = 0; i < d.params.size(); ++i)
      if (d.params[i] == t.s) return static_cast<int>(i);
    return -1;
  }

  static Tok stringified(const std::vector<Tok>& arg) {
    std::string raw = spell(arg), s = "\"";
    for (char ch : raw) {
      if (ch == '"' || ch == '\\') s.push_back('\\');
      s.push_back(ch);
    }
    Tok t;
    t.k = Tok::K::Str;
    t.s = s + "\"";
    return t;
  }

  bool substitute(const Def& d, const std::vector<std::vector<Tok>>& args, uint32_t at, int depth,
                  std::vector<Tok>& out) {
    const std::vector<Tok>& b = d.body;
    for (size_t i = 0; i < b.size(); ++i) {
      if (d.function && b[i].s == "#") {
        int p = i + 1 < b.size() ? paramIndex(d, b[i + 1]) : -1;
        if (p < 0) return fail(absl::StrCat("macro ", d.name, ": `#` is not followed by a parameter"));
        Tok s = stringified(args[p]);
        s.space = b[i].space;
        out.push_back(std::move(s));
        ++i;
        continue;
      }
      if (b[i].s == "##") {
        if (i == 0 || i + 1 == b.size()) return fail(absl::StrCat("macro ", d.name, ": `##` at an end of its body"));
        Tok m = b[i];
        m.paste = true;
        out.push_back(std::move(m));
        continue;
      }
      int p = d.function ? paramIndex(d, b[i]) : -1;
      if (p < 0) {
        out.push_back(b[i]);
        continue;
      }
      const bool pasted = (i > 0 && b[i - 1].s == "##") || (i + 1 < b.size() && b[i + 1].s == "##");
      std::vector<Tok> value;
      if (pasted) {
        value = args[p];
      } else {
        const bool called = i + 1 < b.size() && b[i + 1].s == "(";
        if (called && args[p].size() == 1 && args[p][0].k == Tok::K::Ident && defsAt(args[p][0].s, at).empty())
          return fail(absl::StrCat("macro ", d.name, " calls its parameter ", d.params[p], " with ", args[p][0].s,
                                   ", which is no macro of this file (an included header's macros are not read)"));
        if (!run(args[p], value, at, depth + 1)) return false;
      }
      if (!value.empty()) value.front().space = b[i].space;
      out.insert(out.end(), value.begin(), value.end());
    }
    return paste(d, out);
  }

  // `a ## b`: the two spellings made one token (an empty side leaves the other).
  bool paste(const Def& d, std::vector<Tok>& toks) {
    std::vector<Tok> out;
    for (size_t i = 0; i < toks.size(); ++i) {
      if (!toks[i].paste) {
        out.push_back(std::move(toks[i]));
        continue;
      }
      if (i + 1 >= toks.size() || toks[i + 1].paste) continue;  // an empty right side
      Tok right = std::move(toks[++i]);
      if (out.empty() || out.back().paste) {
        out.push_back(std::move(right));
        continue;
      }
      std::string joined = out.back().s + right.s;
      std::vector<Tok> one;
      std::string why;
      if (!lexAll(joined, one, why) || one.size() != 1)
        return fail(absl::StrCat("macro ", d.name, ": `##` makes `", joined, "`, not one token"));
      one[0].space = out.back().space;
      out.back() = std::move(one[0]);
    }
    toks = std::move(out);
    return true;
  }

  const Table& table_;
  size_t steps_ = 0;
};

// Whether the declaration or function around an invocation builds KernelArguments.
bool kernelArgumentContext(const SyntaxTree& tree, TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (is(p, "declaration") || is(p, "field_declaration"))
      return tree.text(field(p, "type")).find("KernelArgument") != std::string_view::npos;
    if (is(p, "function_definition")) {
      TSNode body = field(p, "body");
      std::string_view all = tree.text(p);
      size_t head = ts_node_is_null(body) ? all.size() : ts_node_start_byte(body) - ts_node_start_byte(p);
      return all.substr(0, head).find("KernelArgument") != std::string_view::npos;
    }
  }
  return false;
}

struct Found {
  TSNode id;
  uint32_t start = 0, end = 0;  // bytes of the invocation
  std::vector<Tok> toks;
  std::string why;              // could not even be taken apart
};

// The invocations of the file's macros, in source order: an identifier a definition in force
// names, outside directives, comments and literals (a function-like one followed by `(`).
std::vector<Found> invocations(const SyntaxTree& tree, const Table& table, const Expander& ex) {
  std::vector<Found> out;
  std::vector<std::pair<uint32_t, uint32_t>> skip;  // #ifdef names, #if conditions
  uint32_t consumed = 0;
  const std::string& text = tree.text();
  walk(tree.root(), [&](TSNode n) {
    if (out.size() >= kMaxMacroSites) return false;
    std::string_view t = type(n);
    if (t == "preproc_def" || t == "preproc_function_def" || t == "preproc_call" || t == "preproc_include" ||
        t == "comment" || t == "string_literal" || t == "raw_string_literal" || t == "char_literal" ||
        t == "system_lib_string")
      return false;
    if (t == "preproc_ifdef" || t == "preproc_if" || t == "preproc_elif" || t == "preproc_elifdef") {
      for (const char* f : {"name", "condition"}) {
        TSNode x = field(n, f);
        if (!ts_node_is_null(x)) skip.push_back({ts_node_start_byte(x), ts_node_end_byte(x)});
      }
      return true;
    }
    if (ts_node_child_count(n) != 0) return true;
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (s < consumed || e <= s) return true;
    for (const auto& [a, b] : skip)
      if (s >= a && e <= b) return true;
    std::string name(tree.text(n));
    if (!identStart(name[0]) || !table.count(name)) return true;
    auto defs = ex.defsAt(name, s);
    if (defs.empty()) return true;
    Found f;
    f.id = n;
    f.start = s;
    f.end = e;
    Tok head;
    head.k = Tok::K::Ident;
    head.s = name;
    f.toks.push_back(head);
    if (defs.back()->function) {
      size_t i = e;
      Tok tok;
      std::string why;
      size_t before = i;
      if (!lexOne(text, i, tok, why) || tok.s != "(") return true;  // the name alone
      (void)before;
      f.toks.push_back(tok);
      int level = 1;
      while (level > 0) {
        if (!lexOne(text, i, tok, why)) {
          f.why = why.empty() ? absl::StrCat("the invocation of ", name, " is not closed") : why;
          break;
        }
        if (tok.s == "(") ++level;
        if (tok.s == ")") --level;
        f.toks.push_back(tok);
      }
      f.end = static_cast<uint32_t>(i);
    }
    consumed = f.end;
    out.push_back(std::move(f));
    return true;
  });
  return out;
}

// The 0-based line and byte column of byte `at`.
std::pair<uint32_t, uint32_t> pointOf(const std::string& text, uint32_t at, TSPoint from, uint32_t fromByte) {
  uint32_t line = from.row, col = from.column;
  for (uint32_t i = fromByte; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 0;
    else ++col;
  }
  return {line, col};
}

}  // namespace

MacroExpansion expandMacros(const SyntaxTree& tree) {
  MacroExpansion mx;
  const std::string& text = tree.text();
  if (text.find("#define") == std::string::npos && text.find("# define") == std::string::npos) return mx;
  Table table;
  walk(tree.root(), [&](TSNode n) {
    if (is(n, "preproc_def") || is(n, "preproc_function_def")) {
      readDefinition(tree, n, table);
      return false;
    }
    return true;
  });
  if (table.empty()) return mx;
  Expander probe(table);
  std::vector<Found> found = invocations(tree, table, probe);
  std::string out;
  uint32_t prev = 0;
  bool any = false;
  for (Found& f : found) {
    MacroSite site;
    site.macro = f.toks.front().s;
    TSPoint s = ts_node_start_point(f.id);
    auto [endLine, endCol] = pointOf(text, f.end, s, f.start);
    site.range = {s.row, s.column, endLine, endCol};
    Expander ex(table);
    for (const Tok& t : f.toks)  // a macro named in the arguments (the X-macro's ENTRY) counts
      for (const Def* d : ex.defsAt(t.s, f.start)) ex.kernelArgument = ex.kernelArgument || d->kernelArgument;
    std::vector<Tok> expanded;
    if (!f.why.empty()) site.failure = f.why;
    else if (!ex.run(f.toks, expanded, f.start, 0)) site.failure = ex.failure;
    else if (out.size() + (f.start - prev) + spell(expanded).size() > kMaxMacroOutput)
      site.failure = absl::StrCat("the expanded file would exceed ", kMaxMacroOutput, " bytes");
    site.kernelArgument = ex.kernelArgument || kernelArgumentContext(tree, f.id);
    if (site.failure.empty()) {
      out.append(text, prev, f.start - prev);
      size_t lineStart = out.rfind('\n');
      lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
      site.expCol = static_cast<uint32_t>(out.size() - lineStart);
      out += spell(expanded);
      site.expEndCol = static_cast<uint32_t>(out.size() - lineStart);
      uint32_t breaks = endLine - s.row;
      if (breaks > 0) out += std::string(breaks, '\n') + std::string(endCol, ' ');
      prev = f.end;
      any = true;
    }
    mx.sites.push_back(std::move(site));
  }
  if (!any) return mx;
  out.append(text, prev, std::string::npos);
  mx.tree = SyntaxTree::parse(Lang::Cpp, std::move(out));
  return mx;
}

void MacroExpansion::mapBack(SourceRange& r) const {
  auto map = [&](uint32_t& line, uint32_t& col, bool end) {
    int64_t delta = 0;
    for (const MacroSite& s : sites) {
      if (!s.failure.empty() || s.range.line != line) continue;
      if (col < s.expCol || (end && col == s.expCol)) break;
      if (col < s.expEndCol || (end && col == s.expEndCol)) {
        line = end ? s.range.endLine : s.range.line;
        col = end ? s.range.endCol : s.range.col;
        return;
      }
      if (s.range.endLine == s.range.line)
        delta += static_cast<int64_t>(s.expEndCol - s.expCol) - static_cast<int64_t>(s.range.endCol - s.range.col);
    }
    col = static_cast<uint32_t>(std::max<int64_t>(0, static_cast<int64_t>(col) - delta));
  };
  if (!tree) return;
  map(r.line, r.col, false);
  map(r.endLine, r.endCol, true);
}

}  // namespace impact::cpp
