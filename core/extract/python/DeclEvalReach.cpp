// The builder evaluator (DeclEval.h): soundness (issue 36). The IRBuilder and everything derived
// from it (a bound `b.param`, a partial or closure over one, an object, list or dict holding one,
// a bound method of such an object) is tracked by `reach`; an operation the evaluator does not
// model that receives such a value opens the list where it runs (`openAt`), with the reason —
// what it declares is not guessed, and the list is never shorter than the truth without saying so.
#include <algorithm>
#include <set>

#include "extract/python/DeclEvalImpl.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Kw = std::vector<std::pair<std::string, AV>>;
constexpr int kMaxReachDepth = 8;
}  // namespace

bool standardLibrary(const std::string& dotted) {
  static const std::set<std::string> kModules = {
      "abc",       "array",     "bisect",   "builtins",   "collections", "contextlib", "copy",    "dataclasses",
      "enum",      "fractions", "functools", "heapq",     "importlib",   "inspect",    "itertools", "json",
      "logging",   "math",      "numbers",  "operator",   "os",          "pathlib",    "random",  "re",
      "string",    "struct",    "sys",      "textwrap",   "types",       "typing",     "warnings", "weakref",
      "asyncio",   "concurrent", "datetime", "glob",      "hashlib",     "io",         "multiprocessing", "pickle",
      "queue",     "shutil",    "subprocess", "tempfile", "threading",   "time"};
  return kModules.count(dotted.substr(0, dotted.find('.'))) > 0;
}

AV unmodelled(std::string why) {
  AV v = AV::unknown(std::move(why));
  v.opaque = true;
  return v;
}

int DeclEval::Impl::reach(const AV& v, int depth) {
  if (depth > kMaxReachDepth) return 0;
  if (depth == 0) reachSeen.clear();
  // An object, closure or list met before on this walk (objects can hold each other): once.
  auto seen = [&](const void* p) {
    if (!p) return false;
    if (std::find(reachSeen.begin(), reachSeen.end(), p) != reachSeen.end()) return true;
    reachSeen.push_back(p);
    return false;
  };
  switch (v.k) {
    case K::Builder: return 1;
    case K::ParamMethod: return 2;
    case K::Partial: {
      int r = v.self ? reach(*v.self, depth + 1) : 0;
      if (v.items)
        for (const AV& a : *v.items) r = std::max(r, reach(a, depth + 1));
      if (v.kw)
        for (auto& [k, a] : *v.kw) r = std::max(r, reach(a, depth + 1));
      return r;
    }
    case K::Func: {
      if (!v.mod || ts_node_is_null(v.def)) return 0;
      if (mayDeclare(v.mod, v.def, 0)) return 2;
      int r = v.self ? reach(*v.self, depth + 1) : 0;
      if (!v.closure || r == 2) return r;
      auto key = std::make_pair(v.def.id, static_cast<const void*>(v.closure.get()));
      if (depth == 0)
        if (auto it = funcReach.find(key); it != funcReach.end()) return std::max(r, it->second);
      // What its body names of what it closes over (a closure holds every local of its frame).
      if (seen(v.closure.get())) return r;
      std::string_view body = v.mod->t->text(v.def);
      int c = 0;
      for (auto& [n, a] : *v.closure) {
        if (c == 2) break;
        if (a.selfInClosure || a.k == K::Unknown || a.k == K::Str || a.k == K::Int || a.k == K::Sym) continue;
        if (hasWord(body, n)) c = std::max(c, reach(a, depth + 1));
      }
      if (depth == 0) funcReach[key] = c;
      return std::max(r, c);
    }
    case K::Instance: {
      int r = 0;
      if (seen(v.closure.get())) return 0;
      if (v.closure)
        for (auto& [n, a] : *v.closure) {
          if (r == 2) break;
          r = std::max(r, reach(a, depth + 1));
        }
      if (v.items)
        for (const AV& a : *v.items) r = std::max(r, reach(a, depth + 1));
      return r;
    }
    case K::List:
    case K::Tuple:
    case K::Iter:
    case K::Dict: {
      int r = 0;
      if (!v.items || seen(v.items.get())) return 0;
      for (const AV& a : *v.items) {
        if (r == 2) break;
        r = std::max(r, reach(a, depth + 1));
      }
      return r;
    }
    case K::Builtin: {  // a callable a builtin made with its arguments bound (`functools.wraps(f)`)
      int r = 0;
      if (v.items)
        for (const AV& a : *v.items) r = std::max(r, reach(a, depth + 1));
      return r;
    }
    case K::Method: return v.self && v.self->k != K::Builder && v.self->k != K::Sig ? reach(*v.self, depth + 1) : 0;
    default: return 0;
  }
}

bool DeclEval::Impl::declarer(const AV& v, int depth) {
  if (depth > 2) return false;
  const AV* t = &v;
  while (t->k == K::Partial && t->self) t = t->self.get();
  if (t->k == K::ParamMethod) return true;
  if (t->k != K::Func || !t->mod || ts_node_is_null(t->def)) return false;
  if (mayDeclare(t->mod, t->def, 0)) return true;
  if (!t->closure) return false;
  std::string_view body = t->mod->t->text(t->def);
  for (auto& [n, a] : *t->closure)
    if (!a.selfInClosure && (a.k == K::ParamMethod || a.k == K::Partial || a.k == K::Func) && hasWord(body, n) &&
        declarer(a, depth + 1))
      return true;
  return false;
}

int DeclEval::Impl::reachOf(const std::vector<AV>& pos, const Kw& kw, const AV* receiver) {
  int r = receiver ? reach(*receiver) : 0;
  for (const AV& a : pos) r = std::max(r, reach(a));
  for (auto& [k, a] : kw) r = std::max(r, reach(a));
  return r;
}

void DeclEval::Impl::runDecorators(ModIndex& m, std::vector<std::string>& seeds) {
  moduleLevel = true;
  DFrame mf;
  mf.mod = &m;
  DPath none;
  try {
    for (TSNode dd : m.decorated) {
      TSNode def = field(dd, "definition");
      AV fn = AV::of(K::Func);
      fn.def = def;
      fn.mod = &m;
      fn.s = text(mf, field(def, "name"));
      std::vector<TSNode> decs;
      for (TSNode dn : namedChildren(dd))
        if (is(dn, "decorator") && !namedChildren(dn).empty()) decs.push_back(namedChildren(dn)[0]);
      AV v = fn;
      for (auto it = decs.rbegin(); it != decs.rend(); ++it) v = apply(expr(*it, mf, none, 0), {v}, {}, *it, mf, none, 0);
      if (m.binds[fn.s].count == 1 && !(v.k == K::Func && ts_node_eq(v.def, def))) m.cache[fn.s] = v;
    }
  } catch (const DStop&) {  // a limit at the top level: the bindings read so far stand
  } catch (const DOverBudget&) {
  }
  moduleLevel = false;
  for (auto& [name, v] : m.cache)
    if (!m.fns.count(name) && reach(v) == 2) seeds.push_back(name);
}

void DeclEval::Impl::cannotFollow(int r, const std::string& what, TSNode at, DFrame& f, DPath& p) {
  // The IRBuilder object alone opens the list as a value that declares does: a call it cannot
  // follow that is given it may declare, whether or not a declaration follows on the path
  // (issue 36 item 2; a list open at such a call is judged by the part both sides state, OpenTails.h).
  if (r >= 1) openAt(what, at, f, p);
}

namespace {

// The names a statement binds (assignment and `for` targets, comprehension variables, `with … as`,
// `except … as`, walrus, nested defs and classes, imports), into `out`.
void boundNames(const SyntaxTree& t, TSNode n, std::set<std::string>& out) {
  auto targets = [&](TSNode target) {
    if (ts_node_is_null(target)) return;
    if (is(target, "identifier")) out.insert(std::string(t.text(target)));
    walk(target, [&](TSNode x) {
      if (is(x, "attribute") || is(x, "subscript")) return false;  // `o.x = …`, `a[i] = …` bind no name
      if (is(x, "identifier")) out.insert(std::string(t.text(x)));
      return true;
    });
  };
  walk(n, [&](TSNode x) {
    std::string_view ty = type(x);
    if (ty == "assignment" || ty == "augmented_assignment" || ty == "for_statement" || ty == "for_in_clause") {
      targets(field(x, "left"));
    } else if (ty == "named_expression") {
      targets(field(x, "name"));
    } else if (ty == "as_pattern") {
      targets(field(x, "alias"));
    } else if (ty == "function_definition" || ty == "class_definition") {
      targets(field(x, "name"));
      return false;
    } else if (ty == "import_statement" || ty == "import_from_statement") {
      walk(x, [&](TSNode y) {
        if (is(y, "identifier")) out.insert(std::string(t.text(y)));
        return true;
      });
      return false;
    } else if (ty == "lambda") {
      return false;
    }
    return true;
  });
}

// The leftmost name of a callee (`spec` of `spec.hooks.epilogue`, `make` of `make(x).run`).
TSNode rootName(TSNode callee) {
  for (TSNode n = callee; !ts_node_is_null(n);) {
    if (is(n, "identifier")) return n;
    if (is(n, "attribute")) n = field(n, "object");
    else if (is(n, "call")) n = field(n, "function");
    else if (is(n, "subscript")) n = field(n, "value");
    else if (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
    else break;
  }
  return TSNode{};
}

}  // namespace

void DeclEval::Impl::tailHandsOff(const std::vector<TSNode>& sts, size_t from, DFrame& f, DPath& p) {
  if (moduleLevel || !p.tailHelper.empty() || from >= sts.size()) return;
  // The frame's locals that reach the IRBuilder, as the tail starts (usually `b` alone).
  std::set<std::string> reaching;
  for (const auto& [n, v] : f.env.map())
    if (!v.selfInClosure && reach(v) >= 1) reaching.insert(n);
  if (reaching.empty()) return;
  const SyntaxTree& t = *f.mod->t;
  std::set<std::string> bound;  // what the tail binds: not known, as it is not run
  for (size_t i = from; i < sts.size(); ++i) boundNames(t, sts[i], bound);
  for (const std::string& n : bound) reaching.erase(n);
  if (reaching.empty()) return;
  for (size_t i = from; i < sts.size() && p.tailHelper.empty(); ++i) {
    walk(sts[i], [&](TSNode n) {
      if (!p.tailHelper.empty() || is(n, "function_definition") || is(n, "class_definition") || is(n, "lambda"))
        return false;
      if (!is(n, "call")) return true;
      bool given = false;  // an argument names a local reaching the builder
      walk(field(n, "arguments"), [&](TSNode a) {
        if (given || is(a, "lambda")) return false;
        if (is(a, "keyword_argument")) {
          walk(field(a, "value"), [&](TSNode v) {
            given = given || (is(v, "identifier") && reaching.count(std::string(t.text(v))));
            return !given;
          });
          return false;
        }
        given = given || (is(a, "identifier") && reaching.count(std::string(t.text(a))));
        return !given;
      });
      if (!given) return true;
      TSNode root = rootName(field(n, "function"));
      if (ts_node_is_null(root)) return true;
      const std::string name(t.text(root));
      if (bound.count(name)) return true;  // a local of the kernel code: not known without running it
      AV rv = lookup(name, f, p, 0);
      if (rv.lib || (rv.k != K::Unknown && rv.k != K::Sym)) return true;  // a callee it knows: read as such
      if (rv.k == K::Sym && ts_node_eq(root, field(n, "function")) && entryParams.count(name))
        return true;  // the entry's hook, called with nothing declared after it
      int r = 0;
      for (const auto& rn : reaching)
        if (auto it = f.env.find(rn); it != f.env.end()) r = std::max(r, reach(it->second));
      // A symbolic root (a parameter it cannot read) names the callee as the run would (`spec.epilogue`).
      const std::string why = rv.k == K::Sym ? calleeText(n, f) : rv.s.empty() ? "not known" : clip(rv.s, 80);
      cannotFollow(r, calleeText(n, f) + " (a call it cannot follow: " + why + ")", n, f, p);
      return false;
    });
  }
}

std::string DeclEval::Impl::calleeText(TSNode at, const DFrame& f) const {
  TSNode fn = is(at, "call") ? field(at, "function") : at;
  return ts_node_is_null(fn) ? "" : clip(text(f, fn), 60);
}

void DeclEval::Impl::openAt(const std::string& what, TSNode at, DFrame& f, DPath& p) {
  if (moduleLevel) return;  // a module's import: what a call of its result declares opens there
  declares = true;  // what it declares is not known here: the list is open at it
  if (!p.tailHelper.empty()) return;
  p.tailHelper = what;
  p.tailModule.clear();
  p.tailCall = clip(text(f, at), 200);
}

}  // namespace impact::pyextract
