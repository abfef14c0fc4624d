// C++ function index: every function definition of one file, for launch-surface mirrors
// (SPEC R2.4: `File.hpp:function`, `File.cpp:Class::method`). Pure per file.
#pragma once

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact {

// Appends to out.module.defs one PyDef (Kind::Function) per function definition: name as
// qualified in its class ("Pack::signature", or "Pack::signature" for an out-of-class
// definition written that way; namespaces are left out), range of the definition, and its
// code fingerprint (comments and whitespace left out).
void extractCppFunctions(const SyntaxTree& tree, FileFacts& out);

// Does a function index name match a locator symbol? "f" matches "f" and "C::f";
// "C::f" matches "C::f" and "ns::C::f".
bool cppSymbolMatches(const std::string& defined, const std::string& wanted);

}  // namespace impact
