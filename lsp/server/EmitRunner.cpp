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
  std::lock_guard<std::mutex> lock(mu_);
  if (cancel_) cancel_->store(true);
  if (thread_.joinable()) thread_.join();  // the children of the cancelled run are killed by now
  auto flag = std::make_shared<std::atomic<bool>>(false);
  cancel_ = flag;
  uint64_t run = ++seq_;
  running_ = true;
  thread_ = std::thread([this, run, flag, opts = std::move(opts)]() mutable {
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

void EmitRunner::stop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancel_) cancel_->store(true);
  if (thread_.joinable()) thread_.join();
}

}  // namespace impact::server
