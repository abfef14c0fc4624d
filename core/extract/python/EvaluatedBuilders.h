// The evaluator's lists applied to a module's builders (EvaluatedBuilders.cpp).
#pragma once

#include <vector>

#include "extract/python/Functions.h"
#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

class DeclEval;

void applyEvaluation(DeclEval& eval, const SyntaxTree& t, const std::vector<Fn>& fns, std::vector<PyBuilder>& out);

}  // namespace impact::pyextract
