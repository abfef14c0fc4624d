#include "extract/cpp/NameKeyedChecks.h"

#include <map>
#include <memory>
#include <optional>

#include "extract/cpp/ArgumentKinds.h"
#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {
namespace {

constexpr std::string_view kPlanArg = "rocke_launch_plan_arg";

// What one branch of the chain states: the names it accepts (with the literal stating each),
// the ROCKE_ARG_* kind and the size it checks.
struct Branch {
  std::vector<std::pair<std::string, TSNode>> names;
  std::string rockeKind;
  uint32_t size = 0;
  std::string message;  // the first check's message literal in the branch
};

// kind/size of a ROCKE_ARG_* enumerator (rocke_recipe.h: POINTER, I32, I64, F32).
bool rockeKindSize(std::string_view k, std::string& kind, uint32_t& size) {
  if (k == "ROCKE_ARG_POINTER") kind = "global_buffer", size = 8;
  else if (k == "ROCKE_ARG_I32" || k == "ROCKE_ARG_F32") kind = "by_value", size = 4;
  else if (k == "ROCKE_ARG_I64") kind = "by_value", size = 8;
  else return false;
  return true;
}

bool isBoolean(std::string_view op) {
  return op == "&&" || op == "||" || op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=";
}

TSNode strip(TSNode n) {
  for (int i = 0; i < kMaxEvalDepth && !isNull(n); ++i) {
    if (!is(n, "parenthesized_expression") && !is(n, "condition_clause")) break;
    auto k = items(n);
    if (k.size() != 1) break;
    n = k[0];
  }
  return n;
}

// The string a name expression stands for: a literal, a named constant (`constexpr const char*
// kScale = "scale"`), a concatenation of them, `std::string(...)` of one (ConstantEval).
std::optional<std::string> nameValue(const Ctx& c, TSNode n) {
  n = strip(n);
  if (isNull(n)) return std::nullopt;
  return Evaluator{c}.str(n, c.siteOf(n), 0);
}

// "Class::method" for a method defined inside its class; the name as written otherwise.
std::string ownerName(const Ctx& c, TSNode def) {
  std::string name = functionName(c, def);
  if (name.find("::") != std::string::npos) return name;
  TSNode p = ts_node_parent(def);
  for (int i = 0; i < 4 && !isNull(p); ++i, p = ts_node_parent(p))
    if (is(p, "class_specifier") || is(p, "struct_specifier")) {
      std::string cls = noSpace(c.text(field(p, "name")));
      return cls.empty() ? name : cls + "::" + name;
    }
  return name;
}

class ChecksReader {
 public:
  ChecksReader(const Ctx& c, int function, std::string argVar, DeclaredTypes& types)
      : c_(c), f_(function), arg_(std::move(argVar)), types_(types) {}

  void addNameVariable(std::string v) { nameVars_.insert(std::move(v)); }

  // `arg->name`, `std::string(arg->name)`, a local bound to it.
  bool isNameExpr(TSNode n) const {
    n = strip(n);
    if (isMember(n, "name")) return true;
    if (is(n, "identifier") && nameVars_.count(std::string(c_.text(n)))) return true;
    if (is(n, "call_expression")) {
      std::string callee = calleeName(c_, n);
      auto a = items(field(n, "arguments"));
      return (callee == "string" || callee == "string_view") && a.size() == 1 && isNameExpr(a[0]);
    }
    return false;
  }

  bool mentionsIdentifier(TSNode n, const std::string& name) const {
    bool hit = false;
    walk(n, [&](TSNode x) {
      hit = hit || (is(x, "identifier") && c_.text(x) == name);
      return !hit;
    });
    return hit;
  }

  bool mentions(TSNode n) const {
    bool found = false;
    walk(n, [&](TSNode k) {
      if (found) return false;
      if (is(k, "identifier")) {
        std::string t(c_.text(k));
        found = t == arg_ || nameVars_.count(t) > 0;
      }
      return true;
    });
    return found;
  }

  // The branch `body` under the path condition `cond` (null for a final `else`).
  void branch(TSNode cond, TSNode body, Branch& b) {
    if (!isNull(cond)) atoms(cond, b);
    if (isNull(body)) return;
    // `auto uid = map.find(arg->name);`: the check on `uid` is the one an unknown name fails.
    std::string found;
    bool foundMessage = false;
    walk(body, [&](TSNode n) {
      if (!is(n, "call_expression")) return true;
      TSNode fn = field(n, "function");
      auto a = items(field(n, "arguments"));
      std::string callee = calleeName(c_, n);
      if (is(fn, "field_expression") && (callee == "find" || callee == "count" || callee == "contains") &&
          a.size() == 1 && isNameExpr(a[0])) {
        mapKeys(std::string(c_.text(field(fn, "argument"))), b);
        TSNode init = parentOf(n);
        if (is(init, "init_declarator")) found = std::string(c_.text(innermostIdentifier(field(init, "declarator"))));
        return false;
      }
      if (!a.empty() && is(strip(a[0]), "binary_expression") &&
          isBoolean(c_.text(field(strip(a[0]), "operator"))) && !found.empty() && !foundMessage &&
          mentionsIdentifier(a[0], found)) {
        checkers_.insert(callee);
        if (auto m = a.size() >= 2 ? nameValue(c_, a[1]) : std::nullopt) {
          b.message = *m;
          foundMessage = true;
        }
        return false;
      }
      if (!a.empty() && is(strip(a[0]), "binary_expression") &&
          isBoolean(c_.text(field(strip(a[0]), "operator"))) && mentions(a[0])) {
        checkers_.insert(callee);
        atoms(a[0], b);
        if (auto m = b.message.empty() && a.size() >= 2 ? nameValue(c_, a[1]) : std::nullopt) b.message = *m;
        return false;
      }
      return true;
    });
  }

  const std::set<std::string>& checkers() const { return checkers_; }

 private:
  bool isMember(TSNode n, std::string_view member) const {
    n = strip(n);
    if (!is(n, "field_expression")) return false;
    TSNode obj = strip(field(n, "argument"));
    return is(obj, "identifier") && c_.text(obj) == arg_ && c_.text(field(n, "field")) == member;
  }

  // `<name> == "x"` (either side), `std::strcmp(<name>, "x") == 0`.
  bool nameEq(TSNode e, std::vector<std::pair<std::string, TSNode>>& out) const {
    e = strip(e);
    if (!is(e, "binary_expression") || c_.text(field(e, "operator")) != "==") return false;
    TSNode l = strip(field(e, "left")), r = strip(field(e, "right"));
    for (auto [x, y] : {std::pair{l, r}, std::pair{r, l}}) {
      if (isNameExpr(x))
        if (auto v = nameValue(c_, y)) {
          out.emplace_back(*v, y);
          return true;
        }
      if (is(x, "call_expression") && calleeName(c_, x) == "strcmp" && c_.text(y) == "0") {
        auto a = items(field(x, "arguments"));
        if (a.size() != 2) continue;
        for (auto [p, q] : {std::pair{a[0], a[1]}, std::pair{a[1], a[0]}})
          if (isNameExpr(p))
            if (auto v = nameValue(c_, q)) {
              out.emplace_back(*v, strip(q));
              return true;
            }
      }
    }
    return false;
  }

  // `a == "x" || b == "y" || …`: every disjunct a name equality.
  bool disjunctNames(TSNode e, std::vector<std::pair<std::string, TSNode>>& out, int depth = 0) const {
    e = strip(e);
    if (depth > kMaxEvalDepth) return false;
    if (is(e, "binary_expression") && c_.text(field(e, "operator")) == "||")
      return disjunctNames(field(e, "left"), out, depth + 1) && disjunctNames(field(e, "right"), out, depth + 1);
    return nameEq(e, out);
  }

  uint32_t sizeOf(TSNode n) const {
    n = strip(n);
    std::string why;
    Evaluator ev{c_};
    if (auto v = ev.integer(n, c_.siteOf(n), 0, why)) return uint32_t(*v);
    if (is(n, "sizeof_expression")) {  // sizeof(scale): the declared type of a local or parameter
      TSNode v = strip(field(n, "value"));
      if (is(v, "identifier")) return types_.infer(v, f_).size;
    }
    return 0;
  }

  void atoms(TSNode e, Branch& b, int depth = 0) {
    e = strip(e);
    if (depth > kMaxEvalDepth || !is(e, "binary_expression")) return;
    std::string_view op = c_.text(field(e, "operator"));
    TSNode l = strip(field(e, "left")), r = strip(field(e, "right"));
    if (op == "&&") {
      atoms(l, b, depth + 1);
      atoms(r, b, depth + 1);
      return;
    }
    std::vector<std::pair<std::string, TSNode>> names;
    if (op == "||") {
      if (disjunctNames(e, names)) b.names.insert(b.names.end(), names.begin(), names.end());
      return;
    }
    if (op != "==") return;
    if (nameEq(e, names)) {
      b.names.insert(b.names.end(), names.begin(), names.end());
      return;
    }
    for (auto [x, y] : {std::pair{l, r}, std::pair{r, l}}) {
      std::string k = lastComponent(c_.text(y));
      if (isMember(x, "kind") && k.starts_with("ROCKE_ARG_")) b.rockeKind = k;
      if (isMember(x, "size"))
        if (uint32_t s = sizeOf(y)) b.size = s;
    }
  }

  // The keys of the map `name`: a braced initializer (`{{"q_ptr", 17}, …}`), or
  // `name.emplace(k, …)` / `insert` / `try_emplace` with a string (a literal, a named constant) or
  // the variable of a range-for over strings (written there or held by a named array).
  void mapKeys(const std::string& name, Branch& b) const {
    c_.tree.walkAll([&](TSNode n) {
      if (is(n, "init_declarator") && c_.text(innermostIdentifier(field(n, "declarator"))) == name) {
        TSNode v = field(n, "value");
        for (TSNode e : elementsOf(c_, v))
          if (auto k = items(e); is(e, "initializer_list") && !k.empty())
            if (auto s = nameValue(c_, k[0])) b.names.emplace_back(*s, k[0]);
        return false;
      }
      if (!is(n, "call_expression")) return true;
      TSNode fn = field(n, "function");
      std::string callee = calleeName(c_, n);
      if (!is(fn, "field_expression") || c_.text(field(fn, "argument")) != name ||
          (callee != "emplace" && callee != "insert" && callee != "try_emplace"))
        return true;
      auto a = items(field(n, "arguments"));
      if (a.empty()) return false;
      TSNode key = strip(a[0]);
      if (is(key, "initializer_list") && !items(key).empty()) key = strip(items(key)[0]);
      if (is(key, "identifier"))  // the variable of an enclosing range-for: each of its strings
        for (TSNode p = parentOf(n); !isNull(p); p = parentOf(p))
          if (is(p, "for_range_loop") && c_.text(innermostIdentifier(field(p, "declarator"))) == c_.text(key)) {
            for (TSNode el : elementsOf(c_, field(p, "right")))
              if (auto s = nameValue(c_, el)) b.names.emplace_back(*s, el);
            return false;
          }
      if (auto s = nameValue(c_, key)) b.names.emplace_back(*s, key);
      return false;
    });
  }

  const Ctx& c_;
  int f_;
  std::string arg_;
  std::set<std::string> nameVars_;
  std::set<std::string> checkers_;
  DeclaredTypes& types_;
};

// The first `if` among the statements after `decl` in its block that tests the argument.
TSNode firstTest(const ChecksReader& r, TSNode decl) {
  bool after = false;
  for (TSNode s : items(parentOf(decl))) {
    if (sameNode(s, decl)) { after = true; continue; }
    if (after && is(s, "if_statement") && r.mentions(field(s, "condition"))) return s;
  }
  return TSNode{};
}

// Locals of the block bound to the argument's name: `const std::string name = arg->name;`,
// `std::string_view name(arg->name)`.
void nameVariables(const Ctx& c, ChecksReader& r, TSNode decl) {
  for (TSNode s : items(parentOf(decl))) {
    if (!is(s, "declaration")) continue;
    for (TSNode d : items(s)) {
      if (!is(d, "init_declarator")) continue;
      TSNode v = field(d, "value");
      auto a = is(v, "argument_list") || is(v, "initializer_list") ? items(v) : std::vector<TSNode>{v};
      if (a.size() == 1 && r.isNameExpr(a[0])) r.addNameVariable(std::string(c.text(innermostIdentifier(field(d, "declarator")))));
    }
  }
}

// A range-for over strings (written there, or a named array of them) whose body checks each one
// with the same checker as the arguments (`for (const char* n : {"q_ptr", …}) check(seen.count(n)
// == 1, "missing …")`).
std::vector<std::pair<std::string, TSNode>> requiredNames(const Ctx& c, TSNode fn, const std::set<std::string>& checkers) {
  std::vector<std::pair<std::string, TSNode>> out;
  walk(fn, [&](TSNode n) {
    if (!is(n, "for_range_loop")) return true;
    std::vector<std::pair<std::string, TSNode>> names;
    for (TSNode el : elementsOf(c, field(n, "right"))) {
      auto s = nameValue(c, el);
      if (!s) return true;
      names.emplace_back(*s, el);
    }
    if (names.empty()) return true;
    std::string var(c.text(innermostIdentifier(field(n, "declarator"))));
    bool checks = false;
    walk(field(n, "body"), [&](TSNode k) {
      if (checks || !is(k, "call_expression")) return !checks;
      auto a = items(field(k, "arguments"));
      if (!checkers.count(calleeName(c, k)) || a.empty()) return true;
      walk(a[0], [&](TSNode x) {
        checks = checks || (is(x, "identifier") && c.text(x) == var);
        return !checks;
      });
      return !checks;
    });
    if (checks) out.insert(out.end(), names.begin(), names.end());
    return false;
  });
  return out;
}

}  // namespace

void extractNameKeyed(const Ctx& c, std::vector<CppArgList>& out) {
  std::unique_ptr<DeclaredTypes> types;
  for (size_t fi = 0; fi < c.functions.size(); ++fi) {
    TSNode def = c.functions[fi].node;
    if (c.text(def).find(kPlanArg) == std::string_view::npos) continue;  // cheap: most functions
    std::vector<TSNode> decls;  // `const auto* arg = rocke_launch_plan_arg(plan, i);`
    walk(def, [&](TSNode n) {
      if (!is(n, "init_declarator")) return true;
      TSNode v = field(n, "value");
      if (is(v, "call_expression") && calleeName(c, v) == kPlanArg && c.functionOf(n) == int(fi) &&
          is(parentOf(parentOf(n)), "compound_statement"))
        decls.push_back(n);
      return false;
    });
    for (TSNode init : decls) {
      if (!types) types = std::make_unique<DeclaredTypes>(c);
      types->prepare(int(fi));
      TSNode decl = parentOf(init);
      ChecksReader r(c, int(fi), std::string(c.text(innermostIdentifier(field(init, "declarator")))), *types);
      nameVariables(c, r, decl);
      TSNode test = firstTest(r, decl);
      if (isNull(test)) continue;
      std::vector<Branch> branches;
      std::map<std::string, std::string> rejects;  // where an unknown name lands: the check's message
      bool testsPointer = false;
      for (TSNode cur = test; !isNull(cur);) {
        Branch b, cond;
        r.branch(field(cur, "condition"), field(cur, "consequence"), b);
        r.branch(field(cur, "condition"), TSNode{}, cond);
        // A branch entered by kind (not by name) is where an unknown name of that kind fails.
        if (cond.names.empty() && !cond.rockeKind.empty() && !b.message.empty()) {
          testsPointer = testsPointer || cond.rockeKind == "ROCKE_ARG_POINTER";
          rejects.emplace(cond.rockeKind == "ROCKE_ARG_POINTER" ? "pointer" : "scalar", b.message);
        }
        branches.push_back(std::move(b));
        TSNode alt = field(cur, "alternative");
        if (isNull(alt)) break;
        if (is(alt, "else_clause")) alt = items(alt).empty() ? TSNode{} : items(alt)[0];
        if (is(alt, "if_statement")) { cur = alt; continue; }
        Branch e;
        if (!isNull(alt)) r.branch(TSNode{}, alt, e);
        if (!e.message.empty()) {  // the final else takes every name no earlier branch claimed
          rejects.emplace("scalar", e.message);
          if (!testsPointer) rejects.emplace("pointer", e.message);
        }
        branches.push_back(std::move(e));
        break;
      }
      CppArgList l;
      l.form = CppArgList::Form::NameKeyed;
      l.symbol = ownerName(c, def);
      l.variable = std::string(c.text(innermostIdentifier(field(init, "declarator"))));
      TSNode loop = parentOf(parentOf(decl));
      l.range = rangeOf(is(loop, "for_statement") || is(loop, "while_statement") ? loop : test);
      l.fingerprint = codeFingerprint(c.tree, def);
      std::map<std::string, size_t> at;
      for (const Branch& b : branches)
        for (const auto& [name, lit] : b.names) {
          if (at.count(name)) continue;
          KernelArg k;
          k.name = name;
          k.range = rangeOf(lit);
          k.typeText = b.rockeKind;
          uint32_t size = 0;
          if (!rockeKindSize(b.rockeKind, k.kind, size)) {
            k.resolved = false;
            k.unresolvedReason = "the check states no ROCKE_ARG_ kind for " + name;
          }
          k.size = b.size ? b.size : size;
          at[name] = l.args.size();
          l.args.push_back(std::move(k));
        }
      for (const auto& [name, lit] : requiredNames(c, def, r.checkers())) {
        if (auto it = at.find(name); it != at.end()) {
          l.args[it->second].required = true;
          continue;
        }
        KernelArg k;  // required but accepted by no branch: its kind is not stated
        k.name = name;
        k.range = rangeOf(lit);
        k.required = true;
        k.resolved = false;
        k.unresolvedReason = "required by the check but accepted by no branch";
        at[name] = l.args.size();
        l.args.push_back(std::move(k));
      }
      l.named = !l.args.empty();
      l.rejects = std::move(rejects);
      out.push_back(std::move(l));
    }
  }
}

}  // namespace impact::cpp
