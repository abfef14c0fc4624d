#include "contracts/kernargs/Guards.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace impact {

namespace {
using Op = GuardNode::Op;

bool isBoolOp(Op op) { return op == Op::And || op == Op::Or || op == Op::Not; }

Truth notT(Truth t) { return t == Truth::Unknown ? t : t == Truth::True ? Truth::False : Truth::True; }

// The positive form of an atom: its key, and whether the node is its negation.
std::string atomKey(const Guard& g, uint32_t at, bool* negated) {
  const GuardNode& n = g.nodes[at];
  *negated = false;
  if (n.op != Op::Compare || n.kids.size() != 2) return guardKey(g, at);
  std::string op = n.text;
  if (op == "!=" || op == "not in" || op == "is not") {
    *negated = true;
    op = op == "!=" ? "==" : op == "not in" ? "in" : "is";
  }
  std::string l = guardKey(g, n.kids[0]), r = guardKey(g, n.kids[1]);
  if (op == "in") {  // membership is order-free: the whole comparison's key sorts the tuple
    std::string whole = guardKey(g, at);
    r = whole.substr(whole.find(" " + n.text + " ") + n.text.size() + 2);
  }
  bool leftLiteral = g.nodes[n.kids[0]].op != Op::Name && g.nodes[n.kids[1]].op == Op::Name;
  if ((op == "==" || op == "is") && leftLiteral) std::swap(l, r);
  return l + " " + op + " " + r;
}

template <class Leaf>
Truth evalWith(const Guard& g, uint32_t at, const Leaf& leaf, int depth) {
  if (at >= g.nodes.size() || depth > 64) return Truth::Unknown;
  const GuardNode& n = g.nodes[at];
  switch (n.op) {
    case Op::Not: return n.kids.empty() ? Truth::Unknown : notT(evalWith(g, n.kids[0], leaf, depth + 1));
    case Op::And: {
      Truth out = Truth::True;
      for (uint32_t k : n.kids) {
        Truth t = evalWith(g, k, leaf, depth + 1);
        if (t == Truth::False) return t;
        if (t == Truth::Unknown) out = t;
      }
      return out;
    }
    case Op::Or: {
      Truth out = Truth::False;
      for (uint32_t k : n.kids) {
        Truth t = evalWith(g, k, leaf, depth + 1);
        if (t == Truth::True) return t;
        if (t == Truth::Unknown) out = t;
      }
      return out;
    }
    case Op::Bool: return n.text == "true" ? Truth::True : Truth::False;
    case Op::None: return Truth::False;
    default: {
      bool neg = false;
      std::string key = atomKey(g, at, &neg);
      Truth t = leaf(key, at);
      return neg ? notT(t) : t;
    }
  }
}

void atomsOf(const Guard& g, uint32_t at, const std::function<void(const std::string&, uint32_t)>& f, int depth) {
  if (at >= g.nodes.size() || depth > 64) return;
  const GuardNode& n = g.nodes[at];
  if (isBoolOp(n.op)) {
    for (uint32_t k : n.kids) atomsOf(g, k, f, depth + 1);
    return;
  }
  if (n.op == Op::Bool || n.op == Op::None) return;
  bool neg = false;
  f(atomKey(g, at, &neg), at);
}

// A spec value for a name (`spec.x` or `x`), or nullptr.
const std::string* specValue(const GuardNode& n, const std::map<std::string, std::string>& spec) {
  if (n.op != Op::Name) return nullptr;
  std::string k = n.text;
  if (k.starts_with("spec.")) k = k.substr(5);
  if (k.find('.') != std::string::npos) return nullptr;
  auto it = spec.find(k);
  return it == spec.end() ? nullptr : &it->second;
}

bool literalText(const GuardNode& n, std::string& out) {
  switch (n.op) {
    case Op::Str: out = n.text; return true;
    case Op::Num: out = n.text; return true;
    case Op::Bool: out = n.text; return true;
    case Op::None: out = "null"; return true;
    default: return false;
  }
}

bool number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

bool sameValue(const std::string& a, const std::string& b) {
  double x, y;
  if (number(a, x) && number(b, y)) return x == y;
  return a == b;
}

bool truthy(const std::string& v) {
  return !(v.empty() || v == "false" || v == "0" || v == "null" || v == "0.0");
}

// The value of the atom at `at` in its positive form (as atomKey keys it).
Truth atomSpec(const Guard& g, uint32_t at, const std::map<std::string, std::string>& spec) {
  const GuardNode& n = g.nodes[at];
  if (n.op == Op::Name) {
    const std::string* v = specValue(n, spec);
    return v ? (truthy(*v) ? Truth::True : Truth::False) : Truth::Unknown;
  }
  if (n.op != Op::Compare || n.kids.size() != 2) return Truth::Unknown;
  const GuardNode *l = &g.nodes[n.kids[0]], *r = &g.nodes[n.kids[1]];
  std::string op = n.text;
  if (!specValue(*l, spec) && specValue(*r, spec)) {  // `0 < spec.window`: the name on the left
    static const std::map<std::string, std::string> kFlip = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="},
                                                             {"==", "=="}, {"!=", "!="}, {"is", "is"},
                                                             {"is not", "is not"}};
    auto it = kFlip.find(op);
    if (it == kFlip.end()) return Truth::Unknown;
    op = it->second;
    std::swap(l, r);
  }
  const std::string* v = specValue(*l, spec);
  if (!v) return Truth::Unknown;
  bool neg = op == "!=" || op == "not in" || op == "is not";
  if (neg) op = op == "!=" ? "==" : op == "not in" ? "in" : "is";
  bool result;
  if (op == "in") {
    if (r->op != Op::Tuple) return Truth::Unknown;
    result = false;
    for (uint32_t k : r->kids) {
      std::string lit;
      if (!literalText(g.nodes[k], lit)) return Truth::Unknown;
      result = result || sameValue(*v, lit);
    }
  } else {
    std::string lit;
    if (!literalText(*r, lit)) return Truth::Unknown;
    if (op == "==" || op == "is") result = sameValue(*v, lit);
    else {
      double x, y;
      if (!number(*v, x) || !number(lit, y)) return Truth::Unknown;
      if (op == "<") result = x < y;
      else if (op == "<=") result = x <= y;
      else if (op == ">") result = x > y;
      else if (op == ">=") result = x >= y;
      else return Truth::Unknown;
    }
  }
  return result ? Truth::True : Truth::False;  // the positive form's (atomKey): `!=` is `not ==`
}
}  // namespace

Truth evalGuard(const Guard& g, const std::map<std::string, std::string>& spec) {
  if (g.empty()) return Truth::True;
  return evalWith(g, g.root, [&](const std::string&, uint32_t at) { return atomSpec(g, at, spec); }, 0);
}

void atomsAgainstSpec(const Guard& g, const std::map<std::string, std::string>& spec, std::map<std::string, Truth>& out) {
  if (g.empty()) return;
  atomsOf(g, g.root, [&](const std::string& key, uint32_t at) {
    out.emplace(key, atomSpec(g, at, spec));
  }, 0);
}

void guardAtoms(const Guard& g, std::vector<std::string>& keys) {
  if (g.empty()) return;
  atomsOf(g, g.root, [&](const std::string& key, uint32_t) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }, 0);
}

Truth evalUnder(const Guard& g, const std::vector<std::string>& keys, uint64_t bits) {
  if (g.empty()) return Truth::True;
  return evalWith(g, g.root, [&](const std::string& key, uint32_t) {
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end() || it - keys.begin() >= 64) return Truth::Unknown;
    return (bits >> (it - keys.begin())) & 1 ? Truth::True : Truth::False;
  }, 0);
}

GuardRelation relateGuards(const Guard& a, const Guard& b) {
  if (guardKey(a) == guardKey(b)) return GuardRelation::Same;
  std::vector<std::string> keys;
  guardAtoms(a, keys);
  guardAtoms(b, keys);
  if (keys.size() > 16) return GuardRelation::Unknown;
  bool aImpliesB = true, bImpliesA = true, disjoint = true;
  for (uint64_t bits = 0; bits < (uint64_t(1) << keys.size()); ++bits) {
    Truth x = evalUnder(a, keys, bits), y = evalUnder(b, keys, bits);
    if (x == Truth::Unknown || y == Truth::Unknown) return GuardRelation::Unknown;
    if (x == Truth::True && y == Truth::False) aImpliesB = false;
    if (y == Truth::True && x == Truth::False) bImpliesA = false;
    if (x == Truth::True && y == Truth::True) disjoint = false;
  }
  if (aImpliesB && bImpliesA) return GuardRelation::Same;
  if (aImpliesB) return GuardRelation::Implies;
  if (bImpliesA) return GuardRelation::ImpliedBy;
  if (disjoint) return GuardRelation::Disjoint;
  return GuardRelation::Unknown;
}

const char* relationName(GuardRelation r) {
  switch (r) {
    case GuardRelation::Same: return "same";
    case GuardRelation::Implies: return "implies";
    case GuardRelation::ImpliedBy: return "implied by";
    case GuardRelation::Disjoint: return "disjoint";
    default: return "unknown";
  }
}

Guard argGuard(const KernelArg& a) {
  if (!a.conditional) return Guard{};
  if (!a.guard.empty()) return a.guard;
  Guard g;
  g.root = addNode(g, GuardNode{Op::Opaque, a.condition.empty() ? "?" : a.condition, {}});
  return g;
}

}  // namespace impact
