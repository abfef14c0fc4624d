// SignatureBuilder chains: `.ptr(name, dtype)`, `.scalar(name, "i32")`, `.extend([{name, type}])`;
// and returned literal lists of {name, type} dicts.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include "extract/python/Literals.h"
#include "extract/python/RockeTypes.h"

namespace impact::pyextract {

void BuilderExtractor::setSigType(KernelArg& a, TSNode e, const Scope& s, Use u, Loops loops) {
  if (ts_node_is_null(e)) {
    unresolve(a, "no type argument");
    return;
  }
  a.typeText = text(e);
  Value v = resolver_.expr(e, s, u, loops, 0);
  if (v.k == VK::Str) {
    bool ptr = false;
    if (auto sz = typeStringSize(v.str, &ptr)) {
      a.kind = ptr ? "global_buffer" : "by_value";
      a.size = *sz;
      a.typeClass = typeStringClass(v.str);
      return;
    }
    unresolve(a, "type string '" + clip(v.str, 60) + "' is not a known type");
    return;
  }
  if (v.k == VK::Scalar) {
    a.kind = "by_value";
    a.size = v.size;
    a.typeClass = v.cls;
    return;
  }
  if (v.k == VK::PtrType) {
    a.kind = "global_buffer";
    a.size = 8;
    a.typeClass = v.cls;
    return;
  }
  std::string why = v.k == VK::Unknown || v.k == VK::Module ? v.str : "";
  unresolve(a, "type '" + clip(text(e), 80) + "' could not be resolved" + (why.empty() ? "" : " (" + why + ")"));
}

void BuilderExtractor::sigMethod(const Event& ev, const Scope& s, FnFacts& f) {
  TSNode call = ev.node, fn = field(call, "function");
  Use u{ts_node_start_byte(call), &ev.ctx.path};
  Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
  Value recv = resolver_.expr(field(fn, "object"), s, u, loops, 0);
  if (recv.k != VK::Sig) return;
  f.hasSig = true;
  std::string m = text(field(fn, "attribute"));
  Args args = argsOf(call);
  // A chained call's node starts at the chain's root: the range starts at the method name.
  SourceRange callRange = rangeOf(call);
  SourceRange nameRange = rangeOf(field(fn, "attribute"));
  callRange.line = nameRange.line;
  callRange.col = nameRange.col;
  if (m == "ptr" || m == "scalar") {
    KernelArg a;
    a.range = callRange;
    setName(a, args.get(0, {"name"}), s, u, loops, m.c_str());
    TSNode ty = args.get(1, {"dtype", "type", "ty", "elem", "pointee"});
    if (m == "ptr") {
      a.kind = "global_buffer";
      a.size = 8;
      a.typeText = "ptr(" + text(ty) + ")";
      if (!ts_node_is_null(ty)) {  // the element's class, when the dtype resolves
        Value v = resolver_.expr(ty, s, u, loops, 0);
        if (v.k == VK::Str) a.typeClass = typeStringClass(v.str);
        else if (v.k == VK::Scalar) a.typeClass = v.cls;
      }
    } else {
      setSigType(a, ty, s, u, loops);
    }
    conditionInto(a, ev.ctx, s);
    f.sigArgs.push_back(std::move(a));
    return;
  }
  // extend(list): dicts {"name": .., "type": ..} or (name, type) pairs
  TSNode list = args.get(0, {"args", "items", "entries"});
  std::optional<std::vector<TSNode>> elems = literalList(list, s, u, loops, 0);
  if (!elems) {
    KernelArg a;
    a.range = callRange;
    a.name = text(list);
    unresolve(a, "extend(" + clip(text(list), 60) + ") is not a literal list");
    conditionInto(a, ev.ctx, s);
    f.sigArgs.push_back(std::move(a));
    return;
  }
  for (TSNode el : *elems) {
    KernelArg a = entryArg(el, s, u, loops, "extend");
    conditionInto(a, ev.ctx, s);
    f.sigArgs.push_back(std::move(a));
  }
}

KernelArg BuilderExtractor::entryArg(TSNode el, const Scope& s, Use u, Loops loops, const char* what) {
  KernelArg a;
  a.range = rangeOf(el);
  TSNode nameE{}, typeE{};
  TSNode x = el;
  if (is(x, "parenthesized_expression") && ts_node_named_child_count(x) == 1) x = ts_node_named_child(x, 0);
  if (is(x, "dictionary")) {
    for (TSNode p : namedChildren(x)) {
      if (!is(p, "pair")) continue;
      Value k = resolver_.expr(field(p, "key"), s, u, loops, 0);
      if (k.k != VK::Str) continue;
      if (k.str == "name") nameE = field(p, "value");
      else if (k.str == "type") typeE = field(p, "value");
    }
  } else if (is(x, "tuple") || is(x, "list")) {
    auto ch = namedChildren(x);
    if (ch.size() >= 2) nameE = ch[0], typeE = ch[1];
  }
  if (ts_node_is_null(nameE) && ts_node_is_null(typeE)) {
    a.name = text(el);
    unresolve(a, std::string(what) + " element '" + clip(text(el), 60) + "' is not a {name, type} entry");
  } else {
    setName(a, nameE, s, u, loops, what);
    setSigType(a, typeE, s, u, loops);
  }
  return a;
}

void BuilderExtractor::returnedEntries(const Event& ev, const Scope& s, FnFacts& f) {
  auto vals = namedChildren(ev.node);
  if (vals.size() != 1 || f.hasList) return;
  Use u{ts_node_start_byte(ev.node), &ev.ctx.path};
  Loops loops{&ev.ctx.loops, ev.ctx.loops.size()};
  std::optional<std::vector<TSNode>> elems = literalList(vals[0], s, u, loops, 0);
  if (!elems || elems->empty()) return;
  // Only a list of {name, type} dicts is an argument list: every element a dict naming "name".
  for (TSNode el : *elems) {
    TSNode x = el;
    if (is(x, "parenthesized_expression") && ts_node_named_child_count(x) == 1) x = ts_node_named_child(x, 0);
    if (!is(x, "dictionary")) return;
    bool named = false;
    for (TSNode p : namedChildren(x)) {
      if (!is(p, "pair")) continue;
      Value k = resolver_.expr(field(p, "key"), s, u, loops, 0);
      if (k.k == VK::Str && k.str == "name") named = true;
    }
    if (!named) return;
  }
  for (TSNode el : *elems) {
    KernelArg a = entryArg(el, s, u, loops, "list");
    conditionInto(a, ev.ctx, s);
    f.listArgs.push_back(std::move(a));
  }
  f.hasList = true;
}

std::optional<std::vector<TSNode>> BuilderExtractor::literalList(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
  if (depth > 32 || ts_node_is_null(e)) return std::nullopt;
  if (is(e, "parenthesized_expression") && ts_node_named_child_count(e) == 1)
    return literalList(ts_node_named_child(e, 0), s, u, loops, depth + 1);
  if (is(e, "list") || is(e, "tuple")) return literalElements(e);
  if (is(e, "identifier")) {
    std::string n = text(e);
    bool anyLocal = false;
    auto cs = candidates(s, n, u, &anyLocal);
    const Scope* where = &s;
    static const Path kEmpty;
    if (cs.empty() && !anyLocal && s.parent) {
      where = s.parent;
      cs = candidates(*s.parent, n, Use{UINT32_MAX, &kEmpty}, nullptr);
    }
    if (cs.size() != 1 || cs[0]->kind != Binding::Assign) return std::nullopt;
    return literalList(cs[0]->value, *where, Use{cs[0]->stmtStart, &cs[0]->path}, Loops{}, depth + 1);
  }
  if (is(e, "binary_operator") && t_.text(field(e, "operator")) == "+") {
    auto a = literalList(field(e, "left"), s, u, loops, depth + 1);
    auto b = literalList(field(e, "right"), s, u, loops, depth + 1);
    if (!a || !b) return std::nullopt;
    a->insert(a->end(), b->begin(), b->end());
    return a;
  }
  return std::nullopt;
}

}  // namespace impact::pyextract
