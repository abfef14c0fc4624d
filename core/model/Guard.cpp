#include "model/Guard.h"

#include <algorithm>

namespace impact {

uint32_t addNode(Guard& g, GuardNode n) {
  g.nodes.push_back(std::move(n));
  return uint32_t(g.nodes.size() - 1);
}

uint32_t copySubtree(Guard& into, const Guard& from, uint32_t at) {
  if (at >= from.nodes.size()) return addNode(into, GuardNode{GuardNode::Op::Opaque, "?", {}});
  GuardNode n = from.nodes[at];
  for (uint32_t& k : n.kids) k = copySubtree(into, from, k);
  return addNode(into, std::move(n));
}

Guard guardAnd(const Guard& a, const Guard& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  Guard g;
  uint32_t l = copySubtree(g, a, a.root), r = copySubtree(g, b, b.root);
  g.root = addNode(g, GuardNode{GuardNode::Op::And, "", {l, r}});
  return g;
}

Guard guardNot(const Guard& a) {
  Guard g;
  uint32_t k = copySubtree(g, a, a.root);
  g.root = addNode(g, GuardNode{GuardNode::Op::Not, "", {k}});
  return g;
}

namespace {
void flatten(const Guard& g, uint32_t at, GuardNode::Op op, std::vector<std::string>& out, int depth);

std::string key(const Guard& g, uint32_t at, int depth) {
  if (at >= g.nodes.size() || depth > 64) return "?";
  const GuardNode& n = g.nodes[at];
  using Op = GuardNode::Op;
  switch (n.op) {
    case Op::And:
    case Op::Or: {
      std::vector<std::string> parts;
      flatten(g, at, n.op, parts, depth + 1);
      std::sort(parts.begin(), parts.end());
      parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
      if (parts.size() == 1) return parts[0];
      std::string s = "(";
      for (size_t i = 0; i < parts.size(); ++i) s += (i ? (n.op == Op::And ? " and " : " or ") : "") + parts[i];
      return s + ")";
    }
    case Op::Not: {
      if (n.kids.empty()) return "?";
      const GuardNode& k = g.nodes[n.kids[0]];
      if (k.op == Op::Not && !k.kids.empty()) return key(g, k.kids[0], depth + 1);
      return "not " + key(g, n.kids[0], depth + 1);
    }
    case Op::Compare: {
      if (n.kids.size() != 2) return "?";
      std::string rhs = key(g, n.kids[1], depth + 1);
      const GuardNode& r = g.nodes[n.kids[1]];
      if ((n.text == "in" || n.text == "not in") && r.op == Op::Tuple) {  // membership: order-free
        std::vector<std::string> els;
        for (uint32_t k : r.kids) els.push_back(key(g, k, depth + 2));
        std::sort(els.begin(), els.end());
        rhs = "(";
        for (size_t i = 0; i < els.size(); ++i) rhs += (i ? ", " : "") + els[i];
        rhs += ")";
      }
      return key(g, n.kids[0], depth + 1) + " " + n.text + " " + rhs;
    }
    case Op::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < n.kids.size(); ++i) s += (i ? ", " : "") + key(g, n.kids[i], depth + 1);
      return s + ")";
    }
    case Op::Str: return "'" + n.text + "'";
    case Op::Bool: return n.text == "true" ? "True" : "False";
    case Op::None: return "None";
    default: return n.text;
  }
}

void flatten(const Guard& g, uint32_t at, GuardNode::Op op, std::vector<std::string>& out, int depth) {
  const GuardNode& n = g.nodes[at];
  if (n.op != op || depth > 64) {
    out.push_back(key(g, at, depth));
    return;
  }
  for (uint32_t k : n.kids)
    if (k < g.nodes.size()) flatten(g, k, op, out, depth + 1);
}
}  // namespace

std::string guardKey(const Guard& g, uint32_t at) { return key(g, at, 0); }

}  // namespace impact
