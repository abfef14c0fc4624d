// The ingestor's pack table: brace entries pairing an engine name with the function that
// registers its pack (`{"hipkernel:Gfx950ConvFwd", &registerGfx950ConvFwdSymbols, true, ...}` in
// `IngestorPacks.cpp`). Read from the syntax tree: an initializer list whose first element is a
// plain string literal naming an engine (`<namespace>:<name>`) and a later element taking the
// address of a function (`&f`, `&ns::f`). Pairing reads them to find which C++ file is the pack
// an engine names (core/contracts/kernargs/PackDeclarations.cpp).
#pragma once

#include "extract/cpp/Context.h"

namespace impact::cpp {

void extractEngineRegistrations(const Ctx& c, std::vector<CppEngineRegistration>& out);

}  // namespace impact::cpp
