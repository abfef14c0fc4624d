// The builders of one module (DOMAIN.md §2): each function's b.param list, its SignatureBuilder
// chain, its early returns, assembled into PyBuilders. The methods live by job:
//  - BuilderLists.cpp: the run, b.param calls, argument names and IR types;
//  - Conditions.cpp: the condition of a conditional argument, local aliases resolved;
//  - SignatureChains.cpp: SignatureBuilder chains and `extend([...])` entries;
//  - EarlyReturns.cpp: `return other(spec)` before the first b.param, followed in the module;
//  - ParamHelpers.cpp: `emit_param_block(b, ...)`, a helper that may declare the arguments from
//    there on (a function the reader cannot see, given the IRBuilder).
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extract/python/Bindings.h"
#include "extract/python/Functions.h"
#include "extract/python/Resolver.h"
#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

class DeclEval;

struct ReturnTarget {
  TSNode ret;
  TSNode callee;
  std::string guard;
  Path path;
  Guard guardExpr;  // `guard` as structure
};

struct FnFacts {
  std::vector<KernelArg> params;  // own b.param list
  bool hasParams = false;
  bool literalNames = true;       // every own b.param names its argument with a literal
  std::vector<KernelArg> sigArgs;
  bool hasSig = false;
  std::vector<KernelArg> listArgs;  // a returned literal list of {"name": .., "type": ..} dicts
  bool hasList = false;
  std::vector<ReturnTarget> returns;  // early returns (before the first b.param) of calls
  // A helper given the builder declares the arguments after params[tailAt] (ParamHelpers.cpp).
  std::string tailHelper, tailModule, tailCall;
  size_t tailAt = 0;
  std::vector<PyHook> hooks;          // parameters called with the IRBuilder (Hooks.cpp)
};

struct BuilderInfo {
  enum State { New, Busy, Done } state = New;
  bool isBuilder = false;
  std::vector<PyAbi> abis;
  uint64_t fingerprint = 0;
  std::vector<PyHook> hooks;
};

class BuilderExtractor {
 public:
  explicit BuilderExtractor(const SyntaxTree& t);
  ~BuilderExtractor();

  // Builders go to `out`. In a module that has a b.param builder naming its arguments with
  // literals (not one deriving its list from the signature function), a SignatureBuilder chain or a
  // returned literal list of {name, type} dicts restates that builder's ABI: it goes to `copies`
  // (compared like any C++ copy); in a module without one, a SignatureBuilder factory is a
  // builder itself (Style::SignatureBuilder).
  void run(std::vector<PyBuilder>& out, std::vector<CppArgList>& copies);

 private:
  const SyntaxTree& t_;
  Scope module_;
  Resolver resolver_;
  std::unique_ptr<DeclEval> eval_;  // the evaluator (DeclEval.h): whose lists are the module's
  std::vector<Fn> fns_;
  std::vector<FnFacts> facts_;
  std::vector<BuilderInfo> info_;
  std::vector<std::unique_ptr<Scope>> scopes_;
  long condBudget_ = 200000;  // condText calls per module

  std::string text(TSNode n) const { return std::string(t_.text(n)); }

  // Condition text with local aliases (and literal loop variables) replaced.
  std::string condText(TSNode cond, const Scope& s, Use u, const Ctx* ctx, int depth);

  std::string conditionOf(const Ctx& c, const Scope& s);

  // The conditions of `c` as one structured guard (GuardExpr.cpp).
  Guard guardOf(const Ctx& c, const Scope& s);
  struct GuardSubst;
  uint32_t guardExpr(Guard& g, TSNode n, const Scope& s, Use u, const Ctx* ctx, const GuardSubst* sub, int depth);
  // A module-level function whose body is one `return <expression>` (after a docstring), or -1.
  long singleReturnFunction(const std::string& name) const;
  // That function's expression with its parameters bound to the call's arguments; UINT32_MAX
  // when the call does not bind them (too many arguments, a missing one, a *args parameter).
  uint32_t readThrough(Guard& g, TSNode call, long fn, const Scope& s, Use u, const Ctx* ctx,
                       const GuardSubst* sub, int depth);

  struct Args {
    std::vector<TSNode> pos;
    std::vector<std::pair<std::string, TSNode>> kw;
    TSNode get(size_t i, std::initializer_list<const char*> names) const {
      if (i < pos.size()) return pos[i];
      for (auto& [k, v] : kw)
        for (const char* n : names)
          if (k == n) return v;
      return TSNode{};
    }
  };

  Args argsOf(TSNode call);

  static void unresolve(KernelArg& a, const std::string& why);

  // Name of an argument from its expression (literal, loop variable, local string).
  // False when the name is not a literal (the argument is then marked unresolved).
  bool setName(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops, const char* what);

  // Kind and size of an IR type expression (b.param's second argument).
  void setType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops);

  // Kind and size of a SignatureBuilder type: a string ("i32", "ptr<bf16,global>") or an IR type.
  void setSigType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops);

  void conditionInto(KernelArg& a, const Ctx& c, const Scope& s);

  void sigMethod(const Event& ev, const Scope& s, FnFacts& f);

  // `emit_param_block(b, names)`: a helper whose name says it declares parameters, given the
  // IRBuilder, declares the arguments from there on (ParamHelpers.cpp).
  void helperCall(const Event& ev, const Scope& s, FnFacts& f);

  // One `{"name": .., "type": ..}` dict or `(name, type)` pair of an extend() or a returned list.
  KernelArg entryArg(TSNode el, const Scope& s, Use u, Loops loops, const char* what);

  // `return [{"name": "q_ptr", "type": "ptr<bf16,global>"}, ...]` (or a name bound to such a
  // list): every element a dict with a "name" key. Fills f.listArgs.
  void returnedEntries(const Event& ev, const Scope& s, FnFacts& f);

  std::optional<std::vector<TSNode>> literalList(TSNode e, const Scope& s, Use u, Loops loops, int depth);

  void analyse(size_t i);

  // Parameters of a b.param builder called with its IRBuilder: hooks that can insert arguments.
  void hooksOf(size_t i);
  // Does the call (an early return to fns_[fn]) give an argument for its parameter `param`?
  bool passesParameter(TSNode call, size_t fn, const std::string& param);

  // The function a return's callee names in this module, or -1.
  long lookup(const Fn& from, TSNode callee);

  BuilderInfo& builder(size_t i, int depth);
};

}  // namespace impact::pyextract
