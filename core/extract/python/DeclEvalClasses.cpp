// The builder evaluator (DeclEval.h): objects of the module's classes. A class is called: a record
// (`@dataclass`, `NamedTuple`, `collections.namedtuple`) binds its fields in order, any other runs
// `__init__` with the new instance, whose attributes (`self.b = b`) are shared as Python objects
// are. A member is found as Python finds it: the instance's attributes, then the class and its
// bases of the module, left to right; a staticmethod is unbound, a classmethod bound to the class,
// `super()` looks up from the class after the method's own.
#include <algorithm>

#include "extract/python/DeclEvalImpl.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Kw = std::vector<std::pair<std::string, AV>>;

// The bases of a class of the module that are classes of the module, in order.
std::vector<std::string> basesOf(const ModIndex& m, const std::string& cls) {
  std::vector<std::string> out;
  auto it = m.classes.find(cls);
  if (it == m.classes.end()) return out;
  for (TSNode b : namedChildren(field(it->second, "superclasses")))
    if (is(b, "identifier") && m.classes.count(std::string(m.t->text(b)))) out.emplace_back(m.t->text(b));
  return out;
}

// The class (of `cls` and its bases, depth first, left to right) that defines `attr` as a method:
// its key in ModIndex::fns, or "".
std::string methodKey(const ModIndex& m, const std::string& cls, const std::string& attr, int depth) {
  if (depth > 16) return "";
  if (m.fns.count(cls + "." + attr)) return cls + "." + attr;
  for (const std::string& b : basesOf(m, cls))
    if (std::string k = methodKey(m, b, attr, depth + 1); !k.empty()) return k;
  return "";
}

// A class attribute (`PTRS = ("a", "c")` in the body) of `cls` or its bases: its value's node.
TSNode classAttribute(const ModIndex& m, const std::string& cls, const std::string& attr, int depth) {
  auto it = m.classes.find(cls);
  if (depth > 16 || it == m.classes.end()) return TSNode{};
  for (TSNode st : namedChildren(field(it->second, "body"))) {
    if (!is(st, "expression_statement")) continue;
    for (TSNode a : namedChildren(st))
      if (is(a, "assignment") && is(field(a, "left"), "identifier") && m.t->text(field(a, "left")) == attr &&
          !ts_node_is_null(field(a, "right")))
        return field(a, "right");
  }
  for (const std::string& b : basesOf(m, cls))
    if (TSNode v = classAttribute(m, b, attr, depth + 1); !ts_node_is_null(v)) return v;
  return TSNode{};
}

// Is the expression the name `name`, or an attribute ending in it (`typing.ClassVar`)?
bool names(const SyntaxTree& t, TSNode e, std::string_view name) {
  if (is(e, "identifier")) return t.text(e) == name;
  return is(e, "attribute") && t.text(field(e, "attribute")) == name;
}

// Is the def decorated with the builtin `name` (`@staticmethod`), its decorator's expression that name?
bool decoratedWith(const SyntaxTree& t, TSNode def, std::string_view name) {
  TSNode parent = ts_node_parent(def);
  if (!is(parent, "decorated_definition")) return false;
  for (TSNode dec : namedChildren(parent))
    if (is(dec, "decorator") && !namedChildren(dec).empty() && names(t, namedChildren(dec)[0], name)) return true;
  return false;
}

}  // namespace

std::vector<std::pair<std::string, TSNode>> DeclEval::Impl::recordFields(const AV& cls) {
  std::vector<std::pair<std::string, TSNode>> out;
  if (cls.items) {  // a namedtuple: its field names
    for (const AV& n : *cls.items)
      if (n.k == K::Str) out.emplace_back(n.s, TSNode{});
    return out;
  }
  if (!cls.mod) return out;
  auto it = cls.mod->classes.find(cls.s);
  if (it == cls.mod->classes.end()) return out;
  const SyntaxTree& t = *cls.mod->t;
  for (TSNode st : namedChildren(field(it->second, "body"))) {
    if (!is(st, "expression_statement")) continue;
    for (TSNode a : namedChildren(st)) {
      if (!is(a, "assignment") || ts_node_is_null(field(a, "type")) || !is(field(a, "left"), "identifier")) continue;
      // `x: ClassVar[int] = 0` is a class attribute, not a field: its annotation's expression.
      TSNode ann = field(a, "type");
      TSNode annExpr = namedChildren(ann).empty() ? ann : namedChildren(ann)[0];
      if (is(annExpr, "generic_type") || is(annExpr, "subscript")) annExpr = namedChildren(annExpr)[0];
      if (names(t, annExpr, "ClassVar")) continue;
      out.emplace_back(std::string(t.text(field(a, "left"))), field(a, "right"));
    }
  }
  return out;
}

std::optional<std::vector<AV>> DeclEval::Impl::enumMembers(const AV& cls, int d) {
  if (cls.k != K::Class || !cls.mod) return std::nullopt;
  auto it = cls.mod->classes.find(cls.s);
  if (it == cls.mod->classes.end()) return std::nullopt;
  if (auto known = enums.find(it->second.id); known != enums.end()) return known->second;
  enums[it->second.id] = std::nullopt;  // while being read: a member's value naming the class reads none
  bool isEnum = false;
  DFrame mf;
  mf.mod = cls.mod;
  DPath none;
  for (TSNode b : namedChildren(field(it->second, "superclasses"))) {
    if (is(b, "keyword_argument") || is(b, "comment")) continue;
    AV base = expr(b, mf, none, d + 1);
    for (const char* e : {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
      isEnum = isEnum || (base.k == K::Imported && (base.s == std::string("enum:") + e || base.s == std::string("enum.") + e));
  }
  if (!isEnum) return std::nullopt;
  std::vector<AV> out;
  for (TSNode st : namedChildren(field(it->second, "body"))) {
    if (!is(st, "expression_statement")) continue;
    for (TSNode a : namedChildren(st)) {
      TSNode left = field(a, "left"), right = field(a, "right");
      if (!is(a, "assignment") || !is(left, "identifier") || ts_node_is_null(right)) continue;
      std::string name(cls.mod->t->text(left));
      if (name.starts_with("_")) continue;
      AV m = AV::of(K::Instance);
      m.s = cls.s;
      m.mod = cls.mod;
      m.closure = newObject();
      (*m.closure)["name"] = AV::str(name, rangeOf(left));
      (*m.closure)["value"] = expr(right, mf, none, d + 1);
      out.push_back(std::move(m));
      if (out.size() > DeclEval::kMaxItems) throw DStop{"an enum larger than the size limit"};
    }
  }
  enums[it->second.id] = out;
  return out;
}

AV DeclEval::Impl::iterated(const AV& v, int d) {
  if (v.k != K::Class) return v;
  if (auto ms = enumMembers(v, d)) return AV::seq(K::List, std::move(*ms));
  return v;
}

AV DeclEval::Impl::classMember(const AV& obj, const std::string& attr, TSNode e, DFrame& f, DPath& p, int d) {
  if (obj.k == K::Class)  // an enum's member (`Arg.LHS`): the member, its `name` and `value`
    if (auto ms = enumMembers(obj, d))
      for (const AV& m : *ms)
        if ((*m.closure)["name"].s == attr) return m;
  if (obj.k == K::Instance && obj.closure)
    if (auto it = obj.closure->find(attr); it != obj.closure->end()) return it->second;
  // `dataclasses.replace(spec, wide=True)`: the fields it set, else the spec's own (symbolic).
  if (obj.k == K::Instance && obj.self && obj.self->k == K::Sym) return attrOf(*obj.self, attr, e, f, p, d);
  if (!obj.mod) {  // a namedtuple's
    if (AV r = recordMember(obj, attr); r.k != K::Unknown) return r;
    return AV::unknown("the attribute " + clip(text(f, e), 60));
  }
  const std::string& from = obj.k == K::Instance && !obj.cls.empty() ? obj.cls : obj.s;  // super(): after the method's class
  if (std::string key = methodKey(*obj.mod, from, attr, 0); !key.empty()) {
    AV m = AV::of(K::Func);
    m.def = obj.mod->fns.at(key);
    m.mod = obj.mod;
    m.s = key;
    if (decoratedWith(*obj.mod->t, m.def, "staticmethod")) return m;
    if (decoratedWith(*obj.mod->t, m.def, "classmethod")) {
      AV cls = AV::of(K::Class);
      cls.mod = obj.mod;
      cls.s = obj.s;
      m.self = std::make_shared<AV>(cls);
    } else if (obj.k == K::Instance) {
      AV self = obj;
      self.cls.clear();
      if (decoratedWith(*obj.mod->t, m.def, "property") || decoratedWith(*obj.mod->t, m.def, "cached_property"))
        return invoke(m, {self}, {}, e, f, p, d + 1);
      m.self = std::make_shared<AV>(self);
    }
    return m;
  }
  if (TSNode v = classAttribute(*obj.mod, from, attr, 0); !ts_node_is_null(v)) {
    DFrame mf;
    mf.mod = obj.mod;
    DPath none;
    return expr(v, mf, none, d + 1);
  }
  if (AV r = recordMember(obj, attr); r.k != K::Unknown) return r;
  return AV::unknown("the attribute " + clip(text(f, e), 60));
}

AV DeclEval::Impl::recordClassOf(const AV& obj) {
  if (obj.k == K::Class) return obj;
  if (obj.self && obj.self->k == K::Class) return *obj.self;  // a namedtuple's instance
  AV cls = AV::of(K::Class);
  cls.s = obj.s;
  cls.mod = obj.mod;
  return cls;
}

AV DeclEval::Impl::recordMember(const AV& obj, const std::string& attr) {
  // A record (namedtuple, NamedTuple, a dataclass): its class, or an instance that unpacks as a tuple.
  bool record = (obj.k == K::Class && (obj.items || (obj.mod && !recordFields(obj).empty()))) ||
                (obj.k == K::Instance && obj.items);
  if (!record) return AV{};
  if (attr == "_fields") {
    std::vector<AV> names;
    for (auto& [n, def] : recordFields(recordClassOf(obj))) names.push_back(AV::str(n));
    return AV::seq(K::Tuple, std::move(names));
  }
  if ((attr == "_make" && obj.k == K::Class) || (obj.k == K::Instance && (attr == "_replace" || attr == "_asdict"))) {
    AV m = AV::of(K::Method);
    m.s = attr;
    m.self = std::make_shared<AV>(obj);
    return m;
  }
  return AV{};
}

AV DeclEval::Impl::recordMethod(const AV& m, std::vector<AV> pos, Kw kw, TSNode at, DFrame& f, DPath& p, int d) {
  const AV& obj = *m.self;
  if (m.s == "_make" && pos.size() == 1) {  // `T._make(iterable)`: the fields in order
    bool known = false;
    std::vector<AV> els = elementsOf(pos[0], &known);
    if (!known) return AV::unknown("_make of " + clip(text(f, at), 60) + ", a sequence not known");
    if (els.size() != recordFields(obj).size())  // Python raises TypeError (defaults do not apply)
      return AV::unknown("_make of " + std::to_string(els.size()) + " values for " +
                         std::to_string(recordFields(obj).size()) + " fields");
    return instantiate(obj, std::move(els), {}, at, f, p, d);
  }
  if (m.s == "_replace" && pos.empty()) {  // a new record, the keywords' fields replaced
    AV c = obj;
    c.closure = newObject();
    *c.closure = *obj.closure;
    std::vector<AV> items;
    auto fields = recordFields(recordClassOf(obj));
    for (auto& [k, v] : kw) {
      if (std::none_of(fields.begin(), fields.end(), [&](auto& fd) { return fd.first == k; }))
        return AV::unknown("_replace of a field " + k + " the record does not have");
      (*c.closure)[k] = v;
    }
    for (auto& [n, def] : fields) items.push_back((*c.closure)[n]);
    if (items.size() != obj.items->size()) items.assign(obj.items->size(), AV::unknown("a field of a replaced record"));
    c.items = std::make_shared<std::vector<AV>>(std::move(items));
    return c;
  }
  if (m.s == "_asdict" && pos.empty() && kw.empty()) {
    std::vector<AV> kv;
    for (auto& [n, def] : recordFields(recordClassOf(obj))) kv.push_back(AV::str(n)), kv.push_back((*obj.closure)[n]);
    return AV::seq(K::Dict, std::move(kv));
  }
  return unmodelled(m.s + " of a record, called so");
}

AV DeclEval::Impl::instantiate(const AV& cls, std::vector<AV> pos, Kw kw, TSNode at, DFrame& f, DPath& p, int d) {
  AV self = AV::of(K::Instance);
  self.s = cls.s;
  self.mod = cls.mod;
  self.closure = newObject();
  std::string init = cls.mod ? methodKey(*cls.mod, cls.s, "__init__", 0) : "";
  if (init.empty()) {  // a record (@dataclass, NamedTuple, namedtuple): the fields bound in order
    auto fields = recordFields(cls);
    std::vector<AV> values;
    for (size_t i = 0; i < fields.size(); ++i) {
      const auto& [name, def] = fields[i];
      AV v = AV::unknown("the field " + name + " is not given");
      auto given = std::find_if(kw.begin(), kw.end(), [&](auto& k) { return k.first == name; });
      if (i < pos.size()) v = pos[i];
      else if (given != kw.end()) v = given->second;
      else if (cls.kw && ts_node_is_null(def)) {  // a namedtuple's `defaults=`
        for (auto& [dn, dv] : *cls.kw)
          if (dn == name) v = dv;
      } else if (!ts_node_is_null(def)) {
        DFrame mf;
        mf.mod = cls.mod;
        DPath none;
        v = expr(def, mf, none, d + 1);
      }
      (*self.closure)[name] = v;
      values.push_back(v);
    }
    if (!fields.empty()) self.items = std::make_shared<std::vector<AV>>(std::move(values));  // unpacks as a tuple
    if (!cls.mod) self.self = std::make_shared<AV>(cls);  // a namedtuple's instance: its class (its fields' order)
    return self;
  }
  AV fn = AV::of(K::Func);
  fn.def = cls.mod->fns.at(init);
  fn.mod = cls.mod;
  fn.s = init;
  fn.self = std::make_shared<AV>(self);
  apply(fn, std::move(pos), std::move(kw), at, f, p, d);
  return self;
}

AV DeclEval::Impl::superOf(const DFrame& f) {
  if (!f.self || f.self->k != K::Instance || f.cls.empty() || !f.mod)
    return AV::unknown("super() outside a method of the module's classes");
  std::string own = f.cls.substr(f.cls.rfind('.') == std::string::npos ? 0 : f.cls.rfind('.') + 1);
  std::vector<std::string> bases = basesOf(*f.mod, own);
  if (bases.empty()) return AV::unknown("super() of " + own + ", whose bases are not the module's classes");
  AV view = *f.self;
  view.cls = bases[0];
  return view;
}

}  // namespace impact::pyextract
