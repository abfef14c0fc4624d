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

}  // namespace impact::server
