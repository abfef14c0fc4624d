// Symbol strings (namespace-scope string constants), KMD field reads (`get*Metadata(FIELD)`) and
// includes of one C++ file (SPEC R2.5, R2.8).
#pragma once

#include "extract/cpp/Context.h"

namespace impact::cpp {

void extractSymbols(const Ctx& c, CppSymbolFacts& out);

}  // namespace impact::cpp
