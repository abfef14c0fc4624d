// What a builder declares, read by executing its syntax tree abstractly (issue 26): one
// evaluator walks a builder from its entry, follows what Python does (calls into the module's
// functions and, given a loader, into the tree's other modules, arguments bound to parameters
// with defaults and keywords; `for` over known sequences and `range`; comprehensions; list, tuple
// and dict literals and their subscripts; f-strings, `%`, `format` and `+` of known strings;
// aliases `p = b.param` and `functools.partial(b.param, ...)`; `*`/`**` of known sequences;
// returns) and records the effects that declare arguments (`<IRBuilder>.param(name, type)`) in
// program order, each under the guard (core/model/Guard) of the branches it runs in. Spec fields
// and other run-time values stay symbolic and become guards; an early return at the entry is a
// second argument list under its guard. What it cannot know stays unknown and is named: a call it
// cannot follow that is given the IRBuilder ends the known list ("declared by <helper>"), a
// declaration in a loop over a symbolic bound is unresolved, recursion and the step/depth/size
// limits stop with their reason. Pure: a syntax tree (and the loader's trees) in, lists out.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

struct AV;
using Items = std::shared_ptr<std::vector<AV>>;
struct ModIndex;

// An abstract value.
struct AV {
  enum class K { Unknown, None, Bool, Int, Str, List, Tuple, Dict, Type, PtrCtor, BuilderCtor, Builder,
                 ParamMethod, Func, Partial, Imported, Sym, Builtin, Method, Instance, Class,
                 SigCtor, Sig,    // SignatureBuilder and one (its entries in items, shared)
                 Iter };          // `iter(seq)`: the elements not yet taken (items, shared as the object is)
  K k = K::Unknown;
  long long i = 0;
  std::string s;        // Str: value; Unknown: why; Imported: "module:attr"; Builtin/Method: name; Sym: text
  SourceRange at;       // Str: where written
  Items items;          // List, Tuple; Dict: key, value, key, value...; Partial: bound positionals
  std::shared_ptr<std::vector<std::pair<std::string, AV>>> kw;  // Partial: bound keywords
  std::string kind, cls, typeText;  // Type: "global_buffer"/"by_value", element or scalar class
  uint32_t size = 0;
  std::shared_ptr<Guard> g;     // Sym: the expression as a guard
  std::shared_ptr<std::vector<Guard>> when;  // an element added to a list under these conditions
  std::shared_ptr<AV> self;     // Method, Func (a bound method): its receiver; Partial: its function
                                // Instance, Class: s is the class, mod its module
  TSNode def{};                 // Func
  ModIndex* mod = nullptr;      // Func: its module
  std::shared_ptr<std::map<std::string, AV>> closure;  // Func defined in a function; Instance: its
                                                       // attributes (shared, as Python objects are)
  bool opaque = false;  // Unknown: made by an operation the evaluator does not model (unmodelled)
  bool lib = false;  // Unknown: a value of rocKE's IR library (an object it made, what it returned):
                     // calling it emits code, it declares no argument
  // Unknown: a string whose start is known and the rest not (`f"ptr<{spec.dtype}, global>"`): its
  // known start ("ptr<"), which decides `startswith` and a type string's kind.
  std::string prefix;
  // Unknown: IR types that differ in kind or size, one under each guard (`I64 if spec.wide else
  // I32`, or bound so on the two arms of an `if`): a declaration of it keeps them (KernelArg::choices).
  std::shared_ptr<std::vector<std::pair<Guard, AV>>> alts;
  bool selfInClosure = false;  // Func: the entry of its own closure that names it (held without the
                               // pointer, which would be a cycle no reference count frees)

  static AV unknown(std::string why) {
    AV v;
    v.s = std::move(why);
    return v;
  }
  static AV of(K k) {
    AV v;
    v.k = k;
    return v;
  }
  static AV integer(long long n) {
    AV v;
    v.k = K::Int;
    v.i = n;
    return v;
  }
  static AV boolean(bool b) {
    AV v;
    v.k = K::Bool;
    v.i = b;
    return v;
  }
  static AV str(std::string s, SourceRange at = {}) {
    AV v;
    v.k = K::Str;
    v.s = std::move(s);
    v.at = at;
    return v;
  }
  static AV seq(K k, std::vector<AV> items) {
    AV v;
    v.k = k;
    v.items = std::make_shared<std::vector<AV>>(std::move(items));
    return v;
  }
  bool isSeq() const { return k == K::List || k == K::Tuple; }
};

// One module's top level: functions (methods as "Class.method"), bindings, imports.
struct ModIndex {
  const SyntaxTree* t = nullptr;
  std::string dotted;  // "kernels.gfx950.attention_dense"; "" for the module being extracted
  std::map<std::string, TSNode> fns;
  std::map<std::string, TSNode> classes;  // the module's top-level classes: their definitions
  std::vector<TSNode> decorated;          // its top-level decorated function definitions, in order
  struct Bind {
    TSNode value{};                 // assignment's right side
    std::string module, attr;       // an import: `from module import attr` / `import module`
    int count = 0;                  // how often the name is bound at module level
  };
  std::map<std::string, Bind> binds;
  std::map<std::string, AV> cache;
  std::map<std::string, bool> busy;
  std::map<const void*, bool> mayDeclare;  // def node id -> reaches a `.param` attribute
  // Names of the functions whose text reaches `.param` / `IRBuilder`, directly or through the
  // text of a function of this module they name: a conservative filter (never misses one that
  // does) that keeps the evaluator off the rest of a 4,000-line module on a keystroke.
  std::set<std::string> declaring, building;
  std::set<std::string> signing;  // may return argument entries (DeclEval::maySign)
  std::set<std::string> globals;  // names a function assigns through `global` (never known)
  // Functions whose text returns and names a function the evaluation cannot see (`unseen`): they
  // may return another module's kernel (a dispatch), so they are evaluated though they hold no
  // IRBuilder.
  std::set<std::string> dispatching;
  std::vector<std::string> importedDeclaring;  // names imported from a loaded module whose function can declare
  // Names bound to a module, or a function of one, that this evaluation cannot see and that is not
  // rocKE's IR library (mayHoldDeclaringHelpers), called somewhere in the module.
  std::vector<std::string> unseen;
  // Names imported from a package and used as modules (`_c.build(...)`) that this evaluation
  // cannot see: their functions may be returned whole (a dispatch; `dispatching`).
  std::vector<std::string> unseenModules;
  // Names imported from a module that may hold declaring helpers, called (or used as a module)
  // in this one, seen or not; the functions that return and name one, directly or through a
  // function of this module: `return f(...)` of such a function at the entry runs it as the entry.
  std::vector<std::string> calledImports;
  std::set<std::string> returnsImported;  // on first use (DeclEval::Impl::returnsImported)
  bool returnsImportedKnown = false;
};

// Gives another module of the tree by its dotted name ("kernels.common.conv_args"), or nullptr.
using ModuleLoader = std::function<const SyntaxTree*(const std::string& dotted)>;

struct DeclResult {
  std::vector<PyAbi> abis;  // abis[0]: the path that falls through / returns last; then early returns
  bool declares = false;    // an IRBuilder declared at least one argument, or a helper was given one
  std::string stopped;      // "": read; else why the lists are not read (a limit, recursion)
  bool recursion = false;   // it stopped at a declaring function calling itself
  // The function is a builder: it holds an IRBuilder (made there or handed back by a helper), or
  // it returns a call of one of the module's functions (a dispatcher). A function that calls a
  // builder and runs its kernel declares nothing of its own.
  bool builds = false;
  // The first `<x>.param(...)` call whose receiver the evaluation could not know, and why: a
  // function that declares nothing but reached one is "not read" (never an empty list).
  std::string missed;
  // Parameters of the entry called with the IRBuilder before a declaration (hooks: what a caller
  // passes there can insert arguments; the lists are what a caller passing none declares).
  std::vector<PyHook> hooks;
  // What it returned, when that is a list of argument entries (`{"name": .., "type": ..}` dicts,
  // what SignatureBuilder's chain builds): a restatement of an argument list.
  std::vector<KernelArg> entries;
  bool returnsEntries = false;
  bool madeSignature = false;  // it made a SignatureBuilder
  // Where the names of its declarations are written (a builder that takes its names from a
  // signature function reads them there: that function is the list's definition, not a copy).
  std::vector<SourceRange> nameSources;
  // The module's functions the evaluation ran (their definitions): the builder's code.
  std::vector<TSNode> ran;
};

// What a function returns when called with no arguments (its defaults), run whole.
struct CallResult {
  AV value;
  std::string why;  // "": returned `value`; else why it gave no value (a limit, recursion, a raise)
};

// Watching a run of a function whole (DeclEval::trace; the AOT catalog's producer scripts,
// core/contracts/AotProducers): every call of a function of the tree (the module's, another
// module's, a method of an object) is shown to `skip` before it runs (true: it does not run, its
// value is unknown) and to `seen` after, with the value it gave.
// A call `skip` accepts is not run: its value is unknown, a value of rocKE's IR library (`AV::lib`:
// the kernel a builder returns).
struct CallTrace {
  using Kw = std::vector<std::pair<std::string, AV>>;
  std::function<bool(const AV& fn, const std::vector<AV>& pos, const Kw& kw)> skip;
  std::function<void(const AV& fn, const std::vector<AV>& pos, const Kw& kw, const AV& value, SourceRange at)> seen;
};

class DeclEval {
 public:
  // `dotted`: the module's own name, for its relative imports and the loader.
  explicit DeclEval(const SyntaxTree& t, ModuleLoader loader = {}, std::string dotted = "");
  ~DeclEval();
  // Evaluates the function `name` of this module ("build_x", "Class.method") from its entry.
  DeclResult run(const std::string& name);
  // Can the function declare (its text, or the text of a module function it names, reaches
  // `.param`) and hold an IRBuilder (the same, for `IRBuilder`)? Only such functions are
  // evaluated as builders.
  bool mayDeclare(const std::string& name);
  bool mayBuild(const std::string& name);
  bool mayDispatch(const std::string& name);
  // Can it return argument entries (its text, or a module function's it names, makes a
  // SignatureBuilder or writes a "name" key)?
  bool maySign(const std::string& name);
  const ModIndex& module() const { return *root_; }
  // Runs the module-level function `name` called with no arguments: its parameters take their
  // defaults, every statement runs (no builder's tail is left out, no callee budget), under the
  // step and depth limits. A values reader (the names lists of core/extract/python/NameLists).
  CallResult callWithDefaults(const std::string& name);
  // callWithDefaults, each call of a function of the tree shown to `trace` (DeclEvalTrace.cpp).
  CallResult trace(const std::string& name, const CallTrace& trace);
  long stepsTaken() const;

  static constexpr long kMaxSteps = 400000;   // per run
  static constexpr int kMaxDepth = 48;        // calls
  static constexpr size_t kMaxItems = 4096;   // elements of a sequence, characters of a string

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  ModIndex* root_ = nullptr;
};

// `from ..common import x` in module `from` ("kernels.gfx950.a") -> "kernels.common"; an absolute
// name, or any name when `from` is "" (the module's own name is not known), is returned as it is.
std::string resolveRelative(const std::string& from, const std::string& mod);

// "kernels.common.conv_args" -> "kernels/common/conv_args.py" (a relative name is kept).
std::string modulePathOf(const std::string& dotted);
// "kernels/common/conv_args.py" -> "kernels.common.conv_args".
std::string dottedOfPath(std::string path);
// The tree path of a builder's open end (PyAbi::tailModule, as recorded): a relative import
// resolved from the builder's own folder (any package: the library's, the platform's), an absolute
// one under the builder's `rocke/library/`; "" when there is none, or an absolute one and the
// builder's path has no library root.
std::string helperPathInTree(const std::string& builderPath, const std::string& tailModule);

// A module whose functions, given the IRBuilder, may declare kernel arguments: any but rocKE's
// platform package (`rocke`, `rocke.*`), the IR library itself, whose helpers emit code. A
// function of such a module that the reader cannot see (not in the tree, or not loaded) ends the
// known list where it is called: what it declares is not guessed.
bool mayHoldDeclaringHelpers(const std::string& dotted);

// The text of a guard, as its condition reads ("spec.use_sinks and not spec.persistent").
std::string guardText(const Guard& g);

}  // namespace impact::pyextract
