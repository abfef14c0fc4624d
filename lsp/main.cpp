// impactd: the language server (LSP 3.17 over stdio).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "protocol/LSPServer.h"

int main(int argc, char** argv) {
  impact::lsp::ServerConfig cfg;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--version") {
      std::printf("impactd %s\n", IMPACT_VERSION);
      return 0;
    }
    if (a == "--help" || a == "-h") {
      std::printf(
          "usage: impactd [--stdio] [--log=error|info|verbose] [--git-poll-ms=N] [--cache=DIR | --no-cache]\n"
          "Language server for the hipDNN kernel ingestor's hand-kept contracts (LSP over stdio).\n"
          "--cache=DIR: the extraction cache shared with impact (default: $XDG_CACHE_HOME/impactd).\n"
          "Settings come from initializationOptions / workspace/didChangeConfiguration: {\"target\": REV}.\n");
      return 0;
    }
    // vscode-languageclient appends --stdio for the stdio transport: stdio is our only one.
    if (a == "--stdio") continue;
    if (a == "--log=error") cfg.log = impact::lsp::ServerConfig::Log::Error;
    else if (a == "--log=info") cfg.log = impact::lsp::ServerConfig::Log::Info;
    else if (a == "--log=verbose") cfg.log = impact::lsp::ServerConfig::Log::Verbose;
    else if (a == "--test-hooks") cfg.testHooks = true;  // for the transcript tests only
    else if (a.rfind("--cache=", 0) == 0) {
      // Relative: against the directory impactd was started in (the editor's), never the server's later work.
      std::error_code ec;
      cfg.cacheDir = a.size() > 8 ? std::filesystem::absolute(a.substr(8), ec).string() : "";
    }
    else if (a == "--no-cache") cfg.noCache = true;
    else if (a.rfind("--git-poll-ms=", 0) == 0) cfg.gitPoll = std::chrono::milliseconds(std::atoi(a.c_str() + 14));
    else {
      std::fprintf(stderr, "impactd: unknown argument '%s' (try --help)\n", a.c_str());
      return 2;
    }
  }
  int code = impact::lsp::runLanguageServer(stdin, stdout, cfg);
  if (impact::lsp::threadsLeftRunning() > 0) {
    // A thread blocked in a read or a git operation is still running (it was left at the
    // shutdown's deadline): end here, without static destructors it might race with.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
  }
  return code;
}
