// Symbol strings and KMD field reads of one C++ file (SPEC R2.5).
#pragma once

#include <string>
#include <vector>

namespace impact {

struct CppSymbolFacts {
  // Filled by the C++ extractor (core/extract/CppFacts.cpp).
};

}  // namespace impact
