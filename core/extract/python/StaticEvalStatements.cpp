// StaticEval: calls of the module's functions and the statements of their bodies (see
// StaticEval.h for what is read).
#include <set>

#include "absl/strings/str_cat.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"
#include "extract/python/StaticEval.h"

namespace impact::pyextract {

namespace {

std::vector<TSNode> statements(TSNode n) {
  std::vector<TSNode> out;
  for (TSNode c : namedChildren(n))
    if (!is(c, "comment")) out.push_back(c);
  return out;
}

}  // namespace

PyVal StaticEval::callWithDefaults(const std::string& name) {
  steps_ = 0;
  return invoke(name, {}, {}, 0);
}

PyVal StaticEval::invoke(const std::string& fn, std::vector<PyVal> args, std::map<std::string, PyVal> kwargs,
                         int depth) {
  if (depth > kMaxCallDepth) fail(absl::StrCat("calls nested deeper than ", kMaxCallDepth));
  step();
  TSNode def = fns_.at(fn);
  if (t_.text(def).starts_with("async")) fail(fn + " is async");
  Env env;
  size_t positional = 0;
  bool keywordOnly = false;
  for (TSNode p : statements(field(def, "parameters"))) {
    std::string_view ty = type(p);
    if (ty == "keyword_separator") {
      keywordOnly = true;
      continue;
    }
    if (ty == "positional_separator") continue;
    if (ty == "list_splat_pattern") {
      std::vector<PyVal> rest;
      while (positional < args.size()) rest.push_back(args[positional++]);
      std::vector<TSNode> inner = statements(p);
      if (!inner.empty()) env[text(inner[0])] = PyVal::seq(PyVal::K::Tuple, std::move(rest));
      keywordOnly = true;
      continue;
    }
    if (ty == "dictionary_splat_pattern") {
      if (!kwargs.empty()) fail(absl::StrCat("calls ", fn, " with keywords its **kwargs takes"));
      continue;
    }
    TSNode nm{}, dflt{};
    if (ty == "identifier") nm = p;
    else if (ty == "typed_parameter") {
      for (TSNode c : namedChildren(p))
        if (is(c, "identifier")) {
          nm = c;
          break;
        }
    } else if (ty == "default_parameter" || ty == "typed_default_parameter") {
      nm = field(p, "name");
      dflt = field(p, "value");
    }
    if (!is(nm, "identifier")) fail(absl::StrCat(fn, " has a parameter it cannot read (", clip(text(p), 40), ")"));
    std::string n = text(nm);
    if (!keywordOnly && positional < args.size()) {
      if (kwargs.count(n)) fail(absl::StrCat("calls ", fn, " with ", n, " twice"));
      env[n] = args[positional++];
    } else if (auto it = kwargs.find(n); it != kwargs.end()) {
      env[n] = it->second;
      kwargs.erase(it);
    } else if (!ts_node_is_null(dflt)) {
      Env module;
      env[n] = expr(dflt, module, 0);
    } else {
      fail(absl::StrCat("calls ", fn, " without its argument ", n));
    }
  }
  if (positional < args.size() || !kwargs.empty()) fail(absl::StrCat("calls ", fn, " with arguments it does not take"));
  PyVal ret;
  block(field(def, "body"), env, ret, depth);
  return ret;
}

StaticEval::Flow StaticEval::block(TSNode body, Env& env, PyVal& ret, int depth) {
  for (TSNode s : statements(body))
    if (statement(s, env, ret, depth) == Flow::Return) return Flow::Return;
  return Flow::Next;
}

void StaticEval::assign(TSNode target, PyVal v, Env& env) {
  if (is(target, "identifier")) {
    env[text(target)] = std::move(v);
    return;
  }
  if (is(target, "pattern_list") || is(target, "tuple_pattern") || is(target, "list_pattern")) {
    std::vector<TSNode> names = statements(target);
    if (!v.isSeq() || v.items->size() != names.size())
      fail(absl::StrCat("unpacks ", describe(v), " into ", names.size(), " names"));
    for (size_t i = 0; i < names.size(); ++i) assign(names[i], (*v.items)[i], env);
    return;
  }
  fail("assigns to " + clip(text(target), 60));
}

// `x.append(e)`, `x.extend(e)` on a list; any other method call is not read.
void StaticEval::method(TSNode call, Env& env, int depth) {
  TSNode fn = field(call, "function");
  TSNode obj = field(fn, "object");
  std::string attr = text(field(fn, "attribute"));
  if (!is(obj, "identifier") || (attr != "append" && attr != "extend")) fail("calls " + clip(text(fn), 60));
  PyVal target = name(obj, env);
  if (target.k != PyVal::K::List) fail(absl::StrCat("calls ", attr, " on ", describe(target)));
  std::vector<TSNode> args = statements(field(call, "arguments"));
  if (args.size() != 1 || is(args[0], "keyword_argument") || is(args[0], "list_splat"))
    fail(absl::StrCat("calls ", attr, " with other than one argument"));
  PyVal v = expr(args[0], env, depth + 1);
  if (attr == "append") {
    target.items->push_back(std::move(v));
  } else {
    if (!v.isSeq()) fail("extends a list with " + describe(v));
    std::vector<PyVal> add = *v.items;  // `out.extend(out)` reads the list before it grows
    target.items->insert(target.items->end(), add.begin(), add.end());
  }
  checkSize(target);
}

StaticEval::Flow StaticEval::statement(TSNode s, Env& env, PyVal& ret, int depth) {
  step();
  std::string_view ty = type(s);
  if (ty == "pass_statement") return Flow::Next;
  if (ty == "return_statement") {
    std::vector<TSNode> v = statements(s);
    ret = v.empty() ? PyVal::none() : expr(v[0], env, depth + 1);
    return Flow::Return;
  }
  if (ty == "raise_statement") fail("reaches `" + clip(text(s), 60) + "`");
  if (ty == "if_statement") {
    if (truthyValue(expr(field(s, "condition"), env, depth + 1))) return block(field(s, "consequence"), env, ret, depth);
    for (TSNode alt : statements(s)) {
      if (is(alt, "elif_clause")) {
        if (truthyValue(expr(field(alt, "condition"), env, depth + 1)))
          return block(field(alt, "consequence"), env, ret, depth);
      } else if (is(alt, "else_clause")) {
        return block(field(alt, "body"), env, ret, depth);
      }
    }
    return Flow::Next;
  }
  if (ty == "for_statement") {
    if (!ts_node_is_null(field(s, "alternative"))) fail("a for loop with an else");
    PyVal over = expr(field(s, "right"), env, depth + 1);
    if (!over.isSeq()) fail("a for loop over " + describe(over));
    std::vector<PyVal> items = *over.items;  // the loop reads the list as it was
    for (PyVal& x : items) {
      assign(field(s, "left"), std::move(x), env);
      if (block(field(s, "body"), env, ret, depth) == Flow::Return) return Flow::Return;
    }
    return Flow::Next;
  }
  if (ty != "expression_statement")
    fail(absl::StrCat(std::string_view("aeiou").find(ty[0]) != std::string_view::npos ? "an " : "a ", std::string(ty)));
  std::vector<TSNode> ps = statements(s);
  if (ps.size() != 1) fail("an expression statement it cannot read");
  TSNode e = ps[0];
  if (is(e, "string")) return Flow::Next;  // a docstring
  if (is(e, "assignment")) {
    TSNode right = field(e, "right");
    if (ts_node_is_null(right)) return Flow::Next;  // `x: T` declares only
    if (is(right, "assignment")) fail("a chained assignment");
    assign(field(e, "left"), expr(right, env, depth + 1), env);
    return Flow::Next;
  }
  if (is(e, "augmented_assignment")) {
    TSNode left = field(e, "left");
    std::string op = text(field(e, "operator"));
    if (!is(left, "identifier")) fail("assigns to " + clip(text(left), 60));
    PyVal cur = name(left, env);
    PyVal add = expr(field(e, "right"), env, depth + 1);
    if (op == "+=" && cur.k == PyVal::K::List && add.isSeq()) {
      std::vector<PyVal> more = *add.items;
      cur.items->insert(cur.items->end(), more.begin(), more.end());  // in place, as Python does
      checkSize(cur);
      return Flow::Next;
    }
    if (op == "+=" && cur.k == PyVal::K::Str && add.k == PyVal::K::Str) {
      env[text(left)] = PyVal::str(cur.s + add.s, rangeOf(e));
      return Flow::Next;
    }
    if ((op == "+=" || op == "-=") && (cur.k == PyVal::K::Int && add.k == PyVal::K::Int)) {
      env[text(left)] = PyVal::integer(op == "+=" ? cur.i + add.i : cur.i - add.i);
      return Flow::Next;
    }
    fail(absl::StrCat("`", op, "` on ", describe(cur), " and ", describe(add)));
  }
  if (is(e, "call") && is(field(e, "function"), "attribute")) {
    method(e, env, depth);
    return Flow::Next;
  }
  expr(e, env, depth + 1);  // a call of the module's own function, for nothing
  return Flow::Next;
}

}  // namespace impact::pyextract
