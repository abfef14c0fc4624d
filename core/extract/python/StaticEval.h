// A bounded, pure static evaluator of module-level Python functions that build lists of names
// (core/extract/python/NameLists.cpp records what it gives). It reads one module's syntax tree
// and nothing else: no process, no import, no regex. What it reads:
//  - values: None, bools, ints, strings (f-strings over known values, no format spec or
//    conversion), lists and tuples;
//  - expressions: literals, names (locals, parameters, module-level constants bound once),
//    `+` on lists/tuples/strings/ints, `-` `*` on ints, comparisons (== != < <= > >= in, not
//    in, is, is not), and/or/not, `a if c else b`, subscripts and slices with int values, calls
//    of the module's functions (positional and keyword arguments, defaults) and of len/list/tuple;
//  - statements: `x = e`, `x: T = e`, `x += e`, `x.append(e)`, `x.extend(e)`, if/elif/else,
//    `for a[, b] in <list>`, return, pass, a docstring; `raise` reached is not evaluable.
// Anything else reached throws NotEvaluable with the reason; steps, call depth and value sizes
// are bounded (a limit hit is a reason too).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

struct NotEvaluable {
  std::string why;
};

struct PyVal {
  enum class K { None, Bool, Int, Str, List, Tuple };
  K k = K::None;
  long long i = 0;    // Bool (0/1) and Int
  std::string s;      // Str
  SourceRange at;     // Str: where it is written
  // List: shared, as Python lists are (`out += [...]` and `out.append` change it in place).
  std::shared_ptr<std::vector<PyVal>> items;
  static PyVal none() { return {}; }
  static PyVal boolean(bool b) {
    PyVal v;
    v.k = K::Bool;
    v.i = b;
    return v;
  }
  static PyVal integer(long long n) {
    PyVal v;
    v.k = K::Int;
    v.i = n;
    return v;
  }
  static PyVal str(std::string s, SourceRange at) {
    PyVal v;
    v.k = K::Str;
    v.s = std::move(s);
    v.at = at;
    return v;
  }
  static PyVal seq(K k, std::vector<PyVal> items) {
    PyVal v;
    v.k = k;
    v.items = std::make_shared<std::vector<PyVal>>(std::move(items));
    return v;
  }
  bool isSeq() const { return k == K::List || k == K::Tuple; }
};

// "a list", "an int", ... for reasons.
std::string describe(const PyVal& v);

class StaticEval {
 public:
  explicit StaticEval(const SyntaxTree& t);
  // The module-level functions evaluated as called without arguments (their defaults).
  const std::vector<std::pair<std::string, TSNode>>& functions() const { return order_; }
  // Calls `name` with no arguments; throws NotEvaluable.
  PyVal callWithDefaults(const std::string& name);
  long stepsTaken() const { return steps_; }

  static constexpr long kMaxSteps = 200000;   // per callWithDefaults
  static constexpr int kMaxCallDepth = 32;
  static constexpr size_t kMaxItems = 4096;   // elements of one list, characters of one string

 private:
  using Env = std::map<std::string, PyVal>;
  enum class Flow { Next, Return };

  // NameLists/StaticEval.cpp: expressions.
  PyVal expr(TSNode e, Env& env, int depth);
  PyVal name(TSNode e, Env& env);
  PyVal string(TSNode e, Env& env, int depth);
  PyVal binary(TSNode e, Env& env, int depth);
  PyVal compare(TSNode e, Env& env, int depth);
  PyVal subscript(TSNode e, Env& env, int depth);
  PyVal call(TSNode e, Env& env, int depth);
  PyVal moduleConstant(const std::string& n);
  // StaticEvalStatements.cpp: statements and calls of the module's functions.
  PyVal invoke(const std::string& fn, std::vector<PyVal> args, std::map<std::string, PyVal> kwargs, int depth);
  Flow block(TSNode body, Env& env, PyVal& ret, int depth);
  Flow statement(TSNode s, Env& env, PyVal& ret, int depth);
  void assign(TSNode target, PyVal v, Env& env);
  void method(TSNode call, Env& env, int depth);

  bool sameNodeField(TSNode parent, TSNode c);
  static bool truthyValue(const PyVal& v);
  void step();
  [[noreturn]] void fail(const std::string& why) const { throw NotEvaluable{why}; }
  std::string text(TSNode n) const { return std::string(t_.text(n)); }
  void checkSize(const PyVal& v) const;

  const SyntaxTree& t_;
  std::map<std::string, TSNode> fns_;          // module-level defs bound once
  std::vector<std::pair<std::string, TSNode>> order_;
  std::map<std::string, TSNode> constants_;    // module-level `NAME = value` bound once: the value
  std::map<std::string, std::string> unusable_;  // names bound otherwise: why
  std::map<std::string, PyVal> constantValues_;
  std::map<std::string, bool> constantsInProgress_;
  long steps_ = 0;
};

}  // namespace impact::pyextract
