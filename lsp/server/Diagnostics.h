// Rows -> diagnostics per file (SPEC R6.2): a mismatch is an Error on the exact argument, a
// changed row a Warning naming the archs to run, a pre-existing mismatch Information.
// A message names the other side by symbol and file name ("(build_attention_dense in
// attention_dense.py:76)", "copy expectedSignature in TestGfx950AttentionDenseSignature.cpp:27:
// ..."); the related information carries its whole path and range.
// Repository-relative paths and tree-sitter points; ImpactServer converts to LSP positions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "model/Report.h"
#include "server/Types.h"

namespace impact::server {

struct FileDiag {
  SourceRange range;
  Severity severity = Severity::Warning;
  std::string code, message, rowKey, status;
  struct Other {
    std::string path;
    SourceRange range;
    std::string message;
  };
  std::vector<Other> related;
};

std::map<std::string, std::vector<FileDiag>> diagnosticsByFile(const std::vector<Row>& rows);

// Accounting in the editor (issue 26 item 3): in each of `paths` (the open documents), a list,
// launch call or name-keyed check that pairs with no builder is an Information diagnostic "not
// compared: ..." on the copy (`impact check` says the whole why). Lists set aside as no copy
// (a test's negative case) get none.
void addNotCompared(const TreeFacts& head, const std::vector<KernargsPair>& pairs, const std::vector<std::string>& paths,
                    std::map<std::string, std::vector<FileDiag>>& byFile);

}  // namespace impact::server
