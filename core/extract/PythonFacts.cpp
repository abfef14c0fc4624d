// Python half of extraction (DOMAIN.md §2): builders, their b.param lists and SignatureBuilder
// chains, read off the tree-sitter-python syntax tree.
//
// Outline:
//  1. collect every function of the module (module level, under module-level if/try/with/for,
//     methods as "Class.method");
//  2. collect module-level bindings (assignments, imports), remembering for each binding the
//     path of branches (if/elif/else/loop/try bodies) it sits in, so a lookup can tell whether a
//     binding always holds at the point of use or only on some paths;
//  3. walk each function body once, in source order, recording bindings and the events that
//     matter (b.param calls, SignatureBuilder method calls, return statements) together with the
//     conditions that enclose them; `for n in ("a", "b")` over a literal is unrolled;
//  4. resolve: receivers (is `b` an IRBuilder?), names and types (through local and module
//     assignments and imports), condition texts (local aliases replaced by what they alias);
//  5. assemble builders, following early returns to same-module builders (cycle-safe).
//
// Every recursion is depth-capped and resolution has a step budget, so garbage input or deep
// nesting cannot hang or overflow the stack; nothing throws out of extractPython.
#include "extract/PythonFacts.h"

#include <algorithm>
#include <functional>
#include <cctype>
#include <iterator>
#include <memory>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace impact {
namespace {

// The elements of a literal list/tuple; nullopt when one is a splat (`*rest`), which has no
// statically known elements.
std::optional<std::vector<TSNode>> literalElements(TSNode seq) {
  std::vector<TSNode> out;
  for (TSNode ch : namedChildren(seq)) {
    if (is(ch, "comment")) continue;
    if (is(ch, "list_splat")) return std::nullopt;
    out.push_back(ch);
  }
  return out;
}

constexpr int kMaxVisitDepth = 400;     // syntax nesting the walkers descend
constexpr int kMaxResolveDepth = 300;   // alias chains (sig = sig.ptr(...) repeated, alias of alias)
constexpr size_t kMaxUnroll = 256;      // elements of a literal loop that is unrolled
constexpr size_t kMaxEvents = 50000;    // events per function (unrolled loops multiply them)
constexpr long kResolveBudget = 4000000;  // resolution steps per module

// ---------------------------------------------------------------------------------------------
// Known rocke names

std::optional<uint32_t> scalarSize(std::string_view n) {
  static const std::pair<std::string_view, uint32_t> kScalars[] = {
      {"I1", 1},  {"I8", 1},  {"I16", 2},  {"I32", 4},      {"I64", 8},     {"F16", 2},
      {"BF16", 2}, {"F32", 4}, {"F64", 8}, {"FP8E4M3", 1}, {"BF8E5M2", 1}};
  for (auto& [k, v] : kScalars)
    if (k == n) return v;
  return std::nullopt;
}

// Size of a SignatureBuilder type string: "i32", "bf16", "ptr<bf16,global>" (nullopt: unknown).
// *isPtr is set for pointer types.
std::optional<uint32_t> typeStringSize(std::string s, bool* isPtr) {
  *isPtr = false;
  std::string l;
  for (char c : s)
    if (c != ' ' && c != '\t') l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l.rfind("ptr", 0) == 0 || (!l.empty() && l.back() == '*')) {
    *isPtr = true;
    return 8;
  }
  static const std::pair<std::string_view, uint32_t> kTypes[] = {
      {"i1", 1},  {"bool", 1}, {"i8", 1},   {"u8", 1},   {"i16", 2},      {"u16", 2},
      {"f16", 2}, {"bf16", 2}, {"i32", 4},  {"u32", 4},  {"f32", 4},      {"i64", 8},
      {"u64", 8}, {"f64", 8},  {"fp8e4m3", 1}, {"bf8e5m2", 1}, {"fp8", 1}, {"bf8", 1}};
  for (auto& [k, v] : kTypes)
    if (k == l) return v;
  return std::nullopt;
}

std::string clip(std::string_view s, size_t n = 120) {
  std::string out;
  out.reserve(std::min(s.size(), n + 3));
  for (char c : s.substr(0, n)) out += (c == '\n' || c == '\r') ? ' ' : c;
  if (s.size() > n) out += "...";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values the resolver computes

enum class VK { Unknown, Scalar, PtrType, PtrCtor, IRBuilderCtor, IRBuilder, SigCtor, Sig, Module, Str };

struct Value {
  VK k = VK::Unknown;
  uint32_t size = 0;     // Scalar
  std::string str;       // Str: the string; Unknown: why it is unknown; Module: where from
  bool unbound = false;  // Unknown because the name is bound nowhere
  static Value unknown(std::string why, bool unbound = false) {
    Value v;
    v.str = std::move(why);
    v.unbound = unbound;
    return v;
  }
  static Value of(VK k) {
    Value v;
    v.k = k;
    return v;
  }
};

bool sameValue(const Value& a, const Value& b) {
  if (a.k != b.k) return false;
  if (a.k == VK::Scalar) return a.size == b.size;
  if (a.k == VK::Str) return a.str == b.str;
  return a.k != VK::Unknown;
}

std::optional<Value> knownName(std::string_view n) {
  if (auto s = scalarSize(n)) {
    Value v = Value::of(VK::Scalar);
    v.size = *s;
    return v;
  }
  if (n == "PtrType") return Value::of(VK::PtrCtor);
  if (n == "IRBuilder") return Value::of(VK::IRBuilderCtor);
  if (n == "SignatureBuilder") return Value::of(VK::SigCtor);
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Scopes and bindings

using Path = std::vector<uint64_t>;  // ids of the branches enclosing a point

struct Binding {
  enum Kind { Assign, ImportName, ImportModule, Param, Loop, Other };
  Kind kind = Other;
  uint32_t effective = 0;  // holds from this byte on
  uint32_t stmtStart = 0;  // where its right-hand side is evaluated
  Path path;
  TSNode value{};          // Assign: the expression bound to this name
  std::string what;        // ImportName: imported name; ImportModule: module; Loop: iterable; Other
  std::string from;        // ImportName: the module
};

struct Scope {
  bool isModule = true;
  std::string fnName;
  const Scope* parent = nullptr;  // the module scope, for a function scope
  std::unordered_map<std::string, std::vector<Binding>> names;
  std::set<std::pair<uint32_t, std::string>> seen;  // (statement start, name): dedupe unrolled bodies
};

bool isPrefix(const Path& a, const Path& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A point of use: byte position and the branch path there.
struct Use {
  uint32_t pos;
  const Path* path;
};

// Bindings that may hold at `u`: the latest one before u and earlier ones until one that
// always holds (its branch path is a prefix of the use's).
std::vector<const Binding*> candidates(const Scope& s, const std::string& name, Use u, bool* anyLocal) {
  std::vector<const Binding*> out;
  auto it = s.names.find(name);
  if (anyLocal) *anyLocal = it != s.names.end() && !it->second.empty();
  if (it == s.names.end()) return out;
  const auto& v = it->second;
  // bindings are kept sorted by `effective` (finish() sorts; appends during a walk are in order)
  size_t end = static_cast<size_t>(
      std::upper_bound(v.begin(), v.end(), u.pos, [](uint32_t p, const Binding& b) { return p < b.effective; }) -
      v.begin());
  for (size_t i = end; i-- > 0;) {
    const Binding& b = v[i];
    if (b.effective > u.pos) continue;
    out.push_back(&b);
    if (isPrefix(b.path, *u.path)) break;
    if (out.size() > 64) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Events recorded while walking a function

struct Cond {
  TSNode node{};      // the condition expression (null: `text` holds it)
  bool negate = false;
  std::string text;   // for match/case
  Use use{0, nullptr};
  std::shared_ptr<Path> path;  // branch path at the condition
};

struct LoopVar {
  std::string name;
  TSNode elem;
  uint32_t pos;
};

struct Ctx {
  Path path;
  std::vector<Cond> conds;
  std::vector<LoopVar> loops;
};

struct Event {
  enum Type { Param, SigMethod, Return };
  Type type;
  TSNode node;   // the call (Param, SigMethod) or the return statement
  Ctx ctx;
};


// Walks a function body (or the module's top level) in source order.
class Walker {
 public:
  Walker(const SyntaxTree& t, Scope& scope, std::vector<Event>* events, const Scope* moduleScope)
      : t_(t), scope_(scope), events_(events), module_(moduleScope) {}

  void walkModule(TSNode module) {
    Ctx c;
    for (TSNode ch : namedChildren(module)) visit(ch, c, 1);
    finish();
  }

  void walkFunction(TSNode def) {
    Ctx c;
    bindParameters(field(def, "parameters"));
    TSNode body = field(def, "body");
    for (TSNode ch : namedChildren(body)) visit(ch, c, 1);
    finish();
  }

 private:
  const SyntaxTree& t_;
  Scope& scope_;
  std::vector<Event>* events_;
  const Scope* module_;
  uint32_t effectiveAt_ = 0;  // non-zero: where the binding being made starts to hold

  std::string str(TSNode n) const { return std::string(t_.text(n)); }
  void finish() {
    for (auto& [name, v] : scope_.names)
      std::stable_sort(v.begin(), v.end(),
                       [](const Binding& a, const Binding& b) { return a.effective < b.effective; });
  }

  static uint64_t branchId(TSNode n) { return (uint64_t(ts_node_start_byte(n)) << 32) | ts_node_end_byte(n); }

  void bind(const std::string& name, Binding b, uint32_t stmtStart) {
    if (name.empty()) return;
    if (!scope_.seen.insert({stmtStart, name}).second) return;
    b.stmtStart = stmtStart;
    scope_.names[name].push_back(std::move(b));
  }

  Binding base(Binding::Kind k, TSNode stmt, const Ctx& c) {
    Binding b;
    b.kind = k;
    b.effective = effectiveAt_ ? effectiveAt_ : ts_node_end_byte(stmt);
    b.path = c.path;
    return b;
  }

  void bindParameters(TSNode params) {
    for (TSNode p : namedChildren(params)) {
      TSNode id{};
      if (is(p, "identifier")) id = p;
      else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) id = field(p, "name");
      else if (is(p, "typed_parameter") || is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern")) {
        for (TSNode ch : namedChildren(p)) {
          if (is(ch, "identifier")) { id = ch; break; }
          if (is(ch, "list_splat_pattern") || is(ch, "dictionary_splat_pattern")) {
            for (TSNode g : namedChildren(ch))
              if (is(g, "identifier")) { id = g; break; }
            break;
          }
        }
      }
      if (!is(id, "identifier")) continue;
      Binding b;
      b.kind = Binding::Param;
      b.effective = 0;
      bind(str(id), std::move(b), ts_node_start_byte(id));
    }
  }

  // Binds an assignment-like target to a value expression (null value: unknown, `why`).
  void bindTarget(TSNode target, TSNode value, TSNode stmt, const Ctx& c, Binding::Kind kind,
                  const std::string& why, int depth) {
    if (depth > 16 || ts_node_is_null(target)) return;
    if (is(target, "identifier")) {
      Binding b = base(ts_node_is_null(value) ? kind : Binding::Assign, stmt, c);
      if (ts_node_is_null(value)) b.what = why;
      else b.value = value;
      bind(str(target), std::move(b), ts_node_start_byte(stmt));
      return;
    }
    if (is(target, "pattern_list") || is(target, "tuple_pattern") || is(target, "list_pattern") ||
        is(target, "tuple") || is(target, "list") || is(target, "expression_list") ||
        is(target, "parenthesized_expression")) {
      std::vector<TSNode> ts = namedChildren(target), vs;
      if (!ts_node_is_null(value) &&
          (is(value, "expression_list") || is(value, "tuple") || is(value, "list") || is(value, "pattern_list")))
        vs = namedChildren(value);
      bool pair = vs.size() == ts.size() && !ts.empty();
      for (TSNode v : vs)
        if (is(v, "list_splat") || is(v, "comment")) pair = false;
      for (size_t i = 0; i < ts.size(); ++i) {
        if (pair) bindTarget(ts[i], vs[i], stmt, c, kind, why, depth + 1);
        else
          bindTarget(ts[i], TSNode{}, stmt, c, kind == Binding::Assign ? Binding::Other : kind,
                     why.empty() ? "unpacked from " + clip(t_.text(value)) : why, depth + 1);
      }
      return;
    }
    if (is(target, "list_splat_pattern") || is(target, "list_splat")) {
      for (TSNode ch : namedChildren(target))
        bindTarget(ch, TSNode{}, stmt, c, Binding::Other, "unpacked with *", depth + 1);
    }
    // attribute / subscript targets bind no name
  }

  void visitAssignment(TSNode n, Ctx& c, int depth) {
    TSNode left = field(n, "left"), right = field(n, "right");
    if (ts_node_is_null(right)) return;  // annotation only
    visit(right, c, depth + 1);
    TSNode value = right;
    int guard = 0;
    while (is(value, "assignment") && guard++ < 64) value = field(value, "right");  // a = b = X
    bindTarget(left, value, n, c, Binding::Assign, "", 0);
  }

  void visitImport(TSNode n, const Ctx& c) {
    if (is(n, "import_statement")) {
      for (TSNode ch : namedChildren(n)) {
        Binding b = base(Binding::ImportModule, n, c);
        if (is(ch, "dotted_name")) {
          b.what = str(ch);
          auto ids = namedChildren(ch);
          if (!ids.empty()) bind(str(ids[0]), std::move(b), ts_node_start_byte(n));
        } else if (is(ch, "aliased_import")) {
          b.what = str(field(ch, "name"));
          bind(str(field(ch, "alias")), std::move(b), ts_node_start_byte(n));
        }
      }
      return;
    }
    TSNode mod = field(n, "module_name");
    std::string from = str(mod);
    for (TSNode ch : namedChildren(n)) {
      if (ts_node_eq(ch, mod)) continue;
      if (is(ch, "wildcard_import")) continue;
      Binding b = base(Binding::ImportName, n, c);
      b.from = from;
      if (is(ch, "dotted_name")) {
        b.what = str(ch);
        auto ids = namedChildren(ch);
        if (!ids.empty()) bind(str(ids.back()), std::move(b), ts_node_start_byte(n));
      } else if (is(ch, "aliased_import")) {
        b.what = str(field(ch, "name"));
        bind(str(field(ch, "alias")), std::move(b), ts_node_start_byte(n));
      }
    }
  }

  void record(Event::Type type, TSNode n, const Ctx& c) {
    if (!events_ || events_->size() >= kMaxEvents) return;
    events_->push_back(Event{type, n, c});
  }

  void pushCond(Ctx& c, TSNode cond, bool negate, std::string text = "") {
    Cond k;
    k.node = cond;
    k.negate = negate;
    k.text = std::move(text);
    k.path = std::make_shared<Path>(c.path);
    k.use = Use{ts_node_is_null(cond) ? 0u : ts_node_start_byte(cond), nullptr};
    c.conds.push_back(std::move(k));
  }

  // Visits a body that may not run (a branch, a loop or try body): a binding made inside does
  // not always hold after it. Conditions are pushed separately (try/loop bodies push none).
  template <class F>
  void branch(Ctx& c, TSNode id, F&& body) {
    c.path.push_back(branchId(id));
    body();
    c.path.pop_back();
  }

  // Elements of a literal tuple/list (following names bound to one), or nullopt.
  std::optional<std::vector<TSNode>> literalSeq(TSNode e, const Ctx& c, int depth) {
    if (depth > 32 || ts_node_is_null(e)) return std::nullopt;
    if (is(e, "parenthesized_expression")) {
      auto ch = namedChildren(e);
      if (ch.size() != 1) return std::nullopt;
      return literalSeq(ch[0], c, depth + 1);
    }
    if (is(e, "tuple") || is(e, "list") || is(e, "expression_list")) return literalElements(e);
    if (is(e, "identifier")) {
      std::string n = str(e);
      for (size_t i = c.loops.size(); i-- > 0;)
        if (c.loops[i].name == n) return literalSeq(c.loops[i].elem, c, depth + 1);
      Use u{ts_node_start_byte(e), &c.path};
      bool anyLocal = false;
      auto cs = candidates(scope_, n, u, &anyLocal);
      if (cs.empty() && !anyLocal && module_ && module_ != &scope_) {
        Path empty;
        cs = candidates(*module_, n, Use{UINT32_MAX, &empty}, nullptr);
      }
      if (cs.size() != 1 || cs[0]->kind != Binding::Assign) return std::nullopt;
      Ctx none;
      return literalSeq(cs[0]->value, none, depth + 1);
    }
    return std::nullopt;
  }

  void visitFor(TSNode n, Ctx& c, int depth) {
    TSNode left = field(n, "left"), right = field(n, "right"), body = field(n, "body");
    visit(right, c, depth + 1);
    effectiveAt_ = ts_node_end_byte(left);  // the loop variable holds inside the body
    bindTarget(left, TSNode{}, n, c, Binding::Loop, "bound by a for loop over " + clip(t_.text(right)), 0);
    effectiveAt_ = 0;
    auto elems = literalSeq(right, c, 0);
    std::vector<TSNode> targets;
    bool tupleTarget = false;
    if (is(left, "identifier")) targets.push_back(left);
    else if (is(left, "pattern_list") || is(left, "tuple_pattern") || is(left, "list_pattern")) {
      tupleTarget = true;
      for (TSNode ch : namedChildren(left)) {
        if (!is(ch, "identifier")) { targets.clear(); break; }
        targets.push_back(ch);
      }
    }
    bool unroll = elems && !elems->empty() && elems->size() <= kMaxUnroll && !targets.empty();
    std::vector<std::vector<TSNode>> perElem;
    if (unroll) {
      for (TSNode el : *elems) {
        std::vector<TSNode> vals;
        if (!tupleTarget) vals.push_back(el);
        else {
          TSNode x = el;
          if (is(x, "parenthesized_expression") && ts_node_named_child_count(x) == 1) x = ts_node_named_child(x, 0);
          if (!(is(x, "tuple") || is(x, "list"))) { unroll = false; break; }
          vals = namedChildren(x);
          if (vals.size() != targets.size()) { unroll = false; break; }
        }
        perElem.push_back(std::move(vals));
      }
    }
    if (unroll) {
      // A non-empty literal loop always runs its body: no branch for definiteness.
      for (auto& vals : perElem) {
        size_t mark = c.loops.size();
        for (size_t i = 0; i < targets.size(); ++i)
          c.loops.push_back(LoopVar{str(targets[i]), vals[i], ts_node_start_byte(n)});
        visit(body, c, depth + 1);
        c.loops.resize(mark);
        if (events_ && events_->size() >= kMaxEvents) break;
      }
    } else {
      branch(c, body, [&] { visit(body, c, depth + 1); });
    }
    TSNode alt = field(n, "alternative");
    if (!ts_node_is_null(alt)) branch(c, alt, [&] { visit(alt, c, depth + 1); });
  }

  void visitIf(TSNode n, Ctx& c, int depth) {
    TSNode cond = field(n, "condition");
    visit(cond, c, depth + 1);
    bool litTrue = is(cond, "true");
    std::vector<TSNode> priors;
    {
      size_t mark = c.conds.size();
      if (!litTrue) pushCond(c, cond, false);
      TSNode cons = field(n, "consequence");
      if (litTrue) visit(cons, c, depth + 1);
      else branch(c, cons, [&] { visit(cons, c, depth + 1); });
      c.conds.resize(mark);
    }
    priors.push_back(cond);
    for (TSNode alt : namedChildren(n)) {
      bool elif = is(alt, "elif_clause");
      if (!elif && !is(alt, "else_clause")) continue;
      size_t mark = c.conds.size();
      for (TSNode p : priors) pushCond(c, p, true);
      TSNode econd{};
      if (elif) {
        econd = field(alt, "condition");
        visit(econd, c, depth + 1);
        pushCond(c, econd, false);
      }
      TSNode body = field(alt, elif ? "consequence" : "body");
      branch(c, alt, [&] { visit(body, c, depth + 1); });
      c.conds.resize(mark);
      if (elif) priors.push_back(econd);
    }
  }

  void visit(TSNode n, Ctx& c, int depth) {
    if (ts_node_is_null(n) || depth > kMaxVisitDepth) return;
    if (events_ && events_->size() >= kMaxEvents) return;
    std::string_view ty = type(n);
    if (ty == "comment") return;
    if (ty == "function_definition" || ty == "class_definition") {
      Binding b = base(Binding::Other, n, c);
      b.what = ty == "class_definition" ? "a class" : "a function";
      bind(str(field(n, "name")), std::move(b), ts_node_start_byte(n));
      return;
    }
    if (ty == "decorated_definition") {
      visit(field(n, "definition"), c, depth + 1);
      return;
    }
    if (ty == "lambda") return;
    if (ty == "if_statement") return visitIf(n, c, depth);
    if (ty == "for_statement") return visitFor(n, c, depth);
    if (ty == "while_statement") {
      visit(field(n, "condition"), c, depth + 1);
      TSNode body = field(n, "body");
      branch(c, body, [&] { visit(body, c, depth + 1); });
      TSNode alt = field(n, "alternative");
      if (!ts_node_is_null(alt)) branch(c, alt, [&] { visit(alt, c, depth + 1); });
      return;
    }
    if (ty == "try_statement") {
      TSNode body = field(n, "body");
      branch(c, body, [&] { visit(body, c, depth + 1); });
      for (TSNode ch : namedChildren(n)) {
        if (ts_node_eq(ch, body)) continue;
        if (is(ch, "finally_clause")) visit(ch, c, depth + 1);  // always runs
        else branch(c, ch, [&] { visit(ch, c, depth + 1); });
      }
      return;
    }
    if (ty == "except_clause") {
      TSNode alias = field(n, "alias");
      if (!ts_node_is_null(alias)) {
        effectiveAt_ = ts_node_end_byte(alias);
        bindTarget(alias, TSNode{}, n, c, Binding::Other, "an exception", 0);
        effectiveAt_ = 0;
      }
      for (TSNode ch : namedChildren(n))
        if (!ts_node_eq(ch, alias)) visit(ch, c, depth + 1);
      return;
    }
    if (ty == "with_item") {
      TSNode v = field(n, "value");
      visit(v, c, depth + 1);
      if (is(v, "as_pattern")) {
        TSNode alias = field(v, "alias");
        auto ch = namedChildren(v);
        TSNode expr = ch.empty() ? TSNode{} : ch[0];
        TSNode target = alias;
        if (is(target, "as_pattern_target") && ts_node_named_child_count(target) == 1)
          target = ts_node_named_child(target, 0);
        bindTarget(target, expr, n, c, Binding::Assign, "", 0);
      }
      return;
    }
    if (ty == "match_statement") {
      TSNode subject = field(n, "subject");
      visit(subject, c, depth + 1);
      TSNode body = field(n, "body");
      for (TSNode cc : namedChildren(body)) {
        if (!is(cc, "case_clause")) continue;
        std::string pats;
        for (TSNode p : namedChildren(cc))
          if (is(p, "case_pattern")) pats += (pats.empty() ? "" : ", ") + str(p);
        size_t mark = c.conds.size();
        if (pats != "_") pushCond(c, TSNode{}, false, "match " + str(subject) + ": case " + pats);
        TSNode cons = field(cc, "consequence");
        branch(c, cc, [&] { visit(cons, c, depth + 1); });
        c.conds.resize(mark);
      }
      return;
    }
    if (ty == "conditional_expression") {
      auto ch = namedChildren(n);
      if (ch.size() == 3) {
        visit(ch[1], c, depth + 1);
        size_t mark = c.conds.size();
        pushCond(c, ch[1], false);
        branch(c, ch[0], [&] { visit(ch[0], c, depth + 1); });
        c.conds.resize(mark);
        pushCond(c, ch[1], true);
        branch(c, ch[2], [&] { visit(ch[2], c, depth + 1); });
        c.conds.resize(mark);
        return;
      }
    }
    if (ty == "assignment") return visitAssignment(n, c, depth);
    if (ty == "augmented_assignment") {
      visit(field(n, "right"), c, depth + 1);
      bindTarget(field(n, "left"), TSNode{}, n, c, Binding::Other, "changed by an augmented assignment", 0);
      return;
    }
    if (ty == "named_expression") {
      visit(field(n, "value"), c, depth + 1);
      bindTarget(field(n, "name"), field(n, "value"), n, c, Binding::Assign, "", 0);
      return;
    }
    if (ty == "import_statement" || ty == "import_from_statement") return visitImport(n, c);
    if (ty == "call") {
      TSNode fn = field(n, "function");
      visit(fn, c, depth + 1);  // the receiver chain first: source order of chained calls
      if (is(fn, "attribute")) {
        std::string_view m = t_.text(field(fn, "attribute"));
        if (m == "param") record(Event::Param, n, c);
        else if (m == "ptr" || m == "scalar" || m == "extend") record(Event::SigMethod, n, c);
      }
      visit(field(n, "arguments"), c, depth + 1);
      return;
    }
    if (ty == "return_statement") {
      record(Event::Return, n, c);
      for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
      return;
    }
    if (ty == "list_comprehension" || ty == "set_comprehension" || ty == "dictionary_comprehension" ||
        ty == "generator_expression") {
      // Own scope; any call inside runs zero or more times.
      branch(c, n, [&] {
        for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
      });
      return;
    }
    for (TSNode ch : namedChildren(n)) visit(ch, c, depth + 1);
  }
};

// ---------------------------------------------------------------------------------------------
// Resolution

struct Loops {
  const std::vector<LoopVar>* v = nullptr;
  size_t n = 0;  // only v[0..n) are visible
};

class Resolver {
 public:
  Resolver(const SyntaxTree& t, const Scope& module) : t_(t), module_(module) {}

  Value expr(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
    if (ts_node_is_null(e)) return Value::unknown("missing");
    if (depth > kMaxResolveDepth || --budget_ < 0) return Value::unknown("too deep to resolve");
    std::string_view ty = type(e);
    if (ty == "identifier") return name(std::string(t_.text(e)), s, u, loops, depth + 1);
    if (ty == "parenthesized_expression") {
      auto ch = namedChildren(e);
      if (ch.size() == 1) return expr(ch[0], s, u, loops, depth + 1);
      return Value::unknown("");
    }
    if (ty == "attribute") {
      Value obj = expr(field(e, "object"), s, u, loops, depth + 1);
      std::string attr(t_.text(field(e, "attribute")));
      if (obj.k == VK::Module || (obj.k == VK::Unknown && obj.unbound)) {
        if (auto k = knownName(attr)) return *k;
        Value m = Value::of(VK::Module);
        m.str = obj.k == VK::Module ? obj.str : "";
        return m;
      }
      return Value::unknown("");
    }
    if (ty == "call") {
      TSNode fn = field(e, "function");
      Value f = expr(fn, s, u, loops, depth + 1);
      if (f.k == VK::PtrCtor) return Value::of(VK::PtrType);
      if (f.k == VK::IRBuilderCtor) return Value::of(VK::IRBuilder);
      if (f.k == VK::SigCtor) return Value::of(VK::Sig);
      std::string_view term;
      if (is(fn, "identifier")) term = t_.text(fn);
      else if (is(fn, "attribute")) term = t_.text(field(fn, "attribute"));
      if (f.k == VK::Unknown || f.k == VK::Module) {
        if (term == "PtrType") return Value::of(VK::PtrType);
        if (term == "IRBuilder") return Value::of(VK::IRBuilder);
        if (term == "SignatureBuilder") return Value::of(VK::Sig);
      }
      if (is(fn, "attribute") && (term == "ptr" || term == "scalar" || term == "extend")) {
        Value recv = expr(field(fn, "object"), s, u, loops, depth + 1);
        if (recv.k == VK::Sig) return Value::of(VK::Sig);
      }
      return Value::unknown("");
    }
    if (ty == "string") {
      if (auto sv = stringValue(e, s, u, loops, depth)) {
        Value v = Value::of(VK::Str);
        v.str = std::move(*sv);
        return v;
      }
      return Value::unknown("");
    }
    if (ty == "concatenated_string") {
      std::string all;
      for (TSNode ch : namedChildren(e)) {
        if (!is(ch, "string")) continue;
        auto sv = stringValue(ch, s, u, loops, depth);
        if (!sv) return Value::unknown("");
        all += *sv;
      }
      Value v = Value::of(VK::Str);
      v.str = std::move(all);
      return v;
    }
    if (ty == "binary_operator") {
      if (t_.text(field(e, "operator")) != "+") return Value::unknown("");
      Value a = expr(field(e, "left"), s, u, loops, depth + 1);
      Value b = expr(field(e, "right"), s, u, loops, depth + 1);
      if (a.k == VK::Str && b.k == VK::Str) {
        a.str += b.str;
        return a;
      }
      return Value::unknown("");
    }
    if (ty == "conditional_expression") {
      auto ch = namedChildren(e);
      if (ch.size() != 3) return Value::unknown("");
      Value a = expr(ch[0], s, u, loops, depth + 1);
      Value b = expr(ch[2], s, u, loops, depth + 1);
      if (sameValue(a, b)) return a;
      return Value::unknown("depends on " + clip(t_.text(ch[1]), 60));
    }
    return Value::unknown("");
  }

  Value name(const std::string& n, const Scope& s, Use u, Loops loops, int depth) {
    if (depth > kMaxResolveDepth || --budget_ < 0) return Value::unknown("too deep to resolve");
    if (loops.v) {
      for (size_t i = loops.n; i-- > 0;) {
        const LoopVar& lv = (*loops.v)[i];
        if (lv.name == n) {
          Path p = *u.path;
          return expr(lv.elem, s, Use{lv.pos, &p}, Loops{loops.v, i}, depth + 1);
        }
      }
    }
    bool anyLocal = false;
    auto cs = candidates(s, n, u, &anyLocal);
    const Scope* where = &s;
    if (cs.empty()) {
      if (anyLocal && !s.isModule) return Value::unknown("used before it is assigned");
      if (!s.isModule && s.parent) {
        static const Path kEmpty;
        where = s.parent;
        cs = candidates(*s.parent, n, Use{UINT32_MAX, &kEmpty}, nullptr);
      }
    }
    if (cs.empty()) {
      if (auto k = knownName(n)) return *k;
      return Value::unknown("never bound", true);
    }
    std::optional<Value> agreed;
    for (const Binding* b : cs) {
      Value v = valueOf(*b, *where, depth + 1);
      if (v.k == VK::Unknown) return v;
      if (!agreed) agreed = v;
      else if (!sameValue(*agreed, v)) return Value::unknown("assigned differently on different paths");
    }
    return *agreed;
  }

  // Single alias target for condition rewriting: the expression a local name stands for.
  TSNode aliasOf(const std::string& n, const Scope& s, Use u, const Binding** which) {
    bool anyLocal = false;
    auto cs = candidates(s, n, u, &anyLocal);
    if (cs.empty()) return TSNode{};
    for (const Binding* b : cs)
      if (b->kind != Binding::Assign || t_.text(b->value) != t_.text(cs[0]->value)) return TSNode{};
    *which = cs[0];
    return cs[0]->value;
  }

  long budget() const { return budget_; }

 private:
  const SyntaxTree& t_;
  const Scope& module_;
  long budget_ = kResolveBudget;
  std::unordered_map<const Binding*, Value> memo_;
  std::unordered_set<const Binding*> inProgress_;

  Value valueOf(const Binding& b, const Scope& s, int depth) {
    if (auto it = memo_.find(&b); it != memo_.end()) return it->second;
    if (inProgress_.count(&b)) return Value::unknown("defined in terms of itself");
    inProgress_.insert(&b);
    Value v;
    switch (b.kind) {
      case Binding::Assign: {
        v = expr(b.value, s, Use{b.stmtStart, &b.path}, Loops{}, depth + 1);
        if (v.k == VK::Unknown && !is(b.value, "identifier") && v.str != "too deep to resolve" &&
            v.str.rfind("assigned differently", 0) != 0)
          v.str = "assigned from " + clip(t_.text(b.value), 80);
        v.unbound = false;
        break;
      }
      case Binding::ImportName:
        if (auto k = knownName(b.what)) v = *k;
        else {
          v = Value::of(VK::Module);
          v.str = "imported from " + b.from;
        }
        break;
      case Binding::ImportModule:
        v = Value::of(VK::Module);
        v.str = "module " + b.what;
        break;
      case Binding::Param:
        v = Value::unknown("a parameter of " + s.fnName);
        break;
      case Binding::Loop:
      case Binding::Other:
        v = Value::unknown(b.what);
        break;
    }
    inProgress_.erase(&b);
    if (v.str != "too deep to resolve") memo_[&b] = v;
    return v;
  }

  // The value of a string literal; f-strings whose interpolations resolve to strings too.
  std::optional<std::string> stringValue(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
    std::string out;
    for (TSNode ch : children(e)) {
      std::string_view ty = type(ch);
      if (ty == "string_start" || ty == "string_end") continue;
      if (ty == "string_content") out += std::string(t_.text(ch));
      else if (ty == "interpolation") {
        if (!ts_node_is_null(field(ch, "format_specifier")) || !ts_node_is_null(field(ch, "type_conversion")))
          return std::nullopt;
        Value v = expr(field(ch, "expression"), s, u, loops, depth + 1);
        if (v.k != VK::Str) return std::nullopt;
        out += v.str;
      } else if (ty == "escape_sequence") {
        out += std::string(t_.text(ch));
      }
    }
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// Functions of the module

struct Fn {
  std::string name;   // "build_x" or "Class.method"
  std::string bare;   // "build_x" / "method"
  std::string cls;    // "" or "Class" (qualified for nested classes)
  TSNode def, nameNode;
};

void collectFunctions(const SyntaxTree& t, TSNode n, const std::string& cls, std::vector<Fn>& out, int depth) {
  if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
  for (TSNode ch : namedChildren(n)) {
    std::string_view ty = type(ch);
    if (ty == "decorated_definition") {
      TSNode d = field(ch, "definition");
      if (!ts_node_is_null(d)) ch = d, ty = type(ch);
    }
    if (ty == "function_definition") {
      TSNode nm = field(ch, "name");
      if (ts_node_is_null(nm)) continue;
      std::string bare(t.text(nm));
      out.push_back(Fn{cls.empty() ? bare : cls + "." + bare, bare, cls, ch, nm});
    } else if (ty == "class_definition") {
      TSNode nm = field(ch, "name");
      std::string c(t.text(nm));
      collectFunctions(t, field(ch, "body"), cls.empty() ? c : cls + "." + c, out, depth + 1);
    } else if (ty == "if_statement" || ty == "try_statement" || ty == "with_statement" || ty == "for_statement" ||
               ty == "while_statement" || ty == "block" || ty == "elif_clause" || ty == "else_clause" ||
               ty == "except_clause" || ty == "except_group_clause" || ty == "finally_clause" || ty == "ERROR" ||
               ty == "match_statement" || ty == "case_clause") {
      collectFunctions(t, ch, cls, out, depth + 1);
    }
  }
}

bool isBuiltinCall(std::string_view n) {
  static const std::string_view kBuiltins[] = {
      "int", "float", "str", "bool", "len", "tuple", "list", "dict", "set", "max", "min", "sorted",
      "getattr", "isinstance", "range", "sum", "any", "all", "abs", "round", "type", "super", "print",
      "repr", "hash", "id", "iter", "next", "zip", "enumerate", "map", "filter", "frozenset", "object"};
  for (auto b : kBuiltins)
    if (b == n) return true;
  return false;
}

struct ReturnTarget {
  TSNode ret;
  TSNode callee;
  std::string guard;
  Path path;
};

struct FnFacts {
  std::vector<KernelArg> params;  // own b.param list
  bool hasParams = false;
  std::vector<KernelArg> sigArgs;
  bool hasSig = false;
  std::vector<ReturnTarget> returns;  // early returns (before the first b.param) of calls
};

struct BuilderInfo {
  enum State { New, Busy, Done } state = New;
  bool isBuilder = false;
  std::vector<PyAbi> abis;
  std::vector<std::string> unresolved;
  uint64_t fingerprint = 0;
};

class ModuleExtractor {
 public:
  ModuleExtractor(const SyntaxTree& t) : t_(t), resolver_(t, module_) {}

  void run(std::vector<PyBuilder>& out) {
    TSNode root = t_.root();
    module_.isModule = true;
    {
      Walker w(t_, module_, nullptr, &module_);
      w.walkModule(root);
    }
    collectFunctions(t_, root, "", fns_, 0);
    facts_.resize(fns_.size());
    info_.resize(fns_.size());
    scopes_.resize(fns_.size());
    for (size_t i = 0; i < fns_.size(); ++i) analyse(i);
    for (size_t i = 0; i < fns_.size(); ++i) {
      BuilderInfo& bi = builder(i, 0);
      if (bi.isBuilder) {
        PyBuilder b;
        b.name = fns_[i].name;
        b.style = PyBuilder::Style::Params;
        b.range = rangeOf(fns_[i].nameNode);
        b.bodyRange = rangeOf(fns_[i].def);
        b.abis = bi.abis;
        b.unresolvedReturns = bi.unresolved;
        b.fingerprint = bi.fingerprint;
        out.push_back(std::move(b));
      }
      if (facts_[i].hasSig) {
        PyBuilder b;
        b.name = fns_[i].name;
        b.style = PyBuilder::Style::SignatureBuilder;
        b.range = rangeOf(fns_[i].nameNode);
        b.bodyRange = rangeOf(fns_[i].def);
        b.abis.push_back(PyAbi{fns_[i].name, "", facts_[i].sigArgs});
        b.fingerprint = codeFingerprint(t_, fns_[i].def);
        out.push_back(std::move(b));
      }
    }
  }

 private:
  const SyntaxTree& t_;
  Scope module_;
  Resolver resolver_;
  std::vector<Fn> fns_;
  std::vector<FnFacts> facts_;
  std::vector<BuilderInfo> info_;
  std::vector<std::unique_ptr<Scope>> scopes_;
  long condBudget_ = 200000;  // condText calls per module

  std::string text(TSNode n) const { return std::string(t_.text(n)); }

  // Condition text with local aliases (and literal loop variables) replaced.
  std::string condText(TSNode cond, const Scope& s, Use u, const Ctx* ctx, int depth) {
    std::string src = text(cond);
    if (depth > 8 || --condBudget_ < 0) return src;
    uint32_t base = ts_node_start_byte(cond);
    std::vector<std::pair<TSNode, std::string>> repl;
    walk(cond, [&](TSNode n) {
      if (repl.size() > 64) return false;
      if (is(n, "lambda")) return false;
      if (!is(n, "identifier")) return true;
      TSNode parent = ts_node_parent(n);
      if (is(parent, "attribute") && ts_node_eq(field(parent, "attribute"), n)) return false;
      if (is(parent, "keyword_argument") && ts_node_eq(field(parent, "name"), n)) return false;
      std::string nm = text(n);
      if (ctx) {
        for (size_t i = ctx->loops.size(); i-- > 0;)
          if (ctx->loops[i].name == nm) {
            repl.emplace_back(n, text(ctx->loops[i].elem));
            return false;
          }
      }
      if (s.isModule) return false;
      const Binding* b = nullptr;
      TSNode v = resolver_.aliasOf(nm, s, u, &b);
      if (ts_node_is_null(v) || !b) return false;
      std::string r = condText(v, s, Use{b->stmtStart, &b->path}, nullptr, depth + 1);
      static const std::set<std::string_view> kAtomic = {
          "identifier", "attribute", "call", "subscript", "string", "integer", "float", "true", "false",
          "none", "parenthesized_expression", "list", "tuple", "dictionary", "concatenated_string"};
      if (!kAtomic.count(type(v))) r = "(" + r + ")";
      repl.emplace_back(n, std::move(r));
      return false;
    });
    if (repl.empty()) return src;
    std::string out;
    uint32_t at = 0;
    for (auto& [n, r] : repl) {
      uint32_t b = ts_node_start_byte(n) - base, e = ts_node_end_byte(n) - base;
      if (b < at || e > src.size()) continue;
      out += src.substr(at, b - at);
      out += r;
      at = e;
    }
    out += src.substr(std::min<size_t>(at, src.size()));
    if (out.size() > 2000) return src;  // aliases of aliases blowing up: keep the text as written
    return out;
  }

  std::string conditionOf(const Ctx& c, const Scope& s) {
    std::string out;
    for (const Cond& k : c.conds) {
      std::string piece;
      if (ts_node_is_null(k.node)) piece = k.text;
      else piece = condText(k.node, s, Use{k.use.pos, k.path.get()}, &c, 0);
      if (k.negate) piece = "not (" + piece + ")";
      if (!out.empty()) out += " and ";
      out += piece;
    }
    return out;
  }

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

  Args argsOf(TSNode call) {
    Args a;
    TSNode al = field(call, "arguments");
    if (!is(al, "argument_list")) return a;
    for (TSNode ch : namedChildren(al)) {
      if (is(ch, "keyword_argument")) a.kw.emplace_back(text(field(ch, "name")), field(ch, "value"));
      else if (is(ch, "comment") || is(ch, "list_splat") || is(ch, "dictionary_splat")) continue;
      else a.pos.push_back(ch);
    }
    return a;
  }

  static void unresolve(KernelArg& a, const std::string& why) {
    a.resolved = false;
    if (!a.unresolvedReason.empty()) a.unresolvedReason += "; ";
    a.unresolvedReason += why;
  }

  // Name of an argument from its expression (literal, loop variable, local string).
  void setName(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops, const char* what) {
    if (ts_node_is_null(e)) {
      unresolve(a, std::string(what) + " call has no name argument");
      return;
    }
    Value v = resolver_.expr(e, s, u, loops, 0);
    if (v.k == VK::Str) a.name = v.str;
    else {
      a.name = text(e);
      unresolve(a, "parameter name '" + clip(a.name, 80) + "' is not a literal string");
    }
  }

  // Kind and size of an IR type expression (b.param's second argument).
  void setType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops) {
    if (ts_node_is_null(e)) {
      unresolve(a, "b.param call has no type argument");
      return;
    }
    a.typeText = text(e);
    if (is(e, "identifier") && loops.v)
      for (size_t i = loops.n; i-- > 0;)
        if ((*loops.v)[i].name == a.typeText) {
          a.typeText = text((*loops.v)[i].elem);
          break;
        }
    Value v = resolver_.expr(e, s, u, loops, 0);
    if (v.k == VK::PtrType) {
      a.kind = "global_buffer";
      a.size = 8;
    } else if (v.k == VK::Scalar) {
      a.kind = "by_value";
      a.size = v.size;
    } else {
      a.kind.clear();
      a.size = 0;
      std::string why = v.k == VK::Unknown ? v.str : v.k == VK::Module ? v.str : "not a type";
      unresolve(a, "type '" + clip(text(e), 80) + "' could not be resolved" + (why.empty() ? "" : " (" + why + ")"));
    }
  }

  // Kind and size of a SignatureBuilder type: a string ("i32", "ptr<bf16,global>") or an IR type.
  void setSigType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops) {
    if (ts_node_is_null(e)) {
      unresolve(a, "no type argument");
      return;
    }
    a.typeText = text(e);
    Value v = resolver_.expr(e, s, u, loops, 0);
    if (v.k == VK::Str) {
      bool ptr = false;
      if (auto sz = typeStringSize(v.str, &ptr)) {
        a.kind = ptr ? "global_buffer" : "by_value";
        a.size = *sz;
        return;
      }
      unresolve(a, "type string '" + clip(v.str, 60) + "' is not a known type");
      return;
    }
    if (v.k == VK::Scalar) {
      a.kind = "by_value";
      a.size = v.size;
      return;
    }
    if (v.k == VK::PtrType) {
      a.kind = "global_buffer";
      a.size = 8;
      return;
    }
    std::string why = v.k == VK::Unknown || v.k == VK::Module ? v.str : "";
    unresolve(a, "type '" + clip(text(e), 80) + "' could not be resolved" + (why.empty() ? "" : " (" + why + ")"));
  }

  void conditionInto(KernelArg& a, const Ctx& c, const Scope& s) {
    if (c.conds.empty()) return;
    a.conditional = true;
    a.condition = conditionOf(c, s);
  }

  void sigMethod(const Event& ev, const Scope& s, FnFacts& f) {
    TSNode call = ev.node, fn = field(call, "function");
    Use u{ts_node_start_byte(call), &ev.ctx.path};
    Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
    Value recv = resolver_.expr(field(fn, "object"), s, u, loops, 0);
    if (recv.k != VK::Sig) return;
    f.hasSig = true;
    std::string m = text(field(fn, "attribute"));
    Args args = argsOf(call);
    // A chained call's node starts at the chain's root: the range starts at the method name.
    SourceRange callRange = rangeOf(call);
    SourceRange nameRange = rangeOf(field(fn, "attribute"));
    callRange.line = nameRange.line;
    callRange.col = nameRange.col;
    if (m == "ptr" || m == "scalar") {
      KernelArg a;
      a.range = callRange;
      setName(a, args.get(0, {"name"}), s, u, loops, m.c_str());
      TSNode ty = args.get(1, {"dtype", "type", "ty", "elem", "pointee"});
      if (m == "ptr") {
        a.kind = "global_buffer";
        a.size = 8;
        a.typeText = "ptr(" + text(ty) + ")";
      } else {
        setSigType(a, ty, s, u, loops);
      }
      conditionInto(a, ev.ctx, s);
      f.sigArgs.push_back(std::move(a));
      return;
    }
    // extend(list): dicts {"name": .., "type": ..} or (name, type) pairs
    TSNode list = args.get(0, {"args", "items", "entries"});
    std::optional<std::vector<TSNode>> elems = literalList(list, s, u, loops, 0);
    if (!elems) {
      KernelArg a;
      a.range = callRange;
      a.name = text(list);
      unresolve(a, "extend(" + clip(text(list), 60) + ") is not a literal list");
      conditionInto(a, ev.ctx, s);
      f.sigArgs.push_back(std::move(a));
      return;
    }
    for (TSNode el : *elems) {
      KernelArg a;
      a.range = rangeOf(el);
      TSNode nameE{}, typeE{};
      TSNode x = el;
      if (is(x, "parenthesized_expression") && ts_node_named_child_count(x) == 1) x = ts_node_named_child(x, 0);
      if (is(x, "dictionary")) {
        for (TSNode p : namedChildren(x)) {
          if (!is(p, "pair")) continue;
          Value k = resolver_.expr(field(p, "key"), s, u, loops, 0);
          if (k.k != VK::Str) continue;
          if (k.str == "name") nameE = field(p, "value");
          else if (k.str == "type") typeE = field(p, "value");
        }
      } else if (is(x, "tuple") || is(x, "list")) {
        auto ch = namedChildren(x);
        if (ch.size() >= 2) nameE = ch[0], typeE = ch[1];
      }
      if (ts_node_is_null(nameE) && ts_node_is_null(typeE)) {
        a.name = text(el);
        unresolve(a, "extend element '" + clip(text(el), 60) + "' is not a {name, type} entry");
      } else {
        setName(a, nameE, s, u, loops, "extend");
        setSigType(a, typeE, s, u, loops);
      }
      conditionInto(a, ev.ctx, s);
      f.sigArgs.push_back(std::move(a));
    }
  }

  std::optional<std::vector<TSNode>> literalList(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
    if (depth > 32 || ts_node_is_null(e)) return std::nullopt;
    if (is(e, "parenthesized_expression") && ts_node_named_child_count(e) == 1)
      return literalList(ts_node_named_child(e, 0), s, u, loops, depth + 1);
    if (is(e, "list") || is(e, "tuple")) return literalElements(e);
    if (is(e, "identifier")) {
      std::string n = text(e);
      bool anyLocal = false;
      auto cs = candidates(s, n, u, &anyLocal);
      const Scope* where = &s;
      static const Path kEmpty;
      if (cs.empty() && !anyLocal && s.parent) {
        where = s.parent;
        cs = candidates(*s.parent, n, Use{UINT32_MAX, &kEmpty}, nullptr);
      }
      if (cs.size() != 1 || cs[0]->kind != Binding::Assign) return std::nullopt;
      return literalList(cs[0]->value, *where, Use{cs[0]->stmtStart, &cs[0]->path}, Loops{}, depth + 1);
    }
    if (is(e, "binary_operator") && t_.text(field(e, "operator")) == "+") {
      auto a = literalList(field(e, "left"), s, u, loops, depth + 1);
      auto b = literalList(field(e, "right"), s, u, loops, depth + 1);
      if (!a || !b) return std::nullopt;
      a->insert(a->end(), b->begin(), b->end());
      return a;
    }
    return std::nullopt;
  }

  void analyse(size_t i) {
    const Fn& fn = fns_[i];
    scopes_[i] = std::make_unique<Scope>();
    Scope& s = *scopes_[i];
    s.isModule = false;
    s.fnName = fn.name;
    s.parent = &module_;
    std::vector<Event> events;
    Walker w(t_, s, &events, &module_);
    w.walkFunction(fn.def);
    FnFacts& f = facts_[i];
    uint32_t firstParam = UINT32_MAX;
    std::set<uint32_t> returnsSeen;
    std::vector<const Event*> returns;
    for (const Event& ev : events) {
      if (resolver_.budget() < 0) break;
      Use u{ts_node_start_byte(ev.node), &ev.ctx.path};
      Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
      switch (ev.type) {
        case Event::Param: {
          TSNode fnNode = field(ev.node, "function");
          Value recv = resolver_.expr(field(fnNode, "object"), s, u, loops, 0);
          if (recv.k != VK::IRBuilder) break;
          Args args = argsOf(ev.node);
          KernelArg a;
          a.range = rangeOf(ev.node);
          setName(a, args.get(0, {"name"}), s, u, loops, "b.param");
          setType(a, args.get(1, {"type", "ty", "dtype", "param_type"}), s, u, loops);
          conditionInto(a, ev.ctx, s);
          f.params.push_back(std::move(a));
          f.hasParams = true;
          firstParam = std::min(firstParam, ts_node_start_byte(ev.node));
          break;
        }
        case Event::SigMethod:
          sigMethod(ev, s, f);
          break;
        case Event::Return:
          if (returnsSeen.insert(ts_node_start_byte(ev.node)).second) returns.push_back(&ev);
          break;
      }
    }
    for (const Event* ev : returns) {
      if (ts_node_start_byte(ev->node) >= firstParam) continue;
      auto vals = namedChildren(ev->node);
      if (vals.size() != 1 || !is(vals[0], "call")) continue;
      TSNode callee = field(vals[0], "function");
      if (!is(callee, "identifier") && !is(callee, "attribute")) continue;
      f.returns.push_back(ReturnTarget{ev->node, callee, conditionOf(ev->ctx, s), ev->ctx.path});
    }
  }

  // The function a return's callee names in this module, or -1.
  long lookup(const Fn& from, TSNode callee) {
    std::string want;
    if (is(callee, "identifier")) want = text(callee);
    else if (is(callee, "attribute")) {
      TSNode obj = field(callee, "object");
      std::string o = text(obj), attr = text(field(callee, "attribute"));
      if (!from.cls.empty() && (o == "self" || o == "cls")) want = from.cls + "." + attr;
      else if (is(obj, "identifier")) {
        // Class.method of a class in this module
        bool isClass = false;
        for (const Fn& f : fns_)
          if (f.cls == o) { isClass = true; break; }
        if (isClass) want = o + "." + attr;
      }
    }
    if (want.empty()) return -1;
    long found = -1;
    for (size_t j = 0; j < fns_.size(); ++j)
      if (fns_[j].name == want) found = static_cast<long>(j);  // the last definition wins
    return found;
  }

  BuilderInfo& builder(size_t i, int depth) {
    BuilderInfo& bi = info_[i];
    if (bi.state != BuilderInfo::New) return bi;
    bi.state = BuilderInfo::Busy;
    const Fn& fn = fns_[i];
    const FnFacts& f = facts_[i];
    std::vector<PyAbi> abis;
    std::vector<std::string> unresolved;
    uint64_t fp = codeFingerprint(t_, fn.def);
    if (f.hasParams) abis.push_back(PyAbi{fn.name, "", f.params});
    bool anyTarget = false;
    for (const ReturnTarget& r : f.returns) {
      long j = depth < 64 ? lookup(fn, r.callee) : -1;
      if (j >= 0) {
        if (info_[j].state == BuilderInfo::Busy) continue;  // a cycle
        BuilderInfo& tb = builder(static_cast<size_t>(j), depth + 1);
        if (!tb.isBuilder) continue;
        anyTarget = true;
        for (const PyAbi& a : tb.abis) {
          PyAbi c = a;
          if (!r.guard.empty()) c.guard = a.guard.empty() ? r.guard : r.guard + " and " + a.guard;
          abis.push_back(std::move(c));
        }
        for (const std::string& u : tb.unresolved)
          if (std::find(unresolved.begin(), unresolved.end(), u) == unresolved.end()) unresolved.push_back(u);
        uint64_t tfp = tb.fingerprint;
        fp = fnv1a(std::string_view(reinterpret_cast<const char*>(&tfp), sizeof tfp), fp);
        continue;
      }
      // Not a function of this module: a builder elsewhere, unless it is a builtin or a method
      // of the builder objects (b.build(), sig.build()).
      std::string term = is(r.callee, "identifier") ? text(r.callee) : text(field(r.callee, "attribute"));
      if (is(r.callee, "identifier") && isBuiltinCall(term)) continue;
      Use ru{ts_node_start_byte(r.ret), &r.path};
      Value cv = resolver_.expr(r.callee, *scopes_[i], ru, Loops{}, 0);
      if (cv.k == VK::PtrCtor || cv.k == VK::IRBuilderCtor || cv.k == VK::SigCtor) continue;
      if (is(r.callee, "attribute")) {
        Value recv = resolver_.expr(field(r.callee, "object"), *scopes_[i], ru, Loops{}, 0);
        if (recv.k == VK::IRBuilder || recv.k == VK::Sig) continue;
      }
      std::string name = clip(text(r.callee), 120);
      if (std::find(unresolved.begin(), unresolved.end(), name) == unresolved.end()) unresolved.push_back(name);
    }
    bi.isBuilder = f.hasParams || anyTarget;
    bi.abis = std::move(abis);
    bi.unresolved = std::move(unresolved);
    bi.fingerprint = fp;
    bi.state = BuilderInfo::Done;
    return bi;
  }
};

// ---------------------------------------------------------------------------------------------
// Module facts (PyModuleFacts): definitions, imports and the names each definition uses.

PyRange pyRange(TSNode n) {
  TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
  return PyRange{a.row, a.column, b.row, b.column};
}

bool isTargetContainer(std::string_view ty) {
  return ty == "pattern_list" || ty == "tuple_pattern" || ty == "list_pattern" || ty == "tuple" || ty == "list" ||
         ty == "parenthesized_expression" || ty == "expression_list" || ty == "list_splat_pattern" ||
         ty == "list_splat" || ty == "as_pattern_target";
}

class ModuleFactsBuilder {
 public:
  ModuleFactsBuilder(const SyntaxTree& t, PyModuleFacts& out) : t_(t), out_(out) {}

  void run() { statements(t_.root(), 0); }

 private:
  const SyntaxTree& t_;
  PyModuleFacts& out_;
  std::set<std::string> moduleRefSeen_;

  std::string str(TSNode n) const { return std::string(t_.text(n)); }

  // Statements of the module's top level (and of module-level if/try/with/for/while bodies).
  void statements(TSNode n, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    for (TSNode ch : namedChildren(n)) statement(ch, depth + 1);
  }

  void statement(TSNode ch, int depth) {
    if (depth > kMaxVisitDepth) return;
    std::string_view ty = type(ch);
    TSNode outer = ch;
    if (ty == "decorated_definition") {
      TSNode d = field(ch, "definition");
      if (ts_node_is_null(d)) return;
      ch = d;
      ty = type(ch);
    }
    if (ty == "function_definition") {
      addFunction(ch, outer, "", depth);
    } else if (ty == "class_definition") {
      addClass(ch, outer, "", depth);
    } else if (ty == "import_statement" || ty == "import_from_statement" || ty == "future_import_statement") {
      addImports(ch, "");
    } else if (ty == "expression_statement" && assignmentOf(ch)) {
      addAssign(ch, "", depth);
    } else if (ty == "if_statement" || ty == "elif_clause" || ty == "while_statement") {
      moduleRefs(field(ch, "condition"));
      for (TSNode c : namedChildren(ch))
        if (is(c, "block") || is(c, "elif_clause") || is(c, "else_clause")) statement(c, depth + 1);
    } else if (ty == "for_statement") {
      moduleRefs(field(ch, "right"));
      statement(field(ch, "body"), depth + 1);
      TSNode alt = field(ch, "alternative");
      if (!ts_node_is_null(alt)) statement(alt, depth + 1);
    } else if (ty == "with_statement") {
      for (TSNode c : namedChildren(ch)) {
        if (is(c, "with_clause")) moduleRefs(c);
        else if (is(c, "block")) statement(c, depth + 1);
      }
    } else if (ty == "try_statement" || ty == "block" || ty == "else_clause" || ty == "finally_clause" ||
               ty == "except_clause" || ty == "except_group_clause" || ty == "ERROR" || ty == "match_statement" ||
               ty == "case_clause") {
      for (TSNode c : namedChildren(ch)) {
        std::string_view ct = type(c);
        if (ct == "block" || ct == "except_clause" || ct == "except_group_clause" || ct == "else_clause" ||
            ct == "finally_clause" || ct == "case_clause" || ct == "ERROR" || ct == "function_definition" ||
            ct == "class_definition" || ct == "decorated_definition" || ct == "expression_statement" ||
            ct == "import_statement" || ct == "import_from_statement" || ct == "if_statement" ||
            ct == "try_statement" || ct == "with_statement" || ct == "for_statement")
          statement(c, depth + 1);
        else if (ct != "comment")
          moduleRefs(c);
      }
    } else if (ty != "comment") {
      moduleRefs(ch);
    }
  }

  static bool assignmentOf(TSNode stmt) { return !ts_node_is_null(assignmentOfNode(stmt)); }
  static TSNode assignmentOfNode(TSNode stmt) {
    for (TSNode c : namedChildren(stmt))
      if (is(c, "assignment")) return c;
    return TSNode{};
  }

  void moduleRefs(TSNode n) {
    if (ts_node_is_null(n)) return;
    std::vector<std::string> refs;
    std::set<std::string> seen;
    collectRefs(n, {}, refs, seen, nullptr, 0);
    for (auto& r : refs)
      if (moduleRefSeen_.insert(r).second) out_.moduleRefs.push_back(r);
  }

  std::string paramsText(TSNode params) const {
    if (ts_node_is_null(params)) return "";
    std::string out;
    // leaves in order, comments skipped; a space after each comma
    std::function<void(TSNode, int)> leaves = [&](TSNode n, int d) {
      if (d > 200) return;
      if (is(n, "comment")) return;
      uint32_t cc = ts_node_child_count(n);
      if (cc == 0 || is(n, "string")) {
        out += t_.text(n);
        if (t_.text(n) == ",") out += ' ';
        return;
      }
      for (uint32_t i = 0; i < cc; ++i) leaves(ts_node_child(n, i), d + 1);
    };
    leaves(params, 0);
    // "(a, b, )" -> "(a, b,)"
    std::string clean;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == ' ' && i + 1 < out.size() && out[i + 1] == ')') continue;
      clean += out[i];
    }
    return clean;
  }

  // Names bound inside a definition (parameters, assignment targets, loop and with targets,
  // nested defs); `global`/`nonlocal` names are not local.
  void collectLocals(TSNode n, std::set<std::string>& locals, std::set<std::string>& globals, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    std::string_view ty = type(n);
    auto targets = [&](TSNode x) { bindTargets(x, locals, 0); };
    if (ty == "parameters" || ty == "lambda_parameters") {
      for (TSNode p : namedChildren(n)) {
        if (is(p, "identifier")) locals.insert(str(p));
        else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
          TSNode nm = field(p, "name");
          if (is(nm, "identifier")) locals.insert(str(nm));
          collectLocals(field(p, "value"), locals, globals, depth + 1);
        } else {
          for (TSNode c : namedChildren(p)) {
            if (is(c, "identifier")) { locals.insert(str(c)); break; }
            if (is(c, "list_splat_pattern") || is(c, "dictionary_splat_pattern"))
              for (TSNode g : namedChildren(c))
                if (is(g, "identifier")) locals.insert(str(g));
          }
          if (is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern"))
            for (TSNode g : namedChildren(p))
              if (is(g, "identifier")) locals.insert(str(g));
        }
      }
      return;
    }
    if (ty == "assignment" || ty == "augmented_assignment") targets(field(n, "left"));
    else if (ty == "for_statement" || ty == "for_in_clause") targets(field(n, "left"));
    else if (ty == "named_expression") targets(field(n, "name"));
    else if (ty == "as_pattern") targets(field(n, "alias"));
    else if (ty == "function_definition" || ty == "class_definition") {
      TSNode nm = field(n, "name");
      if (is(nm, "identifier")) locals.insert(str(nm));
    } else if (ty == "global_statement" || ty == "nonlocal_statement") {
      for (TSNode c : namedChildren(n))
        if (is(c, "identifier")) globals.insert(str(c));
      return;
    } else if (ty == "except_clause" || ty == "except_group_clause") {
      bool afterAs = false;
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && t_.text(c) == "as") afterAs = true;
        else if (afterAs && is(c, "identifier")) { locals.insert(str(c)); afterAs = false; }
      }
    } else if (ty == "import_statement" || ty == "import_from_statement") {
      return;  // function-level imports are resolved by the graph (PyImport::function)
    }
    for (TSNode c : namedChildren(n)) collectLocals(c, locals, globals, depth + 1);
  }

  void bindTargets(TSNode x, std::set<std::string>& locals, int depth) {
    if (depth > 32 || ts_node_is_null(x)) return;
    if (is(x, "identifier")) { locals.insert(str(x)); return; }
    if (isTargetContainer(type(x)))
      for (TSNode c : namedChildren(x)) bindTargets(c, locals, depth + 1);
  }

  // The dotted chain of an attribute expression rooted at a name ("a.b.c"), or "".
  std::string chainOf(TSNode n, int depth = 0) const {
    if (depth > 64) return "";
    if (is(n, "identifier")) return str(n);
    if (is(n, "attribute")) {
      std::string o = chainOf(field(n, "object"), depth + 1);
      TSNode a = field(n, "attribute");
      if (o.empty() || ts_node_is_null(a)) return "";
      return o + "." + str(a);
    }
    return "";
  }

  // Names used under n: identifiers in load position not in `locals`, attribute chains rooted
  // at such a name (or at self/cls), each once. Attribute names read on other receivers go to
  // `members` when given.
  void collectRefs(TSNode n, const std::set<std::string>& locals, std::vector<std::string>& refs,
                   std::set<std::string>& seen, std::vector<std::string>* members, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    std::string_view ty = type(n);
    auto add = [&](std::string s) {
      if (!s.empty() && seen.insert(s).second) refs.push_back(std::move(s));
    };
    auto member = [&](TSNode attr) {
      if (!members || ts_node_is_null(attr)) return;
      std::string a = str(attr);
      if (std::find(members->begin(), members->end(), a) == members->end()) members->push_back(a);
    };
    if (ty == "comment" || ty == "string" || ty == "concatenated_string" || ty == "import_statement" ||
        ty == "import_from_statement" || ty == "future_import_statement" || ty == "global_statement" ||
        ty == "nonlocal_statement")
      return;
    if (ty == "identifier") {
      std::string s = str(n);
      if (!locals.count(s)) add(s);
      return;
    }
    if (ty == "attribute") {
      std::string chain = chainOf(n);
      if (!chain.empty()) {
        std::string root = chain.substr(0, chain.find('.'));
        if (!locals.count(root) || root == "self" || root == "cls") add(chain);
        else member(field(n, "attribute"));
        if (root == "self" || root == "cls") member(field(n, "attribute"));
        return;
      }
      member(field(n, "attribute"));
      collectRefs(field(n, "object"), locals, refs, seen, members, depth + 1);
      return;
    }
    if (ty == "keyword_argument") {
      collectRefs(field(n, "value"), locals, refs, seen, members, depth + 1);
      return;
    }
    if (ty == "function_definition" || ty == "class_definition") {
      for (TSNode c : namedChildren(n)) {
        if (ts_node_eq(c, field(n, "name"))) continue;
        collectRefs(c, locals, refs, seen, members, depth + 1);
      }
      return;
    }
    if (ty == "parameters" || ty == "lambda_parameters") {
      for (TSNode p : namedChildren(n)) {
        if (is(p, "default_parameter") || is(p, "typed_default_parameter"))
          collectRefs(field(p, "value"), locals, refs, seen, members, depth + 1);
        if (is(p, "typed_parameter") || is(p, "typed_default_parameter"))
          collectRefs(field(p, "type"), locals, refs, seen, members, depth + 1);
      }
      return;
    }
    for (TSNode c : namedChildren(n)) collectRefs(c, locals, refs, seen, members, depth + 1);
  }

  void addImports(TSNode n, const std::string& function) {
    uint32_t line = ts_node_start_point(n).row;
    if (is(n, "import_statement")) {
      for (TSNode ch : namedChildren(n)) {
        PyImport im;
        im.function = function;
        im.line = line;
        if (is(ch, "dotted_name")) {
          im.module = str(ch);
          im.alias = im.module.substr(0, im.module.find('.'));
        } else if (is(ch, "aliased_import")) {
          im.module = str(field(ch, "name"));
          im.alias = str(field(ch, "alias"));
        } else {
          continue;
        }
        out_.imports.push_back(std::move(im));
      }
      return;
    }
    TSNode mod = field(n, "module_name");
    std::string from = is(n, "future_import_statement") ? "__future__" : str(mod);
    from.erase(std::remove_if(from.begin(), from.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               from.end());
    for (TSNode ch : namedChildren(n)) {
      if (!ts_node_is_null(mod) && ts_node_eq(ch, mod)) continue;
      PyImport im;
      im.module = from;
      im.function = function;
      im.line = line;
      if (is(ch, "wildcard_import")) {
        im.name = "*";
      } else if (is(ch, "dotted_name")) {
        im.name = str(ch);
        im.alias = im.name;
      } else if (is(ch, "aliased_import")) {
        im.name = str(field(ch, "name"));
        im.alias = str(field(ch, "alias"));
      } else {
        continue;
      }
      out_.imports.push_back(std::move(im));
    }
  }

  // Imports anywhere inside a definition (not nested classes/defs recorded on their own).
  void functionImports(TSNode n, const std::string& function, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    if (is(n, "import_statement") || is(n, "import_from_statement")) {
      addImports(n, function);
      return;
    }
    for (TSNode c : namedChildren(n)) functionImports(c, function, depth + 1);
  }

  void addFunction(TSNode def, TSNode outer, const std::string& cls, int depth) {
    TSNode nm = field(def, "name");
    if (ts_node_is_null(nm)) return;
    PyDef d;
    d.kind = cls.empty() ? PyDef::Kind::Function : PyDef::Kind::Method;
    d.name = cls.empty() ? str(nm) : cls + "." + str(nm);
    d.params = paramsText(field(def, "parameters"));
    d.range = pyRange(outer);
    d.nameLine = ts_node_start_point(nm).row;
    d.fingerprint = codeFingerprint(t_, outer);
    std::set<std::string> locals, globals, seen;
    collectLocals(field(def, "parameters"), locals, globals, 0);
    collectLocals(field(def, "body"), locals, globals, 0);
    for (const auto& g : globals) locals.erase(g);
    std::vector<std::string> members;
    if (!ts_node_eq(outer, def))
      for (TSNode c : namedChildren(outer))
        if (is(c, "decorator")) collectRefs(c, {}, d.refs, seen, nullptr, 0);
    collectRefs(field(def, "parameters"), locals, d.refs, seen, &members, 0);
    collectRefs(field(def, "return_type"), {}, d.refs, seen, nullptr, 0);
    collectRefs(field(def, "body"), locals, d.refs, seen, &members, 0);
    d.members = std::move(members);
    functionImports(field(def, "body"), d.name, depth + 1);
    out_.defs.push_back(std::move(d));
  }

  void addClass(TSNode def, TSNode outer, const std::string& prefix, int depth) {
    if (depth > kMaxVisitDepth) return;
    TSNode nm = field(def, "name");
    if (ts_node_is_null(nm)) return;
    std::string name = prefix.empty() ? str(nm) : prefix + "." + str(nm);
    PyDef d;
    d.kind = PyDef::Kind::Class;
    d.name = name;
    d.range = pyRange(outer);
    d.nameLine = ts_node_start_point(nm).row;
    d.fingerprint = codeFingerprint(t_, outer);
    std::set<std::string> seen;
    if (!ts_node_eq(outer, def))
      for (TSNode c : namedChildren(outer))
        if (is(c, "decorator")) collectRefs(c, {}, d.refs, seen, nullptr, 0);
    TSNode supers = field(def, "superclasses");
    if (!ts_node_is_null(supers)) {
      for (TSNode b : namedChildren(supers)) {
        if (is(b, "keyword_argument") || is(b, "comment")) {
          collectRefs(b, {}, d.refs, seen, nullptr, 0);
          continue;
        }
        std::string c = chainOf(b);
        d.bases.push_back(c.empty() ? str(b) : c);
        collectRefs(b, {}, d.refs, seen, nullptr, 0);
      }
    }
    // The class body: members are their own defs; other statements are the class's refs.
    TSNode body = field(def, "body");
    size_t at = out_.defs.size();
    out_.defs.push_back(std::move(d));
    classBody(body, name, at, seen, depth + 1);
  }

  void classBody(TSNode body, const std::string& cls, size_t at, std::set<std::string>& seen, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(body)) return;
    for (TSNode ch : namedChildren(body)) {
      TSNode outer = ch, d = ch;
      if (is(ch, "decorated_definition")) d = field(ch, "definition");
      if (ts_node_is_null(d)) continue;
      if (is(d, "function_definition")) addFunction(d, outer, cls, depth);
      else if (is(d, "class_definition")) addClass(d, outer, cls, depth);
      else if (is(ch, "expression_statement") && !ts_node_is_null(assignmentOfNode(ch))) addAssign(ch, cls, depth);
      else if (is(ch, "if_statement") || is(ch, "try_statement") || is(ch, "with_statement") || is(ch, "block") ||
               is(ch, "else_clause") || is(ch, "elif_clause") || is(ch, "except_clause") || is(ch, "finally_clause")) {
        classBody(ch, cls, at, seen, depth + 1);
      } else if (is(ch, "import_statement") || is(ch, "import_from_statement")) {
        addImports(ch, cls);
      } else if (!is(ch, "comment")) {
        std::vector<std::string> refs;
        collectRefs(ch, {}, refs, seen, nullptr, 0);
        auto& r = out_.defs[at].refs;
        r.insert(r.end(), refs.begin(), refs.end());
      }
    }
  }

  void addAssign(TSNode stmt, const std::string& cls, int depth) {
    TSNode a = assignmentOfNode(stmt);
    if (ts_node_is_null(a)) return;
    std::vector<TSNode> lefts;
    TSNode value = a;
    int guard = 0;
    while (is(value, "assignment") && guard++ < 64) {
      lefts.push_back(field(value, "left"));
      value = field(value, "right");
    }
    std::set<std::string> names;
    for (TSNode l : lefts) bindTargets(l, names, 0);
    std::vector<std::string> refs;
    std::set<std::string> seen;
    collectRefs(value, {}, refs, seen, nullptr, 0);
    collectRefs(field(a, "type"), {}, refs, seen, nullptr, 0);
    uint64_t fp = codeFingerprint(t_, stmt);
    std::string alias = chainOf(value);
    for (const auto& n : names) {
      PyDef d;
      d.kind = PyDef::Kind::Assign;
      d.name = cls.empty() ? n : cls + "." + n;
      d.range = pyRange(stmt);
      d.nameLine = ts_node_start_point(stmt).row;
      d.fingerprint = fp;
      d.aliasOf = alias;
      d.refs = refs;
      out_.defs.push_back(std::move(d));
    }
  }
};

}  // namespace

void extractPython(const SyntaxTree& tree, FileFacts& out) {
  try {
    ModuleExtractor m(tree);
    std::vector<PyBuilder> found;
    m.run(found);
    out.builders.insert(out.builders.end(), std::make_move_iterator(found.begin()),
                        std::make_move_iterator(found.end()));
  } catch (...) {
    // Extraction must never throw: keep whatever was appended before the failure.
  }
  try {
    ModuleFactsBuilder(tree, out.module).run();
  } catch (...) {
  }
}

}  // namespace impact
