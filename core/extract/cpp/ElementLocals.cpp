#include "extract/cpp/ElementLocals.h"

namespace impact::cpp {

// `a`, `&a`, `std::move(a)`: the local's name, else "".
std::string ElementLocals::nameOf(TSNode n) const {
  for (int guard = 0; guard < 8 && !isNull(n); ++guard) {
    if (is(n, "identifier")) {
      std::string s(c_.text(n));
      return locals_.count(s) ? s : "";
    }
    if (is(n, "pointer_expression") || is(n, "parenthesized_expression")) {
      auto k = items(n);
      n = k.empty() ? TSNode{} : k.back();
      continue;
    }
    if (is(n, "call_expression")) {
      std::string f = lastComponent(c_.text(field(n, "function")));
      auto args = items(field(n, "arguments"));
      if ((f != "move" && f != "ref" && f != "cref") || args.size() != 1) return "";
      n = args[0];
      continue;
    }
    return "";
  }
  return "";
}

bool ElementLocals::declare(TSNode decl, size_t conditions) {
  bool any = false;
  for (TSNode d : declaratorsOf(decl)) {
    if (c_.types.ofDeclared(decl, d) != KaKind::Element) continue;
    std::string name = declaredName(c_, d);
    if (name.empty()) continue;
    Local l;
    l.conditions = conditions;
    l.parts.designated = true;  // by field: no count of items to check
    TSNode v = is(d, "init_declarator") ? field(d, "value") : TSNode{};
    if (is(v, "compound_literal_expression")) v = field(v, "value");
    if (is(v, "initializer_list") && !items(v).empty()) {
      l.parts = partsOf(c_, v);
    } else if (!isNull(v) && !is(v, "initializer_list") && !is(v, "argument_list")) {
      l.unknown = "`" + name + "` is initialised from `" + collapse(c_.text(v)) + "`, which the reader does not follow";
    }
    locals_[name] = l;
    any = true;
  }
  return any;
}

bool ElementLocals::assign(TSNode n, size_t conditions, const std::string& condition) {
  TSNode left = field(n, "left");
  std::string op(c_.text(field(n, "operator")));
  if (is(left, "identifier")) {  // the whole element
    std::string name = nameOf(left);
    if (name.empty()) return false;
    Local& l = locals_[name];
    TSNode v = field(n, "right");
    if (is(v, "compound_literal_expression")) v = field(v, "value");
    if (op == "=" && is(v, "initializer_list") && conditions == l.conditions) {
      l.parts = partsOf(c_, v);
      l.unknown.clear();
    } else if (l.unknown.empty()) {
      l.unknown = "`" + name + "` is assigned `" + collapse(c_.text(field(n, "right"))) + "`" +
                  (conditions > l.conditions ? " under `" + condition + "`" : "") + ", which the reader does not follow";
    }
    return true;
  }
  if (!is(left, "field_expression")) return false;
  std::string name = nameOf(field(left, "argument"));
  if (name.empty()) return false;
  Local& l = locals_[name];
  std::string f = noSpace(c_.text(field(left, "field")));
  TSNode* slot = f == "kind" ? &l.parts.kind : f == "size" ? &l.parts.size : f == "offset" ? &l.parts.offset
               : f == "name" ? &l.parts.name : nullptr;
  if (!slot) return true;  // a member the list does not state
  if (!l.unknown.empty()) return true;
  if (op != "=" || conditions > l.conditions) {
    l.unknown = "`" + name + "." + f + "` is set " +
                (op != "=" ? "with `" + op + "`" : "under `" + condition + "`") + ", which the reader does not follow";
    return true;
  }
  *slot = field(n, "right");
  return true;
}

void ElementLocals::given(TSNode call) {
  for (TSNode a : items(field(call, "arguments"))) {
    std::string name = nameOf(a);
    if (name.empty()) continue;
    Local& l = locals_[name];
    if (l.unknown.empty())
      l.unknown = "`" + name + "` is given to " + collapse(c_.text(field(call, "function"))) + ", which may change it";
  }
  // A method called on it (`a.clear()`): not followed either.
  TSNode fn = field(call, "function");
  if (is(fn, "field_expression")) {
    std::string name = nameOf(field(fn, "argument"));
    if (!name.empty() && locals_[name].unknown.empty())
      locals_[name].unknown = "`" + collapse(c_.text(call)) + "` may change it";
  }
}

const ElementLocals::Local* ElementLocals::appended(TSNode arg) const {
  std::string name = nameOf(arg);
  if (name.empty()) return nullptr;
  return &locals_.at(name);
}

}  // namespace impact::cpp
