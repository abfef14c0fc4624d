// Python half of extraction (DOMAIN.md §2): builders, their b.param lists and SignatureBuilder
// chains, read off the tree-sitter-python syntax tree.
//
// Outline:
//  1. collect every function of the module (module level, under module-level if/try/with/for,
//     methods as "Class.method");
//  2. collect module-level bindings (assignments, imports), remembering for each binding the
//     path of branches (if/elif/else/loop/try bodies) it sits in, so a lookup can tell whether a
//     binding always holds at the point of use or only on some paths;
//  3. walk each function body once, in source order, recording bindings and the events that
//     matter (b.param calls, SignatureBuilder method calls, return statements) together with the
//     conditions that enclose them; `for n in ("a", "b")` over a literal is unrolled;
//  4. resolve: receivers (is `b` an IRBuilder?), names and types (through local and module
//     assignments and imports), condition texts (local aliases replaced by what they alias);
//  5. assemble builders, following early returns to same-module builders (cycle-safe).
//
// Every recursion is depth-capped and resolution has a step budget, so garbage input or deep
// nesting cannot hang or overflow the stack; nothing throws out of extractPython.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include <algorithm>
#include <set>

#include "extract/python/BindingWalk.h"
#include "extract/python/DeclEvalImpl.h"
#include "extract/python/EvaluatedBuilders.h"
#include "extract/python/Literals.h"

namespace impact::pyextract {

BuilderExtractor::BuilderExtractor(const SyntaxTree& t)
    : t_(t), resolver_(t), eval_(std::make_unique<DeclEval>(t)) {}
BuilderExtractor::~BuilderExtractor() = default;

void BuilderExtractor::run(std::vector<PyBuilder>& out, std::vector<CppArgList>& copies) {
  TSNode root = t_.root();
  module_.isModule = true;
  walkModule(t_, root, module_);
  collectFunctions(t_, root, "", fns_, 0);
  facts_.resize(fns_.size());
  info_.resize(fns_.size());
  scopes_.resize(fns_.size());
  for (size_t i = 0; i < fns_.size(); ++i) analyse(i);
  bool paramsBuilder = false;
  for (size_t i = 0; i < fns_.size(); ++i)
    paramsBuilder = paramsBuilder || (builder(i, 0).isBuilder && facts_[i].hasParams && facts_[i].literalNames);
  for (size_t i = 0; i < fns_.size(); ++i) {
    BuilderInfo& bi = builder(i, 0);
    if (bi.isBuilder) {
      PyBuilder b;
      b.name = fns_[i].name;
      b.style = PyBuilder::Style::Params;
      b.range = rangeOf(fns_[i].nameNode);
      b.bodyRange = rangeOf(fns_[i].def);
      b.abis = bi.abis;
      b.fingerprint = bi.fingerprint;
      b.hooks = bi.hooks;
      out.push_back(std::move(b));
    }
    if (paramsBuilder && (facts_[i].hasSig || facts_[i].hasList)) {
      // A restatement of this module's builder (`attention_dense_signature`): a copy.
      CppArgList c;
      c.form = CppArgList::Form::Static;
      c.symbol = fns_[i].name;
      c.range = rangeOf(fns_[i].nameNode);
      c.args = facts_[i].hasSig ? facts_[i].sigArgs : facts_[i].listArgs;
      c.named = std::any_of(c.args.begin(), c.args.end(), [](const KernelArg& a) { return !a.name.empty(); });
      c.fingerprint = codeFingerprint(t_, fns_[i].def);
      copies.push_back(std::move(c));
    } else if (facts_[i].hasSig) {
      PyBuilder b;
      b.name = fns_[i].name;
      b.style = PyBuilder::Style::SignatureBuilder;
      b.range = rangeOf(fns_[i].nameNode);
      b.bodyRange = rangeOf(fns_[i].def);
      b.abis.push_back(PyAbi{fns_[i].name, "", facts_[i].sigArgs, "", "", {}, ""});
      b.fingerprint = codeFingerprint(t_, fns_[i].def);
      out.push_back(std::move(b));
    }
  }
  applyEvaluation(*eval_, t_, fns_, out);
  // A module whose b.param builder is known only by evaluation (its declarations in a helper):
  // its SignatureBuilder restatements are copies of it, as they are beside one read directly.
  bool evaluatedBuilder = std::any_of(out.begin(), out.end(), [](const PyBuilder& b) {
    return b.style == PyBuilder::Style::Params && !b.abis.empty() && !b.abis[0].args.empty() &&
           std::all_of(b.abis[0].args.begin(), b.abis[0].args.end(), [](const KernelArg& a) { return !a.name.empty(); });
  });
  if (paramsBuilder || !evaluatedBuilder) return;
  // A restatement is no copy when a builder reads its list from it (`for n, t in x_signature(spec):
  // b.param(n, t)`): the signature is then the definition.
  auto readByABuilder = [&](const std::string& sig) {
    for (const PyBuilder& b : out) {
      if (b.style != PyBuilder::Style::Params) continue;
      for (const Fn& fn : fns_)
        if (fn.name == b.name && hasWord(t_.text(fn.def), sig)) return true;
    }
    return false;
  };
  for (auto it = out.begin(); it != out.end();) {
    if (it->style != PyBuilder::Style::SignatureBuilder || readByABuilder(it->name)) {
      ++it;
      continue;
    }
    CppArgList c;
    c.form = CppArgList::Form::Static;
    c.symbol = it->name;
    c.range = it->range;
    c.args = it->abis.empty() ? std::vector<KernelArg>{} : it->abis[0].args;
    c.named = std::any_of(c.args.begin(), c.args.end(), [](const KernelArg& a) { return !a.name.empty(); });
    c.fingerprint = it->fingerprint;
    copies.push_back(std::move(c));
    it = out.erase(it);
  }
}

BuilderExtractor::Args BuilderExtractor::argsOf(TSNode call) {
  Args a;
  TSNode al = field(call, "arguments");
  if (!is(al, "argument_list")) return a;
  for (TSNode ch : namedChildren(al)) {
    if (is(ch, "keyword_argument")) a.kw.emplace_back(text(field(ch, "name")), field(ch, "value"));
    else if (is(ch, "comment") || is(ch, "list_splat") || is(ch, "dictionary_splat")) continue;
    else a.pos.push_back(ch);
  }
  return a;
}

void BuilderExtractor::unresolve(KernelArg& a, const std::string& why) {
  a.resolved = false;
  if (!a.unresolvedReason.empty()) a.unresolvedReason += "; ";
  a.unresolvedReason += why;
}

bool BuilderExtractor::setName(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops, const char* what) {
  if (ts_node_is_null(e)) {
    unresolve(a, std::string(what) + " call has no name argument");
    return false;
  }
  Value v = resolver_.expr(e, s, u, loops, 0);
  if (v.k == VK::Str) {
    a.name = v.str;
    return true;
  }
  a.name = text(e);
  unresolve(a, "parameter name '" + clip(a.name, 80) + "' is not a literal string");
  return false;
}

void BuilderExtractor::setType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops) {
  if (ts_node_is_null(e)) {
    unresolve(a, "b.param call has no type argument");
    return;
  }
  a.typeText = text(e);
  if (is(e, "identifier") && loops.v)
    for (size_t i = loops.n; i-- > 0;)
      if ((*loops.v)[i].name == a.typeText) {
        a.typeText = text((*loops.v)[i].elem);
        break;
      }
  Value v = resolver_.expr(e, s, u, loops, 0);
  if (v.k == VK::PtrType) {
    a.kind = "global_buffer";
    a.size = 8;
    a.typeClass = v.cls;  // the element's, when PtrType's first argument resolved
  } else if (v.k == VK::Scalar) {
    a.kind = "by_value";
    a.size = v.size;
    a.typeClass = v.cls;
  } else {
    a.kind.clear();
    a.size = 0;
    std::string why = v.k == VK::Unknown ? v.str : v.k == VK::Module ? v.str : "not a type";
    unresolve(a, "type '" + clip(text(e), 80) + "' could not be resolved" + (why.empty() ? "" : " (" + why + ")"));
  }
}

void BuilderExtractor::analyse(size_t i) {
  const Fn& fn = fns_[i];
  scopes_[i] = std::make_unique<Scope>();
  Scope& s = *scopes_[i];
  s.isModule = false;
  s.fnName = fn.name;
  s.parent = &module_;
  std::vector<Event> events;
  walkFunction(t_, fn.def, s, events, &module_);
  FnFacts& f = facts_[i];
  uint32_t firstParam = UINT32_MAX;
  std::set<uint32_t> returnsSeen;
  std::vector<const Event*> returns;
  for (const Event& ev : events) {
    if (resolver_.budget() < 0) break;
    Use u{ts_node_start_byte(ev.node), &ev.ctx.path};
    Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
    switch (ev.type) {
      case Event::Param: {
        TSNode fnNode = field(ev.node, "function");
        Value recv = resolver_.expr(field(fnNode, "object"), s, u, loops, 0);
        if (recv.k != VK::IRBuilder) break;
        Args args = argsOf(ev.node);
        KernelArg a;
        a.range = rangeOf(ev.node);
        if (!setName(a, args.get(0, {"name"}), s, u, loops, "b.param")) f.literalNames = false;
        setType(a, args.get(1, {"type", "ty", "dtype", "param_type"}), s, u, loops);
        conditionInto(a, ev.ctx, s);
        f.params.push_back(std::move(a));
        f.hasParams = true;
        firstParam = std::min(firstParam, ts_node_start_byte(ev.node));
        break;
      }
      case Event::SigMethod:
        sigMethod(ev, s, f);
        break;
      case Event::HelperCall:
        if (f.tailHelper.empty()) helperCall(ev, s, f);
        break;
      case Event::Return:
        if (returnsSeen.insert(ts_node_start_byte(ev.node)).second) {
          returns.push_back(&ev);
          returnedEntries(ev, s, f);
        }
        break;
    }
  }
  if (!f.tailHelper.empty()) f.params.resize(std::min(f.params.size(), f.tailAt));  // later ones: positions unknown
  for (const Event* ev : returns) {
    if (ts_node_start_byte(ev->node) >= firstParam) continue;
    auto vals = namedChildren(ev->node);
    if (vals.size() != 1 || !is(vals[0], "call")) continue;
    TSNode callee = field(vals[0], "function");
    if (!is(callee, "identifier") && !is(callee, "attribute")) continue;
    f.returns.push_back(ReturnTarget{ev->node, callee, conditionOf(ev->ctx, s), ev->ctx.path, guardOf(ev->ctx, s)});
  }
  hooksOf(i);
}

}  // namespace impact::pyextract
