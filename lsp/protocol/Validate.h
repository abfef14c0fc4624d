// JSON-RPC and LSP to the letter (issue 37, item 4), checked before a message is dispatched, so
// that every handler (today's and those added later) gets the same checks.
#pragma once

#include <string>

#include "llvm/Support/JSON.h"

namespace impact::lsp {

// JSON-RPC 2.0 / LSP: a request's id is a number or a string.
bool validId(const llvm::json::Value& id);

// LSP's positions and lengths are uintegers (0 to 2^31-1). LLVM's fromJSON(int) narrows a larger
// value (line 4294967359 reads as line 63), so every Position ({line, character} in params, at
// any depth) and every `rangeLength` is checked first. "" when all are uintegers, else the first
// that is not, with its path: "position.line: 4294967359 is not a uinteger (0 to 2147483647)".
std::string uintegerProblem(const llvm::json::Value& params);

}  // namespace impact::lsp
