// The emitter in the background of impactd (SPEC R6.6): at most one run at a time, on its own
// thread; a new start cancels the running one (its children's process groups are killed through
// the emitter's cancel flag) and waits for it before starting again. The emitter layer is
// called from here, never from core/. Results and progress go to callbacks tagged with the
// run's number, so a caller can drop what a cancelled run still reports.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "emit/EmitDocument.h"
#include "run/Emit.h"
#include "server/OwnedThread.h"

namespace impact::server {

enum class EmitterMode { Off, Manual, Auto };
EmitterMode emitterModeFrom(const std::string& s);  // "auto" | "manual" | anything else: Off
const char* emitterModeName(EmitterMode m);

struct EmitRunEvents {
  // From the run's thread.
  std::function<void(uint64_t run, size_t done, size_t total, const std::string& current)> progress;
  std::function<void(uint64_t run, absl::StatusOr<emit::EmitDocument> doc, emitter::EmitStats stats)> finished;
};

class EmitRunner {
 public:
  explicit EmitRunner(EmitRunEvents ev) : ev_(std::move(ev)) {}
  ~EmitRunner() { stop(); }  // only when no run is left running (else its owner is kept alive)

  // Cancels a running run (waits until its children are gone) and starts this one. Returns its number.
  uint64_t start(emitter::EmitOptions opts);
  // Cancels the running run, if any (returns at once; the run ends with a Cancelled error).
  void cancel();
  // Cancels and waits (shutdown); nothing starts after.
  void stop() { stopUntil(OwnedThread::Clock::time_point::max()); }
  // Cancels and waits until `deadline`; false when the run is still going then (it is left
  // running and reaches this runner: the caller keeps the runner alive, server/OwnedThread.h).
  bool stopUntil(OwnedThread::Clock::time_point deadline);
  bool running() const { return running_.load(); }
  // How many runs started (a child may or may not have been needed: the cache answers too).
  uint64_t started() const { return seq_.load(); }

 private:
  EmitRunEvents ev_;
  std::mutex mu_;
  OwnedThread thread_;
  bool stopped_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> seq_{0};
};

}  // namespace impact::server
