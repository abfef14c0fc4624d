#include "extract/cpp/LambdaIdiom.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "extract/cpp/ElementLocals.h"
#include "extract/cpp/ListStarts.h"


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
  bool direct = false;                // no lambda: `vector.push_back({...})` written at each append
  // The direct form's vector starting as a helper's list (`auto v = tensorArguments();`), and the
  // function's locals holding one (`auto s = scalarArguments(off);`), which
  // `v.insert(v.end(), s.begin(), s.end())` appends: one list read through its helpers.
  const CppArgList* initial = nullptr;
  std::map<std::string, const CppArgList*> sources;
  // Or starting as what a call returns whose list is not read (`auto v = tensorArguments();`, a
  // function of another file, or one whose body the reader does not follow): the list is open at
  // its start, saying why; the appends after it are read (never a list shorter than the truth).
  std::string openStart;
  std::string startCall;  // the call's text, for the open ends after it
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
  std::map<std::string, uint64_t> ints;  // the counters of indexed loops being unrolled
  std::string loopReason;  // non-empty inside a loop that could not be unrolled
};

// The names a range-for binds: one, or a structured binding's (`const auto& [kind, size, name]`).
std::vector<std::string> loopNames(const Ctx& c, TSNode declarator) {
  TSNode d = declarator;
  while (is(d, "reference_declarator") || is(d, "pointer_declarator")) {
    auto k = items(d);
    d = k.empty() ? TSNode{} : k.back();
  }
  if (is(d, "structured_binding_declarator")) {
    std::vector<std::string> out;
    for (TSNode id : items(d)) out.push_back(std::string(c.text(id)));
    return out;
  }
  std::string one = declaredName(c, declarator);
  return one.empty() ? std::vector<std::string>{} : std::vector<std::string>{one};
}

// `for (T i = a; i < b; ++i)` (`<=`, `!=`; `i++`, `i += 1`) with a and b known (constants,
// `std::size(kRows)`, `kRows.size()`): the counter and its values; empty when it is no such loop.
std::pair<std::string, std::vector<uint64_t>> countedLoop(const Ctx& c, TSNode loop, const CallContext& ctx, const Site& site) {
  Evaluator ev{c, &ctx.env, &ctx.ints};
  TSNode init = field(loop, "initializer");
  auto decls = items(init);
  if (!is(init, "declaration") || decls.size() != 2 || !is(decls[1], "init_declarator")) return {};
  std::string i = declaredName(c, field(decls[1], "declarator"));
  std::string why;
  auto from = ev.integer(field(decls[1], "value"), site, 0, why);
  TSNode cond = field(loop, "condition"), upd = field(loop, "update");
  if (!from || i.empty() || !is(cond, "binary_expression") || noSpace(c.text(field(cond, "left"))) != i) return {};
  std::string op(c.text(field(cond, "operator")));
  auto to = ev.integer(field(cond, "right"), site, 0, why);
  std::string u = noSpace(c.text(upd));
  if (!to || (op != "<" && op != "<=" && op != "!=") || (u != "++" + i && u != i + "++" && u != i + "+=1")) return {};
  uint64_t end = op == "<=" ? *to + 1 : *to;
  if (end < *from || end - *from > kMaxUnroll) return {};
  std::vector<uint64_t> values;
  for (uint64_t v = *from; v < end; ++v) values.push_back(v);
  return {i, values};
}

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
    if (t == "call_expression" && !shape_.direct && is(field(n, "function"), "identifier") &&
        c_.text(field(n, "function")) == shape_.name) {
      emit(n, ctx);
      // arguments may hold further calls only in odd code; do not descend
      return;
    }
    if (t == "call_expression" && !c_.unexpanded.empty()) {  // a macro it could not expand: unknown from here
      auto it = c_.unexpanded.find(rangeOf(n).line);
      if (it != c_.unexpanded.end() && noSpace(c_.text(field(n, "function"))) == it->second.first) {
        appended_ = true;
        openAt(n, it->second.second);
        return;
      }
    }
    if (t == "declaration" && locals_.declare(n, ctx.conditions.size())) return;
    if (t == "assignment_expression" &&
        locals_.assign(n, ctx.conditions.size(), ctx.conditions.empty() ? "" : ctx.conditions.back()))
      return;
    if (shape_.direct && (t == "call_expression" || t == "assignment_expression") && directUse(n, ctx)) return;
    if (t == "call_expression") locals_.given(n);
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
      std::vector<std::string> names = loopNames(c_, field(n, "declarator"));
      std::vector<TSNode> elements = elementsOf(c_, Evaluator{c_, &ctx.env, &ctx.ints}.substitute(right));
      if (!elements.empty() && !names.empty()) {
        for (TSNode e : elements) {
          CallContext inner = ctx;
          if (names.size() == 1) {
            inner.env[names[0]] = e;
          } else {  // a structured binding of a row: each name an item of it
            auto row = items(elementBraces(c_, e));
            for (size_t k = 0; k < names.size(); ++k)
              if (k < row.size()) inner.env[names[k]] = row[k];
              else inner.env.erase(names[k]);
          }
          visit(body, inner, depth + 1);
        }
        return;
      }
      std::string saved = ctx.loopReason;
      ctx.loopReason = "in a loop over '" + collapse(c_.text(right)) + "', whose elements the reader cannot enumerate";
      visit(body, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    if (t == "for_statement") {
      auto [counter, values] = countedLoop(c_, n, ctx, site_);
      if (!counter.empty()) {
        for (uint64_t v : values) {
          CallContext inner = ctx;
          inner.env.erase(counter);
          inner.ints[counter] = v;
          visit(field(n, "body"), inner, depth + 1);
        }
        return;
      }
    }
    if (t == "for_statement" || t == "while_statement" || t == "do_statement") {
      std::string saved = ctx.loopReason;
      ctx.loopReason = "in a loop whose count the reader does not know";
      for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
      ctx.loopReason = saved;
      return;
    }
    for (TSNode k : namedChildren(n)) visit(k, ctx, depth + 1);
  }

  bool truncated() const { return truncated_; }
  // Where the list stops being known: an append in a loop the walk cannot unroll (it appends an
  // unknown number of arguments), or a change of the vector it does not follow. "" when complete.
  const std::string& open() const { return open_; }
  // Whether any append was seen (one in a loop the walk could not unroll included).
  bool appended() const { return appended_; }

 private:
  TSNode slotNode(const Slot& s, const std::vector<TSNode>& args) const {
    if (s.param >= 0) return static_cast<size_t>(s.param) < args.size() ? args[s.param] : TSNode{};
    return s.fixed;
  }

  void openAt(TSNode n, const std::string& why) {
    if (!open_.empty()) return;
    const std::string after = shape_.openStart.empty() ? "" : " after those of " + shape_.startCall;
    open_ = absl::StrCat("the arguments from #", out_.size() + 1, after, " on: ", why, " (line ", rangeOf(n).line + 1, ")");
  }

  // The direct form: `v.push_back({kind, size, offset, name})`, `v.push_back(KernelArgument{...})`,
  // `v.emplace_back(kind, size, offset, name)` append; any other call on `v` or given it that may
  // change it (insert, assign, resize, a function taking it), or an assignment to it, ends what is
  // known. True when `n` was such a use (handled, not descended into).
  bool directUse(TSNode n, const CallContext& ctx) {
    const std::string& v = shape_.vector;
    if (is(n, "assignment_expression")) {
      if (noSpace(c_.text(field(n, "left"))) != v) return false;
      openAt(n, "`" + v + "` is assigned");
      return true;
    }
    TSNode fn = field(n, "function");
    auto args = items(field(n, "arguments"));
    if (is(fn, "field_expression") && noSpace(c_.text(field(fn, "argument"))) == v) {
      std::string callee = calleeName(c_, n);
      if (callee == "push_back" || callee == "emplace_back") {
        ElementParts p;
        if (args.size() == 1 && (c_.isKaElement(args[0]) || is(args[0], "initializer_list"))) {
          p = partsOf(c_, elementBraces(c_, args[0]));
        } else if (args.size() >= 3) {
          p.count = args.size();
          p.kind = args[0], p.size = args[1], p.offset = args[2];
          if (args.size() >= 4) p.name = args[3];
        } else if (const ElementLocals::Local* l = args.size() == 1 ? locals_.appended(args[0]) : nullptr) {
          if (!l->unknown.empty()) {
            appendUnknown(n, l->unknown, ctx);
            return true;
          }
          p = l->parts;
        } else {
          openAt(n, "`" + collapse(c_.text(n)) + "` appends an element the reader cannot take apart");
          return true;
        }
        append(n, p, ctx);
        return true;
      }
      if (callee == "insert" && insertUse(n, args, ctx)) return true;
      static const std::set<std::string> reads = {"reserve", "size", "empty", "begin", "end", "cbegin", "cend",
                                                  "data", "front", "back", "at", "capacity"};
      if (!reads.count(callee)) openAt(n, "`" + v + "." + callee + "(...)` changes the list");
      return true;
    }
    for (TSNode a : args)
      if (noSpace(c_.text(a)) == v || noSpace(c_.text(a)) == "&" + v) {
        openAt(n, "`" + v + "` is given to " + collapse(c_.text(fn)) + ", which may change it");
        return true;
      }
    return false;
  }

  // `v.insert(v.end(), s.begin(), s.end())` of a local holding a helper's list, or
  // `v.insert(v.end(), {elements...})`: appends. False for any other insert (it changes the list).
  bool insertUse(TSNode n, const std::vector<TSNode>& args, const CallContext& ctx) {
    const std::string& v = shape_.vector;
    if (args.empty() || (noSpace(c_.text(args[0])) != v + ".end()" && noSpace(c_.text(args[0])) != "std::end(" + v + ")"))
      return false;
    if (args.size() == 2 && is(args[1], "initializer_list")) {
      for (TSNode e : items(args[1])) {
        if (!isElement(c_, e)) {
          openAt(n, "`" + collapse(c_.text(e)) + "` inserted is no KernelArgument element the reader can take apart");
          return true;
        }
        append(n, partsOf(c_, elementBraces(c_, e)), ctx);
      }
      return true;
    }
    if (args.size() != 3) return false;
    for (const auto& [local, list] : shape_.sources) {
      std::string b = noSpace(c_.text(args[1])), e = noSpace(c_.text(args[2]));
      bool whole = (b == local + ".begin()" && e == local + ".end()") ||
                   (b == local + ".cbegin()" && e == local + ".cend()") ||
                   (b == "std::begin(" + local + ")" && e == "std::end(" + local + ")");
      if (!whole) continue;
      appendList(n, *list, ctx);
      return true;
    }
    return false;
  }

 public:
  // The whole list of a helper appended at `n` (its arguments keep their own lines; a condition
  // around the append is theirs too); a helper's list open at its end opens this one there.
  void appendList(TSNode n, const CppArgList& list, const CallContext& ctx) {
    appended_ = true;
    if (!open_.empty()) return;
    if (!ctx.loopReason.empty()) {
      openAt(n, "appended " + ctx.loopReason);
      return;
    }
    consumed_.insert(&list);
    std::string cond;
    for (size_t i = 0; i < ctx.conditions.size(); ++i) cond += (i ? " && " : "") + ctx.conditions[i];
    for (KernelArg a : list.args) {
      if (!cond.empty()) {
        a.condition = a.conditional ? cond + " && " + a.condition : cond;
        a.conditional = true;
      }
      out_.push_back(std::move(a));
    }
    if (!list.openTail.empty()) openAt(n, "through " + list.symbol + ", whose list is open: " + list.openTail);
  }
  const std::set<const CppArgList*>& consumed() const { return consumed_; }

 private:
  void emit(TSNode call, const CallContext& ctx) {
    auto args = items(field(call, "arguments"));
    ElementParts p;
    p.count = 4;
    p.kind = slotNode(shape_.kind, args);
    p.size = slotNode(shape_.size, args);
    p.name = slotNode(shape_.argName, args);
    append(call, p, ctx);
  }

  void append(TSNode call, const ElementParts& p, const CallContext& ctx) {
    appended_ = true;
    if (!open_.empty()) return;  // past an append of unknown count: positions are not known
    if (!ctx.loopReason.empty()) {
      openAt(call, "appended " + ctx.loopReason);
      return;
    }
    Evaluator ev{c_, &ctx.env, &ctx.ints};
    // Fixed parts live inside the lambda; parameters are evaluated where the call is.
    KernelArg a = argFrom(ev, p, site_, rangeOf(call));
    conditionOf(a, ctx);
    out_.push_back(std::move(a));
  }

  // An element appended whose fields are not known (a local the reader did not follow): an
  // argument at its position, its type not resolved, saying why.
  void appendUnknown(TSNode call, const std::string& why, const CallContext& ctx) {
    appended_ = true;
    if (!open_.empty()) return;
    if (!ctx.loopReason.empty()) {
      openAt(call, "appended " + ctx.loopReason);
      return;
    }
    KernelArg a;
    a.range = rangeOf(call);
    a.resolved = false;
    a.unresolvedReason = why;
    conditionOf(a, ctx);
    out_.push_back(std::move(a));
  }

  static void conditionOf(KernelArg& a, const CallContext& ctx) {
    if (ctx.conditions.empty()) return;
    a.conditional = true;
    for (size_t i = 0; i < ctx.conditions.size(); ++i) a.condition += (i ? " && " : "") + ctx.conditions[i];
  }

  const Ctx& c_;
  const LambdaShape& shape_;
  const Site& site_;
  std::vector<KernelArg>& out_;
  ElementLocals locals_{c_};
  bool truncated_ = false;
  bool appended_ = false;
  std::string open_;
  std::set<const CppArgList*> consumed_;  // the helpers' lists read into this one
};

// The list the appends of `shape` build in function `f`, walked from its body in program order.
// Empty (nothing to add) when no append was seen. `consumed`: the helpers' lists read into it.
std::optional<CppArgList> appendedList(const Ctx& c, const LambdaShape& shape, int f, const Site& site,
                                       std::set<const CppArgList*>* consumed = nullptr) {
  TSNode def = c.functions[f].node;
  CppArgList l;
  l.form = CppArgList::Form::Lambda;
  l.symbol = functionName(c, def);
  l.variable = shape.vector;
  TSNode fd = functionDeclarator(def);
  l.range = rangeOf(isNull(fd) ? def : fd);
  CallContext ctx;
  LambdaCalls calls(c, shape, site, l.args);
  if (shape.initial) calls.appendList(def, *shape.initial, ctx);
  calls.visit(field(def, "body"), ctx, 0);
  if (l.args.empty() && !calls.appended()) return std::nullopt;
  l.openTail = calls.open();
  l.openStart = shape.openStart;
  l.fingerprint = codeFingerprint(c.tree, def);
  for (const KernelArg& a : l.args) l.named = l.named || !a.name.empty();
  if (consumed) *consumed = calls.consumed();
  return l;
}

}  // namespace

void extractLambdas(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside) {
  std::vector<CppArgList> made;
  for (const auto& m : c.matches[QueryId::CppLocalLambda]) {
    TSNode name = m.get("name"), lambda = m.get("lambda"), decl = m.get("decl");
    if (isNull(name) || isNull(lambda) || isNull(decl)) continue;
    int f = c.functionOf(decl);
    if (f < 0) continue;
    LambdaShape shape;
    shape.name = std::string(c.text(name));
    if (!lambdaShape(c, lambda, shape)) continue;
    if (auto l = appendedList(c, shape, f, c.siteOf(decl))) made.push_back(std::move(*l));
  }
  // The direct form: the function appends to a local vector itself, statement by statement.
  std::vector<TSNode> directDecls;
  c.tree.walkAll([&](TSNode n) {
    if (is(n, "lambda_expression")) return false;
    if (!is(n, "declaration")) return true;
    int f = c.functionOf(n);
    std::string v = f < 0 ? "" : emptyKernelArgumentVector(c, n);
    if (v.empty()) return false;
    LambdaShape shape;
    shape.vector = v;
    shape.direct = true;
    if (auto l = appendedList(c, shape, f, c.siteOf(n))) made.push_back(std::move(*l));
    return false;
  });
  // Composed through helpers: a function whose locals hold helpers' lists, read again with them
  // (inserting one appends it), its vector empty at first or a helper's list (`auto v =
  // tensorArguments();`, then at least one more helper's list inserted). The helpers' own lists
  // are parts of it, set aside with where they are read.
  std::vector<const CppArgList*> pool;
  for (const CppArgList& l : out)
    if (l.form == CppArgList::Form::Static) pool.push_back(&l);
  for (const CppArgList& l : made) pool.push_back(&l);
  std::vector<CppArgList> composed;
  std::vector<const CppArgList*> replaced, parts;
  std::vector<std::string> partOf;
  // A vector starting as what a call returns whose list is not read (`auto v = tensorArguments();`
  // of another file), then appended to: read with its start open there (LambdaShape::openStart).
  for (size_t f = 0; f < c.functions.size(); ++f) {
    int fi = static_cast<int>(f);
    if (isTestCase(c, c.functions[f].node)) continue;
    auto locals = helperLocals(c, fi, pool);
    walk(field(c.functions[f].node, "body"), [&](TSNode n) {
      if (is(n, "lambda_expression")) return false;
      if (!is(n, "declaration")) return true;
      LambdaShape shape;
      shape.direct = true;
      shape.sources = locals;
      shape.vector = emptyKernelArgumentVector(c, n);
      TSNode d = field(n, "declarator");
      if (shape.vector.empty() && is(d, "init_declarator")) {
        shape.vector = declaredName(c, field(d, "declarator"));
        auto it = locals.find(shape.vector);
        shape.initial = it == locals.end() ? nullptr : it->second;
        TSNode call = initialCall(d);
        if (!shape.initial && !isNull(call) && !shape.vector.empty() &&
            holdsKernelArguments(c, n, d, shape.vector, fi)) {
          shape.startCall = collapse(c.text(call));
          shape.openStart = absl::StrCat("the arguments first in the list (line ", rangeOf(call).line + 1,
                                         "): whatever ", shape.startCall, " returns: ", unreadCallWhy(c, call, pool));
        }
        if (!shape.initial && shape.openStart.empty()) return false;
        shape.sources.erase(shape.vector);
      }
      if (shape.vector.empty() || (locals.empty() && shape.openStart.empty())) return false;
      std::set<const CppArgList*> consumed;
      auto l = appendedList(c, shape, fi, c.siteOf(n), &consumed);
      if (!l || (shape.openStart.empty() && consumed.size() < (shape.initial ? 2u : 1u))) return false;
      for (const CppArgList& m : made)
        if (m.symbol == l->symbol && m.variable == l->variable && m.range == l->range) replaced.push_back(&m);
      for (const CppArgList* p : consumed) {
        parts.push_back(p);
        partOf.push_back(absl::StrCat(l->symbol, "'s list (line ", l->range.line + 1, ")"));
      }
      composed.push_back(std::move(*l));
      return false;
    });
  }
  auto keep = [&](const CppArgList& l) {
    if (std::find(replaced.begin(), replaced.end(), &l) != replaced.end()) return false;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i] != &l) continue;
      setAside.push_back(SetAside{l.range, "KernelArgument list in " + l.symbol,
                                  "a part of " + partOf[i] + ", read there through its call"});
      return false;
    }
    return true;
  };
  std::vector<CppArgList> kept;
  for (CppArgList& l : out)
    if (keep(l)) kept.push_back(std::move(l));
  for (CppArgList& l : made)
    if (keep(l)) kept.push_back(std::move(l));
  for (CppArgList& l : composed) kept.push_back(std::move(l));
  out = std::move(kept);
}

}  // namespace impact::cpp
