// Between the server's own types (lsp/server/Types.h) and the LSP protocol types: positions and
// ranges, file URIs, diagnostics and code actions. Used only by the protocol layer.
#pragma once

#include <string>

#include "protocol/Protocol.h"
#include "server/Types.h"

namespace impact::lsp {

llvm::lsp::Position toLsp(server::Pos p);
llvm::lsp::Range toLsp(server::Rng r);
server::Pos fromLsp(const llvm::lsp::Position& p);
server::Rng fromLsp(const llvm::lsp::Range& r);
// A file: URI for an absolute path (percent-encoded as editors write it).
std::string uriOf(const std::string& path);
Diagnostic toProtocol(const server::Diag& d);
CodeAction toProtocol(const server::Action& a);
// {"uri": ..., "range": ...}: an LSP Location.
json::Value toJSON(const server::FileLoc& l);
// impact.refs's answer: {"target", "headBranch", "branches", "remoteBranches", "tags"}.
json::Value toJSON(const server::RefsResult& r);
// impact.run's report with each row's sides located: rows[i].python.location and
// rows[i].mirror.location (LSP Locations) beside path/line/symbol. A report that is not an object
// with rows, or a side that is null, is left as it is.
void addLocations(json::Value& report, const std::vector<server::RowLocations>& rows);

}  // namespace impact::lsp
