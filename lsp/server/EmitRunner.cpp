#include "server/EmitRunner.h"

namespace impact::server {

EmitterMode emitterModeFrom(const std::string& s) {
  if (s == "auto") return EmitterMode::Auto;
  if (s == "manual") return EmitterMode::Manual;
  return EmitterMode::Off;
}

const char* emitterModeName(EmitterMode m) {
  switch (m) {
    case EmitterMode::Auto: return "auto";
    case EmitterMode::Manual: return "manual";
    case EmitterMode::Off: return "off";
  }
  return "off";
}

uint64_t EmitRunner::start(emitter::EmitOptions opts) {
  // The cancelled run is waited for outside the lock: stop() (shutdown, another thread) must be
  // able to set its flag and give up waiting at its deadline even when that run is blocked.
  {
    OwnedThread previous;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cancel_) cancel_->store(true);
      previous = std::move(thread_);
    }
    previous.join();  // the children of the cancelled run are killed by now
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) return seq_.load();
  auto flag = std::make_shared<std::atomic<bool>>(false);
  cancel_ = flag;
  uint64_t run = ++seq_;
  running_ = true;
  thread_ = OwnedThread([this, run, flag, opts = std::move(opts)]() mutable {
    opts.cancel = flag.get();
    opts.onProgress = [this, run](size_t done, size_t total, const std::string& current) {
      if (ev_.progress) ev_.progress(run, done, total, current);
    };
    emitter::EmitStats stats;
    auto doc = emitter::runEmit(opts, &stats);
    if (flag->load() && doc.ok()) doc = absl::CancelledError("the emitter run was cancelled");
    running_ = false;
    if (ev_.finished) ev_.finished(run, std::move(doc), stats);
  });
  return run;
}

void EmitRunner::cancel() {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancel_) cancel_->store(true);
}

bool EmitRunner::stopUntil(OwnedThread::Clock::time_point deadline) {
  OwnedThread running;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    if (cancel_) cancel_->store(true);
    running = std::move(thread_);
  }
  return running.joinUntil(deadline);
}

}  // namespace impact::server
