// What the emit document adds to the live diagnostics (SPEC R6.6): a Warning on the builder of
// each family whose head side failed or timed out (the reason: the child's last lines, trimmed),
// and, when the client asks for them, a Hint on each row the fold turned inert. The fold itself
// is core/emit/Fold (called from ImpactServer on the head the server judged).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "emit/EmitDocument.h"
#include "model/Report.h"
#include "server/Diagnostics.h"

namespace impact::server {

// The last lines of a child's error output, at most ~300 characters, on one line.
std::string trimReason(const std::string& error);

void addEmitDiagnostics(const emit::EmitDocument& doc, const TreeFacts& head, const std::vector<const Row*>& folded,
                        bool hints, std::map<std::string, std::vector<FileDiag>>& out);

}  // namespace impact::server
