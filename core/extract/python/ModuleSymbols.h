// Module facts of a Python file (PyModuleFacts): definitions (functions, classes and their
// members, module-level names), imports, and the names each definition uses.
#pragma once

#include "model/PythonModule.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

void extractModuleSymbols(const SyntaxTree& t, PyModuleFacts& out);

}  // namespace impact::pyextract
