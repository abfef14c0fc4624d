// The emitter in the background of the server (SPEC R6.6): when a run starts (auto: a debounced
// save of a Python file once a shipped module differs in code; impact.emit), its progress
// ($/progress and impactd/status), its end (the document kept, the diagnostics published again,
// a run that could not start said once), and the fold of the live state with the last document.
// Every method runs on the server's worker, except the runner's callbacks, which post to it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/Workspace.h"
#include "server/EmitDiagnostics.h"
#include "server/EmitRunner.h"
#include "server/ImpactServer.h"

namespace impact::server {

// What the background emitter needs from the server.
struct EmitHost {
  const Options& opts;
  const Callbacks& cb;
  Scheduler& sched;
  StatusTracker& status;
  // The repository's work tree and merge base; "" while there is none.
  std::function<std::string()> root, mergeBase;
  std::function<std::shared_ptr<const AnalysisState>()> current;  // the analysed state, now
  std::function<void()> publish;    // publish the current state (when it changed)
  std::function<void()> republish;  // publish again even if the state did not change
  std::function<void()> settle;     // the status after a publish
  std::function<void(Severity, const std::string& text, const std::string& key)> message;  // once per key
  std::function<void(const std::string& key)> forget;  // the key may be said again
  std::function<void(const std::string&)> log;
};

class BackgroundEmit {
 public:
  explicit BackgroundEmit(EmitHost host);

  // Saved or changed files (repository-relative): in "auto", cancels the running run now and
  // starts a new one after the debounce when a shipped module differs in code.
  void afterSave(const std::vector<std::string>& relPaths);
  // impact.emit: a run now (replacing a running one); reply(summary, error) when it ends.
  void runNow(std::function<void(std::string, std::string)> reply);
  void cancel() { runner_->cancel(); }
  void stop() { runner_->stop(); }  // shutdown: kills the running children
  bool stopUntil(OwnedThread::Clock::time_point deadline) { return runner_->stopUntil(deadline); }

  // The live rows folded with the last document, when it was made for the state's trees.
  FoldedState fold(const AnalysisState& st);
  const std::shared_ptr<const emit::EmitDocument>& document() const { return doc_; }

 private:
  void maybeStart();
  void start();
  void finished(uint64_t run, absl::StatusOr<emit::EmitDocument> doc, const emitter::EmitStats& stats);

  EmitHost host_;
  std::shared_ptr<const emit::EmitDocument> doc_;
  bool applies_ = false;  // the document was for the trees of the last publish
  EmitMatch match_;
  uint64_t run_ = 0;
  bool active_ = false;  // run_ has not ended yet
  std::vector<std::function<void(std::string, std::string)>> waiters_;
  std::unique_ptr<EmitRunner> runner_;
};

}  // namespace impact::server
