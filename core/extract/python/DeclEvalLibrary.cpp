// The builder evaluator (DeclEval.h): the standard library's functions a kernel author composes a
// builder with (issue 36) — itertools (starmap, chain, repeat, zip_longest, islice, accumulate),
// operator (methodcaller, itemgetter, attrgetter), functools (reduce, wraps), types.SimpleNamespace,
// and the builtins that reach into objects or frames (hasattr, setattr, locals/vars, filter,
// exec/eval). Each runs as Python runs it on known values; what it cannot read is an unknown value,
// named, and an operation it does not model given a value reaching the builder opens the list.
#include <algorithm>
#include <climits>
#include <optional>

#include "extract/python/DeclEvalImpl.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Kw = std::vector<std::pair<std::string, AV>>;

// A callable bound to its arguments (`operator.methodcaller("param", n)`): a Builtin with items.
AV bound(const std::string& name, std::vector<AV> items, const Kw& kw = {}) {
  AV v = AV::of(K::Builtin);
  v.s = name;
  v.items = std::make_shared<std::vector<AV>>(std::move(items));
  v.kw = std::make_shared<Kw>(kw);
  return v;
}

// `itertools.repeat(x)` with no count: endless, read only by what stops at its partners' end.
bool endless(const AV& v) { return v.k == K::Unknown && v.kind == "repeat" && v.self; }

}  // namespace

AV DeclEval::Impl::library(const std::string& name, std::vector<AV>& pos, Kw& kw, TSNode at, DFrame& f, DPath& p,
                           int d, bool* handled) {
  *handled = true;
  auto seqOf = [&](const AV& v, bool* ok) { return elementsOf(iterated(v, d), ok); };
  if (name == "itertools.starmap" && pos.size() == 2) {  // fn(*args) for each args
    bool ok = false;
    std::vector<AV> rows = seqOf(pos[1], &ok);
    if (!ok) {  // the function once, what it declares named (as a loop of unknown length)
      std::string saved = f.loopWhy;
      f.loopWhy = "declared in a starmap over " + clip(text(f, at), 60);
      apply(pos[0], {AV::unknown("an element of an unknown sequence")}, {}, at, f, p, d + 1);
      f.loopWhy = saved;
      return AV::unknown("starmap over " + clip(text(f, at), 60));
    }
    std::vector<AV> out;
    for (const AV& row : rows) {
      bool rowOk = false;
      std::vector<AV> args = elementsOf(row, &rowOk);
      if (!rowOk) args = {AV::unknown("the arguments of a starmap row not known")};
      size_t nconds = p.conds.size();
      pushConds(p.conds, row.when);
      out.push_back(apply(pos[0], std::move(args), {}, at, f, p, d + 1));
      p.conds.resize(std::min(p.conds.size(), nconds));
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "itertools.chain") {
    std::vector<AV> out;
    for (const AV& s : pos) {
      bool ok = false;
      std::vector<AV> els = seqOf(s, &ok);
      if (!ok) return AV::unknown("chain of a sequence not known");
      out.insert(out.end(), els.begin(), els.end());
      if (out.size() > DeclEval::kMaxItems) throw DStop{"a sequence longer than the size limit"};
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "itertools.repeat" && !pos.empty()) {
    const AV* n = pos.size() > 1 ? &pos[1] : kwArg(kw, {"times"});
    if (!n) {
      AV v = AV::unknown("an endless repeat");
      v.kind = "repeat";
      v.self = std::make_shared<AV>(pos[0]);
      return v;
    }
    if (n->k != K::Int || n->i < 0 || n->i > (long long)DeclEval::kMaxItems) return AV::unknown("a repeat of a count not known");
    return AV::seq(K::List, std::vector<AV>(size_t(n->i), pos[0]));
  }
  if ((name == "zip" || name == "itertools.zip_longest") && pos.empty()) return AV::seq(K::List, {});
  if (name == "zip" || name == "itertools.zip_longest") {
    bool longest = name != "zip";
    const AV* fill = kwArg(kw, {"fillvalue"});
    std::vector<std::vector<AV>> cols;
    size_t n = longest ? 0 : SIZE_MAX;
    bool any = false;
    for (const AV& a : pos) {
      if (endless(a)) {
        cols.push_back({});
        continue;
      }
      bool ok = false;
      cols.push_back(seqOf(a, &ok));
      if (!ok) return AV::unknown(std::string(longest ? "zip_longest" : "zip") + " of an unknown sequence");
      n = longest ? std::max(n, cols.back().size()) : std::min(n, cols.back().size());
      any = true;
    }
    if (!any) return AV::unknown("zip of endless repeats");
    std::vector<AV> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<AV> row;
      for (size_t c = 0; c < pos.size(); ++c)
        row.push_back(endless(pos[c]) ? *pos[c].self
                      : i < cols[c].size() ? cols[c][i]
                      : fill ? *fill
                             : AV::of(K::None));
      out.push_back(AV::seq(K::Tuple, std::move(row)));
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "itertools.islice" && pos.size() >= 2) {
    long long lo = 0, hi = 0, st = 1;
    auto intOrNone = [](const AV& v, long long dflt, long long* out) {
      if (v.k == K::None) return *out = dflt, true;
      return v.k == K::Int && v.i >= 0 ? (*out = v.i, true) : false;
    };
    bool ok = pos.size() == 2 ? intOrNone(pos[1], LLONG_MAX, &hi)
                              : intOrNone(pos[1], 0, &lo) && intOrNone(pos[2], LLONG_MAX, &hi) &&
                                    (pos.size() < 4 || intOrNone(pos[3], 1, &st)) && st > 0;
    if (!ok) return AV::unknown("islice with bounds not known");
    if (endless(pos[0])) {
      if (hi == LLONG_MAX || hi - lo > (long long)DeclEval::kMaxItems) return AV::unknown("islice of an endless repeat");
      return AV::seq(K::List, std::vector<AV>(size_t(std::max(0LL, (hi - lo + st - 1) / st)), *pos[0].self));
    }
    bool known = false;
    std::vector<AV> els = seqOf(pos[0], &known);
    if (!known) return AV::unknown("islice of an unknown sequence");
    std::vector<AV> out;
    for (long long i = lo; i < (long long)els.size() && i < hi; i += st) out.push_back(els[size_t(i)]);
    return AV::seq(K::List, std::move(out));
  }
  if ((name == "itertools.accumulate" && !pos.empty()) || (name == "functools.reduce" && pos.size() >= 2)) {
    bool reduce = name == "functools.reduce";
    const AV& seq = reduce ? pos[1] : pos[0];
    const AV* fn = reduce ? &pos[0] : pos.size() > 1 ? &pos[1] : kwArg(kw, {"func"});
    const AV* init = reduce ? (pos.size() > 2 ? &pos[2] : nullptr) : kwArg(kw, {"initial"});
    bool ok = false;
    std::vector<AV> els = seqOf(seq, &ok);
    if (!ok) return unmodelled(std::string(reduce ? "reduce" : "accumulate") + " over an unknown sequence");
    std::vector<AV> out;
    std::optional<AV> acc;
    if (init && init->k != K::None) acc = *init, out.push_back(*init);
    for (const AV& el : els) {
      if (!acc) {
        acc = el;
      } else if (fn && fn->k != K::None) {
        acc = apply(*fn, {*acc, el}, {}, at, f, p, d + 1);
      } else if (acc->k == K::Int && el.k == K::Int) {
        acc = AV::integer(acc->i + el.i);
      } else if (acc->k == K::Str && el.k == K::Str) {
        acc = AV::str(acc->s + el.s);
      } else {
        acc = AV::unknown("a sum of values it cannot add");
      }
      out.push_back(*acc);
    }
    if (reduce) return acc ? *acc : AV::unknown("reduce of an empty sequence");
    return AV::seq(K::List, std::move(out));
  }
  return objectBuiltin(name, pos, kw, at, f, p, d, handled);
}

AV DeclEval::Impl::objectBuiltin(const std::string& name, std::vector<AV>& pos, Kw& kw, TSNode at, DFrame& f, DPath& p,
                           int d, bool* handled) {
  *handled = true;
  auto seqOf = [&](const AV& v, bool* ok) { return elementsOf(iterated(v, d), ok); };
  if (name == "operator.methodcaller" && !pos.empty() && pos[0].k == K::Str)
    return bound(name, std::vector<AV>(pos.begin(), pos.end()), kw);
  if ((name == "operator.itemgetter" || name == "operator.attrgetter") && !pos.empty()) return bound(name, pos);
  if (name == "functools.wraps" && !pos.empty()) return bound(name, {pos[0]});
  if (name == "types.SimpleNamespace" && pos.empty()) {
    AV o = AV::of(K::Instance);
    o.s = "SimpleNamespace";
    o.closure = newObject();
    for (auto& [k, v] : kw) (*o.closure)[k] = v;
    return o;
  }
  if (name == "hasattr" && pos.size() == 2 && pos[1].k == K::Str) {
    if (pos[0].k == K::Builder) return AV::unknown("hasattr of the IRBuilder");  // not an operation that declares
    AV v = attrOf(pos[0], pos[1].s, at, f, p, d);
    if (pos[0].k == K::Instance && v.k != K::Unknown) return AV::boolean(true);
    return AV::unknown("hasattr of " + clip(text(f, at), 60));
  }
  if (name == "setattr" && pos.size() == 3 && pos[1].k == K::Str && pos[0].k == K::Instance && pos[0].closure) {
    (*pos[0].closure)[pos[1].s] = pos[2];
    return AV::of(K::None);
  }
  if ((name == "locals" || name == "vars") && pos.empty()) {  // the frame's names, as a dict
    std::vector<AV> kv;
    for (auto& [k, v] : f.env) kv.push_back(AV::str(k)), kv.push_back(v);
    return AV::seq(K::Dict, std::move(kv));
  }
  if (name == "exec" || name == "eval") {
    // Code the evaluator does not read, run with the frame's names (or those it is given).
    bool frame = false;
    for (auto& [k, v] : f.env) frame = frame || reach(v) > 0;
    if (frame || reachOf(pos, kw) > 0)
      openAt(name + "(...) (code the evaluator does not read, run where the IRBuilder is)", at, f, p);
    return AV::unknown(name + " of code the evaluator does not read");
  }
  if (name == "filter" && pos.size() == 2) {
    bool ok = false;
    std::vector<AV> els = seqOf(pos[1], &ok);
    if (!ok) return unmodelled("filter of an unknown sequence");
    std::vector<AV> out;
    for (const AV& el : els) {
      AV keep = pos[0].k == K::None ? el : apply(pos[0], {el}, {}, at, f, p, d + 1);
      bool truth = false;
      if (!truthKnown(keep, &truth)) return AV::unknown("filter by a condition not known");
      if (truth) out.push_back(el);
    }
    return AV::seq(K::List, std::move(out));
  }
  if (name == "isinstance" || name == "issubclass" || name == "callable" || name == "id" || name == "type" ||
      name == "repr" || name == "print" || name == "bool" || name == "hash")
    return AV::unknown(name + "(...)");  // it reads the value, calls nothing the evaluator follows
  *handled = false;
  return AV{};
}

AV DeclEval::Impl::boundBuiltin(const AV& fn, std::vector<AV> pos, Kw kw, TSNode at, DFrame& f, DPath& p, int d) {
  const std::vector<AV>& items = *fn.items;
  if (fn.s == "functools.wraps") return pos.size() == 1 ? pos[0] : AV::unknown("wraps applied to nothing");
  if (pos.size() != 1) return unmodelled(fn.s + " called with " + std::to_string(pos.size()) + " arguments");
  const AV& obj = pos[0];
  if (fn.s == "operator.methodcaller") {  // obj.name(*args, **kw)
    AV m = attrOf(obj, items[0].s, at, f, p, d);
    Kw all = fn.kw ? *fn.kw : Kw{};
    all.insert(all.end(), kw.begin(), kw.end());
    return apply(m, std::vector<AV>(items.begin() + 1, items.end()), std::move(all), at, f, p, d);
  }
  auto one = [&](const AV& key) -> AV {
    if (fn.s == "operator.attrgetter") {
      if (key.k != K::Str) return AV::unknown("attrgetter of a name not known");
      AV v = obj;
      for (size_t i = 0; i <= key.s.size();) {  // "a.b": obj.a.b
        size_t dot = std::min(key.s.find('.', i), key.s.size());
        v = attrOf(v, key.s.substr(i, dot - i), at, f, p, d);
        i = dot + 1;
      }
      return v;
    }
    if (obj.k == K::Dict) {
      for (size_t i = 0; i + 1 < obj.items->size(); i += 2)
        if (sameAV((*obj.items)[i], key)) return (*obj.items)[i + 1];
      return AV::unknown("itemgetter of a key not in the dict");
    }
    if ((obj.isSeq() || (obj.k == K::Instance && obj.items)) && key.k == K::Int) {
      long long n = (long long)obj.items->size(), i = key.i < 0 ? n + key.i : key.i;
      return i >= 0 && i < n ? (*obj.items)[size_t(i)] : AV::unknown("an index out of range");
    }
    return AV::unknown("itemgetter of a value not known");
  };
  if (items.size() == 1) return one(items[0]);
  std::vector<AV> out;
  for (const AV& k : items) out.push_back(one(k));
  return AV::seq(K::Tuple, std::move(out));
}

}  // namespace impact::pyextract
