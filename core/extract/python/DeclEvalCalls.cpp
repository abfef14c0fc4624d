// The builder evaluator (DeclEval.h): a call of the module's functions (arguments bound to
// parameters, defaults, keywords, *args and **kwargs; recursion and depth named), a declaration,
// and the entries (`run`, `callWithDefaults`) that turn the paths into lists. Builtins and the
// methods of lists, dicts and strings are in DeclEvalBuiltins.cpp.
#include "extract/python/DeclEvalImpl.h"

#include <algorithm>
#include <set>

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Op = GuardNode::Op;
using Kw = std::vector<std::pair<std::string, AV>>;

AV symName(const std::string& n) {
  Guard g;
  g.root = addNode(g, GuardNode{Op::Name, n, {}});
  return symFromGuard(std::move(g), n);
}

}  // namespace

const AV* kwArg(const Kw& kw, std::initializer_list<const char*> names) {
  for (auto& [k, v] : kw)
    for (const char* n : names)
      if (k == n) return &v;
  return nullptr;
}

AV DeclEval::Impl::invoke(const AV& fn, std::vector<AV> pos, Kw kw, TSNode at, DFrame& f, DPath& p, int d) {
  if (watcher) {  // DeclEval::trace: shown to the watcher first (DeclEvalTrace.cpp)
    if (!watched) return traced(fn, std::move(pos), std::move(kw), at, f, p, d);
    watched = false;
  }
  const void* id = fn.def.id;
  // It can declare: its text (or a module function's it names) reaches `.param`, or it closes
  // over or, while the path's list is not yet open, is given a value that declares when called
  // (issue 36: `p = getattr(b, "param")`). Past an open end nothing it declares has a position.
  bool declaring = declarer(fn);
  for (size_t i = 0; i < pos.size() && !declaring && p.tailHelper.empty(); ++i) declaring = declarer(pos[i]);
  for (size_t i = 0; i < kw.size() && !declaring && p.tailHelper.empty(); ++i) declaring = declarer(kw[i].second);
  // A function calling itself runs as Python runs it (recursion over a list ends where the list
  // does), within the call-depth limit; past it, a declaring one stops the reading, named.
  if (stack.size() >= size_t(DeclEval::kMaxDepth)) {
    bool recursive = std::find(stack.begin(), stack.end(), id) != stack.end();
    if (declaring && recursive)
      throw DStop{"recursion: " + fn.s + " calls itself deeper than " + std::to_string(DeclEval::kMaxDepth) + " calls",
                  false, true};
    if (declaring) throw DStop{"calls nested deeper than " + std::to_string(DeclEval::kMaxDepth)};
    return AV::unknown(recursive ? "a recursive call of " + fn.s + " past the depth limit" : "a call past the depth limit");
  }
  if (fn.mod == root && std::none_of(ran.begin(), ran.end(), [&](TSNode n) { return n.id == id; }))
    ran.push_back(fn.def);
  bool asEntry = tailCall != nullptr && at.id == tailCall;  // `return fn(...)` at the entry
  if (asEntry) tailCall = nullptr;
  DFrame cf;
  cf.mod = fn.mod;
  cf.entry = asEntry;
  cf.body = field(fn.def, "body");
  cf.makesBuilder = fn.mod->t->text(fn.def).find("IRBuilder") != std::string_view::npos;
  if (isGenerator(fn.def)) cf.yields = std::make_shared<std::vector<AV>>();
  cf.closure = fn.closure;
  if (fn.s.find('.') != std::string::npos && is(fn.def, "function_definition")) cf.cls = fn.s.substr(0, fn.s.rfind('.'));
  cf.self = fn.self;
  cf.loopWhy = cf.yields ? "" : f.loopWhy;  // a generator's own loops decide how many it yields
  size_t next = 0;
  std::set<std::string> used;
  for (TSNode prm : namedChildren(field(fn.def, "parameters"))) {
    std::string_view ty = type(prm);
    TSNode nameNode = ty == "identifier" ? prm : field(prm, "name");
    if (ty == "typed_parameter" || ty == "list_splat_pattern" || ty == "dictionary_splat_pattern")
      nameNode = namedChildren(prm).empty() ? prm : namedChildren(prm)[0];
    if (ty == "keyword_separator" || ty == "positional_separator") continue;
    std::string name = text(cf, nameNode);
    if (ty == "list_splat_pattern" || (ty == "typed_parameter" && is(nameNode, "list_splat_pattern"))) {
      std::vector<AV> rest(pos.begin() + std::min(next, pos.size()), pos.end());
      next = pos.size();
      cf.env[text(cf, namedChildren(nameNode).empty() ? nameNode : namedChildren(nameNode)[0])] =
          AV::seq(K::Tuple, std::move(rest));
      continue;
    }
    if (ty == "dictionary_splat_pattern") {
      std::vector<AV> kv;
      for (auto& [k, v] : kw)
        if (!used.count(k)) kv.push_back(AV::str(k)), kv.push_back(v);
      cf.env[text(cf, namedChildren(prm).empty() ? prm : namedChildren(prm)[0])] = AV::seq(K::Dict, std::move(kv));
      continue;
    }
    if (const AV* k = kwArg(kw, {name.c_str()})) {
      cf.env[name] = *k;
      used.insert(name);
    } else if (next < pos.size()) {
      cf.env[name] = pos[next++];
    } else if (TSNode def = field(prm, "value"); !ts_node_is_null(def)) {
      DFrame mf;
      mf.mod = fn.mod;
      DPath none;
      cf.env[name] = expr(def, mf, none, d + 1);
    } else {
      cf.env[name] = AV::unknown("'" + name + "' is not passed");
    }
  }
  bool crossing = fn.mod != root && f.mod == root;  // into another module: its declarations sit at this call
  if (crossing) anchors.push_back(at);
  stack.push_back(id);
  size_t base = p.decls.size();
  std::vector<Guard> conds = p.conds;
  DFlow fl;
  bool budgeted = !declaring && budgetEnd < 0 && !wholeValues;  // the outermost call that cannot declare
  if (budgeted) budgetEnd = steps + kCalleeSteps;
  try {
    if (is(fn.def, "lambda")) {  // its value is its expression's
      cf.retval = expr(field(fn.def, "body"), cf, p, d + 1);
      fl = DFlow::Return;
    } else {
      fl = block(field(fn.def, "body"), cf, p, d + 1);
    }
  } catch (const DOverBudget&) {
    stack.pop_back();
    if (crossing) anchors.pop_back();
    if (!budgeted) throw;
    budgetEnd = -1;
    p.conds = conds;
    return AV::unknown(fn.s + " takes more than " + std::to_string(kCalleeSteps) + " steps");
  } catch (...) {
    stack.pop_back();
    if (crossing) anchors.pop_back();
    if (budgeted) budgetEnd = -1;
    throw;
  }
  stack.pop_back();
  if (crossing) anchors.pop_back();
  if (budgeted) budgetEnd = -1;
  (void)at;
  if (asEntry) {  // its early returns are the entry's; its last path goes on as the entry's
    for (auto& r : cf.returns) f.returns.push_back(std::move(r));
    tailRaised = fl == DFlow::Raise;
    tailOrigin = fl == DFlow::Return ? cf.retOrigin : "";
    return fl == DFlow::Return ? cf.retval : AV::of(K::None);
  }
  if (fl == DFlow::Raise && cf.returns.empty()) {
    p.conds = conds;
    return AV::unknown(fn.s + " raises");
  }
  if (fl != DFlow::Raise) cf.returns.push_back({std::move(p), fl == DFlow::Return ? cf.retval : AV::of(K::None)});
  AV value = joinReturns(cf, p, base, conds);
  if (cf.yields) return AV::seq(K::List, std::move(*cf.yields));  // a generator: what it yielded
  return value;
}

bool DeclEval::Impl::isGenerator(TSNode def) {
  auto [it, fresh] = generators.emplace(def.id, false);
  if (!fresh || !is(def, "function_definition")) return it->second;
  bool found = false;
  TSNode body = field(def, "body");
  walk(body, [&](TSNode n) {
    if (found) return false;
    if (is(n, "function_definition") || is(n, "lambda") || is(n, "class_definition")) return false;
    if (is(n, "yield")) found = true;
    return !found;
  });
  return it->second = found;
}

AV DeclEval::Impl::yield(TSNode e, DFrame& f, DPath& p, int d) {
  if (!f.yields) return AV::unknown("a yield outside a generator it runs");
  bool from = false;
  for (TSNode ch : children(e)) from = from || type(ch) == "from";
  auto kids = namedChildren(e);
  AV v = kids.empty() ? AV::of(K::None) : expr(kids[0], f, p, d + 1);
  std::vector<AV> add{v};
  if (from) {
    bool ok = false;
    add = elementsOf(iterated(v, d), &ok);
    if (!ok) add = {AV::unknown("yield from " + clip(text(f, kids[0]), 60) + ", elements not known")};
  }
  for (AV& a : add) {
    // In a loop of unknown length, how many it yields is not known: an unknown element says so.
    if (!f.loopWhy.empty())
      a = AV::unknown(f.loopWhy.starts_with("declared ") ? "yielded " + f.loopWhy.substr(9) : f.loopWhy);
    f.yields->push_back(tagged(a, p.conds));
  }
  if (f.yields->size() > DeclEval::kMaxItems) throw DStop{"a generator longer than the size limit"};
  return AV::unknown("the value sent to a yield");
}

AV DeclEval::Impl::joinReturns(DFrame& callee, DPath& p, size_t base, const std::vector<Guard>& conds) {
  auto& rs = callee.returns;
  DPath out = std::move(rs.back().first);
  AV value = rs.back().second;
  if (rs.size() > 1) {
    std::vector<std::pair<KernelArg, std::vector<Guard>>> decls(out.decls.begin(), out.decls.begin() + base);
    for (auto& [path, v] : rs) {
      decls.insert(decls.end(), path.decls.begin() + std::min(base, path.decls.size()), path.decls.end());
      if (out.tailHelper.empty())
        out.tailHelper = path.tailHelper, out.tailModule = path.tailModule, out.tailCall = path.tailCall;
    }
    for (size_t i = 0; i + 1 < rs.size(); ++i) value = mergeValues(rs[i].second, value);
    out.decls = std::move(decls);
  }
  out.conds = conds;
  p = std::move(out);
  return value;
}

void DeclEval::Impl::declare(const std::vector<AV>& pos, const Kw& kw, TSNode at, DFrame& f, DPath& p) {
  declares = true;
  for (PyHook& h : pendingHooks)  // a hook with a declaration after it: it can insert arguments there
    if (std::find(hooks.begin(), hooks.end(), h) == hooks.end()) hooks.push_back(std::move(h));
  pendingHooks.clear();
  std::string argsWhy = std::move(unknownArgs);  // a spread of the call not known (call)
  unknownArgs.clear();
  if (!p.tailHelper.empty()) return;  // after a helper that was not followed: positions unknown
  KernelArg a;
  a.range = f.mod == root || anchors.empty() ? rangeOf(at) : rangeOf(anchors.front());
  auto unresolve = [&](const std::string& why) {
    a.resolved = false;
    a.unresolvedReason += (a.unresolvedReason.empty() ? "" : "; ") + why;
  };
  const AV* name = !pos.empty() ? &pos[0] : kwArg(kw, {"name"});
  const AV* ty = pos.size() > 1 ? &pos[1] : kwArg(kw, {"type", "ty", "dtype", "param_type"});
  // The source text of the arguments at this call, where they are written there.
  std::vector<TSNode> posNodes;
  std::vector<std::pair<std::string, TSNode>> kwNodes;
  for (TSNode n : namedChildren(field(at, "arguments")))
    if (is(n, "keyword_argument")) kwNodes.emplace_back(text(f, field(n, "name")), field(n, "value"));
    else if (!is(n, "comment")) posNodes.push_back(n);
  auto srcOf = [&](size_t i, std::initializer_list<const char*> names) -> std::string {
    if (posNodes.size() == pos.size() && i < posNodes.size()) return text(f, posNodes[i]);
    for (auto& [k, n] : kwNodes)
      for (const char* nm : names)
        if (k == nm) return text(f, n);
    return "";
  };
  auto why = [](const AV& v, const std::string& src) {
    if (v.k == K::Sym) return v.s == src ? std::string() : " (assigned from " + clip(v.s, 80) + ")";
    return v.s.empty() ? std::string() : " (" + v.s + ")";
  };
  if (name && name->k == K::Str) {
    a.name = name->s;
    nameSources.push_back(name->at);
  } else if (name) {
    a.name = srcOf(0, {"name"});
    unresolve("parameter name '" + clip(a.name, 80) + "' is not a literal string" + why(*name, a.name));
  } else {
    unresolve(argsWhy.empty() ? "b.param call has no name argument" : "its name is not known (" + argsWhy + ")");
  }
  if (ty && ty->k == K::Type) {
    a.kind = ty->kind;
    a.size = ty->size;
    a.typeClass = ty->cls;
    a.typeText = ty->typeText.empty() ? srcOf(1, {"type", "ty", "dtype", "param_type"}) : ty->typeText;
  } else if (ty) {
    a.typeText = srcOf(1, {"type", "ty", "dtype", "param_type"});
    unresolve("type '" + clip(a.typeText, 80) + "' could not be resolved" + why(*ty, a.typeText));
  } else {
    unresolve(argsWhy.empty() ? "b.param call has no type argument" : "its type is not known (" + argsWhy + ")");
  }
  if (!f.loopWhy.empty()) unresolve(f.loopWhy + ", whose length is not known");
  // One of several types (its name known) or names (its type known) by a condition it cannot
  // decide: kept as choices, for a variant's spec to pick (core/contracts/kernargs).
  else if (ty && ty->alts && name && name->k == K::Str)
    for (auto& [g, alt] : *ty->alts) {
      if (alt.k == K::Type) a.choices.push_back(TypeChoice{g, alt.kind, alt.cls, alt.size, ""});
    }
  else if (name && name->alts && ty && ty->k == K::Type)
    for (auto& [g, alt] : *name->alts)
      if (alt.k == K::Str) a.choices.push_back(TypeChoice{g, ty->kind, ty->cls, ty->size, alt.s});
  if (p.decls.size() >= DeclEval::kMaxItems) throw DStop{"more than " + std::to_string(DeclEval::kMaxItems) + " declarations"};
  p.decls.push_back({std::move(a), p.conds});
}

bool DeclEval::Impl::mayDeclare(ModIndex* m, TSNode def, int d) {
  (void)d;
  auto it = m->mayDeclare.find(def.id);
  if (it != m->mayDeclare.end()) return it->second;
  bool found = false;
  for (auto& [name, node] : m->fns)
    if (ts_node_eq(node, def)) found = m->declaring.count(name) > 0;
  if (!found) {  // a nested function: its own text
    std::string_view body = m->t->text(def);
    found = hasWord(body, ".param") || hasWord(body, "\"param\"") || hasWord(body, "'param'");
    for (const std::string& n : m->declaring) found = found || hasWord(body, n);
    for (const std::string& n : m->unseen) found = found || hasWord(body, n);
  }
  m->mayDeclare[def.id] = found;
  return found;
}

DeclEval::DeclEval(const SyntaxTree& t, ModuleLoader loader, std::string dotted)
    : impl_(std::make_unique<Impl>(t, std::move(loader))) {
  root_ = impl_->index(&t, dotted);
  impl_->root = root_;
}
DeclEval::~DeclEval() = default;


bool DeclEval::mayDeclare(const std::string& name) { return root_->declaring.count(name) > 0; }
bool DeclEval::mayBuild(const std::string& name) { return root_->building.count(name) > 0; }
bool DeclEval::mayDispatch(const std::string& name) { return root_->dispatching.count(name) > 0; }
bool DeclEval::maySign(const std::string& name) { return root_->signing.count(name) > 0; }

long DeclEval::stepsTaken() const { return impl_->steps; }

CallResult DeclEval::callWithDefaults(const std::string& name) {
  CallResult out;
  auto it = root_->fns.find(name);
  if (it == root_->fns.end()) return out.why = "'" + name + "' is not a function of the module", out;
  Impl& I = *impl_;
  I.steps = 0;
  I.declares = false;
  I.missed.clear();
  I.stack.clear();
  I.wholeValues = true;
  I.lastRaise.clear();
  AV fn = AV::of(K::Func);
  fn.def = it->second;
  fn.mod = root_;
  fn.s = name;
  DFrame f;
  f.mod = root_;
  DPath p;
  try {
    out.value = I.invoke(fn, {}, {}, it->second, f, p, 0);
    if (out.value.k == K::Unknown && out.value.s == name + " raises")
      out.why = "reaches `" + I.lastRaise + "`";
  } catch (const DStop& s) {
    out.why = s.why;
  }
  I.wholeValues = false;
  return out;
}

DeclResult DeclEval::run(const std::string& name) {
  DeclResult out;
  auto it = root_->fns.find(name);
  if (it == root_->fns.end()) return out;
  Impl& I = *impl_;
  I.steps = 0;
  I.declares = false;
  I.missed.clear();
  I.stack.clear();
  I.entryParams.clear();
  I.pendingHooks.clear();
  I.hooks.clear();
  I.madeSignature = false;
  I.nameSources.clear();
  I.ran.clear();
  // A function that declares nothing and may return argument entries is read for its value: its
  // callees run whole (the entries are often built by helpers), under the step limit.
  I.wholeValues = !mayDeclare(name) && maySign(name);
  DFrame f;
  f.mod = root_;
  f.entry = true;
  for (TSNode prm : namedChildren(field(it->second, "parameters"))) {
    std::string_view ty = type(prm);
    TSNode nameNode = ty == "identifier" ? prm : field(prm, "name");
    if (ty == "typed_parameter") nameNode = namedChildren(prm)[0];
    if (!is(nameNode, "identifier")) continue;
    std::string n(root_->t->text(nameNode));
    I.entryParams.insert(n);
    f.env[n] = symName(n);  // what the callers pass: symbolic (an IRBuilder given is a helper's, not a builder's)
    if (f.env.size() == 1 && name.find('.') != std::string::npos) {  // a method's receiver
      AV self = AV::of(K::Instance);
      self.s = name.substr(0, name.rfind('.'));
      self.mod = root_;
      self.closure = I.newObject();
      f.env[n] = self;
      f.cls = self.s;
      f.self = std::make_shared<AV>(self);
    }
  }
  DPath p;
  I.stack.push_back(it->second.id);
  try {
    f.body = field(it->second, "body");
    f.makesBuilder = root_->t->text(it->second).find("IRBuilder") != std::string_view::npos;
    DFlow fl = I.block(f.body, f, p, 0);
    if (fl != DFlow::Raise) f.returns.push_back({std::move(p), f.retval}), f.returns.back().first.origin = f.retOrigin;
  } catch (const DStop& s) {
    out.stopped = s.why;
    out.recursion = s.recursion;
  }
  out.declares = I.declares;
  out.missed = I.missed;
  I.wholeValues = false;
  out.hooks = I.hooks;
  for (PyHook& h : out.hooks) h.function = name;
  out.madeSignature = I.madeSignature;
  out.nameSources = I.nameSources;
  out.ran = I.ran;
  for (auto& [k, v] : f.env) out.builds = out.builds || v.k == K::Builder;
  for (auto& r : f.returns) out.builds = out.builds || !r.first.origin.empty() || r.second.k == K::Builder;
  if (!out.declares && out.missed.empty() && out.builds && out.stopped.empty()) {
    // It holds an IRBuilder it made and its own text calls `.param`, yet the evaluation declared nothing:
    // a call it did not reach (in code it could not follow). Named, never an empty list.
    TSNode first{};
    walk(it->second, [&](TSNode n) {
      if (!ts_node_is_null(first)) return false;
      TSNode fnNode = field(n, "function");
      if (is(n, "call") && is(fnNode, "attribute") && root_->t->text(field(fnNode, "attribute")) == "param") first = n;
      return true;
    });
    if (!ts_node_is_null(first))
      out.missed = "`" + clip(root_->t->text(first), 60) + "` (line " + std::to_string(ts_node_start_point(first).row + 1) +
                   "), which the evaluation did not reach";
  }
  if (!out.stopped.empty()) return out;
  for (auto& r : f.returns)
    if (!out.returnsEntries) out.returnsEntries = entriesOf(r.second, out.entries);
  // The builder's own list first (a path that returned no call of the module's functions), then
  // the others in program order; a path that declared nothing and went to no function is left out.
  auto own = std::find_if(f.returns.begin(), f.returns.end(), [](auto& r) { return r.first.origin.empty(); });
  if (own != f.returns.end()) std::rotate(f.returns.begin(), own, own + 1);
  for (size_t r = 0; r < f.returns.size(); ++r) {
    DPath& path = f.returns[r].first;
    if (path.decls.empty() && path.origin.empty() && path.tailHelper.empty() && f.returns.size() > 1) continue;
    std::set<std::string> whenKeys;
    for (const Guard& g : path.when) whenKeys.insert(guardKey(g));
    std::vector<Guard> when = path.when;
    bool isOwn = path.origin.empty();
    if (!isOwn)  // an early return: its branch conditions are when it is taken
      for (const Guard& g : path.conds) when.push_back(g), whenKeys.insert(guardKey(g));
    PyAbi abi;
    abi.origin = isOwn ? name : path.origin;
    abi.when = andAll(when);
    abi.guard = isOwn ? "" : guardText(andAll(path.conds));
    abi.tailHelper = path.tailHelper;
    abi.tailModule = path.tailModule;
    abi.tailCall = path.tailCall;
    for (auto& [arg, conds] : path.decls) {
      std::vector<Guard> own;
      for (const Guard& g : conds)
        if (!whenKeys.count(guardKey(g))) own.push_back(g);
      KernelArg a = arg;
      a.guard = andAll(own);
      a.conditional = !own.empty();
      a.condition = guardText(a.guard);
      abi.args.push_back(std::move(a));
    }
    out.abis.push_back(std::move(abi));
  }
  return out;
}

}  // namespace impact::pyextract
