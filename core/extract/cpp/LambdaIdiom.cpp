#include "extract/cpp/LambdaIdiom.h"


namespace impact::cpp {
namespace {

struct Slot {
  int param = -1;  // index of the lambda parameter that supplies it
  TSNode fixed{};  // or an expression inside the lambda
};

struct LambdaShape {
  std::string name;
  std::string vector;                 // the vector appended to, if seen
  Slot kind, size, argName;
  TSNode lambda{};
};

// Finds the append inside a lambda body and maps kind/size/name to parameters.
bool lambdaShape(const Ctx& c, TSNode lambda, LambdaShape& shape) {
  std::vector<std::string> params;
  TSNode decl = field(lambda, "declarator");
  for (TSNode p : items(field(decl, "parameters"))) params.push_back(declaredName(c, field(p, "declarator")));
  TSNode body = field(lambda, "body");
  if (isNull(body)) return false;

  std::vector<TSNode> parts;  // kind, size, offset, name expressions as constructed
  bool found = false;
  walk(body, [&](TSNode n) {
    if (found) return false;
    if (is(n, "lambda_expression") && !sameNode(n, lambda)) return false;
    if (is(n, "call_expression")) {
      std::string callee = calleeName(c, n);
      if (callee == "push_back" || callee == "emplace_back") {
        TSNode fn = field(n, "function");
        if (is(fn, "field_expression")) shape.vector = noSpace(c.text(field(fn, "argument")));
        auto args = items(field(n, "arguments"));
        if (args.size() == 1 && (c.isKaElement(args[0]) || is(args[0], "initializer_list"))) {
          parts = items(elementBraces(c, args[0]));
        } else if (args.size() >= 3) {
          parts = args;  // emplace_back(kind, size, offset, name)
        }
        found = !parts.empty();
        return false;
      }
    }
    if (c.isKaElement(n)) {  // KernelArgument{kind, size, offset, name} built some other way
      parts = items(field(n, "value"));
      found = !parts.empty();
      return false;
    }
    return true;
  });
  if (!found) return false;
  if (parts.size() < 2) return false;

  auto slotFor = [&](TSNode e) {
    Slot s;
    std::string t = noSpace(c.text(e));
    for (size_t i = 0; i < params.size(); ++i)
      if (!params[i].empty() && params[i] == t) s.param = static_cast<int>(i);
    if (s.param < 0) s.fixed = e;
    return s;
  };
  shape.kind = slotFor(parts[0]);
  shape.size = slotFor(parts[1]);
  if (parts.size() >= 4) shape.argName = slotFor(parts[3]);
  else if (parts.size() == 3 && params.size() == 3) shape.argName = slotFor(parts[2]);
  shape.lambda = lambda;
  return true;
}

struct CallContext {
  std::vector<std::string> conditions;
  std::map<std::string, TSNode> env;
  std::string loopReason;  // non-empty inside a loop that could not be unrolled
};

std::string conditionText(const Ctx& c, TSNode ifStmt) {
  TSNode cond = field(ifStmt, "condition");
  TSNode value = field(cond, "value");
  std::string s = collapse(c.text(isNull(value) ? cond : value));
  if (isNull(value) && s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trim(s.substr(1, s.size() - 2));
  return s;
}

class LambdaCalls {
 public:
  LambdaCalls(const Ctx& c, const LambdaShape& shape, const Site& site, std::vector<KernelArg>& out)
      : c_(c), shape_(shape), site_(site), out_(out) {}

  void visit(TSNode n, CallContext& ctx, int depth) {
    if (isNull(n) || out_.size() >= kMaxUnroll) return;
    if (depth > kMaxStmtDepth) { truncated_ = true; return; }
    std::string_view t = type(n);
    if (t == "lambda_expression") return;
    if (t == "call_expression" && is(field(n, "function"), "identifier") &&
        c_.text(field(n, "function")) == shape_.name) {
      emit(n, ctx);
      // arguments may hold further calls only in odd code; do not descend
      return;
    }
    if (t == "if_statement" || t == "conditional_expression") {
      visit(field(n, "condition"), ctx, depth + 1);
      std::string cond = t == "if_statement" ? conditionText(c_, n) : collapse(c_.text(field(n, "condition")));
      ctx.conditions.push_back(cond);
      visit(field(n, "consequence"), ctx, depth + 1);
      ctx.conditions.back() = "!(" + cond + ")";
      visit(field(n, "alternative"), ctx, depth + 1);
      ctx.conditions.pop_back();
      return;
    }
    if (t == "for_range_loop") {
      TSNode right = field(n, "right");
      TSNode body = field(n, "body");
      std::string var = declaredName(c_, field(n, "declarator"));
      TSNode listNode = right;
      if (is(right, "identifier") || is(right, "qualified_identifier")) {
        if (const Constant* k = lookup(c_, c_.text(right), site_)) listNode = k->value;
      }
      if (is(listNode, "initializer_list") && !var.empty()) {
        for (TSNode e : items(listNode)) {
          auto saved = ctx.env.find(var) != ctx.env.end() ? std::optional<TSNode>(ctx.env[var]) : std::nullopt;
          ctx.env[var] = e;
          visit(body, ctx, depth + 1);
          if (saved) ctx.env[var] = *saved;
          else ctx.env.erase(var);
        }
        return;
      }
      std::string saved = ctx.loopReason;
      ctx.loopReason = "called inside a loop over '" + collapse(c_.text(right)) + "' that cannot be unrolled";
      visit(body, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    if (t == "for_statement" || t == "while_statement" || t == "do_statement") {
      std::string saved = ctx.loopReason;
      ctx.loopReason = "called inside a loop that cannot be unrolled";
      for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
  }

  bool truncated() const { return truncated_; }

 private:
  TSNode slotNode(const Slot& s, const std::vector<TSNode>& args) const {
    if (s.param >= 0) return static_cast<size_t>(s.param) < args.size() ? args[s.param] : TSNode{};
    return s.fixed;
  }

  void emit(TSNode call, const CallContext& ctx) {
    auto args = items(field(call, "arguments"));
    ElementParts p;
    p.count = 4;
    p.kind = slotNode(shape_.kind, args);
    p.size = slotNode(shape_.size, args);
    p.name = slotNode(shape_.argName, args);
    Evaluator ev{c_, &ctx.env};
    // Fixed parts live inside the lambda; parameters are evaluated where the call is.
    KernelArg a = argFrom(ev, p, site_, rangeOf(call));
    if (!ctx.conditions.empty()) {
      a.conditional = true;
      for (size_t i = 0; i < ctx.conditions.size(); ++i) a.condition += (i ? " && " : "") + ctx.conditions[i];
    }
    if (!ctx.loopReason.empty()) {
      a.resolved = false;
      a.unresolvedReason += (a.unresolvedReason.empty() ? "" : "; ") + ctx.loopReason;
    }
    out_.push_back(std::move(a));
  }

  const Ctx& c_;
  const LambdaShape& shape_;
  const Site& site_;
  std::vector<KernelArg>& out_;
  bool truncated_ = false;
};

}  // namespace

void extractLambdas(const Ctx& c, std::vector<CppArgList>& out) {
  for (const auto& m : c.matches[QueryId::CppLocalLambda]) {
    TSNode name = m.get("name"), lambda = m.get("lambda"), decl = m.get("decl");
    if (isNull(name) || isNull(lambda) || isNull(decl)) continue;
    int f = c.functionOf(decl);
    if (f < 0) continue;
    LambdaShape shape;
    shape.name = std::string(c.text(name));
    if (!lambdaShape(c, lambda, shape)) continue;
    TSNode def = c.functions[f].node;
    TSNode body = field(def, "body");
    Site site = c.siteOf(decl);
    CppArgList l;
    l.form = CppArgList::Form::Lambda;
    l.symbol = functionName(c, def);
    l.variable = shape.vector;
    TSNode fd = functionDeclarator(def);
    l.range = rangeOf(isNull(fd) ? def : fd);
    CallContext ctx;
    LambdaCalls calls(c, shape, site, l.args);
    calls.visit(body, ctx, 0);
    if (l.args.empty()) continue;
    l.fingerprint = codeFingerprint(c.tree, def);
    for (const KernelArg& a : l.args) l.named = l.named || !a.name.empty();
    out.push_back(std::move(l));
  }
}

}  // namespace impact::cpp
