#include "extract/cpp/Macros.h"

#include "extract/cpp/MacroLex.h"
#include "extract/cpp/Preprocess.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"

namespace impact::cpp {
namespace macro {

bool identStart(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_'; }
bool identChar(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

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

Def& readDefinition(const SyntaxTree& tree, TSNode n, Table& table) {
  Def d;
  d.name = std::string(tree.text(field(n, "name")));
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
  auto& v = table[d.name];
  v.push_back(std::move(d));
  return v.back();
}


}  // namespace macro

namespace {

using namespace macro;

// Whether the declaration or function around an invocation builds KernelArguments: its type,
// or the function's return or parameter types, are KernelArgument-typed (KaTypes).
// `memo`: the answers by the declaration's or function's start (many calls sit in one function).
bool kernelArgumentContext(const KaTypes& types, TSNode n, std::map<uint32_t, bool>* memo = nullptr) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    const bool decl = is(p, "declaration") || is(p, "field_declaration");
    if (!decl && !is(p, "function_definition")) continue;
    if (memo)
      if (auto it = memo->find(ts_node_start_byte(p)); it != memo->end()) return it->second;
    bool typed = false;
    if (decl) {
      for (TSNode d : declaratorsOf(p)) typed = typed || types.ofDeclared(p, d) != KaKind::None;
      typed = typed || types.ofType(field(p, "type")) != KaKind::None;
    } else {
      typed = types.headTyped(p);
    }
    if (memo) (*memo)[ts_node_start_byte(p)] = typed;
    return typed;
  }
  return false;
}

// Whether a macro's body names KernelArgument or an alias of it (a token of the body, never a
// part of one: `KernelArgumentList` is another name).
bool namesKernelArgument(const KaTypes& types, const Def& d) {
  for (const Tok& t : d.body)
    if (t.k == Tok::K::Ident && types.namesType(t.s)) return true;
  return false;
}

struct Found {
  TSNode id;
  uint32_t start = 0, end = 0;  // bytes of the invocation
  std::vector<Tok> toks;
  std::string why;              // could not even be taken apart
  std::vector<int> arms;        // the undecided `#if` arms around it
};

// The invocations of the file's macros, in source order: an identifier a definition in force
// names, outside directives, comments and literals (a function-like one followed by `(`).
std::vector<Found> invocations(const SyntaxTree& tree, const Directives& pp) {
  const Table& table = pp.table;
  std::vector<Found> out;
  std::vector<std::pair<uint32_t, uint32_t>> skip;  // #ifdef names, #if conditions
  uint32_t consumed = 0;
  const std::string& text = tree.text();
  tree.walkAll([&](TSNode n) {
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
    if (!identStart(name[0]) || !table.count(name) || pp.blankAt(s)) return true;
    // In force there, or defined only under an `#if` arm not decided (then a failed site).
    const Def* def = nullptr;
    for (const Def& d : table.at(name))
      if (d.start < s) def = &d;
    if (!def) return true;
    Found f;
    f.arms = pp.armsAt(s);
    f.id = n;
    f.start = s;
    f.end = e;
    Tok head;
    head.k = Tok::K::Ident;
    head.s = name;
    f.toks.push_back(head);
    if (def->function) {
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

// Where a header was not read, a call in a KernelArgument context of a name neither this file
// nor a header read defines (`return { KARGS(KENTRY) };`, `KARGS(APPEND)` with KARGS in that
// header) may be its macro: a site that failed, so the list is named, never dropped or shorter.
void unknownCalls(const SyntaxTree& tree, const KaTypes& types, const Directives& pp, std::vector<MacroSite>& sites) {
  if (pp.headersMissing.empty()) return;
  std::set<std::string> declared;
  tree.walkAll([&](TSNode n) {
    if (is(n, "identifier") || is(n, "field_identifier")) {
      TSNode p = ts_node_parent(n);
      std::string_view pt = ts_node_is_null(p) ? std::string_view() : type(p);
      if (pt.find("declarator") != std::string_view::npos || pt == "declaration" || pt == "parameter_declaration" ||
          pt == "field_declaration" || pt == "alias_declaration" || pt == "type_definition" ||
          pt == "preproc_def" || pt == "preproc_function_def" || pt == "lambda_capture_specifier")
        declared.insert(std::string(tree.text(n)));
    }
    return true;
  });
  std::string headers;
  for (const std::string& m : pp.headersMissing) headers += (headers.empty() ? "" : ", ") + m;
  const std::string& text = tree.text();
  std::set<uint32_t> at;
  std::map<uint32_t, bool> typedAt;
  for (const MacroSite& s : sites) at.insert(s.range.line);
  tree.walkAll([&](TSNode n) {
    if (sites.size() >= kMaxMacroSites) return false;
    if (is(n, "comment") || is(n, "string_literal") || is(n, "preproc_include") || is(n, "preproc_def") ||
        is(n, "preproc_function_def"))
      return false;
    if (!is(n, "identifier")) return true;
    TSNode p = ts_node_parent(n);
    if (!ts_node_is_null(p) && (is(p, "qualified_identifier") || is(p, "field_expression"))) return true;
    std::string name(tree.text(n));
    uint32_t s = ts_node_start_byte(n);
    if (declared.count(name) || pp.table.count(name) || pp.blankAt(s)) return true;
    size_t i = ts_node_end_byte(n);
    Tok t;
    std::string why;
    if (!lexOne(text, i, t, why) || t.s != "(") return true;
    if (!kernelArgumentContext(types, n, &typedAt)) return true;
    TSPoint pt = ts_node_start_point(n);
    if (at.count(pt.row)) return true;
    MacroSite site;
    site.macro = name;
    site.range = {pt.row, pt.column, pt.row, ts_node_end_point(n).column};
    site.failure = absl::StrCat(name, " is no macro or function of this file (a macro of a header not read: ", headers, ")");
    site.kernelArgument = true;
    TSNode call = ts_node_parent(n);
    TSNode holder = ts_node_is_null(call) ? call : ts_node_parent(call);
    site.standalone = !ts_node_is_null(holder) && is(holder, "initializer_list");
    sites.push_back(std::move(site));
    at.insert(pt.row);
    return true;
  });
}

}  // namespace

MacroExpansion expandMacros(const SyntaxTree& tree, const HeaderReader* headers) {
  MacroExpansion mx;
  const std::string& original = tree.text();
  if (original.find('#') == std::string::npos) return mx;
  Directives pp = preprocess(tree, headers);
  mx.headerAliases = pp.aliases;
  // The file's types (walked only if a failed site asks; the extractors reuse it: extractCpp).
  mx.types = std::make_shared<KaTypes>(tree);
  KaTypes& types = *mx.types;
  types.seed(pp.aliases);
  types.scanWhenAsked(tree.root());
  mx.undecided = pp.undecided;
  mx.headersRead = pp.headersRead;
  mx.headersMissing = pp.headersMissing;
  const Table& table = pp.table;
  // Dropped arms and the directives the grammar cannot hold blanked, lines and columns kept.
  std::string blanked;
  if (!pp.blank.empty()) {
    blanked = original;
    for (const auto& [a, b] : pp.blank)
      for (uint32_t i = a; i < b && i < blanked.size(); ++i)
        if (blanked[i] != '\n' && blanked[i] != '\r') blanked[i] = ' ';
  }
  const std::string& text = pp.blank.empty() ? original : blanked;
  std::vector<Found> found = table.empty() ? std::vector<Found>{} : invocations(tree, pp);
  std::string out;
  uint32_t prev = 0;
  bool any = !pp.blank.empty();
  for (Found& f : found) {
    MacroSite site;
    site.macro = f.toks.front().s;
    TSPoint s = ts_node_start_point(f.id);
    auto [endLine, endCol] = pointOf(original, f.end, s, f.start);
    site.range = {s.row, s.column, endLine, endCol};
    Expander ex(table, &pp.arms, f.arms);
    for (const Tok& t : f.toks)  // a macro named in the arguments (the X-macro's ENTRY) counts
      for (const Def* d : ex.defsAt(t.s, f.start)) ex.reached.push_back(d);
    std::vector<Tok> expanded;
    if (!f.why.empty()) site.failure = f.why;
    else if (!ex.run(f.toks, expanded, f.start, 0)) site.failure = ex.failure;
    else if (out.size() + (f.start - prev) + spell(expanded).size() > kMaxMacroOutput)
      site.failure = absl::StrCat("the expanded file would exceed ", kMaxMacroOutput, " bytes");
    if (!site.failure.empty()) {  // only a failed site's is read (extractCpp)
      for (const Def* d : ex.reached) site.kernelArgument = site.kernelArgument || namesKernelArgument(types, *d);
      site.kernelArgument = site.kernelArgument || kernelArgumentContext(types, f.id);
    }
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
  unknownCalls(tree, types, pp, mx.sites);
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
