// The value resolver: what an expression stands for (is `b` an IRBuilder? is this type `I32`, a
// PtrType, a string?), through local and module assignments, imports and literal loop variables.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/python/Bindings.h"
#include "extract/python/Limits.h"
#include "extract/python/Values.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

struct Loops {
  const std::vector<LoopVar>* v = nullptr;
  size_t n = 0;  // only v[0..n) are visible
};

class Resolver {
 public:
  explicit Resolver(const SyntaxTree& t) : t_(t) {}

  Value expr(TSNode e, const Scope& s, Use u, Loops loops, int depth);

  Value name(const std::string& n, const Scope& s, Use u, Loops loops, int depth);
  // A PtrType(...) call: a pointer, with the element class when it resolves.
  Value pointerTo(TSNode call, const Scope& s, Use u, Loops loops, int depth);

  // Single alias target for condition rewriting: the expression a local name stands for.
  TSNode aliasOf(const std::string& n, const Scope& s, Use u, const Binding** which);

  long budget() const { return budget_; }

 private:
  const SyntaxTree& t_;
  long budget_ = kResolveBudget;
  std::unordered_map<const Binding*, Value> memo_;
  std::unordered_set<const Binding*> inProgress_;

  Value valueOf(const Binding& b, const Scope& s, int depth);

  // The value of a string literal; f-strings whose interpolations resolve to strings too.
  std::optional<std::string> stringValue(TSNode e, const Scope& s, Use u, Loops loops, int depth);
};

}  // namespace impact::pyextract
