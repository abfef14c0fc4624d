// The protocol layer (clangd's ClangdLSPServer): JSON-RPC over stdio <-> the server API.
// No analysis logic here.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace impact::lsp {

struct ServerConfig {
  enum class Log { Error, Info, Verbose } log = Log::Error;
  std::chrono::milliseconds gitPoll{1000};
  // impactd --test-hooks (for tests/lsp, not in --help): the request impactd/test/hold makes the
  // worker wait (at most 10 s) until the notification impactd/test/release, so that requests
  // sent meanwhile queue behind it (deterministic $/cancelRequest tests). Off: -32601.
  bool testHooks = false;
  // The persistent extraction cache (--cache=DIR); "" = the default ($XDG_CACHE_HOME/impactd).
  std::string cacheDir;
  bool noCache = false;  // --no-cache
};

// Serves until `exit` or the end of input. Returns the process exit code: 0 after
// shutdown + exit, 1 otherwise (LSP 3.17). Shutdown waits for the server's threads at most
// ImpactServer::kShutdownWait; when one is still running then (threadsLeftRunning() > 0) it is
// left with what it reads, and the caller must end the process with _Exit, never by running
// static destructors under it.
int runLanguageServer(std::FILE* in, std::FILE* out, const ServerConfig& config);
// How many threads shutdown left running in this process.
int threadsLeftRunning();

}  // namespace impact::lsp
