#include "server/BackgroundEmit.h"

#include <algorithm>
#include <thread>

#include "absl/strings/str_cat.h"

namespace impact::server {

BackgroundEmit::BackgroundEmit(EmitHost host) : host_(std::move(host)) {
  EmitRunEvents ev;
  ev.progress = [this](uint64_t run, size_t done, size_t total, const std::string& current) {
    host_.sched.post([this, run, done, total] {
      if (run == run_ && active_) host_.status.emitting(absl::StrCat(done, "/", total));
    });
    if (host_.cb.emitProgress)
      host_.cb.emitProgress({EmitProgress::Kind::Report, run, done, total,
                             absl::StrCat(done, "/", total, " family builds", current.empty() ? "" : " · " + current)});
  };
  ev.finished = [this](uint64_t run, absl::StatusOr<emit::EmitDocument> doc, emitter::EmitStats stats) {
    auto shared = std::make_shared<absl::StatusOr<emit::EmitDocument>>(std::move(doc));
    host_.sched.post([this, run, shared, stats] { finished(run, std::move(*shared), stats); });
  };
  runner_ = std::make_unique<EmitRunner>(std::move(ev));
}

FoldedState BackgroundEmit::fold(const AnalysisState& st) {
  FoldedState out = doc_ ? foldState(st, *doc_, match_) : FoldedState{};
  applies_ = out.applies;
  return out;
}

void BackgroundEmit::afterSave(const std::vector<std::string>& relPaths) {
  if (host_.opts.emitter != EmitterMode::Auto) return;
  bool python = false;
  for (const auto& r : relPaths) python = python || r.ends_with(".py");
  if (!python) return;
  if (runner_->running()) runner_->cancel();
  host_.sched.postDebounced("emit", host_.opts.emitterDebounce, [this] { maybeStart(); });
}

// Starts a run when a shipped Python module changed in code (a changed kernel-code or kernargs
// row on a .py file) and no document for these trees exists yet.
void BackgroundEmit::maybeStart() {
  if (host_.root().empty() || host_.mergeBase().empty()) return;
  host_.publish();
  if (applies_) return;
  auto st = host_.current();
  bool shippedPython = false;
  for (const auto& r : st->rows)
    if ((r.contract == "kernel-code" || r.contract == "kernargs") && r.status == Status::Changed &&
        r.python.path.ends_with(".py"))
      shippedPython = true;
  if (!shippedPython) return host_.log("emitter: no Python file of the shipped closure changed in code; not run");
  start();
}

void BackgroundEmit::runNow(std::function<void(std::string, std::string)> reply) {
  if (host_.opts.emitter == EmitterMode::Off)
    return reply("", "the emitter is off: it runs repository code only in a trusted workspace with the emitter setting "
                     "\"auto\" or \"manual\"");
  if (host_.root().empty() || host_.mergeBase().empty()) return reply("", "no merge base: nothing to compare");
  waiters_.push_back(std::move(reply));
  start();
}

void BackgroundEmit::start() {
  emitter::EmitOptions o;
  o.repo = host_.root();
  o.base = host_.mergeBase();
  o.head = "";  // the working tree on disk
  o.familyBudget = host_.opts.emitterFamilyBudget;
  o.cacheDir = host_.opts.emitterCache;
  // In the background: half the cores, so the editor and the analysis keep theirs.
  o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
  // The replaced run's progress ends here; what it still reports is dropped (finished()).
  uint64_t previous = run_;
  if (previous && active_ && host_.cb.emitProgress)
    host_.cb.emitProgress({EmitProgress::Kind::End, previous, 0, 0, "cancelled: a newer run replaces it"});
  run_ = runner_->started() + 1;  // only the worker starts runs
  active_ = true;
  if (host_.cb.emitProgress) host_.cb.emitProgress({EmitProgress::Kind::Begin, run_, 0, 0, "emitting"});
  runner_->start(std::move(o));
  host_.status.emitting("0/0");
  host_.log("emitter: run " + std::to_string(run_) + " started");
}

void BackgroundEmit::finished(uint64_t run, absl::StatusOr<emit::EmitDocument> doc, const emitter::EmitStats& stats) {
  if (run != run_) return;  // a cancelled run replaced by a newer one: its end was reported
  active_ = false;
  host_.status.emitting("");
  std::string summary, error;
  if (doc.ok()) {
    doc_ = std::make_shared<const emit::EmitDocument>(std::move(*doc));
    summary = absl::StrCat("emitter: ", stats.families, " families, ", stats.variants, " variants; ", stats.built,
                           " family builds ran, ", stats.cached, " from the cache; sandbox: ", stats.sandbox);
    host_.forget("emitter-error");
    // The workspace's Python ran without Landlock or network isolation: the user hears it once.
    if (doc_->sandbox.is_object() && !doc_->sandbox.value("confined", true))
      host_.message(Severity::Warning, "impactd: the emitter ran the workspace's Python " + stats.sandbox,
                    "emitter-unconfined");
    host_.log(summary);
    host_.republish();
  } else {
    error = std::string(doc.status().message());
    if (doc.status().code() != absl::StatusCode::kCancelled)
      host_.message(Severity::Warning, "impactd: the emitter could not run: " + error + " (the next save tries again)",
                    "emitter-error");
    host_.log("emitter: " + error);
    host_.settle();
  }
  if (host_.cb.emitProgress) host_.cb.emitProgress({EmitProgress::Kind::End, run, 0, 0, doc.ok() ? summary : error});
  auto waiters = std::move(waiters_);
  waiters_.clear();
  for (auto& w : waiters) w(summary, error);
}

}  // namespace impact::server
