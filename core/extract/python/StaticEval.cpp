// StaticEval: the module scan and the expressions (see StaticEval.h for what is read).
#include "extract/python/StaticEval.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {

// Named children that are not comments.
std::vector<TSNode> parts(TSNode n) {
  std::vector<TSNode> out;
  for (TSNode c : namedChildren(n))
    if (!is(c, "comment")) out.push_back(c);
  return out;
}

bool truthy(const PyVal& v) {
  switch (v.k) {
    case PyVal::K::None: return false;
    case PyVal::K::Bool:
    case PyVal::K::Int: return v.i != 0;
    case PyVal::K::Str: return !v.s.empty();
    case PyVal::K::List:
    case PyVal::K::Tuple: return !v.items->empty();
  }
  return false;
}

bool numeric(const PyVal& v) { return v.k == PyVal::K::Bool || v.k == PyVal::K::Int; }

bool equal(const PyVal& a, const PyVal& b) {
  if (numeric(a) && numeric(b)) return a.i == b.i;
  if (a.k != b.k) return false;
  switch (a.k) {
    case PyVal::K::None: return true;
    case PyVal::K::Str: return a.s == b.s;
    case PyVal::K::List:
    case PyVal::K::Tuple:
      if (a.items->size() != b.items->size()) return false;
      for (size_t i = 0; i < a.items->size(); ++i)
        if (!equal((*a.items)[i], (*b.items)[i])) return false;
      return true;
    default: return false;
  }
}

// The names a module-level compound statement binds (assignments, defs, classes, imports under it).
void boundUnder(const SyntaxTree& t, TSNode n, std::vector<std::string>& out, int depth) {
  if (depth > 64 || ts_node_is_null(n)) return;
  if (is(n, "function_definition") || is(n, "class_definition")) {
    out.emplace_back(t.text(field(n, "name")));
    return;
  }
  if (is(n, "assignment") || is(n, "augmented_assignment")) {
    TSNode left = field(n, "left");
    if (is(left, "identifier")) out.emplace_back(t.text(left));
  }
  if (is(n, "for_statement") && is(field(n, "left"), "identifier")) out.emplace_back(t.text(field(n, "left")));
  for (TSNode c : namedChildren(n)) boundUnder(t, c, out, depth + 1);
}

}  // namespace

std::string describe(const PyVal& v) {
  switch (v.k) {
    case PyVal::K::None: return "None";
    case PyVal::K::Bool: return "a bool";
    case PyVal::K::Int: return "an int";
    case PyVal::K::Str: return "a string";
    case PyVal::K::List: return "a list";
    case PyVal::K::Tuple: return "a tuple";
  }
  return "a value";
}

StaticEval::StaticEval(const SyntaxTree& t) : t_(t) {
  auto bindOnce = [&](const std::string& n, const char* what) {
    if (fns_.count(n) || constants_.count(n) || unusable_.count(n)) {
      fns_.erase(n), constants_.erase(n);
      unusable_[n] = absl::StrCat(n, " is bound more than once at module level");
      return false;
    }
    (void)what;
    return true;
  };
  for (TSNode s : parts(t.root())) {
    if (is(s, "function_definition")) {
      std::string n = text(field(s, "name"));
      if (bindOnce(n, "def")) {
        fns_[n] = s;
        order_.emplace_back(n, s);
      }
    } else if (is(s, "decorated_definition")) {
      std::string n = text(field(field(s, "definition"), "name"));
      if (bindOnce(n, "decorated")) unusable_[n] = n + " is decorated";
    } else if (is(s, "class_definition")) {
      std::string n = text(field(s, "name"));
      if (bindOnce(n, "class")) unusable_[n] = n + " is a class";
    } else if (is(s, "import_statement") || is(s, "import_from_statement")) {
      for (TSNode c : namedChildren(s)) {
        if (sameNodeField(s, c)) continue;
        TSNode nm = is(c, "aliased_import") ? field(c, "alias") : c;
        std::string n = text(nm);
        if (auto dot = n.find('.'); dot != std::string::npos) n = n.substr(0, dot);
        if (is(c, "dotted_name") || is(c, "aliased_import")) unusable_[n] = n + " is imported";
      }
    } else if (is(s, "expression_statement")) {
      std::vector<TSNode> ps = parts(s);
      if (ps.size() != 1 || !(is(ps[0], "assignment") || is(ps[0], "augmented_assignment"))) continue;
      TSNode left = field(ps[0], "left");
      if (!is(left, "identifier")) continue;
      std::string n = text(left);
      TSNode right = field(ps[0], "right");
      if (ts_node_is_null(right)) continue;  // `x: T` declares, binds nothing
      if (is(ps[0], "augmented_assignment") || is(right, "assignment")) {
        fns_.erase(n), constants_.erase(n);
        unusable_[n] = n + " is bound more than once at module level";
      } else if (bindOnce(n, "assign")) {
        constants_[n] = right;
      }
    } else if (!is(s, "future_import_statement")) {
      std::vector<std::string> names;
      boundUnder(t, s, names, 0);
      for (const auto& n : names) {
        fns_.erase(n), constants_.erase(n);
        unusable_[n] = absl::StrCat(n, " is bound under a module-level ", std::string(type(s)));
      }
    }
  }
  order_.erase(std::remove_if(order_.begin(), order_.end(), [&](const auto& p) { return !fns_.count(p.first); }),
               order_.end());
}

bool StaticEval::sameNodeField(TSNode parent, TSNode c) {
  // `from m import a`: the module_name field is not a bound name.
  TSNode m = field(parent, "module_name");
  return !ts_node_is_null(m) && ts_node_start_byte(m) == ts_node_start_byte(c) && ts_node_end_byte(m) == ts_node_end_byte(c);
}

void StaticEval::step() {
  if (++steps_ > kMaxSteps) fail(absl::StrCat("more than ", kMaxSteps, " evaluation steps"));
}

void StaticEval::checkSize(const PyVal& v) const {
  if ((v.isSeq() && v.items->size() > kMaxItems) || (v.k == PyVal::K::Str && v.s.size() > kMaxItems))
    fail(absl::StrCat("a value larger than ", kMaxItems, " elements"));
}

PyVal StaticEval::moduleConstant(const std::string& n) {
  if (auto it = constantValues_.find(n); it != constantValues_.end()) return it->second;
  if (constantsInProgress_[n]) fail(n + " is defined through itself");
  constantsInProgress_[n] = true;
  Env empty;
  PyVal v = expr(constants_.at(n), empty, 0);
  constantsInProgress_[n] = false;
  // A module-level list is shared by every reader: keep a copy nobody mutates.
  if (v.k == PyVal::K::List) v = PyVal::seq(PyVal::K::List, *v.items);
  constantValues_[n] = v;
  if (v.k == PyVal::K::List) return PyVal::seq(PyVal::K::List, *v.items);
  return v;
}

PyVal StaticEval::name(TSNode e, Env& env) {
  std::string n = text(e);
  if (auto it = env.find(n); it != env.end()) return it->second;
  if (auto it = unusable_.find(n); it != unusable_.end()) fail("reads " + it->second);
  if (constants_.count(n)) return moduleConstant(n);
  if (fns_.count(n)) fail("uses the function " + n + " as a value");
  fail(n + " is not bound in this module");
}

PyVal StaticEval::string(TSNode e, Env& env, int depth) {
  std::string out;
  bool fstr = false;
  for (TSNode ch : children(e)) {
    std::string_view ty = type(ch);
    if (ty == "string_start") {
      std::string p = text(ch);
      for (char c : p.substr(0, p.find_first_of("'\""))) {
        if (c == 'f' || c == 'F') fstr = true;
        if (c == 'b' || c == 'B') fail("a bytes literal");
      }
    } else if (ty == "string_content") {
      // Escapes are children of the content; the text between them is taken as written.
      uint32_t at = ts_node_start_byte(ch);
      for (TSNode esc : namedChildren(ch)) {
        out += t_.text().substr(at, ts_node_start_byte(esc) - at);
        std::string s = text(esc);
        if (is(esc, "escape_interpolation")) out += s.substr(0, 1);
        else if (s == "\\n") out += '\n';
        else if (s == "\\t") out += '\t';
        else if (s == "\\\\" || s == "\\'" || s == "\\\"") out += s.substr(1);
        else fail("the escape " + s);
        at = ts_node_end_byte(esc);
      }
      out += t_.text().substr(at, ts_node_end_byte(ch) - at);
    } else if (ty == "interpolation") {
      if (!fstr) fail("an interpolation outside an f-string");
      if (!ts_node_is_null(field(ch, "format_specifier")) || !ts_node_is_null(field(ch, "type_conversion")))
        fail("an f-string with a conversion or format spec");
      PyVal v = expr(field(ch, "expression"), env, depth + 1);
      if (v.k == PyVal::K::Str) out += v.s;
      else if (v.k == PyVal::K::Int) out += std::to_string(v.i);
      else fail("an f-string over " + describe(v));
    } else if (ty != "string_end") {
      fail(absl::StrCat("a string part ", std::string(ty)));
    }
  }
  PyVal v = PyVal::str(std::move(out), rangeOf(e));
  checkSize(v);
  return v;
}

PyVal StaticEval::binary(TSNode e, Env& env, int depth) {
  PyVal a = expr(field(e, "left"), env, depth + 1);
  PyVal b = expr(field(e, "right"), env, depth + 1);
  std::string op = text(field(e, "operator"));
  PyVal out;
  if (op == "+" && a.isSeq() && a.k == b.k) {
    std::vector<PyVal> items = *a.items;
    items.insert(items.end(), b.items->begin(), b.items->end());
    out = PyVal::seq(a.k, std::move(items));
  } else if (op == "+" && a.k == PyVal::K::Str && b.k == PyVal::K::Str) {
    out = PyVal::str(a.s + b.s, rangeOf(e));
  } else if (numeric(a) && numeric(b) && (op == "+" || op == "-" || op == "*")) {
    if (std::max(std::llabs(a.i), std::llabs(b.i)) > (1LL << 30)) fail("integers beyond 2^30");
    out = PyVal::integer(op == "+" ? a.i + b.i : op == "-" ? a.i - b.i : a.i * b.i);
  } else {
    fail(absl::StrCat("`", op, "` on ", describe(a), " and ", describe(b)));
  }
  checkSize(out);
  return out;
}

PyVal StaticEval::compare(TSNode e, Env& env, int depth) {
  std::vector<TSNode> operands;
  std::vector<std::string> ops;
  for (TSNode c : children(e)) {
    if (is(c, "comment")) continue;
    if (ts_node_is_named(c)) operands.push_back(c);
    else ops.emplace_back(type(c));
  }
  if (operands.size() != ops.size() + 1) fail("a comparison it cannot read");
  PyVal left = expr(operands[0], env, depth + 1);
  for (size_t i = 0; i < ops.size(); ++i) {
    PyVal right = expr(operands[i + 1], env, depth + 1);
    const std::string& op = ops[i];
    bool r = false;
    if (op == "==" || op == "!=") {
      r = equal(left, right) == (op == "==");
    } else if (op == "in" || op == "not in") {
      bool found = false;
      if (right.isSeq()) found = std::any_of(right.items->begin(), right.items->end(), [&](const PyVal& x) { return equal(left, x); });
      else if (right.k == PyVal::K::Str && left.k == PyVal::K::Str) found = right.s.find(left.s) != std::string::npos;
      else fail(absl::StrCat("`", op, "` on ", describe(right)));
      r = found == (op == "in");
    } else if (op == "is" || op == "is not") {
      if (left.k != PyVal::K::None && right.k != PyVal::K::None) fail("`is` on values other than None");
      r = (left.k == right.k) == (op == "is");
    } else if (op == "<" || op == "<=" || op == ">" || op == ">=") {
      int c;
      if (numeric(left) && numeric(right)) c = left.i < right.i ? -1 : left.i > right.i;
      else if (left.k == PyVal::K::Str && right.k == PyVal::K::Str) c = left.s.compare(right.s);
      else fail(absl::StrCat("`", op, "` on ", describe(left), " and ", describe(right)));
      r = op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
    } else {
      fail("the comparison " + op);
    }
    if (!r) return PyVal::boolean(false);
    left = right;
  }
  return PyVal::boolean(true);
}

PyVal StaticEval::subscript(TSNode e, Env& env, int depth) {
  PyVal v = expr(field(e, "value"), env, depth + 1);
  std::vector<TSNode> subs;
  for (TSNode c : parts(e))
    if (ts_node_start_byte(c) != ts_node_start_byte(field(e, "value"))) subs.push_back(c);
  if (subs.size() != 1) fail("a subscript with several indices");
  if (!v.isSeq() && v.k != PyVal::K::Str) fail("a subscript of " + describe(v));
  const long long n = v.isSeq() ? static_cast<long long>(v.items->size()) : static_cast<long long>(v.s.size());
  auto index = [&](TSNode x) {
    PyVal i = expr(x, env, depth + 1);
    if (!numeric(i)) fail("an index that is " + describe(i));
    return i.i;
  };
  if (!is(subs[0], "slice")) {
    long long i = index(subs[0]);
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail("an index out of range");
    return v.isSeq() ? (*v.items)[i] : PyVal::str(v.s.substr(i, 1), rangeOf(e));
  }
  // [start:stop]: which bound is given is read from where the colons are.
  long long bounds[2] = {0, n};
  bool given[2] = {false, false};
  int part = 0;
  for (TSNode c : children(subs[0])) {
    if (!ts_node_is_named(c)) {
      if (type(c) == ":") ++part;
      continue;
    }
    if (part > 1) fail("a slice with a step");
    bounds[part] = index(c);
    given[part] = true;
  }
  for (int k = 0; k < 2; ++k) {
    if (given[k] && bounds[k] < 0) bounds[k] += n;
    bounds[k] = std::clamp(bounds[k], 0LL, n);
  }
  if (bounds[1] < bounds[0]) bounds[1] = bounds[0];
  if (v.k == PyVal::K::Str) return PyVal::str(v.s.substr(bounds[0], bounds[1] - bounds[0]), rangeOf(e));
  return PyVal::seq(v.k, std::vector<PyVal>(v.items->begin() + bounds[0], v.items->begin() + bounds[1]));
}

PyVal StaticEval::call(TSNode e, Env& env, int depth) {
  TSNode fn = field(e, "function");
  if (!is(fn, "identifier")) fail("calls " + clip(text(fn), 60));
  std::string n = text(fn);
  std::vector<PyVal> args;
  std::map<std::string, PyVal> kwargs;
  TSNode argList = field(e, "arguments");
  if (!is(argList, "argument_list")) fail("calls " + n + " with a generator argument");
  for (TSNode a : parts(argList)) {
    if (is(a, "keyword_argument")) kwargs[text(field(a, "name"))] = expr(field(a, "value"), env, depth + 1);
    else if (is(a, "list_splat") || is(a, "dictionary_splat")) fail("calls " + n + " with *args or **kwargs");
    else args.push_back(expr(a, env, depth + 1));
  }
  if (!env.count(n) && !fns_.count(n) && !constants_.count(n) && !unusable_.count(n)) {
    if ((n == "len" || n == "list" || n == "tuple") && args.size() == 1 && kwargs.empty()) {
      const PyVal& x = args[0];
      if (n == "len" && (x.isSeq() || x.k == PyVal::K::Str))
        return PyVal::integer(x.isSeq() ? static_cast<long long>(x.items->size()) : static_cast<long long>(x.s.size()));
      if (n != "len" && x.isSeq()) return PyVal::seq(n == "list" ? PyVal::K::List : PyVal::K::Tuple, *x.items);
      fail(absl::StrCat("calls ", n, " on ", describe(x)));
    }
    fail("calls " + n + ", which is not a function of this module");
  }
  if (!fns_.count(n)) fail(unusable_.count(n) ? "calls " + unusable_.at(n) : "calls " + n + ", which is not a function");
  return invoke(n, std::move(args), std::move(kwargs), depth + 1);
}

PyVal StaticEval::expr(TSNode e, Env& env, int depth) {
  step();
  if (depth > 200) fail("expressions nested too deep");
  std::string_view ty = type(e);
  if (ty == "string") return string(e, env, depth);
  if (ty == "concatenated_string") {
    std::string out;
    for (TSNode s : parts(e)) out += string(s, env, depth + 1).s;
    return PyVal::str(std::move(out), rangeOf(e));
  }
  if (ty == "integer") {
    std::string s;
    for (char c : text(e))
      if (c != '_') s += c;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 0);
    if (!end || *end || s.size() > 12) fail("the integer " + text(e));
    return PyVal::integer(v);
  }
  if (ty == "true" || ty == "false") return PyVal::boolean(ty == "true");
  if (ty == "none") return PyVal::none();
  if (ty == "identifier") return name(e, env);
  if (ty == "parenthesized_expression") {
    std::vector<TSNode> ps = parts(e);
    if (ps.size() != 1) fail("a parenthesized expression it cannot read");
    return expr(ps[0], env, depth + 1);
  }
  if (ty == "list" || ty == "tuple" || ty == "expression_list") {
    std::vector<PyVal> items;
    for (TSNode x : parts(e)) {
      if (is(x, "list_splat")) {
        std::vector<TSNode> inner = parts(x);
        PyVal s = inner.size() == 1 ? expr(inner[0], env, depth + 1) : PyVal::none();
        if (!s.isSeq()) fail("a splat of " + describe(s));
        items.insert(items.end(), s.items->begin(), s.items->end());
      } else {
        items.push_back(expr(x, env, depth + 1));
      }
    }
    PyVal v = PyVal::seq(ty == "list" ? PyVal::K::List : PyVal::K::Tuple, std::move(items));
    checkSize(v);
    return v;
  }
  if (ty == "binary_operator") return binary(e, env, depth);
  if (ty == "comparison_operator") return compare(e, env, depth);
  if (ty == "boolean_operator") {
    PyVal a = expr(field(e, "left"), env, depth + 1);
    bool isAnd = text(field(e, "operator")) == "and";
    if (truthy(a) != isAnd) return a;
    return expr(field(e, "right"), env, depth + 1);
  }
  if (ty == "not_operator") return PyVal::boolean(!truthy(expr(field(e, "argument"), env, depth + 1)));
  if (ty == "unary_operator") {
    PyVal a = expr(field(e, "argument"), env, depth + 1);
    std::string op = text(field(e, "operator"));
    if (!numeric(a) || (op != "-" && op != "+")) fail("unary " + op + " on " + describe(a));
    return PyVal::integer(op == "-" ? -a.i : a.i);
  }
  if (ty == "conditional_expression") {
    std::vector<TSNode> ps = parts(e);
    if (ps.size() != 3) fail("a conditional expression it cannot read");
    return truthy(expr(ps[1], env, depth + 1)) ? expr(ps[0], env, depth + 1) : expr(ps[2], env, depth + 1);
  }
  if (ty == "subscript") return subscript(e, env, depth);
  if (ty == "call") return call(e, env, depth);
  if (ty == "list_comprehension" || ty == "generator_expression") fail("a comprehension");
  if (ty == "attribute") {
    if (TSNode o = field(e, "object"); is(o, "identifier")) (void)name(o, env);  // says why when it can
    fail("reads the attribute " + clip(text(e), 60));
  }
  const bool vowel = !ty.empty() && std::string_view("aeiou").find(ty[0]) != std::string_view::npos;
  fail(absl::StrCat(vowel ? "an " : "a ", std::string(ty), " expression (", clip(text(e), 60), ")"));
}

bool StaticEval::truthyValue(const PyVal& v) { return truthy(v); }

}  // namespace impact::pyextract
