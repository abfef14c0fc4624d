// One element of a restated argument list: `{kind, size, offset, name}`, designated
// `{.kind = ...}` or `KernelArgument{...}`, and the KernelArg it states.
#pragma once

#include "extract/cpp/ConstantEval.h"

namespace impact::cpp {

// The kind/size/offset/name expressions of one element; null nodes when absent.
struct ElementParts {
  TSNode kind{}, size{}, offset{}, name{};
  size_t count = 0;
  bool designated = false;
};

ElementParts partsOf(const Ctx& c, TSNode braces);
// A bare `{kind, size, offset[, name]}`: 3 or 4 scalar items, the first not a number.
bool isBareElement(const Ctx& c, TSNode n);
bool isElement(const Ctx& c, TSNode n);
TSNode elementBraces(const Ctx& c, TSNode element);
KernelArg argFrom(const Evaluator& ev, const ElementParts& p, const Site& site, SourceRange range);

}  // namespace impact::cpp
