// Static argument lists: a braced list of KernelArgument elements that is returned, assigned,
// declared or passed as a call argument (a whole list that states the ABI); a lone element
// passed to push_back or withArgument(i, ...) is a negative-test value, not a list; a list a
// test case builds while its file pins the ABI elsewhere is set aside with why (not a copy).
#pragma once

#include <vector>

#include "extract/cpp/Elements.h"

namespace impact::cpp {

void extractStatic(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside);

}  // namespace impact::cpp
