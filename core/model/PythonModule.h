// Module-level facts of one Python file, for the module graph (SPEC R2.4, R2.6, R2.7):
// what it defines, what it imports, and what each definition reaches by name.
#pragma once

#include <string>
#include <vector>

namespace impact {

struct PyModuleFacts {
  // Filled by the Python extractor (core/extract/PythonFacts.cpp).
};

}  // namespace impact
