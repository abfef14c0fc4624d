#include "extract/cpp/Elements.h"

namespace impact::cpp {

ElementParts partsOf(const Ctx& c, TSNode braces) {
  ElementParts p;
  auto k = items(braces);
  p.count = k.size();
  if (!k.empty() && is(k[0], "initializer_pair")) {
    p.designated = true;
    for (TSNode pair : k) {
      std::string d = noSpace(c.text(field(pair, "designator")));
      if (!d.empty() && d[0] == '.') d = d.substr(1);
      TSNode v = field(pair, "value");
      if (d == "kind") p.kind = v;
      else if (d == "size") p.size = v;
      else if (d == "offset") p.offset = v;
      else if (d == "name") p.name = v;
    }
    return p;
  }
  if (k.size() >= 1) p.kind = k[0];
  if (k.size() >= 2) p.size = k[1];
  if (k.size() >= 3) p.offset = k[2];
  if (k.size() >= 4) p.name = k[3];
  return p;
}

// A bare `{kind, size, offset[, name]}`: 3 or 4 scalar items, the first not a number.
bool isBareElement(const Ctx& c, TSNode n) {
  if (!is(n, "initializer_list")) return false;
  auto k = items(n);
  if (k.empty()) return false;
  if (is(k[0], "initializer_pair")) {
    for (TSNode pair : k) {
      if (!is(pair, "initializer_pair")) return false;
      std::string d = noSpace(c.text(field(pair, "designator")));
      if (d != ".kind" && d != ".size" && d != ".offset" && d != ".name") return false;
    }
    return true;
  }
  if (k.size() != 3 && k.size() != 4) return false;
  for (TSNode x : k) {
    std::string_view t = type(x);
    if (t == "initializer_list" || t == "compound_literal_expression" || t == "initializer_pair" ||
        t == "lambda_expression" || t == "ERROR")
      return false;
  }
  std::string_view t0 = type(k[0]);
  return t0 != "number_literal" && t0 != "char_literal" && t0 != "true" && t0 != "false";
}

bool isElement(const Ctx& c, TSNode n) { return c.isKaElement(n) || isBareElement(c, n); }

TSNode elementBraces(const Ctx& c, TSNode element) {
  return is(element, "compound_literal_expression") ? field(element, "value") : element;
}

KernelArg argFrom(const Evaluator& ev, const ElementParts& p, const Site& site, SourceRange range) {
  const Ctx& c = ev.c;
  KernelArg a;
  a.range = range;
  std::vector<std::string> reasons;
  if (!p.designated && p.count != 3 && p.count != 4)
    reasons.push_back("element has " + std::to_string(p.count) + " items, expected {kind, size, offset, name}");
  if (isNull(p.kind)) {
    reasons.push_back("no kind");
  } else if (auto k = ev.str(p.kind, site, 0)) {
    a.kind = *k;
  } else {
    reasons.push_back("unknown kind '" + collapse(c.text(ev.substitute(p.kind))) + "'");
  }
  if (isNull(p.size)) {
    reasons.push_back("no size");
  } else {
    TSNode sizeNode = ev.substitute(p.size);
    a.typeText = collapse(c.text(sizeNode));
    std::string why;
    auto v = ev.integer(p.size, site, 0, why);
    if (v && *v <= UINT32_MAX) a.size = static_cast<uint32_t>(*v);
    else reasons.push_back(v ? "size out of range" : why);
  }
  if (!isNull(p.name)) {
    if (auto n = ev.str(p.name, site, 0)) a.name = *n;
  }
  if (!isNull(p.offset)) {
    std::string why;
    if (auto o = ev.integer(p.offset, site, 0, why)) a.offset = static_cast<int64_t>(*o);
  }
  if (!reasons.empty()) {
    a.resolved = false;
    for (size_t i = 0; i < reasons.size(); ++i) a.unresolvedReason += (i ? "; " : "") + reasons[i];
  }
  return a;
}

}  // namespace impact::cpp
