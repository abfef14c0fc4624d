// Names arrays: an array of string literals that names arguments in order, with no kind or size
// (`constexpr std::array<std::string_view, 39> IMPLICIT_GEMM_KERNARG_NAMES{"p_N", ...}`,
// `std::array<const char*, N>`, `const char* NAMES[] = {...}`, `std::string_view NAMES[N]{...}`):
// CppArgList::Form::Names, one KernelArg per literal (name and range only). Only arrays whose
// every element is a plain string literal; nothing is said about what they name until a Python
// names list pairs with them (contracts/kernargs/NameLists).
#pragma once

#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

// An array whose names are keys of the kernel's metadata (GEMM_TUNING_FIELDS read through
// `intMetadata(kernel, GEMM_TUNING_FIELDS[i])`) is KMD vocabulary: set aside with why.
void extractNamesArrays(const Ctx& c, std::vector<CppArgList>& out, std::vector<SetAside>& setAside);

}  // namespace impact::cpp
