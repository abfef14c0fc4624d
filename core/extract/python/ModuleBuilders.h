// The builders of one module and the argument lists it restates (DOMAIN.md §2), all read by the
// evaluator (DeclEval.h): the one place a Python module's "what does this builder declare" and
// "is this list a copy" are decided.
#pragma once

#include <vector>

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

// Builders go to `out`: every function that may declare and holds an IRBuilder, or dispatches to
// another module's kernel, evaluated from its entry (its lists, their guards, its early returns,
// its hooks); one whose evaluation stopped, or that reaches a declaration it could not read, is
// "not read" with the reason, never an empty list. A function that returns argument entries
// (`{"name", "type"}` dicts, a SignatureBuilder's chain) restates a list: beside a builder that
// does not take its names from it, it is a copy (`copies`, compared like any C++ copy); in a
// module without such a builder, one made by SignatureBuilder is a builder itself
// (Style::SignatureBuilder).
void extractBuilders(const SyntaxTree& t, std::vector<PyBuilder>& out, std::vector<CppArgList>& copies);

}  // namespace impact::pyextract
