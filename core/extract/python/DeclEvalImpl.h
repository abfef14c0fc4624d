// The evaluator's inside (DeclEval.h): paths, frames, and the methods split by job between
// DeclEval.cpp (names, expressions), DeclEvalStatements.cpp (statements), DeclEvalApply.cpp
// (calls) and the others each file's own comment names.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "extract/python/DeclEval.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

constexpr int kMaxVisitDepthEval = 200;  // syntax nesting and call depth together

// One path of execution: the declarations so far, the conditions of the branches it is in, and
// (at the entry) the conditions under which it was not returned from earlier.
struct DPath {
  std::vector<std::pair<KernelArg, std::vector<Guard>>> decls;  // each with the conditions it is under
  std::vector<Guard> conds;
  std::vector<Guard> when;
  std::string tailHelper, tailModule;  // a helper given the IRBuilder that could not be followed
  std::string tailCall;                // its call, as written
  std::string origin;                  // the function an early return went to
};

// A frame's names, copied on write: a branch that binds nothing shares its frame's map, so an
// `if` costs no copy of every local.
class Env {
 public:
  using Map = std::map<std::string, AV>;
  Map::const_iterator find(const std::string& k) const { return map().find(k); }
  Map::const_iterator begin() const { return map().begin(); }
  Map::const_iterator end() const { return map().end(); }
  size_t count(const std::string& k) const { return map().count(k); }
  size_t size() const { return map().size(); }
  AV& operator[](const std::string& k) { return mut()[k]; }
  const Map& map() const {
    static const Map empty;
    return p_ ? *p_ : empty;
  }
  bool sameAs(const Env& o) const { return p_ == o.p_; }
  void replace(Map m) { p_ = std::make_shared<Map>(std::move(m)); }

 private:
  Map& mut() {
    if (!p_) p_ = std::make_shared<Map>();
    else if (p_.use_count() > 1) p_ = std::make_shared<Map>(*p_);
    return *p_;
  }
  std::shared_ptr<Map> p_;
};

struct DFrame {
  Env env;
  std::shared_ptr<std::map<std::string, AV>> closure;
  ModIndex* mod = nullptr;
  bool entry = false;
  std::vector<std::pair<DPath, AV>> returns;  // paths that returned, with the value
  std::string loopWhy;                        // inside a loop whose length is not known: why
  AV retval;                                  // what the last `return` returned
  TSNode body{};                              // the function's body
  bool makesBuilder = false;                  // its text makes an IRBuilder: a builder's body
  std::shared_ptr<std::vector<AV>> yields;    // a generator's: what it yielded, in order (its value)
  std::string retOrigin;                      // the function that return called
  std::string cls;                            // a method's class ("" for a function)
  std::shared_ptr<AV> self;                   // a bound method's receiver
};

enum class DFlow { Next, Return, Break, Continue, Raise };

struct DStop {
  std::string why;
  bool depth = false;      // expressions nested past the depth limit (a module binding makes that unknown)
  bool recursion = false;  // a declaring function called itself
};

// A function that cannot declare ran past its own budget: its value is unknown, nothing else.
struct DOverBudget {};

struct DeclEval::Impl {
  const SyntaxTree& t;
  ModuleLoader loader;
  std::map<std::string, std::unique_ptr<ModIndex>> mods;  // "" = the module itself
  long steps = 0;
  std::vector<const void*> stack;  // defs being evaluated (recursion)
  bool declares = false;
  ModIndex* root = nullptr;      // the module being extracted
  std::vector<TSNode> anchors;   // calls from it into other modules, outermost first
  long budgetEnd = -1;  // while a function that cannot declare runs: the step it must end by
  static constexpr long kCalleeSteps = 400;
  // `return f(...)` at the entry, `f` a function of the module that may dispatch: the call runs
  // as the entry itself (its returns are the entry's, each its own list), as if inlined.
  const void* tailCall = nullptr;   // the call node
  bool tailRaised = false;          // its last path raised
  std::string tailOrigin;           // the function its last path returned (a dispatch's target)
  std::set<std::string> entryParams;  // the entry's parameters (a hook is one called with the IRBuilder)
  // Hooks called on a path with no declaration after them yet, and those a declaration followed.
  std::vector<PyHook> pendingHooks, hooks;
  bool madeSignature = false;             // a SignatureBuilder was made
  std::vector<SourceRange> nameSources;   // DeclResult::nameSources
  std::vector<TSNode> ran;                // DeclResult::ran
  std::string missed;  // the first `.param` call on a receiver not known (DeclResult::missed)
  bool wholeValues = false;  // callWithDefaults: every callee runs whole, under the step limit
  std::string lastRaise;     // the `raise` statement a path last reached, as written
  // DeclEval::trace (DeclEvalTrace.cpp): the watcher, and whether the call `invoke` is entering
  // was shown to it already.
  const CallTrace* watcher = nullptr;
  bool watched = false;
  AV traced(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
            DPath& p, int d);
  // Per statement: does it reach a `.param` attribute or a module function that may declare, and
  // the plain names it uses (a local function or alias bound to a declaring value).
  struct StmtInfo {
    bool declares = false;
    std::vector<std::string> names;
  };
  std::map<const void*, StmtInfo> stmts;
  std::map<const void*, bool> generators;  // def node id -> its body yields (not in a nested def)
  bool isGenerator(TSNode def);
  // `yield v` / `yield from seq` in a generator's frame: appended to what it yields.
  AV yield(TSNode e, DFrame& f, DPath& p, int d);

  Impl(const SyntaxTree& tree, ModuleLoader l) : t(tree), loader(std::move(l)) {}
  // Every object's attributes made in this evaluator's life: an object can hold itself
  // (`self.me = self`), a cycle of shared pointers; emptied when the evaluator ends.
  std::vector<std::shared_ptr<std::map<std::string, AV>>> objects;
  ~Impl() {
    for (auto& o : objects) o->clear();
  }
  std::shared_ptr<std::map<std::string, AV>> newObject() {
    objects.push_back(std::make_shared<std::map<std::string, AV>>());
    return objects.back();
  }

  // DeclEval.cpp
  ModIndex* index(const SyntaxTree* tree, const std::string& dotted);
  // The module's top-level decorators applied, in order, as its import applies them: each
  // function's binding is what its decorators return; names whose value comes to hold a
  // declaring value (a registry a decorator fills) are added to `seeds`.
  void runDecorators(ModIndex& m, std::vector<std::string>& seeds);
  bool moduleLevel = false;  // running a module's top level: there is no list to open
  ModIndex* moduleNamed(const std::string& dotted);
  AV moduleBinding(ModIndex* m, const std::string& name, int d);
  // The value `name` is bound to by `from module import attr` (attr "" for `import module`), in m.
  AV imported(ModIndex* m, const std::string& name, const std::string& module, const std::string& attr, int d);
  AV lookup(const std::string& n, DFrame& f, DPath& p, int d);
  AV expr(TSNode e, DFrame& f, DPath& p, int d);
  AV attribute(TSNode e, DFrame& f, DPath& p, int d);
  // `obj.attr` (`e`: the expression, for its text), as `attribute` and `getattr(obj, "attr")` read it.
  AV attrOf(const AV& obj, const std::string& attr, TSNode e, DFrame& f, DPath& p, int d);
  // DeclEvalClasses.cpp: objects of the module's classes.
  // A record class's fields (`@dataclass`, `NamedTuple`: its annotated names in order, with their
  // defaults' nodes), or a namedtuple's (the Class value's items).
  std::vector<std::pair<std::string, TSNode>> recordFields(const AV& cls);
  // `obj.attr` of an instance (its attributes, then its class's) or a class: a method found
  // through the bases (bound to the instance; a staticmethod unbound, a classmethod bound to the
  // class), else a class attribute; a property (`@property`, `@functools.cached_property`) of an
  // instance is its getter's value.
  AV classMember(const AV& obj, const std::string& attr, TSNode e, DFrame& f, DPath& p, int d);
  // A record's own members (`_fields`; `_make` of its class; `_replace`, `_asdict` of an
  // instance), as `collections.namedtuple` makes them; an Unknown when `attr` is not one.
  AV recordMember(const AV& obj, const std::string& attr);
  AV recordClassOf(const AV& obj);  // the class of a record (or the class itself)
  // A record method (recordMember) called.
  AV recordMethod(const AV& m, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
                  DPath& p, int d);
  // Calling a class: a record binds its fields; otherwise `__init__` (found through the bases)
  // runs with the new instance.
  AV instantiate(const AV& cls, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
                 DPath& p, int d);
  // The members of an enum class of the module (a base that is the standard library's `Enum`,
  // `IntEnum`, `StrEnum`, `Flag` or `IntFlag`), in order: instances with `name` and `value`.
  std::optional<std::vector<AV>> enumMembers(const AV& cls, int d);
  std::map<const void*, std::optional<std::vector<AV>>> enums;  // class def id -> its members (once)
  // What iterating the value visits, when that is not its elements: an enum class's members.
  AV iterated(const AV& v, int d);
  // `super()` in a method: the instance, looked up from the class after the method's own.
  AV superOf(const DFrame& f);
  AV string(TSNode e, DFrame& f, DPath& p, int d);
  AV binary(TSNode e, DFrame& f, DPath& p, int d);
  AV compare(TSNode e, DFrame& f, DPath& p, int d);
  AV boolean(TSNode e, DFrame& f, DPath& p, int d);
  AV subscript(TSNode e, DFrame& f, DPath& p, int d);
  AV comprehension(TSNode e, DFrame& f, DPath& p, int d);
  AV sequence(TSNode e, AV::K k, DFrame& f, DPath& p, int d);
  AV dict(TSNode e, DFrame& f, DPath& p, int d);
  AV symOf(TSNode e, const AV& v, DFrame& f);  // an unknown value as an opaque guard of its text
  bool mayDeclare(ModIndex* m, TSNode def, int d);
  // Can running the statement declare an argument? A block's statements after the last one that
  // can are not run: they emit code, and no list changes there (the cost of a builder is then its
  // declarations, not its kernel).
  bool relevant(TSNode st, DFrame& f);
  // The statements of a builder's tail that are not run (sts[from..]): a call in them given a local
  // that reaches the IRBuilder, whose callee is a value the evaluator does not know (a method of a
  // parameter it cannot read: `spec.epilogue(b)`; a name bound nowhere it reads), opens the list
  // there as running it would (DeclEvalReach.cpp). Locals the tail binds are not known: their
  // calls are kernel code the tail would have to run to judge.
  void tailHandsOff(const std::vector<TSNode>& sts, size_t from, DFrame& f, DPath& p);

  void step();
  bool returnsImported(ModIndex& m, const std::string& fn);
  std::string text(const DFrame& f, TSNode n) const { return std::string(f.mod->t->text(n)); }

  // DeclEvalReach.cpp (issue 36): how far a value reaches the IRBuilder — 0 not at all; 1 it
  // holds the builder object (passed on, it can declare through code the evaluator does not
  // read); 2 it can declare when called (a bound `b.param`, a function whose text declares, a
  // partial, closure or bound method over one) or holds such a value.
  int reach(const AV& v, int depth = 0);
  // Does the value declare when called: a bound `b.param` (or a partial of one), a function whose
  // text declares, or one closing over a bound `b.param` it names (`p = getattr(b, "param")`)?
  // What decides which functions run whole and which statements of a builder's tail run.
  bool declarer(const AV& v, int depth = 0);
  int reachOf(const std::vector<AV>& pos, const std::vector<std::pair<std::string, AV>>& kw, const AV* receiver = nullptr);
  std::map<std::pair<const void*, const void*>, int> funcReach;  // (def id, closure) -> reach
  std::vector<const void*> reachSeen;  // the objects one `reach` walk met
  // Opens the path's list at the call `at`: an operation the evaluator does not model, given a
  // value that reaches the builder, declares what it is not known (`what`: the call and why).
  void openAt(const std::string& what, TSNode at, DFrame& f, DPath& p);
  // A call it cannot follow given a value of reach `r`: one that declares when called opens the
  // list there; so does the IRBuilder object alone (what the call declares, if anything, is not known).
  void cannotFollow(int r, const std::string& what, TSNode at, DFrame& f, DPath& p);
  std::string unknownArgs;  // the next declaration's call spreads a sequence or dict not known: why
  // The callee of the call (or decorator) `at`, as written.
  std::string calleeText(TSNode at, const DFrame& f) const;
  // A callable a builtin made with its arguments bound (`operator.methodcaller("param", n, t)`,
  // `functools.wraps(f)`, `itertools.repeat` and the like), called.
  // DeclEvalLibrary.cpp: the standard library's functions and the builtins that reach into
  // objects or frames; *handled false when `name` is not one of them.
  AV library(const std::string& name, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw, TSNode at,
             DFrame& f, DPath& p, int d, bool* handled);
  // The part of `library` that reaches into objects and frames (operator, wraps, SimpleNamespace,
  // hasattr/setattr, locals/vars, exec/eval, filter).
  AV objectBuiltin(const std::string& name, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw, TSNode at,
             DFrame& f, DPath& p, int d, bool* handled);
  AV boundBuiltin(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
                  DPath& p, int d);

  // DeclEvalStatements.cpp
  DFlow block(TSNode body, DFrame& f, DPath& p, int d);
  DFlow statement(TSNode s, DFrame& f, DPath& p, int d);
  // The statement kinds `statement` hands on (DeclEvalStatements.cpp).
  DFlow expressionStatement(TSNode s, DFrame& f, DPath& p, int d);
  DFlow whileStatement(TSNode s, DFrame& f, DPath& p, int d);
  DFlow tryOrWith(TSNode s, DFrame& f, DPath& p, int d);
  DFlow definition(TSNode s, DFrame& f, DPath& p, int d);
  DFlow ifStatement(TSNode s, DFrame& f, DPath& p, int d);
  DFlow matchStatement(TSNode s, DFrame& f, DPath& p, int d);
  // An if/elif/else chain: each arm's condition (`condOf` of its node, else the node evaluated),
  // known (one arm runs) or a guard (both ways, joined).
  DFlow branches(const std::vector<std::pair<TSNode, TSNode>>& arms, TSNode otherwise,
                 const std::function<AV(TSNode)>& condOf, DFrame& f, DPath& p, int d);
  // Does case_clause `cc` match `subject`: a literal (or `|` of literals) compared, `_` and a
  // capture (bound) always; other patterns, and a case with a guard the evaluation does not know,
  // an opaque guard of the case's text.
  AV caseCondition(const AV& subject, TSNode subjectNode, TSNode cc, DFrame& f, DPath& p, int d);
  DFlow forStatement(TSNode s, DFrame& f, DPath& p, int d);
  // Runs `body` once per element (or once, unknown, with `why` when the elements are unknown).
  DFlow loop(TSNode body, TSNode target, const AV& iter, const std::string& why, DFrame& f, DPath& p, int d);
  void assign(TSNode target, const AV& v, DFrame& f, DPath& p, int d);
  // DeclEvalApply.cpp
  AV call(TSNode e, DFrame& f, DPath& p, int d);
  void dispatchTo(const AV& callee, TSNode call, DFrame& f, DPath& p);
  AV apply(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
           DPath& p, int d);
  AV invoke(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at, DFrame& f,
            DPath& p, int d);
  AV valueBuiltin(const std::string& name, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw,
                  TSNode at, DFrame& f, bool* handled);
  AV sequenceBuiltin(const std::string& name, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw,
                     std::vector<AV>& els, bool ok, TSNode at, DFrame& f, DPath& p, int d, bool* handled);
  bool sortIn(std::vector<AV>& els, std::vector<std::pair<std::string, AV>>& kw, TSNode at, DFrame& f, DPath& p, int d,
              AV& out);
  AV namedtupleOf(std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw);
  AV builtin(const std::string& name, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw, TSNode at,
             DFrame& f, DPath& p, int d);
  AV method(const AV& m, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw, DFrame& f, DPath& p);
  // DeclEvalSignatures.cpp: SignatureBuilder's `ptr`, `scalar`, `extend`, `build`.
  AV signatureMethod(const AV& m, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw, TSNode at,
                     DFrame& f, DPath& p);
  void declare(const std::vector<AV>& pos, const std::vector<std::pair<std::string, AV>>& kw, TSNode at, DFrame& f,
               DPath& p);
  // Joins the paths of an `if` whose branches both went on (then's declarations first).
  // `g`: the then arm's condition (null: not one condition), for values bound differently on the two.
  void join(DFrame& f, DPath& p, DFrame& thenF, DPath& thenP, size_t base, const Guard* g = nullptr);
  // What a function (or lambda) defined in frame `f` sees of it: its names, and its own closure's.
  std::shared_ptr<std::map<std::string, AV>> closureFor(const DFrame& f);
  // The paths a callee returned on, as one path of the caller, and the value it returned.
  AV joinReturns(DFrame& callee, DPath& p, size_t base, const std::vector<Guard>& conds);
};

// Helpers shared by the evaluator's files.
// The keyword argument of a call named one of `names`, or nullptr.
const AV* kwArg(const std::vector<std::pair<std::string, AV>>& kw, std::initializer_list<const char*> names);
bool truthKnown(const AV& v, bool* truth);
AV mergeValues(const AV& a, const AV& b);
// The value of a name bound to `a` where `g` holds and `b` where it does not: IR types that differ
// are alternatives under `g` / `not g` (AV::alts); any other pair as mergeValues.
AV chooseValues(const Guard& g, const AV& a, const AV& b);
bool sameAV(const AV& a, const AV& b);
std::shared_ptr<Guard> guardOfAV(const AV& v);
AV symFromGuard(Guard g, std::string text);
Guard andAll(const std::vector<Guard>& gs);
std::string modulePathOf(const std::string& dotted);
// Does `text` hold `word` with no identifier character on either side (`.param` then a boundary)?
bool hasWord(std::string_view text, std::string_view word);
// Is `name` called in `text` (`name(`), or, for a module (function false), one of its attributes
// (`name.f(`)? A filter, not a decision: the evaluator decides what a call is when it meets one.
bool calledIn(std::string_view text, std::string_view name, bool function);
// Adds the guards of `when` not already in `conds`.
void pushConds(std::vector<Guard>& conds, const std::shared_ptr<std::vector<Guard>>& when);
// The value as an element added under `conds` (a list built in a branch).
AV tagged(AV v, const std::vector<Guard>& conds);
// The elements a `for` over the value visits (a dict's keys, a string's characters); *ok false
// when they are not known.
std::vector<AV> elementsOf(const AV& v, bool* ok);
// A returned value as argument entries: a list (or a SignatureBuilder) whose every element is a
// dict with a "name" key; false when it is not one.
bool entriesOf(const AV& v, std::vector<KernelArg>& out);
// A module of Python's standard library ("itertools", "os.path"): never in the tree; a call of
// one of its functions the evaluator does not model is named as such.
bool standardLibrary(const std::string& dotted);
// An unknown value made by an operation the evaluator does not model (a builtin or method it
// does not read): given a value that reaches the builder, the operation opens the list.
AV unmodelled(std::string why);

}  // namespace impact::pyextract
