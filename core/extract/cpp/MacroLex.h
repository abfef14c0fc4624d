// The preprocessing tokens, definitions and expander that Macros.cpp (expansion of a file) and
// Preprocess.cpp (its #include and #if directives) share. Internal to core/extract/cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "extract/cpp/Macros.h"
#include "parse/Syntax.h"

namespace impact::cpp::macro {

// Preprocessing tokens: what a macro's body and an invocation's arguments are made of.
struct Tok {
  enum class K { Ident, Number, Str, Punct } k = K::Punct;
  std::string s;
  bool space = false;             // whitespace before it
  bool paste = false;             // a `##` of a replacement list
  std::vector<std::string> hide;  // the macros whose expansion produced it (no re-expansion)
};

bool identStart(char ch);
bool identChar(char ch);
// One token of `s` from `i` (whitespace, comments and line continuations before it skipped and
// noted in `space`). False at the end, or with `why` on an unclosed literal or comment.
bool lexOne(std::string_view s, size_t& i, Tok& t, std::string& why);
bool lexAll(std::string_view s, std::vector<Tok>& out, std::string& why);
std::string spell(const std::vector<Tok>& toks);

struct Def {
  std::string name;
  bool function = false;
  std::vector<std::string> params;
  bool variadic = false;  // the last parameter takes the rest (`...` as __VA_ARGS__, or `rest...`)
  std::vector<Tok> body;
  uint32_t start = 0;     // byte where the #define is
  std::string why;        // the definition itself cannot be read
  // The `#if` arms not decided around the definition (ids of Conditions::arms, outermost first):
  // in force only where the same arms hold. `where`: the header it was read from ("" this file).
  std::vector<int> arms;
  std::string where;
};

// The `#if` arms impactd could not decide (Preprocess.cpp): what each says, for messages.
struct ArmText {
  std::string directive;  // "`#ifdef WIDE` (line 2)" or "`#if X` (common.hpp line 4)"
  std::string why;        // "WIDE is defined in no file read (the build may define it)"
};

using Table = std::map<std::string, std::vector<Def>>;

// A `#define` node of `tree` into `table` (`start`, `arms`, `where` set by the caller after).
Def& readDefinition(const SyntaxTree& tree, TSNode n, Table& table);

class Expander {
 public:
  explicit Expander(const Table& t, const std::vector<ArmText>* arms = nullptr, std::vector<int> useArms = {})
      : table_(t), armTexts_(arms), useArms_(std::move(useArms)) {}
  std::string failure;
  std::vector<const Def*> reached;  // the definitions it expanded (or was handed: an X-macro's entry)

  // The definitions of `name` in force at byte `at` under the undecided arms of the use; empty
  // when none (not a macro there).
  const std::vector<const Def*> defsAt(const std::string& name, uint32_t at) const {
    std::vector<const Def*> out;
    auto it = table_.find(name);
    if (it == table_.end()) return out;
    for (const Def& d : it->second)
      if (d.start < at && armsHold(d)) out.push_back(&d);
    return out;
  }
  // A definition of `name` before `at` that is not in force only because it sits under an arm
  // not decided: why, for a message ("" when there is none).
  std::string onlyUnderArms(const std::string& name, uint32_t at) const {
    auto it = table_.find(name);
    if (it == table_.end()) return "";
    for (const Def& d : it->second)
      if (d.start < at && !armsHold(d)) {
        for (int a : d.arms)
          if (std::find(useArms_.begin(), useArms_.end(), a) == useArms_.end() && armTexts_ &&
              a < static_cast<int>(armTexts_->size())) {
            const ArmText& t = (*armTexts_)[a];
            return absl::StrCat("macro ", name, " is defined only under ", t.directive, ", which is not decided: ", t.why);
          }
        return absl::StrCat("macro ", name, " is defined only under an `#if` arm not decided");
      }
    return "";
  }

  bool run(std::vector<Tok> in, std::vector<Tok>& out, uint32_t at, int depth) {
    std::deque<Tok> work(std::make_move_iterator(in.begin()), std::make_move_iterator(in.end()));
    while (!work.empty() && failure.empty()) {
      Tok t = std::move(work.front());
      work.pop_front();
      auto defs = t.k == Tok::K::Ident ? defsAt(t.s, at) : std::vector<const Def*>{};
      if (defs.empty()) {
        if (t.s == "__VA_OPT__") return fail("`__VA_OPT__` is not modelled");
        if (t.k == Tok::K::Ident && std::find(t.hide.begin(), t.hide.end(), t.s) == t.hide.end())
          if (std::string why = onlyUnderArms(t.s, at); !why.empty()) return fail(why);
        out.push_back(std::move(t));
        if (out.size() > kMaxMacroTokens) return fail(absl::StrCat("it expands to more than ", kMaxMacroTokens, " tokens"));
        continue;
      }
      const Def& d = *defs.back();
      reached.push_back(&d);
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
                                   ", which is no macro of this file or of a header of the tree it includes"));
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

  bool armsHold(const Def& d) const {
    for (int a : d.arms)
      if (std::find(useArms_.begin(), useArms_.end(), a) == useArms_.end()) return false;
    return true;
  }

  const Table& table_;
  const std::vector<ArmText>* armTexts_ = nullptr;
  std::vector<int> useArms_;
  size_t steps_ = 0;
};

}  // namespace impact::cpp::macro
