#include "extract/python/NameLists.h"

#include "absl/strings/str_cat.h"
#include "extract/python/Nodes.h"
#include "extract/python/DeclEval.h"
#include "extract/python/DeclEvalImpl.h"

namespace impact::pyextract {

namespace {

// Every parameter has a default (or is `*`, `*args`, `**kwargs`).
bool callableWithoutArguments(TSNode def) {
  for (TSNode p : namedChildren(field(def, "parameters"))) {
    std::string_view ty = type(p);
    if (ty == "identifier" || ty == "typed_parameter") return false;
  }
  return true;
}

// A `return <value>` in the def's own body (nested defs and classes left out).
bool returnsAValue(TSNode n, int depth) {
  if (depth > 64) return false;
  for (TSNode c : namedChildren(n)) {
    if (is(c, "function_definition") || is(c, "class_definition") || is(c, "decorated_definition")) continue;
    if (is(c, "return_statement") && ts_node_named_child_count(c) > 0) return true;
    if (returnsAValue(c, depth + 1)) return true;
  }
  return false;
}

std::string describe(const AV& v) {
  using K = AV::K;
  switch (v.k) {
    case K::None: return "None";
    case K::Bool: return "a bool";
    case K::Int: return "an int";
    case K::Str: return "a string";
    case K::List: return "a list";
    case K::Tuple: return "a tuple";
    case K::Dict: return "a dict";
    case K::Unknown: return "not known (" + v.s + ")";
    case K::Sym: return "not known (reads " + v.s + ")";
    case K::Func: return "a function";
    case K::Imported: return "not known (" + v.s + ", imported)";
    default: return "not a plain value";
  }
}

// The names (and kinds) of a result; a reason when it is no names list.
void keepNames(const CallResult& r, PyNameList& l) {
  using K = AV::K;
  const AV& v = r.value;
  if (!r.why.empty()) {
    l.reason = "not evaluable: " + r.why;
    return;
  }
  if (v.k == K::Unknown || v.k == K::Sym) {
    l.reason = "not evaluable: " + (v.k == K::Sym ? "reads " + v.s : v.s);
    return;
  }
  if (!v.isSeq()) {
    l.reason = "not a names list: returns " + describe(v);
    return;
  }
  auto fail = [&](std::string why) {
    l.names.clear(), l.kinds.clear(), l.sites.clear();
    l.reason = std::move(why);
  };
  bool tuples = false, strings = false;
  for (size_t i = 0; i < v.items->size(); ++i) {
    const AV& x = (*v.items)[i];
    if (x.when && !x.when->empty())
      return fail(absl::StrCat("not evaluable: element #", i, " is added only when ", guardText(andAll(*x.when))));
    if (x.k == K::Str) {
      strings = true;
      l.names.push_back(x.s);
      l.sites.push_back(x.at);
    } else if (x.k == K::Tuple && x.items->size() == 2 && (*x.items)[0].k == K::Str && (*x.items)[1].k == K::Str) {
      tuples = true;
      l.names.push_back((*x.items)[0].s);
      l.kinds.push_back((*x.items)[1].s);
      l.sites.push_back((*x.items)[0].at);
    } else if (x.k == K::Unknown || x.k == K::Sym || x.k == K::Imported) {
      return fail(absl::StrCat("not evaluable: element #", i, " is ", describe(x)));
    } else {
      return fail(absl::StrCat("not a names list: element #", i, " is ", describe(x),
                               x.k == K::Tuple ? absl::StrCat(" of ", x.items->size()) : ""));
    }
  }
  if (tuples && strings) return fail("not a names list: it mixes names and (name, kind) tuples");
  l.evaluated = true;
}

}  // namespace

void evaluateNameLists(const SyntaxTree& t, std::vector<PyNameList>& out) {
  DeclEval ev(t);
  long spent = 0;
  size_t evaluated = 0;
  for (TSNode top : namedChildren(t.root())) {
    TSNode def = is(top, "decorated_definition") ? field(top, "definition") : top;
    if (!is(def, "function_definition")) continue;
    std::string name(t.text(field(def, "name")));
    auto bound = ev.module().binds.find(name);
    if (bound == ev.module().binds.end() || bound->second.count != 1) continue;  // bound once: a function
    if (!callableWithoutArguments(def) || !returnsAValue(field(def, "body"), 0)) continue;
    PyNameList l;
    l.function = name;
    l.range = rangeOf(field(def, "name"));
    if (spent > kNameListsModuleBudget || ++evaluated > kMaxNameListFunctions) {
      l.reason = "not evaluable: the module's evaluation budget is spent";
    } else {
      keepNames(ev.callWithDefaults(name), l);
      spent += ev.stepsTaken();
    }
    out.push_back(std::move(l));
  }
}

}  // namespace impact::pyextract
