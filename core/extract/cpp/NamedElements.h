// An element of a restated list written as the name of a local `KernelArgument` declared in the
// same function with braces: `const KernelArgument buffer{BUFFER_KIND, POINTER_BYTES, 0, ""};`
// then `return {buffer, buffer, buffer, buffer, scalar, ...};` (the real gfx950 dense signature
// pin, TestGfx950AttentionDenseSignature.cpp).
#pragma once

#include "extract/cpp/Context.h"

namespace impact::cpp {

// The braces of the local KernelArgument an identifier element names, or a null node when the
// element is not such a name.
TSNode namedElementBraces(const Ctx& c, TSNode element);

}  // namespace impact::cpp
