// The builder evaluator (DeclEval.h): names (module bindings, imports) and expressions. The module
// index is in DeclEvalIndex.cpp; statements in DeclEvalStatements.cpp; a call expression and
// `apply` in DeclEvalApply.cpp; a module function's call and the entries in DeclEvalCalls.cpp;
// builtins and methods in DeclEvalBuiltins.cpp; classes in DeclEvalClasses.cpp.
#include "extract/python/DeclEvalImpl.h"

#include <algorithm>
#include <cstdlib>

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"
#include "extract/python/RockeTypes.h"
#include "extract/python/Values.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Op = GuardNode::Op;

const char* const kBuiltins[] = {"range", "len",     "list",     "tuple",      "dict",       "enumerate", "zip",
                                 "str",   "int",     "sorted",   "reversed",   "min",        "max",       "set",
                                 "partial", "isinstance", "getattr", "bool",   "any",        "all",       "sum",
                                 "abs",   "print",   "frozenset", "namedtuple", "map",       "super",
                                 "filter", "hasattr", "setattr", "locals", "vars",     "exec",      "eval",
                                 "callable", "id",    "type",    "repr",      "issubclass", "hash",
                                 "iter",  "next"};

// A function of the standard library the evaluator runs as a builtin: its key in `builtin`, or "".
std::string stdlibFunction(const std::string& module, const std::string& attr) {
  static const std::tuple<const char*, const char*, const char*> kFns[] = {
      {"functools", "partial", "partial"},          {"collections", "namedtuple", "namedtuple"},
      {"dataclasses", "replace", "dataclasses.replace"}, {"typing", "cast", "typing.cast"},
      {"typing", "get_args", "typing.get_args"},
      {"copy", "copy", "copy.copy"},                {"copy", "deepcopy", "copy.copy"},
      {"itertools", "starmap", "itertools.starmap"}, {"itertools", "chain", "itertools.chain"},
      {"itertools", "repeat", "itertools.repeat"},  {"itertools", "zip_longest", "itertools.zip_longest"},
      {"itertools", "islice", "itertools.islice"},  {"itertools", "accumulate", "itertools.accumulate"},
      {"operator", "methodcaller", "operator.methodcaller"}, {"operator", "itemgetter", "operator.itemgetter"},
      {"operator", "attrgetter", "operator.attrgetter"}, {"functools", "reduce", "functools.reduce"},
      {"functools", "wraps", "functools.wraps"},    {"types", "SimpleNamespace", "types.SimpleNamespace"}};
  for (auto& [m, a, key] : kFns)
    if (module == m && attr == a) return key;
  return "";
}

AV fromKnown(const Value& v) {
  AV a;
  switch (v.k) {
    case VK::Scalar:
      a.k = K::Type;
      a.kind = "by_value";
      a.size = v.size;
      a.cls = v.cls;
      return a;
    case VK::PtrCtor: return AV::of(K::PtrCtor);
    case VK::IRBuilderCtor: return AV::of(K::BuilderCtor);
    case VK::SigCtor: return AV::of(K::SigCtor);
  }
  return AV::unknown("a rocKE name it does not model");
}

}  // namespace

void DeclEval::Impl::step() {
  if (budgetEnd >= 0 && steps >= budgetEnd) throw DOverBudget{};
  if (++steps > DeclEval::kMaxSteps) throw DStop{"the step limit (" + std::to_string(DeclEval::kMaxSteps) + ")"};
}

AV DeclEval::Impl::imported(ModIndex* m, const std::string& n, const std::string& module, const std::string& attr,
                             int d) {
  std::string from = resolveRelative(m->dotted, module);
  AV out;
  if (auto k = knownName(attr.empty() ? n : attr)) {
    out = fromKnown(*k);
    out.typeText = n;
  } else if (std::string key = stdlibFunction(from, attr); !key.empty()) {
    out = AV::of(K::Builtin);
    out.s = key;
  } else if (ModIndex* other = attr.empty() ? nullptr : moduleNamed(from)) {
    out = moduleBinding(other, attr, d + 1);
  } else if (attr.empty() || moduleNamed(from + "." + attr)) {
    out = AV::of(K::Imported);
    out.s = attr.empty() ? from : from + "." + attr;
    out.i = 1;  // a module
  } else {
    out = AV::of(K::Imported);
    out.s = from + ":" + (attr.empty() ? n : attr);
  }
  return out;
}

AV DeclEval::Impl::moduleBinding(ModIndex* m, const std::string& n, int d) {
  if (auto it = m->cache.find(n); it != m->cache.end()) return it->second;
  auto bit = m->binds.find(n);
  if (bit == m->binds.end()) {
    if (auto k = knownName(n)) {
      AV v = fromKnown(*k);
      v.typeText = n;
      return v;
    }
    if (std::find(std::begin(kBuiltins), std::end(kBuiltins), n) != std::end(kBuiltins)) {
      AV b = AV::of(K::Builtin);
      b.s = n;
      return b;
    }
    return AV::unknown("'" + n + "' is never bound");
  }
  if (m->globals.count(n)) return AV::unknown("'" + n + "' is assigned in a function (global " + n + ")");
  const ModIndex::Bind& b = bit->second;
  AV out;
  if (auto fit = m->fns.find(n); fit != m->fns.end() && b.count == 1) {
    out = AV::of(K::Func);
    out.def = fit->second;
    out.mod = m;
    out.s = n;
  } else if (m->classes.count(n) && b.count == 1) {
    out = AV::of(K::Class);
    out.mod = m;
    out.s = n;
  } else if (!b.module.empty()) {
    if (m->busy[n]) return AV::unknown("a cyclic import of '" + n + "'");
    m->busy[n] = true;
    out = imported(m, n, b.module, b.attr, d);
    m->busy[n] = false;
  } else if (b.count == 1 && !ts_node_is_null(b.value)) {
    if (m->busy[n]) return AV::unknown("'" + n + "' is defined through itself");
    m->busy[n] = true;
    DFrame mf;
    mf.mod = m;
    DPath none;
    try {
      out = expr(b.value, mf, none, d + 1);
    } catch (const DStop& s) {
      m->busy[n] = false;
      if (!s.depth) throw;
      // A chain of module-level names deeper than the limit: this name is unknown, and why; the
      // function reading it goes on (a short chain beside it still resolves).
      out = AV::unknown("'" + n + "' is bound through " + s.why);
    } catch (...) {
      m->busy[n] = false;
      throw;
    }
    m->busy[n] = false;
  } else {
    out = AV::unknown("'" + n + "' is bound " + std::to_string(b.count) + " times at module level");
  }
  m->cache[n] = out;
  return out;
}

AV DeclEval::Impl::lookup(const std::string& n, DFrame& f, DPath& p, int d) {
  if (auto it = f.env.find(n); it != f.env.end()) return it->second;
  if (f.closure)
    if (auto it = f.closure->find(n); it != f.closure->end()) {
      AV v = it->second;
      if (v.selfInClosure) v.closure = f.closure, v.selfInClosure = false;
      return v;
    }
  (void)p;
  return moduleBinding(f.mod, n, d);
}

AV DeclEval::Impl::symOf(TSNode e, const AV& v, DFrame& f) {
  if (v.k == K::Sym) return v;
  Guard g;
  g.root = addNode(g, GuardNode{Op::Opaque, text(f, e), {}});
  return symFromGuard(std::move(g), text(f, e));
}

AV DeclEval::Impl::expr(TSNode e, DFrame& f, DPath& p, int d) {
  step();
  if (d > kMaxVisitDepthEval) throw DStop{"expressions nested deeper than " + std::to_string(kMaxVisitDepthEval), true};
  std::string_view ty = type(e);
  if (ty == "identifier") return lookup(text(f, e), f, p, d);
  if (ty == "attribute") return attribute(e, f, p, d);
  if (ty == "call") return call(e, f, p, d);
  if (ty == "yield") return yield(e, f, p, d);
  if (ty == "lambda") {  // a function whose body is one expression, closing over the frame
    AV fn = AV::of(K::Func);
    fn.def = e;
    fn.mod = f.mod;
    fn.s = "<lambda>";
    fn.closure = closureFor(f);
    return fn;
  }
  if (ty == "string" || ty == "concatenated_string") return string(e, f, p, d);
  if (ty == "integer") {
    std::string s = text(f, e);
    s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
    return AV::integer(std::strtoll(s.c_str(), nullptr, 0));
  }
  if (ty == "true" || ty == "false") return AV::boolean(ty == "true");
  if (ty == "none") return AV::of(K::None);
  if (ty == "parenthesized_expression") {
    auto kids = namedChildren(e);
    return kids.size() == 1 ? expr(kids[0], f, p, d + 1) : AV::unknown("an empty expression");
  }
  if (ty == "list" || ty == "set") return sequence(e, K::List, f, p, d);
  if (ty == "tuple" || ty == "expression_list") return sequence(e, K::Tuple, f, p, d);
  if (ty == "dictionary") return dict(e, f, p, d);
  if (ty == "subscript") return subscript(e, f, p, d);
  if (ty == "binary_operator") return binary(e, f, p, d);
  if (ty == "comparison_operator") return compare(e, f, p, d);
  if (ty == "boolean_operator" || ty == "not_operator") return boolean(e, f, p, d);
  if (ty == "unary_operator") {
    AV a = expr(field(e, "argument"), f, p, d + 1);
    std::string op = text(f, field(e, "operator"));
    if (a.k == K::Int && (op == "-" || op == "+")) return AV::integer(op == "-" ? -a.i : a.i);
    return AV::unknown("unary " + op);
  }
  if (ty == "conditional_expression") {
    auto ps = namedChildren(e);
    if (ps.size() != 3) return AV::unknown("a conditional expression it cannot read");
    AV c = expr(ps[1], f, p, d + 1);
    bool truth = false;
    if (truthKnown(c, &truth)) return expr(truth ? ps[0] : ps[2], f, p, d + 1);
    AV v = chooseValues(*symOf(ps[1], c, f).g, expr(ps[0], f, p, d + 1), expr(ps[2], f, p, d + 1));
    if (v.k == K::Unknown) v.s = "depends on " + symOf(ps[1], c, f).s;
    return v;
  }
  if (ty == "list_comprehension" || ty == "generator_expression" || ty == "set_comprehension" ||
      ty == "dictionary_comprehension")
    return comprehension(e, f, p, d);
  if (ty == "named_expression") {
    AV v = expr(field(e, "value"), f, p, d + 1);
    assign(field(e, "name"), v, f, p, d);
    return v;
  }
  if (ty == "keyword_argument") return expr(field(e, "value"), f, p, d + 1);
  return AV::unknown("a " + std::string(ty));
}

AV DeclEval::Impl::attribute(TSNode e, DFrame& f, DPath& p, int d) {
  AV obj = expr(field(e, "object"), f, p, d + 1);
  return attrOf(obj, text(f, field(e, "attribute")), e, f, p, d);
}

AV DeclEval::Impl::attrOf(const AV& obj, const std::string& attr, TSNode e, DFrame& f, DPath& p, int d) {
  (void)p;
  switch (obj.k) {
    case K::Instance:
    case K::Class: return classMember(obj, attr, e, f, p, d);
    case K::Type:  // an IR scalar type's name: `Type("i32").name` (`f"p_{dtype.name}"`)
      if (attr == "name" && obj.kind == "by_value" && !obj.cls.empty()) return AV::str(obj.cls);
      break;
    case K::Sig:
    case K::Builder: {
      AV m = AV::of(obj.k == K::Builder && attr == "param" ? K::ParamMethod : K::Method);
      m.s = attr;
      m.self = std::make_shared<AV>(obj);
      return m;
    }
    case K::Sym: {
      Guard g = *obj.g;
      std::string name = obj.s + "." + attr;
      if (g.nodes[g.root].op == Op::Name) {
        g.nodes[g.root].text = name;
        return symFromGuard(std::move(g), name);
      }
      Guard o;
      o.root = addNode(o, GuardNode{Op::Opaque, name, {}});
      return symFromGuard(std::move(o), name);
    }
    case K::Imported: {
      if (auto k = knownName(attr)) {
        AV v = fromKnown(*k);
        v.typeText = text(f, e);
        return v;
      }
      if (std::string key = obj.i == 1 ? stdlibFunction(obj.s, attr) : ""; !key.empty()) {
        AV b = AV::of(K::Builtin);
        b.s = key;
        return b;
      }
      if (obj.i == 1) {  // a module of the tree
        if (ModIndex* m = moduleNamed(obj.s)) {
          if (m->binds.count(attr)) return moduleBinding(m, attr, d + 1);
          if (ModIndex* sub = moduleNamed(obj.s + "." + attr)) {
            AV s = AV::of(K::Imported);
            s.s = sub->dotted;
            s.i = 1;
            return s;
          }
        }
        AV out = AV::of(K::Imported);
        out.s = obj.s + ":" + attr;
        return out;
      }
      AV out = AV::of(K::Imported);
      out.s = obj.s + "." + attr;
      return out;
    }
    case K::Unknown:
      if (obj.prefix.empty()) break;
      [[fallthrough]];  // a string whose start is known
    case K::Str:
    case K::List:
    case K::Dict:
    case K::Tuple: {
      AV m = AV::of(K::Method);
      m.s = attr;
      m.self = std::make_shared<AV>(obj);
      return m;
    }
    case K::Builtin:
      if (obj.s == "functools" || attr == "partial") {
        AV b = AV::of(K::Builtin);
        b.s = attr;
        return b;
      }
      break;
    default: break;
  }
  if (obj.k == K::Unknown && is(e, "attribute") && is(field(e, "object"), "identifier") &&
      text(f, field(e, "object")) == "functools" &&
      attr == "partial") {
    AV b = AV::of(K::Builtin);
    b.s = "partial";
    return b;
  }
  if (auto k = knownName(attr); k && obj.k == K::Unknown) {  // `ir.I32` of a module not read
    AV v = fromKnown(*k);
    v.typeText = text(f, e);
    return v;
  }
  AV v = AV::unknown("the attribute " + clip(text(f, e), 60));
  v.lib = obj.k == K::Unknown && obj.lib;
  return v;
}

AV DeclEval::Impl::string(TSNode e, DFrame& f, DPath& p, int d) {
  if (is(e, "concatenated_string")) {
    std::string out;
    for (TSNode part : namedChildren(e)) {
      AV v = string(part, f, p, d + 1);
      if (v.k != K::Str) {
        v.prefix = out + v.prefix;
        return v;
      }
      out += v.s;
    }
    return AV::str(std::move(out), rangeOf(e));
  }
  std::string out;
  bool fstr = false;
  const std::string_view src = f.mod->t->text();
  for (TSNode ch : children(e)) {
    std::string_view ty = type(ch);
    if (ty == "string_start") {
      std::string pre = text(f, ch);
      for (char c : pre.substr(0, pre.find_first_of("'\"")))
        if (c == 'f' || c == 'F') fstr = true;
        else if (c == 'b' || c == 'B') return AV::unknown("a bytes literal");
    } else if (ty == "string_content") {
      uint32_t at = ts_node_start_byte(ch);
      for (TSNode esc : namedChildren(ch)) {
        out += src.substr(at, ts_node_start_byte(esc) - at);
        std::string s = text(f, esc);
        if (is(esc, "escape_interpolation")) out += s.substr(0, 1);
        else if (s == "\\n") out += '\n';
        else if (s.size() == 2 && s[0] == '\\') out += s.substr(1);
        else return AV::unknown("the escape " + s);
        at = ts_node_end_byte(esc);
      }
      out += src.substr(at, ts_node_end_byte(ch) - at);
    } else if (ty == "interpolation") {
      if (!fstr) return AV::unknown("an interpolation outside an f-string");
      if (!ts_node_is_null(field(ch, "format_specifier")) || !ts_node_is_null(field(ch, "type_conversion")))
        return AV::unknown("an f-string with a conversion or format spec");
      AV v = expr(field(ch, "expression"), f, p, d + 1);
      if (v.k == K::Str) out += v.s;
      else if (v.k == K::Int) out += std::to_string(v.i);
      else if (v.k == K::Type && v.kind == "by_value" && !v.cls.empty()) out += v.cls;  // an IR type prints its name
      else {
        AV u = AV::unknown("an f-string over " + clip(text(f, field(ch, "expression")), 60) +
                           (v.k == K::Unknown && !v.s.empty() ? " (" + clip(v.s, 80) + ")" : ""));
        u.prefix = out + v.prefix;  // its start is known
        return u;
      }
    }
    if (out.size() > DeclEval::kMaxItems) throw DStop{"a string longer than the size limit"};
  }
  return AV::str(std::move(out), rangeOf(e));
}

AV DeclEval::Impl::sequence(TSNode e, K k, DFrame& f, DPath& p, int d) {
  std::vector<AV> items;
  for (TSNode el : namedChildren(e)) {
    if (is(el, "comment")) continue;
    if (is(el, "list_splat")) {
      AV s = expr(namedChildren(el)[0], f, p, d + 1);
      if (!s.isSeq()) return AV::unknown("a splat of " + clip(text(f, el), 60));
      items.insert(items.end(), s.items->begin(), s.items->end());
    } else {
      items.push_back(expr(el, f, p, d + 1));
    }
    if (items.size() > DeclEval::kMaxItems) throw DStop{"a sequence longer than the size limit"};
  }
  return AV::seq(k, std::move(items));
}

AV DeclEval::Impl::dict(TSNode e, DFrame& f, DPath& p, int d) {
  std::vector<AV> kv;
  for (TSNode el : namedChildren(e)) {
    if (is(el, "pair")) {
      kv.push_back(expr(field(el, "key"), f, p, d + 1));
      kv.push_back(expr(field(el, "value"), f, p, d + 1));
    } else if (is(el, "dictionary_splat")) {
      AV s = expr(namedChildren(el)[0], f, p, d + 1);
      if (s.k != K::Dict) return AV::unknown("a ** of " + clip(text(f, el), 60));
      kv.insert(kv.end(), s.items->begin(), s.items->end());
    }
    if (kv.size() > 2 * DeclEval::kMaxItems) throw DStop{"a dict larger than the size limit"};
  }
  AV v = AV::seq(K::Dict, std::move(kv));
  return v;
}

AV DeclEval::Impl::subscript(TSNode e, DFrame& f, DPath& p, int d) {
  AV v = expr(field(e, "value"), f, p, d + 1);
  TSNode sub = field(e, "subscript");
  if (is(sub, "slice")) {
    if (!v.isSeq() && v.k != K::Str) return AV::unknown("a slice of " + clip(text(f, e), 60));
    long long n = v.k == K::Str ? (long long)v.s.size() : (long long)v.items->size();
    long long bounds[2] = {0, n};
    int at = 0;
    bool colon = false;
    for (TSNode ch : children(sub)) {
      if (type(ch) == ":") {
        if (colon) return AV::unknown("a slice with a step");
        colon = true;
        at = 1;
        continue;
      }
      if (!ts_node_is_named(ch)) continue;
      AV b = expr(ch, f, p, d + 1);
      if (b.k != K::Int) return AV::unknown("a slice bound not known");
      bounds[at] = b.i < 0 ? n + b.i : b.i;
    }
    long long lo = std::clamp(bounds[0], 0LL, n), hi = std::clamp(bounds[1], lo, n);
    if (v.k == K::Str) return AV::str(v.s.substr(lo, hi - lo));
    return AV::seq(v.k, std::vector<AV>(v.items->begin() + lo, v.items->begin() + hi));
  }
  if (v.k == K::Imported && v.s == "typing:Literal") {  // `Literal["f16", "bf16"]`: its values, once each
    std::vector<AV> vals;
    auto kids = namedChildren(e);
    for (size_t i = 1; i < kids.size(); ++i) {
      if (is(kids[i], "comment")) continue;
      AV x = expr(kids[i], f, p, d + 1);
      if (std::none_of(vals.begin(), vals.end(), [&](const AV& y) { return sameAV(x, y); })) vals.push_back(x);
    }
    AV lit = AV::seq(K::Tuple, std::move(vals));
    lit.typeText = "typing.Literal";  // what typing.get_args reads
    return lit;
  }
  AV key = expr(sub, f, p, d + 1);
  if (v.k == K::Dict) {
    for (size_t i = 0; i + 1 < v.items->size(); i += 2)
      if (sameAV((*v.items)[i], key)) return (*v.items)[i + 1];
    return AV::unknown("a key not in " + clip(text(f, field(e, "value")), 60));
  }
  if ((v.isSeq() || v.k == K::Str) && key.k == K::Int) {
    long long n = v.k == K::Str ? (long long)v.s.size() : (long long)v.items->size();
    long long i = key.i < 0 ? n + key.i : key.i;
    if (i < 0 || i >= n) return AV::unknown("an index out of range");
    return v.k == K::Str ? AV::str(v.s.substr(i, 1)) : (*v.items)[i];
  }
  if (v.k == K::Sym) return symOf(e, AV{}, f);
  return AV::unknown("the subscript " + clip(text(f, e), 60));
}

AV DeclEval::Impl::binary(TSNode e, DFrame& f, DPath& p, int d) {
  AV a = expr(field(e, "left"), f, p, d + 1);
  AV b = expr(field(e, "right"), f, p, d + 1);
  std::string op = text(f, field(e, "operator"));
  if (op == "+" && a.k == K::Str && b.k == K::Str) {
    if (a.s.size() + b.s.size() > DeclEval::kMaxItems) throw DStop{"a string longer than the size limit"};
    return AV::str(a.s + b.s);
  }
  if (op == "+" && ((a.k == K::Str && (b.k == K::Unknown || b.k == K::Sym)) || (a.k == K::Unknown && !a.prefix.empty()))) {
    AV u = a.k == K::Unknown ? a : b.k == K::Unknown ? b : AV::unknown("a string joined with " + clip(b.s, 60));
    u.prefix = a.k == K::Str ? a.s + b.prefix : a.prefix;  // its start is known
    return u;
  }
  if (op == "+" && a.isSeq() && a.k == b.k) {
    if (a.items->size() + b.items->size() > DeclEval::kMaxItems) throw DStop{"a sequence longer than the size limit"};
    std::vector<AV> items = *a.items;
    items.insert(items.end(), b.items->begin(), b.items->end());
    return AV::seq(a.k, std::move(items));
  }
  if (op == "*" && a.isSeq() && b.k == K::Int) {
    if (b.i < 0 || a.items->size() * size_t(b.i) > DeclEval::kMaxItems)
      throw DStop{"a sequence longer than the size limit"};
    std::vector<AV> items;
    for (long long i = 0; i < b.i; ++i) items.insert(items.end(), a.items->begin(), a.items->end());
    return AV::seq(a.k, std::move(items));
  }
  if (op == "%" && a.k == K::Str) {
    std::vector<AV> vals = b.k == K::Tuple ? *b.items : std::vector<AV>{b};
    std::string out;
    size_t vi = 0;
    for (size_t i = 0; i < a.s.size(); ++i) {
      if (a.s[i] != '%' || i + 1 >= a.s.size()) {
        out += a.s[i];
        continue;
      }
      char c = a.s[++i];
      const AV* named = nullptr;  // `%(key)s` of a dict
      if (c == '(' && b.k == K::Dict) {
        size_t close = a.s.find(')', i);
        if (close == std::string::npos || close + 1 >= a.s.size()) return AV::unknown("a % format it cannot read");
        std::string key = a.s.substr(i + 1, close - i - 1);
        for (size_t k = 0; k + 1 < b.items->size(); k += 2)
          if ((*b.items)[k].k == K::Str && (*b.items)[k].s == key) named = &(*b.items)[k + 1];
        i = close + 1;
        c = a.s[i];
        if (!named || !(c == 's' || c == 'd' || c == 'i') || !(named->k == K::Str || named->k == K::Int))
          return AV::unknown("a % format it cannot read");
        out += named->k == K::Str ? named->s : std::to_string(named->i);
        continue;
      }
      if (c == '%') out += '%';
      else if ((c == 's' || c == 'd' || c == 'i') && vi < vals.size() &&
               (vals[vi].k == K::Str || vals[vi].k == K::Int))
        out += vals[vi].k == K::Str ? vals[vi].s : std::to_string(vals[vi].i), ++vi;
      else return AV::unknown("a % format it cannot read");
    }
    return AV::str(std::move(out));
  }
  if (op == "*" && ((a.k == K::Int) != (b.k == K::Int)) && (a.k == K::Str || b.k == K::Str || a.isSeq() || b.isSeq())) {
    // `"x" * 2`, `[I32] * len(names)`: the string or sequence repeated
    const AV& v = a.k == K::Int ? b : a;
    long long n = std::max(0LL, a.k == K::Int ? a.i : b.i);
    size_t unit = v.k == K::Str ? v.s.size() : v.items->size();
    if (unit > 0 && size_t(n) > DeclEval::kMaxItems / unit) throw DStop{"a repetition longer than the size limit"};
    if (v.k == K::Str) {
      std::string out;
      for (long long i = 0; i < n; ++i) out += v.s;
      return AV::str(std::move(out));
    }
    std::vector<AV> out;
    for (long long i = 0; i < n; ++i) out.insert(out.end(), v.items->begin(), v.items->end());
    return AV::seq(v.k, std::move(out));
  }
  if (a.k == K::Int && b.k == K::Int) {
    long long x = a.i, y = b.i;
    if (op == "+") return AV::integer(x + y);
    if (op == "-") return AV::integer(x - y);
    if (op == "*") return AV::integer(x * y);
    if ((op == "//" || op == "%") && y != 0) return AV::integer(op == "//" ? x / y : x % y);
    if (op == "<<" && y >= 0 && y < 63) return AV::integer(x << y);
    if (op == ">>" && y >= 0 && y < 63) return AV::integer(x >> y);
    if (op == "&") return AV::integer(x & y);
    if (op == "|") return AV::integer(x | y);
  }
  if (a.k == K::Unknown && !a.s.empty()) return a;  // the operand's own reason
  if (b.k == K::Unknown && !b.s.empty()) return b;
  return AV::unknown("the operation " + clip(text(f, e), 60));
}

}  // namespace impact::pyextract
