// What the client's `initialize` request says, read once: the workspace root, the server options
// it sets (initializationOptions) and the client capabilities that change what impactd sends; and
// the capabilities impactd answers with. Pure: no transport, no server state.
#pragma once

#include <string>

#include "llvm/Support/JSON.h"
#include "server/ImpactServer.h"

namespace impact::lsp {

struct ClientSetup {
  std::string root;    // rootUri, else the first workspace folder, else rootPath; "" when none
  std::string target;  // initializationOptions.target
  server::Options options;
  std::string diagnosticsMode = "push";  // "push" | "pull" | "both" (docs/editors.md)
  bool hoverMarkdown = false, watchDynamic = false, workDoneProgress = false, showDocument = false,
       staleCancel = false;
  bool refreshHints = false, refreshLenses = false, refreshDiagnostics = false;
};

// Reads the params of `initialize` (an object: the caller checked).
ClientSetup readInitialize(const llvm::json::Object& params);

// A path setting: a relative one is the workspace's (relative to its root), "" stays "".
std::string againstRoot(const std::string& path, const std::string& root);

// The capabilities of impactd's answer to `initialize`; `pull`: it answers textDocument/diagnostic.
llvm::json::Object serverCapabilities(bool pull);

}  // namespace impact::lsp
