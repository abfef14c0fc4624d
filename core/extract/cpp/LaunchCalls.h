// Launch calls: `kernel.launch(stream, a, b, ...)`; argument order is the ABI.
#pragma once

#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

void extractLaunches(const Ctx& c, std::vector<CppArgList>& out);

}  // namespace impact::cpp
