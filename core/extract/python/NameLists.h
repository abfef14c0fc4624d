// The names lists of a module (FileFacts::nameLists): every module-level function with no
// required parameter whose body returns a value, run with its defaults by the one Python
// evaluator (DeclEval::callWithDefaults, core/extract/python/DeclEval.h). A result that is a list (or tuple) of strings or of
// `(str, str)` tuples is kept as names (and kinds); anything else keeps the reason it is not
// a names list ("not evaluable: reaches `raise ValueError(...)`"). Bounded per function and per
// module.
#pragma once

#include <vector>

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

constexpr long kNameListsModuleBudget = 2000000;  // evaluation steps per module
constexpr size_t kMaxNameListFunctions = 400;     // functions evaluated per module

void evaluateNameLists(const SyntaxTree& t, std::vector<PyNameList>& out);

}  // namespace impact::pyextract
