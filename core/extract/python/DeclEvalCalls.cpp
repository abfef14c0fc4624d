// The builder evaluator (DeclEval.h): a call of the module's functions (arguments bound to
// parameters, defaults, keywords, *args and **kwargs; recursion and depth named), builtins, list,
// dict and string methods, a declaration, and the entry that turns the paths into lists.
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

const AV* kwArg(const Kw& kw, std::initializer_list<const char*> names) {
  for (auto& [k, v] : kw)
    for (const char* n : names)
      if (k == n) return &v;
  return nullptr;
}

AV symName(const std::string& n) {
  Guard g;
  g.root = addNode(g, GuardNode{Op::Name, n, {}});
  return symFromGuard(std::move(g), n);
}

std::string formatStr(const std::string& fmt, const std::vector<AV>& pos, const Kw& kw, bool* ok) {
  std::string out;
  size_t next = 0;
  *ok = true;
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if ((c == '{' || c == '}') && i + 1 < fmt.size() && fmt[i + 1] == c) {
      out += c, ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t close = fmt.find('}', i);
    if (close == std::string::npos) return *ok = false, "";
    std::string key = fmt.substr(i + 1, close - i - 1);
    const AV* v = nullptr;
    if (key.empty()) v = next < pos.size() ? &pos[next++] : nullptr;
    else if (std::all_of(key.begin(), key.end(), ::isdigit)) v = size_t(std::stoi(key)) < pos.size() ? &pos[std::stoi(key)] : nullptr;
    else
      for (auto& [k, a] : kw)
        if (k == key) v = &a;
    if (!v || (v->k != K::Str && v->k != K::Int)) return *ok = false, "";
    out += v->k == K::Str ? v->s : std::to_string(v->i);
    i = close;
  }
  return out;
}

}  // namespace

AV DeclEval::Impl::invoke(const AV& fn, std::vector<AV> pos, Kw kw, TSNode at, DFrame& f, DPath& p, int d) {
  const void* id = fn.def.id;
  bool declaring = mayDeclare(fn.mod, fn.def, 0);
  if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
    if (declaring) throw DStop{"recursion: " + fn.s + " calls itself"};
    return AV::unknown("a recursive call of " + fn.s);
  }
  if (stack.size() >= size_t(DeclEval::kMaxDepth)) {
    if (declaring) throw DStop{"calls nested deeper than " + std::to_string(DeclEval::kMaxDepth)};
    return AV::unknown("a call past the depth limit");
  }
  bool asEntry = tailCall != nullptr && at.id == tailCall;  // `return fn(...)` at the entry
  if (asEntry) tailCall = nullptr;
  DFrame cf;
  cf.mod = fn.mod;
  cf.entry = asEntry;
  cf.body = field(fn.def, "body");
  cf.makesBuilder = fn.mod->t->text(fn.def).find("IRBuilder") != std::string_view::npos;
  cf.closure = fn.closure;
  cf.loopWhy = f.loopWhy;
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
    fl = block(field(fn.def, "body"), cf, p, d + 1);
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
  return joinReturns(cf, p, base, conds);
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

AV DeclEval::Impl::builtin(const std::string& name, std::vector<AV>& pos, Kw& kw, TSNode at, DFrame& f, DPath& p,
                           int d) {
  (void)d;
  auto ints = [&](size_t n) {
    if (pos.size() < n) return false;
    for (const AV& a : pos)
      if (a.k != K::Int) return false;
    return true;
  };
  if (name == "partial") {
    if (pos.empty()) return AV::unknown("partial of nothing");
    AV v = AV::of(K::Partial);
    v.self = std::make_shared<AV>(pos[0]);
    v.items = std::make_shared<std::vector<AV>>(pos.begin() + 1, pos.end());
    v.kw = std::make_shared<Kw>(kw);
    return v;
  }
  if (name == "range") {
    if (!ints(1) || pos.size() > 3) return AV::unknown("a range over " + clip(text(f, at), 60));
    long long lo = pos.size() == 1 ? 0 : pos[0].i, hi = pos.size() == 1 ? pos[0].i : pos[1].i;
    long long st = pos.size() == 3 ? pos[2].i : 1;
    if (st == 0) return AV::unknown("a range with step 0");
    long long n = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0) : (lo > hi ? (lo - hi - st - 1) / -st : 0);
    if (n > (long long)DeclEval::kMaxItems) return AV::unknown("a range of " + std::to_string(n) + " elements, past the size limit");
    std::vector<AV> out;
    for (long long i = 0, v = lo; i < n; ++i, v += st) out.push_back(AV::integer(v));
    return AV::seq(K::List, std::move(out));
  }
  bool ok = false;
  std::vector<AV> els = pos.empty() ? std::vector<AV>{} : [&] {
    const AV& s = pos[0];
    if (s.isSeq()) return ok = true, *s.items;
    if (s.k == K::Dict) {
      std::vector<AV> keys;
      for (size_t i = 0; i < s.items->size(); i += 2) keys.push_back((*s.items)[i]);
      return ok = true, keys;
    }
    return std::vector<AV>{};
  }();
  if (name == "len") {
    if (!pos.empty() && pos[0].k == K::Str) return AV::integer(pos[0].s.size());
    return ok ? AV::integer(els.size()) : AV::unknown("len of " + clip(text(f, at), 60));
  }
  if (name == "list" || name == "tuple" || name == "sorted" || name == "reversed" || name == "set") {
    if (pos.empty()) return AV::seq(name == "tuple" ? K::Tuple : K::List, {});
    if (!ok) return AV::unknown(name + " of an unknown sequence");
    if (name == "reversed") std::reverse(els.begin(), els.end());
    if (name == "sorted") {
      if (!std::all_of(els.begin(), els.end(), [](const AV& a) { return a.k == K::Str || a.k == K::Int; }))
        return AV::unknown("sorted of values it cannot order");
      std::stable_sort(els.begin(), els.end(), [](const AV& a, const AV& b) {
        return a.k == K::Int && b.k == K::Int ? a.i < b.i : a.s < b.s;
      });
    }
    return AV::seq(name == "tuple" ? K::Tuple : K::List, std::move(els));
  }
  if (name == "enumerate") {
    if (!ok) return AV::unknown("enumerate of an unknown sequence");
    long long start = pos.size() > 1 && pos[1].k == K::Int ? pos[1].i : 0;
    std::vector<AV> out;
    for (size_t i = 0; i < els.size(); ++i) {
      AV pair = AV::seq(K::Tuple, {AV::integer(start + i), els[i]});
      pair.when = els[i].when;
      out.push_back(pair);
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "zip") {
    size_t n = SIZE_MAX;
    for (const AV& a : pos) {
      if (!a.isSeq()) return AV::unknown("zip of an unknown sequence");
      n = std::min(n, a.items->size());
    }
    std::vector<AV> out;
    for (size_t i = 0; i < (pos.empty() ? 0 : n); ++i) {
      std::vector<AV> row;
      for (const AV& a : pos) row.push_back((*a.items)[i]);
      out.push_back(AV::seq(K::Tuple, std::move(row)));
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "dict") {
    std::vector<AV> kv;
    if (!pos.empty() && pos[0].k == K::Dict) kv = *pos[0].items;
    for (auto& [k, v] : kw) kv.push_back(AV::str(k)), kv.push_back(v);
    return AV::seq(K::Dict, std::move(kv));
  }
  if (name == "str" && pos.size() == 1) {
    if (pos[0].k == K::Str) return pos[0];
    if (pos[0].k == K::Int) return AV::str(std::to_string(pos[0].i));
  }
  if (name == "int" && pos.size() == 1 && pos[0].k == K::Int) return pos[0];
  if ((name == "min" || name == "max") && ints(1)) {
    long long v = pos[0].i;
    for (const AV& a : pos) v = name == "min" ? std::min(v, a.i) : std::max(v, a.i);
    return AV::integer(v);
  }
  (void)p;
  return AV::unknown(name + "(...)");
}

AV DeclEval::Impl::method(const AV& m, std::vector<AV>& pos, Kw& kw, DFrame& f, DPath& p) {
  (void)f;
  const AV& self = *m.self;
  const std::string& n = m.s;
  if (self.k == K::List) {
    if (n == "append" && pos.size() == 1) self.items->push_back(tagged(pos[0], p.conds));
    else if (n == "extend" && pos.size() == 1) {
      bool ok = false;
      std::vector<AV> add = elementsOf(pos[0], &ok);
      if (!ok) return AV::unknown("extended by an unknown sequence");
      for (AV& a : add) self.items->push_back(tagged(a, p.conds));
    } else if (n == "insert" && pos.size() == 2 && pos[0].k == K::Int) {
      long long at = std::clamp<long long>(pos[0].i, 0, self.items->size());
      self.items->insert(self.items->begin() + at, tagged(pos[1], p.conds));
    } else if (n == "copy") {
      return AV::seq(K::List, *self.items);
    } else {
      return AV::unknown("list." + n);
    }
    if (self.items->size() > DeclEval::kMaxItems) throw DStop{"a list longer than the size limit"};
    return AV::of(K::None);
  }
  if (self.k == K::Dict) {
    if ((n == "items" || n == "keys" || n == "values") && pos.empty()) {
      std::vector<AV> out;
      for (size_t i = 0; i + 1 < self.items->size(); i += 2)
        out.push_back(n == "items"  ? AV::seq(K::Tuple, {(*self.items)[i], (*self.items)[i + 1]})
                      : n == "keys" ? (*self.items)[i]
                                    : (*self.items)[i + 1]);
      return AV::seq(K::List, std::move(out));
    }
    if (n == "get" && !pos.empty()) {
      for (size_t i = 0; i + 1 < self.items->size(); i += 2)
        if (sameAV((*self.items)[i], pos[0])) return (*self.items)[i + 1];
      return pos.size() > 1 ? pos[1] : AV::of(K::None);
    }
    if (n == "update" && pos.size() <= 1) {
      if (!pos.empty() && pos[0].k == K::Dict) self.items->insert(self.items->end(), pos[0].items->begin(), pos[0].items->end());
      for (auto& [k, v] : kw) self.items->push_back(AV::str(k)), self.items->push_back(v);
      return AV::of(K::None);
    }
    if (n == "copy") return AV::seq(K::Dict, *self.items);
    return AV::unknown("dict." + n);
  }
  if (self.k == K::Str) {
    if (n == "format") {
      bool ok = false;
      std::string s = formatStr(self.s, pos, kw, &ok);
      return ok ? AV::str(s) : AV::unknown("a format it cannot read");
    }
    if (n == "join" && pos.size() == 1) {
      bool ok = false;
      std::vector<AV> parts = elementsOf(pos[0], &ok);
      std::string out;
      for (size_t i = 0; ok && i < parts.size(); ++i) {
        if (parts[i].k != K::Str) return AV::unknown("a join of values not strings");
        out += (i ? self.s : "") + parts[i].s;
      }
      return ok ? AV::str(out) : AV::unknown("a join of an unknown sequence");
    }
    if ((n == "upper" || n == "lower") && pos.empty()) {
      std::string s = self.s;
      for (char& c : s) c = n == "upper" ? char(::toupper(c)) : char(::tolower(c));
      return AV::str(s);
    }
    if ((n == "startswith" || n == "endswith") && pos.size() == 1 && pos[0].k == K::Str) {
      const std::string& a = pos[0].s;
      bool r = a.size() <= self.s.size() &&
               (n == "startswith" ? self.s.compare(0, a.size(), a) == 0 : self.s.compare(self.s.size() - a.size(), a.size(), a) == 0);
      return AV::boolean(r);
    }
    if (n == "replace" && pos.size() == 2 && pos[0].k == K::Str && pos[1].k == K::Str && !pos[0].s.empty()) {
      std::string s = self.s, out;
      for (size_t i = 0; i < s.size();)
        if (s.compare(i, pos[0].s.size(), pos[0].s) == 0) out += pos[1].s, i += pos[0].s.size();
        else out += s[i++];
      return AV::str(out);
    }
    return AV::unknown("str." + n);
  }
  return AV::unknown("an IR value");  // the IRBuilder's other methods
}

void DeclEval::Impl::declare(const std::vector<AV>& pos, const Kw& kw, TSNode at, DFrame& f, DPath& p) {
  declares = true;
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
  } else if (name) {
    a.name = srcOf(0, {"name"});
    unresolve("parameter name '" + clip(a.name, 80) + "' is not a literal string" + why(*name, a.name));
  } else {
    unresolve("b.param call has no name argument");
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
    unresolve("b.param call has no type argument");
  }
  if (!f.loopWhy.empty()) unresolve(f.loopWhy + ", whose length is not known");
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
    found = hasWord(body, ".param");
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

long DeclEval::stepsTaken() const { return impl_->steps; }

CallResult DeclEval::callWithDefaults(const std::string& name) {
  CallResult out;
  auto it = root_->fns.find(name);
  if (it == root_->fns.end()) return out.why = "'" + name + "' is not a function of the module", out;
  Impl& I = *impl_;
  I.steps = 0;
  I.declares = false;
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
  I.stack.clear();
  DFrame f;
  f.mod = root_;
  f.entry = true;
  for (TSNode prm : namedChildren(field(it->second, "parameters"))) {
    std::string_view ty = type(prm);
    TSNode nameNode = ty == "identifier" ? prm : field(prm, "name");
    if (ty == "typed_parameter") nameNode = namedChildren(prm)[0];
    if (!is(nameNode, "identifier")) continue;
    std::string n(root_->t->text(nameNode));
    f.env[n] = symName(n);  // what the callers pass: symbolic (an IRBuilder given is a helper's, not a builder's)
    if (f.env.size() == 1 && name.find('.') != std::string::npos) {  // a method's receiver
      AV self = AV::of(K::Instance);
      self.s = name.substr(0, name.rfind('.'));
      self.mod = root_;
      f.env[n] = self;
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
  }
  out.declares = I.declares;
  for (auto& [k, v] : f.env) out.builds = out.builds || v.k == K::Builder;
  for (auto& r : f.returns) out.builds = out.builds || !r.first.origin.empty() || r.second.k == K::Builder;
  if (!out.stopped.empty()) return out;
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
