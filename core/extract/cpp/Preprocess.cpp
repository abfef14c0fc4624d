#include "extract/cpp/Preprocess.h"

#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace impact::cpp::macro {
namespace {

// One directive: `#` (the first token of its line) to the end of its logical line.
struct Directive {
  uint32_t start = 0, end = 0;  // bytes; `end` before the newline
  uint32_t line = 0;            // 0-based
  std::string name;             // "if", "define", "include", ...
  std::string rest;             // the text after the name
};

// The directives of `s`, found by the preprocessing lexer (a `#` inside a comment or a literal is
// none). A line it cannot lex (an apostrophe in a dropped arm's prose) is skipped.
std::vector<Directive> scanDirectives(const std::string& s) {
  std::vector<Directive> out;
  size_t i = 0, counted = 0;
  uint32_t line = 0;
  bool first = true;
  Tok t;
  std::string why;
  auto lineOf = [&](size_t at) {
    for (; counted < at && counted < s.size(); ++counted)
      if (s[counted] == '\n') ++line;
    return line;
  };
  while (i < s.size()) {
    size_t before = i;
    if (!lexOne(s, i, t, why)) {
      if (why.empty()) break;
      why.clear();
      size_t from = s.find_first_not_of(" \t\r\n", before);
      size_t nl = from == std::string::npos ? std::string::npos : s.find('\n', from);
      i = nl == std::string::npos ? s.size() : nl + 1;
      continue;
    }
    size_t start = i - t.s.size();
    bool lineStart = first || s.find('\n', before) < start;
    first = false;
    if (t.s != "#" || !lineStart) continue;
    Directive d;
    d.start = static_cast<uint32_t>(start);
    size_t e = start;
    for (;;) {
      e = s.find('\n', e);
      if (e == std::string::npos) {
        e = s.size();
        break;
      }
      size_t k = e;
      if (k > 0 && s[k - 1] == '\r') --k;
      if (k > 0 && s[k - 1] == '\\') {
        ++e;
        continue;
      }
      break;
    }
    d.end = static_cast<uint32_t>(e);
    d.line = lineOf(start);
    size_t j = start + 1;
    Tok n;
    std::string w;
    if (lexOne(std::string_view(s).substr(0, e), j, n, w) && n.k == Tok::K::Ident) {
      d.name = n.s;
      d.rest = s.substr(j, e - j);
    }
    out.push_back(std::move(d));
    i = e;
  }
  return out;
}

bool inError(const SyntaxTree& tree, uint32_t byte) {
  for (TSNode n = ts_node_descendant_for_byte_range(tree.root(), byte, byte + 1); !ts_node_is_null(n);
       n = ts_node_parent(n))
    if (is(n, "ERROR") || ts_node_is_missing(n)) return true;
  return false;
}

bool isConditional(const std::string& n) {
  return n == "if" || n == "ifdef" || n == "ifndef" || n == "elif" || n == "elifdef" || n == "elifndef" ||
         n == "else" || n == "endif";
}

std::string trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n\\");
  size_t b = s.find_last_not_of(" \t\r\n\\");
  return a == std::string_view::npos ? std::string() : std::string(s.substr(a, b - a + 1));
}

// The first identifier of `rest` (`#ifdef NAME`).
std::string firstName(const std::string& rest) {
  size_t i = 0;
  Tok t;
  std::string why;
  return lexOne(rest, i, t, why) && t.k == Tok::K::Ident ? t.s : std::string();
}

struct Val {
  bool known = false;
  int64_t v = 0;
  std::string why;  // when unknown
};

Val knownVal(int64_t v) { return Val{true, v, ""}; }

std::optional<int64_t> integerOf(std::string_view s) {
  std::string digits;
  for (char ch : s)
    if (ch != '\'') digits.push_back(ch);
  while (!digits.empty() && std::string_view("uUlLzZ").find(digits.back()) != std::string_view::npos) digits.pop_back();
  int base = 10;
  size_t from = 0;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, from = 2;
  else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, from = 2;
  else if (digits.size() > 1 && digits[0] == '0') base = 8, from = 1;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data() + from, digits.data() + digits.size(), v, base);
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

class Pass {
 public:
  Pass(Directives& out, const HeaderReader* reader) : out_(out), reader_(reader) {}

  // One file or header: its directives in order, definitions read, arms decided, includes read.
  void unit(const std::string& path, const SyntaxTree& tree, int depth, uint32_t at, const std::vector<int>& base,
            std::vector<std::string>& chain) {
    const std::string& text = tree.text();
    std::vector<Directive> ds = scanDirectives(text);
    std::map<uint32_t, TSNode> defNodes;
    tree.walkAll([&](TSNode n) {
      if (is(n, "preproc_def") || is(n, "preproc_function_def")) {
        defNodes[ts_node_start_byte(n)] = n;
        return false;
      }
      return true;
    });
    struct Group {
      enum class S { Taken, Dropped, Undecided } s = S::Taken;
      bool parentDropped = false, anyTaken = false, anyUndecided = false;
      int arm = -1;
      int undecidedIndex = -1;  // into out_.undecided (the file's own)
      std::string head;         // the group's first directive, for an `#else`'s message
      std::string why;
      bool anyDropped = false;
      std::vector<std::pair<uint32_t, uint32_t>> lines;  // its directives (the file's)
    };
    std::vector<Group> stack;
    auto dropped = [&] {
      for (const Group& g : stack)
        if (g.s == Group::S::Dropped || g.parentDropped) return true;
      return false;
    };
    auto armsNow = [&] {
      std::vector<int> a = base;
      for (const Group& g : stack)
        if (g.s == Group::S::Undecided && g.arm >= 0) a.push_back(g.arm);
      return a;
    };
    auto where = [&](const Directive& d) {
      std::string shown = "#" + d.name + (trimmed(d.rest).empty() ? "" : " " + trimmed(d.rest));
      return absl::StrCat("`", shown, "` (", depth == 0 ? "" : path + " ", "line ", d.line + 1, ")");
    };
    auto closeArm = [&](Group& g, const Directive& d) {
      if (g.undecidedIndex >= 0) out_.undecided[g.undecidedIndex].lastLine = d.line == 0 ? 0 : d.line - 1;
      g.undecidedIndex = -1;
    };
    auto setArm = [&](Group& g, const Directive& d, Val v, bool later) {
      if (v.known && v.v && !later) {
        g.s = Group::S::Taken;
        g.anyTaken = true;
      } else if (v.known && !v.v) {
        g.s = Group::S::Dropped;
        g.anyDropped = true;
      } else {
        g.s = Group::S::Undecided;
        g.anyUndecided = true;
        g.arm = static_cast<int>(out_.arms.size());
        g.why = v.known ? g.why : v.why;
        out_.arms.push_back({where(d), g.why});
        if (depth == 0) {
          g.undecidedIndex = static_cast<int>(out_.undecided.size());
          out_.undecided.push_back({d.line, d.line + 1, d.line + 1,
                                    absl::StrCat("not read: ", where(d), " is not decided: ", g.why)});
        }
      }
    };
    for (size_t k = 0; k < ds.size(); ++k) {
      const Directive& d = ds[k];
      if (depth == 0 && isConditional(d.name) && !stack.empty() && d.name != "if" && d.name != "ifdef" &&
          d.name != "ifndef")
        stack.back().lines.push_back({d.start, d.end});
      // An include guard: `#ifndef X` / `#if !defined(X)` followed by `#define X`.
      guard_ = k + 1 < ds.size() && ds[k + 1].name == "define" ? firstName(ds[k + 1].rest) : std::string();
      const uint32_t evalAt = depth == 0 ? d.start : at + 1;
      if (d.name == "if" || d.name == "ifdef" || d.name == "ifndef") {
        Group g;
        g.parentDropped = dropped();
        g.head = where(d);
        if (depth == 0) g.lines.push_back({d.start, d.end});
        stack.push_back(g);
        if (!stack.back().parentDropped) {
          Val v = d.name == "if" ? evalText(trimmed(d.rest), evalAt, armsNow(), 0)
                                 : definedVal(firstName(d.rest), evalAt, armsNow(), d.name == "ifndef");
          if (v.known && d.name == "ifndef") v.v = !v.v;
          setArm(stack.back(), d, v, false);
        }
      } else if ((d.name == "elif" || d.name == "elifdef" || d.name == "elifndef" || d.name == "else") && !stack.empty()) {
        Group& g = stack.back();
        closeArm(g, d);
        if (g.parentDropped) continue;
        if (g.anyTaken) {
          g.s = Group::S::Dropped;
          g.anyDropped = true;
        } else if (d.name == "else") {
          g.why = "it is the other arm of " + g.head;
          setArm(g, d, knownVal(1), g.anyUndecided);
        } else {
          std::vector<int> outer = armsNow();
          if (g.s == Group::S::Undecided && !outer.empty()) outer.pop_back();
          Val v = d.name == "elif" ? evalText(trimmed(d.rest), evalAt, outer, 0)
                                   : definedVal(firstName(d.rest), evalAt, outer, d.name == "elifndef");
          if (v.known && d.name == "elifndef") v.v = !v.v;
          if (v.known && v.v && g.anyUndecided) v.why = g.why = "it is the other arm of " + g.head;
          setArm(g, d, v, g.anyUndecided);
        }
      } else if (d.name == "endif" && !stack.empty()) {
        closeArm(stack.back(), d);
        // Its directive lines blanked when an arm was dropped, or where the grammar does not
        // expect a directive (inside an initializer list or an argument list: an ERROR node).
        for (const auto& r : stack.back().lines)
          if (stack.back().anyDropped || inError(tree, r.first)) out_.blank.push_back(r);
        stack.pop_back();
      } else if (d.name == "define" && !dropped()) {
        define(tree, d, defNodes, depth == 0 ? d.start : at, armsNow(), depth == 0 ? "" : path);
      } else if (d.name == "include" && !dropped()) {
        include(path, d, depth, depth == 0 ? d.start : at, armsNow(), chain);
      }
      if (depth == 0) {
        uint32_t next = k + 1 < ds.size() ? ds[k + 1].start : static_cast<uint32_t>(text.size());
        out_.segments.push_back({d.end, armsNow()});
        if (dropped() && next > d.end) out_.blank.push_back({d.end, next});
      }
    }
    // A header's aliases of KernelArgument (through those of the headers it included before).
    if (depth > 0 && (text.find("using") != std::string::npos || text.find("typedef") != std::string::npos)) {
      KaTypes types(tree);
      types.seed(out_.aliases);
      types.scan(tree.root());
      out_.aliases = types.exported();
    }
  }

 private:
  void define(const SyntaxTree& tree, const Directive& d, const std::map<uint32_t, TSNode>& nodes, uint32_t start,
              std::vector<int> arms, const std::string& where) {
    std::unique_ptr<SyntaxTree> alone;
    const SyntaxTree* t = &tree;
    TSNode n{};
    if (auto it = nodes.find(d.start); it != nodes.end()) {
      n = it->second;
    } else {  // inside a construct the grammar does not expect a directive in: read it alone
      alone = SyntaxTree::parse(Lang::Cpp, tree.text().substr(d.start, d.end - d.start) + "\n");
      t = alone.get();
      walk(alone->root(), [&](TSNode x) {
        if (ts_node_is_null(n) && (is(x, "preproc_def") || is(x, "preproc_function_def"))) n = x;
        return ts_node_is_null(n);
      });
      if (ts_node_is_null(n)) return;
    }
    Def& def = readDefinition(*t, n, out_.table);
    def.start = start;
    def.arms = std::move(arms);
    def.where = where;
  }

  void include(const std::string& path, const Directive& d, int depth, uint32_t at, const std::vector<int>& arms,
               std::vector<std::string>& chain) {
    std::string rest = trimmed(d.rest);
    if (rest.size() < 2 || rest.front() != '"') return;  // <...>: not a header of the tree
    size_t close = rest.find('"', 1);
    if (close == std::string::npos) return;
    const std::string written = rest.substr(1, close - 1);
    auto missing = [&](std::string why) {
      std::string m = written + why;
      if (std::find(out_.headersMissing.begin(), out_.headersMissing.end(), m) == out_.headersMissing.end())
        out_.headersMissing.push_back(m);
    };
    if (!reader_) return missing("");  // extraction of the file alone: no header is read
    if (depth >= kMaxIncludeDepth) return missing(absl::StrCat(" (includes nest deeper than ", kMaxIncludeDepth, ")"));
    std::optional<HeaderText> h = (*reader_)(depth == 0 ? std::string() : path, written);
    if (!h) return missing("");
    if (std::find(chain.begin(), chain.end(), h->path) != chain.end()) return;  // a cycle: read already
    if (std::find(out_.headersRead.begin(), out_.headersRead.end(), h->path) != out_.headersRead.end()) return;
    if (out_.headersRead.size() >= kMaxHeaders) return missing(absl::StrCat(" (more than ", kMaxHeaders, " headers)"));
    out_.headersRead.push_back(h->path);
    auto tree = SyntaxTree::parse(Lang::Cpp, std::move(h->text));
    chain.push_back(h->path);
    unit(h->path, *tree, depth + 1, at, arms, chain);
    chain.pop_back();
  }

  std::string unknownName(const std::string& name, uint32_t at, const std::vector<int>& arms) const {
    Expander ex(out_.table, &out_.arms, arms);
    if (std::string why = ex.onlyUnderArms(name, at); !why.empty()) return why;
    std::string headers;
    for (const std::string& m : out_.headersMissing) headers += (headers.empty() ? "" : ", ") + m;
    return absl::StrCat(name, " is defined in no file read (the build may define it",
                        headers.empty() ? "" : "; headers not in the tree: " + headers, ")");
  }

  // `defined NAME` (or `#ifdef NAME`): known when a definition read is in force, or NAME is the
  // include guard about to be defined.
  Val definedVal(const std::string& name, uint32_t at, const std::vector<int>& arms, bool guardForm) const {
    Expander ex(out_.table, &out_.arms, arms);
    if (!ex.defsAt(name, at).empty()) return knownVal(1);
    if (guardForm && !name.empty() && name == guard_ && ex.onlyUnderArms(name, at).empty()) return knownVal(0);
    return Val{false, 0, unknownName(name, at, arms)};
  }

  Val evalText(const std::string& cond, uint32_t at, const std::vector<int>& arms, int depth) const {
    if (depth > kMaxMacroDepth) return Val{false, 0, absl::StrCat("`", cond, "` nests deeper than ", kMaxMacroDepth)};
    auto t = SyntaxTree::parse(Lang::Cpp, "#if " + cond + "\n#endif\n");
    TSNode c{};
    walk(t->root(), [&](TSNode x) {
      if (ts_node_is_null(c) && is(x, "preproc_if")) c = field(x, "condition");
      return ts_node_is_null(c);
    });
    if (ts_node_is_null(c) || ts_node_has_error(t->root())) return Val{false, 0, "`" + cond + "` is not read"};
    return evalNode(*t, c, at, arms, depth);
  }

  Val expanded(const SyntaxTree& t, TSNode n, uint32_t at, const std::vector<int>& arms, int depth) const {
    std::vector<Tok> in, res;
    std::string why;
    if (!lexAll(t.text(n), in, why)) return Val{false, 0, why};
    Expander ex(out_.table, &out_.arms, arms);
    if (!ex.run(in, res, at, 0)) return Val{false, 0, ex.failure};
    return evalText(spell(res), at, arms, depth + 1);
  }

  Val evalNode(const SyntaxTree& t, TSNode n, uint32_t at, const std::vector<int>& arms, int depth) const {
    std::string_view ty = type(n);
    std::string text(t.text(n));
    if (ty == "number_literal") {
      auto v = integerOf(text);
      return v ? knownVal(*v) : Val{false, 0, "`" + text + "` is not an integer"};
    }
    if (ty == "true" || text == "true") return knownVal(1);
    if (ty == "false" || text == "false") return knownVal(0);
    if (ty == "identifier") {
      Expander ex(out_.table, &out_.arms, arms);
      auto defs = ex.defsAt(text, at);
      if (defs.size() == 1 && !defs[0]->function) return expanded(t, n, at, arms, depth);
      if (defs.empty()) return Val{false, 0, unknownName(text, at, arms)};
      return Val{false, 0, "macro " + text + " is not an integer constant here"};
    }
    if (ty == "preproc_defined") {
      std::string name;
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
        if (is(ts_node_named_child(n, i), "identifier")) name = std::string(t.text(ts_node_named_child(n, i)));
      return definedVal(name, at, arms, false);
    }
    if (ty == "preproc_call_expression" || ty == "call_expression") return expanded(t, n, at, arms, depth);
    if ((ty == "preproc_parenthesized_expression" || ty == "parenthesized_expression") && ts_node_named_child_count(n) == 1)
      return evalNode(t, ts_node_named_child(n, 0), at, arms, depth);
    if (ty == "preproc_unary_expression" || ty == "unary_expression") {
      std::string op(t.text(field(n, "operator")));
      TSNode arg = field(n, "argument");
      // `!defined(GUARD)` of an include guard.
      if (op == "!" && is(arg, "preproc_defined")) {
        std::string name;
        for (uint32_t i = 0; i < ts_node_named_child_count(arg); ++i)
          if (is(ts_node_named_child(arg, i), "identifier")) name = std::string(t.text(ts_node_named_child(arg, i)));
        Val v = definedVal(name, at, arms, true);
        if (v.known) v.v = !v.v;
        return v;
      }
      Val v = evalNode(t, arg, at, arms, depth);
      if (!v.known) return v;
      if (op == "!") return knownVal(!v.v);
      if (op == "-") return knownVal(-v.v);
      if (op == "~") return knownVal(~v.v);
      return v;
    }
    if (ty == "preproc_binary_expression" || ty == "binary_expression") {
      std::string op(t.text(field(n, "operator")));
      Val l = evalNode(t, field(n, "left"), at, arms, depth);
      if (op == "&&" && l.known && !l.v) return knownVal(0);
      if (op == "||" && l.known && l.v) return knownVal(1);
      Val r = evalNode(t, field(n, "right"), at, arms, depth);
      if (op == "&&" && r.known && !r.v) return knownVal(0);
      if (op == "||" && r.known && r.v) return knownVal(1);
      if (!l.known) return l;
      if (!r.known) return r;
      int64_t a = l.v, b = r.v;
      if (op == "&&") return knownVal(a && b);
      if (op == "||") return knownVal(a || b);
      if (op == "+") return knownVal(a + b);
      if (op == "-") return knownVal(a - b);
      if (op == "*") return knownVal(a * b);
      if ((op == "/" || op == "%") && b == 0) return Val{false, 0, "a division by zero"};
      if (op == "/") return knownVal(a / b);
      if (op == "%") return knownVal(a % b);
      if (op == "<<" && b >= 0 && b < 63) return knownVal(a << b);
      if (op == ">>" && b >= 0 && b < 63) return knownVal(a >> b);
      if (op == "<") return knownVal(a < b);
      if (op == ">") return knownVal(a > b);
      if (op == "<=") return knownVal(a <= b);
      if (op == ">=") return knownVal(a >= b);
      if (op == "==") return knownVal(a == b);
      if (op == "!=") return knownVal(a != b);
      if (op == "&") return knownVal(a & b);
      if (op == "|") return knownVal(a | b);
      if (op == "^") return knownVal(a ^ b);
    }
    return Val{false, 0, "`" + text + "` is not evaluated"};
  }

  Directives& out_;
  const HeaderReader* reader_;
  std::string guard_;
};

}  // namespace

std::vector<int> Directives::armsAt(uint32_t byte) const {
  auto it = std::upper_bound(segments.begin(), segments.end(), byte,
                             [](uint32_t b, const Segment& s) { return b < s.start; });
  return it == segments.begin() ? std::vector<int>{} : std::prev(it)->arms;
}

bool Directives::blankAt(uint32_t byte) const {
  for (const auto& [a, b] : blank)
    if (byte >= a && byte < b) return true;
  return false;
}

Directives preprocess(const SyntaxTree& file, const HeaderReader* headers) {
  Directives out;
  Pass pass(out, headers);
  std::vector<std::string> chain;
  pass.unit("", file, 0, 0, {}, chain);
  std::sort(out.blank.begin(), out.blank.end());
  return out;
}

}  // namespace impact::cpp::macro

namespace impact::cpp {

namespace {

// Whether the text can hold a quoted #include at all: the word `include` with a `"` after it
// (blanks, line splices or a comment between read as possible). A necessary condition of the
// lexer's quoted include, checked before lexing: a file without one has no header of the tree.
bool mayIncludeQuoted(std::string_view text) {
  for (size_t at = text.find("include"); at != std::string_view::npos; at = text.find("include", at + 7)) {
    size_t k = at + 7;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\\' || text[k] == '\r' || text[k] == '\n')) ++k;
    if (k < text.size() && (text[k] == '"' || text[k] == '/')) return true;
  }
  return false;
}

}  // namespace

bool usesHeaderMacros(std::string_view fileText, const HeaderReader& headers) {
  using macro::Tok;
  if (!mayIncludeQuoted(fileText)) return false;
  std::set<std::string> defined, seen;
  std::vector<std::pair<std::string, std::set<std::string>>> aliases;  // name, the names it is made of
  // The headers the file includes, and theirs: (includer, as written).
  std::vector<std::pair<std::string, std::string>> queue;
  auto includesOf = [&](std::string_view text, const std::string& includer, bool collectDefines) {
    std::vector<Tok> toks;
    std::string why;
    macro::lexAll(text, toks, why);  // what it lexes before a broken literal is enough here
    for (size_t i = 0; i + 2 < toks.size(); ++i) {
      if (toks[i].k != Tok::K::Punct || toks[i].s != "#" || toks[i + 1].k != Tok::K::Ident) continue;
      if (toks[i + 1].s == "include" && toks[i + 2].k == Tok::K::Str && toks[i + 2].s.size() > 2 &&
          toks[i + 2].s.front() == '"')
        queue.emplace_back(includer, toks[i + 2].s.substr(1, toks[i + 2].s.size() - 2));
      if (collectDefines && (toks[i + 1].s == "define" || toks[i + 1].s == "undef") && toks[i + 2].k == Tok::K::Ident)
        defined.insert(toks[i + 2].s);
    }
    // A header's type aliases (`using X = …;`, `typedef … X;`), kept for the fixpoint below.
    for (size_t i = 0; collectDefines && i + 2 < toks.size(); ++i) {
      if (toks[i].k != Tok::K::Ident || (toks[i].s != "using" && toks[i].s != "typedef")) continue;
      bool isUsing = toks[i].s == "using";
      if (isUsing && !(toks[i + 1].k == Tok::K::Ident && toks[i + 2].s == "=")) continue;
      std::pair<std::string, std::set<std::string>> a;
      for (size_t j = i + (isUsing ? 3 : 1); j < toks.size() && toks[j].s != ";"; ++j)
        if (toks[j].k == Tok::K::Ident) {
          a.second.insert(toks[j].s);
          if (!isUsing) a.first = toks[j].s;
        }
      if (isUsing) a.first = toks[i + 1].s;
      if (!isUsing) a.second.erase(a.first);
      if (!a.first.empty()) aliases.push_back(std::move(a));
    }
    return toks;
  };
  std::vector<Tok> own = includesOf(fileText, "", false);
  for (size_t q = 0; q < queue.size() && seen.size() < 64; ++q) {
    auto h = headers(queue[q].first, queue[q].second);
    if (!h || !seen.insert(h->path).second) continue;
    includesOf(h->text, h->path, true);
  }
  if (seen.size() >= 64) return true;  // past the limit: read with them, as the reader would
  // The aliases of KernelArgument (or of a type made of one: `std::vector<Alias>`), through
  // one another in any order: the file's lists may be typed by them (KaTypes). Other aliases
  // change nothing the file's lists read.
  std::set<std::string> typed = {"KernelArgument"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, parts] : aliases) {
      if (typed.count(name)) continue;
      for (const std::string& n : parts)
        if (typed.count(n)) {
          typed.insert(name);
          defined.insert(name);
          grew = true;
          break;
        }
    }
  }
  for (const Tok& t : own)
    if (t.k == Tok::K::Ident && defined.count(t.s)) return true;
  return false;
}

}  // namespace impact::cpp
