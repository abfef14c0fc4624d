// KernelArgument lists built by appends, walked in program order from the function's body:
// through a local lambda (`auto add = [&](const char* kind, uint32_t size, const char* name)
// {...};` called at each append) or directly (`std::vector<KernelArgument> v;` then
// `v.push_back({kind, size, offset, name})`, `v.emplace_back(...)`). Loops over literal lists or
// named constant arrays are unrolled, `if (metadata flag)` makes the appends under it
// conditional; an append in a loop the walk cannot unroll, or a change of the vector it does not
// follow, ends what is known (the list's openTail says where and why).
#pragma once

#include <vector>

#include "extract/cpp/Elements.h"

namespace impact::cpp {

// A list composed of helpers' lists (`auto v = tensorArguments(); auto s = scalarArguments(off);
// v.insert(v.end(), s.begin(), s.end());`, the helpers returning a static list or building one by
// appends) is read as ONE list through them; the helpers' lists are then parts, set aside.
void extractLambdas(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside);

}  // namespace impact::cpp
