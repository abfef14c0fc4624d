#include "extract/python/Resolver.h"
#include "extract/python/Nodes.h"

#include "extract/python/Literals.h"

namespace impact::pyextract {

Value Resolver::expr(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
  if (ts_node_is_null(e)) return Value::unknown("missing");
  if (depth > kMaxResolveDepth || --budget_ < 0) return Value::unknown("too deep to resolve");
  std::string_view ty = type(e);
  if (ty == "identifier") return name(std::string(t_.text(e)), s, u, loops, depth + 1);
  if (ty == "parenthesized_expression") {
    auto ch = namedChildren(e);
    if (ch.size() == 1) return expr(ch[0], s, u, loops, depth + 1);
    return Value::unknown("");
  }
  if (ty == "attribute") {
    Value obj = expr(field(e, "object"), s, u, loops, depth + 1);
    std::string attr(t_.text(field(e, "attribute")));
    if (obj.k == VK::Module || (obj.k == VK::Unknown && obj.unbound)) {
      if (auto k = knownName(attr)) return *k;
      Value m = Value::of(VK::Module);
      m.str = obj.k == VK::Module ? obj.str : "";
      return m;
    }
    return Value::unknown("");
  }
  if (ty == "call") {
    TSNode fn = field(e, "function");
    Value f = expr(fn, s, u, loops, depth + 1);
    if (f.k == VK::PtrCtor) return pointerTo(e, s, u, loops, depth);
    if (f.k == VK::IRBuilderCtor) return Value::of(VK::IRBuilder);
    if (f.k == VK::SigCtor) return Value::of(VK::Sig);
    std::string_view term;
    if (is(fn, "identifier")) term = t_.text(fn);
    else if (is(fn, "attribute")) term = t_.text(field(fn, "attribute"));
    if (f.k == VK::Unknown || f.k == VK::Module) {
      if (term == "PtrType") return pointerTo(e, s, u, loops, depth);
      if (term == "IRBuilder") return Value::of(VK::IRBuilder);
      if (term == "SignatureBuilder") return Value::of(VK::Sig);
    }
    if (is(fn, "attribute") && (term == "ptr" || term == "scalar" || term == "extend")) {
      Value recv = expr(field(fn, "object"), s, u, loops, depth + 1);
      if (recv.k == VK::Sig) return Value::of(VK::Sig);
    }
    return Value::unknown("");
  }
  if (ty == "string") {
    if (auto sv = stringValue(e, s, u, loops, depth)) {
      Value v = Value::of(VK::Str);
      v.str = std::move(*sv);
      return v;
    }
    return Value::unknown("");
  }
  if (ty == "concatenated_string") {
    std::string all;
    for (TSNode ch : namedChildren(e)) {
      if (!is(ch, "string")) continue;
      auto sv = stringValue(ch, s, u, loops, depth);
      if (!sv) return Value::unknown("");
      all += *sv;
    }
    Value v = Value::of(VK::Str);
    v.str = std::move(all);
    return v;
  }
  if (ty == "binary_operator") {
    if (t_.text(field(e, "operator")) != "+") return Value::unknown("");
    Value a = expr(field(e, "left"), s, u, loops, depth + 1);
    Value b = expr(field(e, "right"), s, u, loops, depth + 1);
    if (a.k == VK::Str && b.k == VK::Str) {
      a.str += b.str;
      return a;
    }
    return Value::unknown("");
  }
  if (ty == "conditional_expression") {
    auto ch = namedChildren(e);
    if (ch.size() != 3) return Value::unknown("");
    Value a = expr(ch[0], s, u, loops, depth + 1);
    Value b = expr(ch[2], s, u, loops, depth + 1);
    if (sameValue(a, b)) return agreedValue(a, b);
    return Value::unknown("depends on " + clip(t_.text(ch[1]), 60));
  }
  return Value::unknown("");
}

// `PtrType(BF16, "global")`: a pointer, with its element's class when the element resolves
// (through module and function variables: `dtype = BF16` ... `PtrType(dtype)`).
Value Resolver::pointerTo(TSNode call, const Scope& s, Use u, Loops loops, int depth) {
  Value p = Value::of(VK::PtrType);
  TSNode elem{};
  for (TSNode a : namedChildren(field(call, "arguments"))) {
    if (is(a, "keyword_argument")) {
      std::string_view k = t_.text(field(a, "name"));
      if (k == "pointee" || k == "elem" || k == "element" || k == "elem_type" || k == "dtype") elem = field(a, "value");
      continue;
    }
    if (is(a, "comment")) continue;
    if (ts_node_is_null(elem)) elem = a;
    break;
  }
  if (ts_node_is_null(elem)) return p;
  Value v = expr(elem, s, u, loops, depth + 1);
  if (v.k == VK::Scalar) p.cls = v.cls;
  return p;
}

Value Resolver::name(const std::string& n, const Scope& s, Use u, Loops loops, int depth) {
  if (depth > kMaxResolveDepth || --budget_ < 0) return Value::unknown("too deep to resolve");
  if (loops.v) {
    for (size_t i = loops.n; i-- > 0;) {
      const LoopVar& lv = (*loops.v)[i];
      if (lv.name == n) {
        Path p = *u.path;
        return expr(lv.elem, s, Use{lv.pos, &p}, Loops{loops.v, i}, depth + 1);
      }
    }
  }
  bool anyLocal = false;
  auto cs = candidates(s, n, u, &anyLocal);
  const Scope* where = &s;
  if (cs.empty()) {
    if (anyLocal && !s.isModule) return Value::unknown("used before it is assigned");
    if (!s.isModule && s.parent) {
      static const Path kEmpty;
      where = s.parent;
      cs = candidates(*s.parent, n, Use{UINT32_MAX, &kEmpty}, nullptr);
    }
  }
  if (cs.empty()) {
    if (auto k = knownName(n)) return *k;
    return Value::unknown("never bound", true);
  }
  std::optional<Value> agreed;
  for (const Binding* b : cs) {
    Value v = valueOf(*b, *where, depth + 1);
    if (v.k == VK::Unknown) return v;
    if (!agreed) agreed = v;
    else if (!sameValue(*agreed, v)) return Value::unknown("assigned differently on different paths");
    else agreed = agreedValue(*agreed, v);
  }
  return *agreed;
}

TSNode Resolver::aliasOf(const std::string& n, const Scope& s, Use u, const Binding** which) {
  bool anyLocal = false;
  auto cs = candidates(s, n, u, &anyLocal);
  if (cs.empty()) return TSNode{};
  for (const Binding* b : cs)
    if (b->kind != Binding::Assign || t_.text(b->value) != t_.text(cs[0]->value)) return TSNode{};
  *which = cs[0];
  return cs[0]->value;
}

Value Resolver::valueOf(const Binding& b, const Scope& s, int depth) {
  if (auto it = memo_.find(&b); it != memo_.end()) return it->second;
  if (inProgress_.count(&b)) return Value::unknown("defined in terms of itself");
  inProgress_.insert(&b);
  Value v;
  switch (b.kind) {
    case Binding::Assign: {
      v = expr(b.value, s, Use{b.stmtStart, &b.path}, Loops{}, depth + 1);
      if (v.k == VK::Unknown && !is(b.value, "identifier") && v.str != "too deep to resolve" &&
          v.str.rfind("assigned differently", 0) != 0)
        v.str = "assigned from " + clip(t_.text(b.value), 80);
      v.unbound = false;
      break;
    }
    case Binding::ImportName:
      if (auto k = knownName(b.what)) v = *k;
      else {
        v = Value::of(VK::Module);
        v.str = "imported from " + b.from;
      }
      break;
    case Binding::ImportModule:
      v = Value::of(VK::Module);
      v.str = "module " + b.what;
      break;
    case Binding::Param:
      v = Value::unknown("a parameter of " + s.fnName);
      break;
    case Binding::Loop:
    case Binding::Other:
      v = Value::unknown(b.what);
      break;
  }
  inProgress_.erase(&b);
  if (v.str != "too deep to resolve") memo_[&b] = v;
  return v;
}

std::optional<std::string> Resolver::stringValue(TSNode e, const Scope& s, Use u, Loops loops, int depth) {
  std::string out;
  for (TSNode ch : children(e)) {
    std::string_view ty = type(ch);
    if (ty == "string_start" || ty == "string_end") continue;
    if (ty == "string_content") out += std::string(t_.text(ch));
    else if (ty == "interpolation") {
      if (!ts_node_is_null(field(ch, "format_specifier")) || !ts_node_is_null(field(ch, "type_conversion")))
        return std::nullopt;
      Value v = expr(field(ch, "expression"), s, u, loops, depth + 1);
      if (v.k != VK::Str) return std::nullopt;
      out += v.str;
    } else if (ty == "escape_sequence") {
      out += std::string(t_.text(ch));
    }
  }
  return out;
}

}  // namespace impact::pyextract
