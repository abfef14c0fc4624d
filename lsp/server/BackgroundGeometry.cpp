#include "server/BackgroundGeometry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/Analysis.h"
#include "emit/TreeKey.h"
#include "geometry/GeometryPlan.h"
#include "geometry/RunGeometry.h"
#include "server/EmitDiagnostics.h"

namespace impact::server {

void addGeometryRelated(const emit::GeometryDocument& doc, std::map<std::string, std::vector<FileDiag>>& byFile) {
  for (const auto& f : doc.families) {
    if (f.pack.empty() || f.plan.empty()) continue;
    for (const std::string& side : {f.module, f.header}) {
      auto it = byFile.find(side);
      if (it == byFile.end()) continue;
      for (FileDiag& d : it->second) {
        if (d.status == "changed" || (d.code != "launch-surface:grid" && d.code != "launch-surface:block")) continue;
        bool ours = false;  // the diagnostic's other side is this family's (a profile may hold several)
        for (const auto& o : d.related) ours = ours || o.path == (side == f.module ? f.header : f.module);
        if (ours || d.related.empty())
          d.related.push_back({f.pack, SourceRange{f.packLine, 0, f.packLine, 0},
                               "the launch's arguments: " + absl::StrJoin(f.plan, ", ")});
      }
    }
  }
}

void BackgroundGeometry::afterSave(const std::vector<std::string>& relPaths) {
  if (host_.root().empty()) return;
  auto st = host_.current();
  std::set<std::string> inputs = emitter::geometryInputs(st->headFacts, host_.opts.layout);
  std::string hit;
  for (const auto& r : relPaths)
    if (inputs.count(r)) hit = r;
  if (hit.empty()) return;
  // Repository code (the header compiled and run, the module imported) runs only in a trusted
  // "auto" workspace: the emitter's gate.
  if (host_.opts.emitter != EmitterMode::Auto)
    return host_.log(absl::StrCat("geometry: ", hit, " saved; not run: the emitter is \"",
                                  emitterModeName(host_.opts.emitter),
                                  "\" (the geometry differential runs the workspace's code only with \"auto\", "
                                  "in a trusted workspace)"));
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancel_) cancel_->store(true);  // the running run reads a tree that is gone
  }
  host_.log("geometry: " + hit + " saved; a run follows the debounce");
  host_.sched.postDebounced("geometry", host_.opts.emitterDebounce, [this] { start(); });
}

void BackgroundGeometry::start() {
  if (stopped_ || host_.root().empty()) return;
  if (active_) {
    again_ = true;  // still running (cancelled by the save): finished() starts again
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) return;
  if (thread_.joinable()) thread_.join();
  again_ = false;
  auto flag = std::make_shared<std::atomic<bool>>(false);
  cancel_ = flag;
  uint64_t run = ++run_;
  active_ = true;
  emitter::GeometryOptions o;
  o.repo = host_.root();
  o.base = host_.mergeBase();
  o.head = "";  // the working tree on disk, as saved
  o.cacheDir = host_.opts.emitterCache;
  o.familyBudget = std::min(120.0, host_.opts.emitterFamilyBudget);
  o.onProgress = [this, run](size_t done, size_t total, const std::string& module) {
    progress(run, done, total, module);
  };
  if (host_.cb.emitProgress)
    host_.cb.emitProgress({EmitProgress::Kind::Begin, run, 0, 0, "evaluating", EmitProgress::Task::Geometry});
  host_.status.geometry("0/0");
  host_.log(absl::StrCat("geometry: run ", run, " started"));
  thread_ = OwnedThread([this, run, flag, o]() mutable {
    o.cancel = flag.get();
    emitter::GeometryStats stats;
    auto doc = std::make_shared<absl::StatusOr<emit::GeometryDocument>>(emitter::runGeometry(o, &stats));
    if (flag->load() && doc->ok()) *doc = absl::CancelledError("the geometry run was cancelled");
    std::string summary = absl::StrCat(stats.families, " families, ", stats.variants, " variants; ", stats.compiled,
                                       " harnesses compiled, ", stats.cachedBinaries, " from the cache; ",
                                       absl::StrFormat("%.2f s", stats.seconds));
    host_.sched.post([this, run, doc, summary] { finished(run, doc, summary); });
  });
}

// From the run's thread: the work-done progress at once, the status on the worker.
void BackgroundGeometry::progress(uint64_t run, size_t done, size_t total, const std::string& module) {
  host_.sched.post([this, run, done, total] {
    if (run == run_ && active_) host_.status.geometry(absl::StrCat(done, "/", total));
  });
  if (host_.cb.emitProgress)
    host_.cb.emitProgress({EmitProgress::Kind::Report, run, done, total,
                           absl::StrCat(done, "/", total, " families", module.empty() ? "" : " · " + module),
                           EmitProgress::Task::Geometry});
}

void BackgroundGeometry::finished(uint64_t run, std::shared_ptr<absl::StatusOr<emit::GeometryDocument>> doc,
                                  std::string summary) {
  active_ = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (thread_.joinable()) thread_.join();
  }
  if (stopped_) return;
  host_.status.geometry("");
  std::string end;
  if (doc->ok()) {
    doc_ = std::make_shared<const emit::GeometryDocument>(std::move(**doc));
    host_.forget("geometry-error");
    host_.log(absl::StrCat("geometry: run ", run, ": ", summary));
    end = summary;
    host_.republish();
  } else {
    end = std::string(doc->status().message());
    // Said once (until a run succeeds); a cancelled run is not a failure.
    if (doc->status().code() != absl::StatusCode::kCancelled)
      host_.message(Severity::Warning,
                    "impactd: the geometry differential could not run: " + end + " (the next save tries again)",
                    "geometry-error");
    host_.log(absl::StrCat("geometry: run ", run, " ended: ", end));
  }
  if (host_.cb.emitProgress)
    host_.cb.emitProgress({EmitProgress::Kind::End, run, 0, 0, end, EmitProgress::Task::Geometry});
  if (again_) start();
}

void BackgroundGeometry::cancel() {
  again_ = false;
  std::lock_guard<std::mutex> lock(mu_);
  if (cancel_) cancel_->store(true);
}

bool BackgroundGeometry::stopUntil(OwnedThread::Clock::time_point deadline) {
  stopped_ = true;
  OwnedThread running;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancel_) cancel_->store(true);
    running = std::move(thread_);
  }
  return running.joinUntil(deadline);
}

bool BackgroundGeometry::applies(const AnalysisState& st) {
  if (!doc_ || !st.base || !st.disk || !changesFromDisk(st).empty()) return false;
  if (diskKey_.empty() || disk_.lock() != st.disk) {
    diskKey_ = emit::treeKey(*st.disk);
    disk_ = st.disk;
  }
  return diskKey_ == doc_->headTree;
}

bool BackgroundGeometry::fold(const AnalysisState& st, std::vector<Row>& rows, std::vector<std::string>* notes) {
  if (!applies(st)) return false;
  // core decides, as for `impact report --geometry`: refused for another head, else folded.
  auto applied = applyGeometry(rows, *doc_, *st.base, *st.disk, diskKey_);
  if (!applied.ok()) return false;
  if (notes) *notes = std::move(*applied);
  return true;
}

}  // namespace impact::server
