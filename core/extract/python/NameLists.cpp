#include "extract/python/NameLists.h"

#include "absl/strings/str_cat.h"
#include "extract/python/Nodes.h"
#include "extract/python/StaticEval.h"

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

// The names (and kinds) of a result; a reason when it is no names list.
void keepNames(const PyVal& v, PyNameList& l) {
  if (!v.isSeq()) {
    l.reason = "not a names list: returns " + describe(v);
    return;
  }
  bool tuples = false, strings = false;
  for (size_t i = 0; i < v.items->size(); ++i) {
    const PyVal& x = (*v.items)[i];
    if (x.k == PyVal::K::Str) {
      strings = true;
      l.names.push_back(x.s);
      l.sites.push_back(x.at);
    } else if (x.k == PyVal::K::Tuple && x.items->size() == 2 && (*x.items)[0].k == PyVal::K::Str &&
               (*x.items)[1].k == PyVal::K::Str) {
      tuples = true;
      l.names.push_back((*x.items)[0].s);
      l.kinds.push_back((*x.items)[1].s);
      l.sites.push_back((*x.items)[0].at);
    } else {
      l.names.clear(), l.kinds.clear(), l.sites.clear();
      l.reason = absl::StrCat("not a names list: element #", i, " is ", describe(x),
                              x.k == PyVal::K::Tuple ? absl::StrCat(" of ", x.items->size()) : "");
      return;
    }
  }
  if (tuples && strings) {
    l.names.clear(), l.kinds.clear(), l.sites.clear();
    l.reason = "not a names list: it mixes names and (name, kind) tuples";
    return;
  }
  l.evaluated = true;
}

}  // namespace

void evaluateNameLists(const SyntaxTree& t, std::vector<PyNameList>& out) {
  StaticEval ev(t);
  long spent = 0;
  size_t evaluated = 0;
  for (const auto& [name, def] : ev.functions()) {
    if (!callableWithoutArguments(def) || !returnsAValue(field(def, "body"), 0)) continue;
    PyNameList l;
    l.function = name;
    l.range = rangeOf(field(def, "name"));
    if (spent > kNameListsModuleBudget || ++evaluated > kMaxNameListFunctions) {
      l.reason = "not evaluable: the module's evaluation budget is spent";
    } else {
      try {
        keepNames(ev.callWithDefaults(name), l);
      } catch (const NotEvaluable& e) {
        l.reason = "not evaluable: " + e.why;
      }
      spent += ev.stepsTaken();
    }
    out.push_back(std::move(l));
  }
}

}  // namespace impact::pyextract
