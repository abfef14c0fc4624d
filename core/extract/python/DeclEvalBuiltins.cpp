// The builder evaluator (DeclEval.h): Python's builtins it reads (range, len, list/tuple/sorted/
// reversed/set, enumerate, zip, map, getattr, namedtuple, super, partial, ...) and the methods of
// lists, dicts and strings (append/extend/insert, items/keys/values/get/update, format, join,
// split, strip, replace, upper/lower, ...). Anything else is an unknown value, named.
#include <algorithm>
#include <cctype>
#include <functional>

#include "extract/python/DeclEvalImpl.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Kw = std::vector<std::pair<std::string, AV>>;

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

// At least `n` arguments, every one an int.
bool allInts(const std::vector<AV>& pos, size_t n) {
  if (pos.size() < n) return false;
  return std::all_of(pos.begin(), pos.end(), [](const AV& a) { return a.k == K::Int; });
}

}  // namespace

// The builtins that make one value of their arguments (`typing.get_args`, `typing.cast`,
// `copy.copy`, `dataclasses.replace`, `partial`, `range`); `*handled` false for any other.
AV DeclEval::Impl::valueBuiltin(const std::string& name, std::vector<AV>& pos, Kw& kw, TSNode at, DFrame& f,
                                bool* handled) {
  *handled = true;
  if (name == "typing.get_args") {  // the values of a `Literal[...]` (a type alias of one included)
    if (pos.size() == 1 && pos[0].isSeq() && pos[0].typeText == "typing.Literal") return AV::seq(K::Tuple, *pos[0].items);
    return unmodelled("typing.get_args of a type it does not read");
  }
  if (name == "typing.cast") return pos.size() == 2 ? pos[1] : AV::unknown("a cast it cannot read");
  if (name == "copy.copy" && pos.size() == 1) {  // a new object with the same contents
    AV c = pos[0];
    if (c.items) c.items = std::make_shared<std::vector<AV>>(*c.items);
    if (c.k == K::Instance && c.closure) {
      auto o = newObject();
      *o = *c.closure;
      c.closure = o;
    }
    return c;
  }
  if (name == "dataclasses.replace" && pos.size() == 1) {
    // A record with the keywords' fields replaced; of a symbolic spec, an object whose other
    // fields are the spec's.
    const AV& o = pos[0];
    AV c = AV::of(K::Instance);
    c.closure = newObject();
    if (o.k == K::Instance && o.closure) {
      c = o;
      c.closure = newObject();
      *c.closure = *o.closure;
    } else if (o.k == K::Sym) {
      c.self = std::make_shared<AV>(o);
    } else {
      return AV::unknown("replace of " + clip(text(f, at), 60));
    }
    for (auto& [k, v] : kw) (*c.closure)[k] = v;
    if (c.items) {  // a record that unpacks as a tuple: its fields in order, as replaced
      AV cls = recordClassOf(c);
      std::vector<AV> items;
      for (auto& [field, def] : recordFields(cls)) items.push_back((*c.closure)[field]);
      if (items.size() != c.items->size())  // fields it cannot name in order: none read as known
        items.assign(c.items->size(), AV::unknown("a field of a replaced record"));
      c.items = std::make_shared<std::vector<AV>>(std::move(items));
    }
    return c;
  }
  if (name == "partial") {
    if (pos.empty()) return AV::unknown("partial of nothing");
    AV v = AV::of(K::Partial);
    v.self = std::make_shared<AV>(pos[0]);
    v.items = std::make_shared<std::vector<AV>>(pos.begin() + 1, pos.end());
    v.kw = std::make_shared<Kw>(kw);
    return v;
  }
  if (name == "range") {
    if (!allInts(pos, 1) || pos.size() > 3) return AV::unknown("a range over " + clip(text(f, at), 60));
    long long lo = pos.size() == 1 ? 0 : pos[0].i, hi = pos.size() == 1 ? pos[0].i : pos[1].i;
    long long st = pos.size() == 3 ? pos[2].i : 1;
    if (st == 0) return AV::unknown("a range with step 0");
    long long n = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0) : (lo > hi ? (lo - hi - st - 1) / -st : 0);
    if (n > (long long)DeclEval::kMaxItems) return AV::unknown("a range of " + std::to_string(n) + " elements, past the size limit");
    std::vector<AV> out;
    for (long long i = 0, v = lo; i < n; ++i, v += st) out.push_back(AV::integer(v));
    return AV::seq(K::List, std::move(out));
  }
  *handled = false;
  return AV{};
}

// `sorted(els, key=..., reverse=...)` in Python's order: ints and strings by value, tuples element by
// element; a pair it cannot order (decided by a value of another kind) leaves the result unknown.
// False with `out` set when the result is unknown.
bool DeclEval::Impl::sortIn(std::vector<AV>& els, Kw& kw, TSNode at, DFrame& f, DPath& p, int d, AV& out) {
  bool orderable = true;
  std::function<int(const AV&, const AV&)> cmp = [&](const AV& a, const AV& b) -> int {
    if (a.k == K::Int && b.k == K::Int) return a.i < b.i ? -1 : a.i > b.i;
    if (a.k == K::Str && b.k == K::Str) return a.s < b.s ? -1 : a.s > b.s;
    if (a.isSeq() && b.isSeq()) {
      for (size_t i = 0; i < std::min(a.items->size(), b.items->size()); ++i)
        if (int c = cmp((*a.items)[i], (*b.items)[i])) return c;
      return a.items->size() < b.items->size() ? -1 : a.items->size() > b.items->size();
    }
    orderable = false;
    return 0;
  };
  if (const AV* key = kwArg(kw, {"key"}); key && key->k != K::None) {  // by the key's value of each
    std::vector<std::pair<AV, AV>> keyed;
    for (const AV& el : els) keyed.emplace_back(apply(*key, {el}, {}, at, f, p, d + 1), el);
    std::stable_sort(keyed.begin(), keyed.end(), [&](auto& a, auto& b) { return cmp(a.first, b.first) < 0; });
    for (size_t i = 0; i < els.size(); ++i) els[i] = keyed[i].second;
  } else {
    std::stable_sort(els.begin(), els.end(), [&](const AV& a, const AV& b) { return cmp(a, b) < 0; });
  }
  const AV* rev = kwArg(kw, {"reverse"});
  if (rev && rev->k != K::Bool && rev->k != K::Int) return out = AV::unknown("sorted in an order not known"), false;
  if (!orderable) return out = AV::unknown("sorted of values it cannot order"), false;
  if (rev && rev->i) std::reverse(els.begin(), els.end());
  return true;
}

// `namedtuple(name, fields, defaults=...)`: a record class, its field names in order.
AV DeclEval::Impl::namedtupleOf(std::vector<AV>& pos, Kw& kw) {
  const AV* fields = pos.size() > 1 ? &pos[1] : kwArg(kw, {"field_names"});
  std::vector<AV> names;
  if (fields && fields->k == K::Str) {
    std::string s = fields->s;
    for (char& c : s) c = c == ',' ? ' ' : c;
    for (size_t i = 0; i < s.size();) {
      size_t j = s.find(' ', i);
      if (j == std::string::npos) j = s.size();
      if (j > i) names.push_back(AV::str(s.substr(i, j - i)));
      i = j + 1;
    }
  } else if (fields && fields->isSeq()) {
    names = *fields->items;
  } else {
    return AV::unknown("a namedtuple of fields it cannot read");
  }
  AV cls = AV::of(K::Class);
  cls.s = pos[0].k == K::Str ? pos[0].s : "namedtuple";
  // `defaults=(...)`: the values of the last fields, kept by name (Class.kw).
  cls.kw = std::make_shared<Kw>();
  if (const AV* defs = kwArg(kw, {"defaults"}); defs && defs->k != K::None) {
    bool known = false;
    std::vector<AV> dv = elementsOf(*defs, &known);
    if (!known || dv.size() > names.size()) return AV::unknown("a namedtuple whose defaults it cannot read");
    for (size_t i = 0; i < dv.size(); ++i)
      if (names[names.size() - dv.size() + i].k == K::Str) cls.kw->emplace_back(names[names.size() - dv.size() + i].s, dv[i]);
  }
  cls.items = std::make_shared<std::vector<AV>>(std::move(names));
  return cls;
}

// The builtins over a sequence's elements `els` (`ok`: they are known), and `getattr`,
// `namedtuple`, `super`, `map`, `dict`; `*handled` false for any other.
AV DeclEval::Impl::sequenceBuiltin(const std::string& name, std::vector<AV>& pos, Kw& kw, std::vector<AV>& els,
                                   bool ok, TSNode at, DFrame& f, DPath& p, int d, bool* handled) {
  *handled = true;
  if (name == "iter" && pos.size() == 1) {  // an iterator over known elements: `next` takes them in turn
    if (pos[0].k == K::Iter) return pos[0];
    bool known = false;
    std::vector<AV> all = elementsOf(pos[0], &known);
    if (!known) return AV::unknown("an iterator over " + clip(text(f, at), 60) + ", whose elements are not known");
    AV it = AV::of(K::Iter);
    it.items = std::make_shared<std::vector<AV>>(std::move(all));
    return it;
  }
  if (name == "next" && (pos.size() == 1 || pos.size() == 2)) {
    if (pos[0].k != K::Iter) return unmodelled("next of " + clip(text(f, at), 60) + ", not an iterator it knows");
    if (pos[0].items->empty())  // exhausted: the default, else StopIteration
      return pos.size() == 2 ? pos[1] : AV::unknown("next of an exhausted iterator (StopIteration)");
    AV v = pos[0].items->front();
    pos[0].items->erase(pos[0].items->begin());
    return v;
  }
  if (name == "len") {
    if (!pos.empty() && pos[0].k == K::Str) return AV::integer(pos[0].s.size());
    return ok ? AV::integer(els.size()) : AV::unknown("len of " + clip(text(f, at), 60));
  }
  if (name == "list" || name == "tuple" || name == "sorted" || name == "reversed" || name == "set") {
    if (pos.empty()) return AV::seq(name == "tuple" ? K::Tuple : K::List, {});
    if (!ok) return kwArg(kw, {"key"}) ? unmodelled("sorted by a key of an unknown sequence")
                                       : AV::unknown(name + " of an unknown sequence");
    if (name == "reversed") std::reverse(els.begin(), els.end());
    AV unknown;
    if (name == "sorted" && !sortIn(els, kw, at, f, p, d, unknown)) return unknown;
    return AV::seq(name == "tuple" ? K::Tuple : K::List, std::move(els));
  }
  if (name == "getattr" && pos.size() >= 2 && pos[1].k == K::Str) {
    AV v = attrOf(pos[0], pos[1].s, at, f, p, d);
    return v.k == K::Unknown && pos.size() > 2 ? pos[2] : v;
  }
  if (name == "namedtuple" && !pos.empty()) return namedtupleOf(pos, kw);  // a record class: its field names
  if (name == "super" && pos.empty()) return superOf(f);
  if (name == "map" && pos.size() == 2) {  // read whole, as `list(map(...))` consumes it
    bool known = false;
    std::vector<AV> in = elementsOf(pos[1], &known);
    if (!known) {  // the function once, what it declares named (as a loop of unknown length)
      std::string saved = f.loopWhy;
      f.loopWhy = "declared in a map over " + clip(text(f, at), 60);
      apply(pos[0], {AV::unknown("an element of an unknown sequence")}, {}, at, f, p, d + 1);
      f.loopWhy = saved;
      return AV::unknown("map over " + clip(text(f, at), 60));
    }
    std::vector<AV> out;
    for (const AV& el : in) out.push_back(apply(pos[0], {el}, {}, at, f, p, d + 1));
    return AV::seq(K::List, std::move(out));
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
  if (name == "dict") {
    std::vector<AV> kv;
    if (!pos.empty() && pos[0].k == K::Dict) {
      kv = *pos[0].items;
    } else if (!pos.empty()) {  // pairs: dict([(k, v), ...]), dict(zip(...)), dict(map(...))
      bool known = false;
      for (const AV& pair : elementsOf(pos[0], &known)) {
        bool ok2 = false;
        std::vector<AV> two = elementsOf(pair, &ok2);
        if (!ok2 || two.size() != 2) return AV::unknown("dict of " + clip(text(f, at), 60));
        kv.push_back(two[0]), kv.push_back(two[1]);
      }
      if (!known) return AV::unknown("dict of " + clip(text(f, at), 60));
    }
    for (auto& [k, v] : kw) kv.push_back(AV::str(k)), kv.push_back(v);
    return AV::seq(K::Dict, std::move(kv));
  }
  *handled = false;
  return AV{};
}

AV DeclEval::Impl::builtin(const std::string& name, std::vector<AV>& pos, Kw& kw, TSNode at, DFrame& f, DPath& p,
                           int d) {
  bool handled = false;
  AV lib = library(name, pos, kw, at, f, p, d, &handled);
  if (handled) return lib;
  if (name != "isinstance" && name != "getattr" && name != "super")
    for (AV& a : pos) a = iterated(a, d);  // `list(Arg)`, `enumerate(Arg)`: an enum's members
  AV r = valueBuiltin(name, pos, kw, at, f, &handled);
  if (handled) return r;
  bool ok = false;
  std::vector<AV> els = pos.empty() ? std::vector<AV>{} : [&] {
    const AV& s = pos[0];
    if (s.isSeq()) return ok = true, *s.items;
    if (s.k == K::Iter && name != "iter" && name != "next") {  // consumed by what iterates it
      std::vector<AV> rest = *s.items;
      s.items->clear();
      return ok = true, rest;
    }
    if (s.k == K::Dict) {
      std::vector<AV> keys;
      for (size_t i = 0; i < s.items->size(); i += 2) keys.push_back((*s.items)[i]);
      return ok = true, keys;
    }
    return std::vector<AV>{};
  }();
  r = sequenceBuiltin(name, pos, kw, els, ok, at, f, p, d, &handled);
  if (handled) return r;
  if (name == "str" && pos.size() == 1) {
    if (pos[0].k == K::Str) return pos[0];
    if (pos[0].k == K::Int) return AV::str(std::to_string(pos[0].i));
  }
  if (name == "int" && pos.size() == 1 && pos[0].k == K::Int) return pos[0];
  if ((name == "min" || name == "max") && allInts(pos, 1)) {
    long long v = pos[0].i;
    for (const AV& a : pos) v = name == "min" ? std::min(v, a.i) : std::max(v, a.i);
    return AV::integer(v);
  }
  (void)p;
  return unmodelled(name + "(...)");
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
      // Extended by elements it does not know: one unknown element stands for them (and says
      // so where the list is used), never a list silently shorter.
      if (!ok) add = {AV::unknown(pos[0].k == K::Unknown && !pos[0].s.empty() ? pos[0].s : "extended by a sequence not known")};
      for (AV& a : add) self.items->push_back(tagged(a, p.conds));
    } else if (n == "insert" && pos.size() == 2 && pos[0].k == K::Int) {
      long long at = std::clamp<long long>(pos[0].i, 0, self.items->size());
      self.items->insert(self.items->begin() + at, tagged(pos[1], p.conds));
    } else if (n == "copy") {
      return AV::seq(K::List, *self.items);
    } else {
      return unmodelled("list." + n);
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
    return unmodelled("dict." + n);
  }
  if (self.k == K::Unknown && (n == "startswith") && pos.size() == 1 && pos[0].k == K::Str) {
    // A string whose start is known: decided when the start covers the argument or differs from it.
    const std::string &a = pos[0].s, &pre = self.prefix;
    size_t common = std::min(a.size(), pre.size());
    if (a.compare(0, common, pre, 0, common) != 0) return AV::boolean(false);
    if (a.size() <= pre.size()) return AV::boolean(true);
    return AV::unknown("startswith of a string known only to start " + clip(pre, 40));
  }
  if (self.k == K::Unknown) return AV::unknown("str." + n + " of a string not known");
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
    if (n == "split" && pos.size() <= 1 && kw.empty() && (pos.empty() || (pos[0].k == K::Str && !pos[0].s.empty()))) {
      std::vector<AV> out;  // no separator: runs of whitespace, none empty; else every piece
      if (pos.empty()) {
        std::string cur;
        for (char c : self.s + " ")
          if (::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) out.push_back(AV::str(cur)), cur.clear();
          } else {
            cur += c;
          }
      } else {
        size_t at = 0;
        for (size_t hit; (hit = self.s.find(pos[0].s, at)) != std::string::npos; at = hit + pos[0].s.size())
          out.push_back(AV::str(self.s.substr(at, hit - at)));
        out.push_back(AV::str(self.s.substr(at)));
      }
      return AV::seq(K::List, std::move(out));
    }
    if ((n == "strip" || n == "lstrip" || n == "rstrip") && pos.empty()) {
      size_t lo = 0, hi = self.s.size();
      if (n != "rstrip")
        while (lo < hi && ::isspace(static_cast<unsigned char>(self.s[lo]))) ++lo;
      if (n != "lstrip")
        while (hi > lo && ::isspace(static_cast<unsigned char>(self.s[hi - 1]))) --hi;
      return AV::str(self.s.substr(lo, hi - lo));
    }
    if (n == "replace" && pos.size() == 2 && pos[0].k == K::Str && pos[1].k == K::Str && !pos[0].s.empty()) {
      std::string out;
      size_t at = 0;
      for (size_t hit; (hit = self.s.find(pos[0].s, at)) != std::string::npos; at = hit + pos[0].s.size())
        out += self.s.substr(at, hit - at) + pos[1].s;
      out += self.s.substr(at);
      if (out.size() > DeclEval::kMaxItems) throw DStop{"a string longer than the size limit"};
      return AV::str(out);
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
    return unmodelled("str." + n);
  }
  AV ir = AV::unknown("an IR value");  // the IRBuilder's other methods
  ir.lib = true;
  return ir;
}

}  // namespace impact::pyextract
