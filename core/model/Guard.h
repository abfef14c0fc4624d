// A guard (the condition of a conditional kernel argument, or of an early return) as structure,
// not text (SPEC R2.2): and / or / not, comparisons, names with aliases resolved, literals, and
// calls kept opaque. Read from the Python syntax tree by core/extract/python/GuardExpr.cpp;
// decided on (same / implied / unknown; true / false / unknown against a spec) by
// core/contracts/kernargs/Guards.cpp. Stored flat so the facts codec reads it like any struct.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace impact {

struct GuardNode {
  enum class Op : uint8_t { And, Or, Not, Compare, Name, Str, Num, Bool, None, Tuple, Call, Opaque };
  Op op = Op::Opaque;
  // Name: the dotted name, aliases resolved ("spec.use_sinks"); Str: the string's value; Num: as
  // written; Bool: "true" / "false"; Compare: the operator ("==", "!=", "in", "not in", "<", "is",
  // "is not", ...); Call, Opaque: the source text with aliases resolved (equal text = equal value).
  std::string text;
  std::vector<uint32_t> kids;  // indices into Guard::nodes: And/Or/Not operands, Compare's two
                               // sides, Tuple's elements
  bool operator==(const GuardNode&) const = default;
};

// nodes[root] is the expression; no nodes: always true (the argument is unconditional).
struct Guard {
  std::vector<GuardNode> nodes;
  uint32_t root = 0;
  bool empty() const { return nodes.empty(); }
  bool operator==(const Guard&) const = default;
};

// Building guards (readers and the extractor's composition of early-return guards).
uint32_t addNode(Guard& g, GuardNode n);
// Copies the subtree `at` of `from` into `into`; returns its index there.
uint32_t copySubtree(Guard& into, const Guard& from, uint32_t at);
Guard guardAnd(const Guard& a, const Guard& b);  // either empty: the other
Guard guardNot(const Guard& a);                  // a must not be empty
// Canonical text of a subtree (operands of and/or sorted): equal text = the same expression.
std::string guardKey(const Guard& g, uint32_t at);
inline std::string guardKey(const Guard& g) { return g.empty() ? "True" : guardKey(g, g.root); }

}  // namespace impact
