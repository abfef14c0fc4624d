// The lambda idiom: `auto add = [&](const char* kind, uint32_t size, const char* name) {...};`
// called in loops over literal name lists (unrolled) and under `if (metadata flag)`
// (conditional arguments).
#pragma once

#include <vector>

#include "extract/cpp/Elements.h"

namespace impact::cpp {

void extractLambdas(const Ctx& c, std::vector<CppArgList>& out);

}  // namespace impact::cpp
