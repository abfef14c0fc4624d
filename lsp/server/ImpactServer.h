// The language server's logic (clangd's ClangdServer): documents in, diagnostics and answers
// out. No protocol and no JSON here: lsp/protocol/LSPServer converts. Every operation runs on
// the Scheduler's worker, so the Workspace needs no lock and answers see every edit sent
// before them. Callbacks are invoked on the worker (or the report thread for impact.run).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "analysis/Workspace.h"
#include "git/Repository.h"
#include "server/EmitRunner.h"
#include "server/Features.h"
#include "server/Scheduler.h"
#include "server/Status.h"
#include "server/Types.h"

namespace impact::server {

struct Callbacks {
  // Diagnostics of one file; version is the open document's, if any.
  std::function<void(const std::string& path, const std::vector<Diag>&, std::optional<int64_t> version)> publish;
  std::function<void(Severity, const std::string&)> showMessage;
  std::function<void(const std::string&)> log;
  // impactd/status: sent only when it changes (server/Status.h).
  std::function<void(const ServerStatus&)> status;
  // The background emitter's and geometry differential's progress (from their threads).
  std::function<void(const EmitProgress&)> emitProgress;
  // After a publication (issue 38): what inlay hints and code lenses show may have moved
  // (a builder or a copy changed), and whether the published diagnostics did.
  std::function<void(bool hints, bool diagnostics)> refresh;
};

struct Options {
  Layout layout;
  std::chrono::milliseconds minDebounce{50}, maxDebounce{500};
  std::chrono::milliseconds gitPoll{1000};  // how often .git/HEAD, refs and the index are checked
  // The persistent extraction cache shared with `impact` (core/cache/DiskCache.h); "" = none.
  std::string cacheDir;
  // The in-memory extraction cache's bound on versions nothing holds (ExtractCache::setBound).
  size_t extractCacheBound = ExtractCache::kServerBound;
  // The emitter (SPEC R6.6): repository code runs only when the client says the workspace is
  // trusted ("auto": after a save touching shipped Python, "manual": on impact.emit only).
  EmitterMode emitter = EmitterMode::Off;
  std::chrono::milliseconds emitterDebounce{3000};
  bool emitterHints = false;     // folded rows become Hints instead of disappearing
  double emitterFamilyBudget = 300;  // seconds per family build
  std::string emitterCache;      // "" = the emitter's default cache folder
};

class ImpactServer {
 public:
  ImpactServer(Callbacks cb, Options opts = {});
  ~ImpactServer();  // stop() with a deadline of kShutdownWait

  // Shutdown (issue 37): asks every thread to stop (the worker, the git watch, impact.run's
  // reports, the emitter's and the geometry's runs: their children are killed), then waits for
  // each until `deadline`. True when all ended. False when one is still running then (a slow git
  // operation, a long report, a read that does not return): it is left running, and this
  // server's state is kept (never freed) because the thread may still read it; the process is
  // to end with _Exit (lsp/main.cpp). Idempotent.
  bool stop(std::chrono::steady_clock::time_point deadline);
  static constexpr std::chrono::milliseconds kShutdownWait{3000};

  // Finds the repository at or above rootPath, resolves the target (empty: the upstream of the
  // current branch, else origin/develop, else develop, else main) and analyses the working
  // tree against the merge base. Problems (no repository, no merge base) go to showMessage
  // once and in the status (error); the server keeps answering what it can judge. An empty
  // rootPath (the client gave no workspace) is such a problem.
  void initialize(const std::string& rootPath, const std::string& target, std::function<void()> done = {});
  void setTarget(const std::string& target);

  void didOpen(const std::string& path, std::string text, int64_t version);
  void didChange(const std::string& path, std::vector<ContentChange> changes, int64_t version);
  void didClose(const std::string& path);
  void didSave(const std::string& path);
  void filesChanged(const std::vector<std::string>& paths);  // created, changed or deleted on disk
  void gitChanged();                                         // HEAD, a ref or the index moved

  using Cancelled = std::function<bool()>;
  void hover(const std::string& path, Pos pos, std::function<void(std::optional<HoverInfo>)> reply);
  void definition(const std::string& path, Pos pos, std::function<void(std::vector<FileLoc>)> reply);
  void references(const std::string& path, Pos pos, std::function<void(std::vector<FileLoc>)> reply);
  void codeActions(const std::string& path, Rng range, std::function<void(std::vector<Action>)> reply);
  // The full report, on its own thread (progress: a message per phase). cancelled() is polled
  // between phases.
  void runImpact(RunRequest req, std::function<void(const std::string&)> progress, Cancelled cancelled,
                 std::function<void(std::optional<RunResult>, std::string error)> reply);

  // impact.refs: the target in use and the repository's branches and tags (read on the worker).
  void refs(std::function<void(std::optional<RefsResult>, std::string error)> reply);

  // impact.emit: runs the emitter now (cancelling a running run); reply when it ends, with a
  // one-line summary or the error. Refused when the emitter is off.
  void runEmitter(std::function<void(std::string summary, std::string error)> reply);
  // The client cancelled the emitter's progress: the running run's children are killed.
  void cancelEmitter();
  // The client cancelled the geometry differential's progress: the running run stops (its Python
  // child is killed) and nothing runs again until the next save of a family's input.
  void cancelGeometry();

  // Beyond diagnostics (issue 38; server/Features.h, one file each under lsp/server).
  void inlayHints(const std::string& path, Rng range, std::function<void(std::vector<InlayHint>)> reply);
  void resolveInlayHint(InlayHint hint, std::function<void(InlayHint)> reply);
  void codeLenses(const std::string& path, std::function<void(std::vector<CodeLens>)> reply);
  void resolveCodeLens(CodeLens lens, std::function<void(CodeLens)> reply);
  void documentSymbols(const std::string& path, std::function<void(std::vector<DocumentSymbol>)> reply);
  void workspaceSymbols(const std::string& query, std::function<void(std::vector<WorkspaceSymbol>)> reply);
  void pullDiagnostics(const std::string& path, const std::string& previousResultId,
                       std::function<void(std::optional<PulledDiagnostics>)> reply);
  void workspaceDiagnostics(std::map<std::string, std::string> previousByPath,
                            std::function<void(std::vector<PulledDiagnostics>)> reply);
  void prepareRename(const std::string& path, Pos pos, std::function<void(RenameTarget)> reply);
  void rename(const std::string& path, Pos pos, const std::string& newName, std::function<void(RenameResult)> reply);

  // For tests and benchmarks: runs fn on the worker after everything posted so far.
  void sync(std::function<void()> fn);
  // The document version a request was made against is stale when this grew since.
  int64_t documentEpoch(const std::string& path) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace impact::server
