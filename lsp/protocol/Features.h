// The requests beyond diagnostics (issue 38) between LSP JSON and ImpactServer: inlay hints,
// code lens, document and workspace symbols, pull diagnostics and rename. LSPServer hands them
// here whole (isFeatureRequest), so its own dispatch gains one line.
#pragma once

#include <functional>
#include <string>

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "server/ImpactServer.h"

namespace impact::lsp {

struct FeatureOptions {
  bool markdown = false;  // the client reads markdown (tooltips)
};

bool isFeatureRequest(const std::string& method);
// The file a request is about (textDocument.uri), "" for a workspace request or none.
std::string featureDocumentPath(const llvm::json::Value& params);
void handleFeatureRequest(server::ImpactServer& server, const std::string& method, const llvm::json::Value& params,
                          const FeatureOptions& opts, std::function<void(llvm::Expected<llvm::json::Value>)> reply);
// The capabilities they add to initialize's answer; pull diagnostics only when `pull`.
void addFeatureCapabilities(llvm::json::Object& caps, bool pull);

}  // namespace impact::lsp
