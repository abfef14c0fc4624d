// The report's Pack-time line (SPEC R3.3, R5) from an emit document's tables:
// "Pack-time: CLEAN" or "Pack-time: NEW n, FIRST-SHIPPED m", and one note per counted finding.
// Findings never change a row or the verdict.
#pragma once

#include <string>
#include <vector>

#include "emit/EmitDocument.h"

namespace impact::emit {

// "" when the document holds no tables (emitted with --no-probe).
std::string packTimeLine(const EmitDocument& doc, std::vector<std::string>* notes);

}  // namespace impact::emit
