#include "server/BackgroundGeometry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/Analysis.h"
#include "emit/TreeKey.h"
#include "geometry/GeometryPlan.h"
#include "geometry/RunGeometry.h"
#include "server/EmitDiagnostics.h"

namespace impact::server {

void BackgroundGeometry::afterSave(const std::vector<std::string>& relPaths) {
  if (host_.opts.emitter != EmitterMode::Auto) return;  // repository code runs only in a trusted "auto" workspace
  if (host_.root().empty()) return;
  auto st = host_.current();
  std::set<std::string> inputs = emitter::geometryInputs(st->headFacts, host_.opts.layout);
  std::string hit;
  for (const auto& r : relPaths)
    if (inputs.count(r)) hit = r;
  if (hit.empty()) return;
  if (cancel_) cancel_->store(true);  // the running run reads a tree that is gone
  host_.log("geometry: " + hit + " saved; a run follows the debounce");
  host_.sched.postDebounced("geometry", host_.opts.emitterDebounce, [this] { start(); });
}

void BackgroundGeometry::start() {
  if (host_.root().empty()) return;
  if (thread_.joinable()) {
    if (active_) {
      // Still running (cancelled by the save): start again when it has ended.
      host_.sched.postDebounced("geometry", std::chrono::milliseconds(200), [this] { start(); });
      return;
    }
    thread_.join();
  }
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
  host_.log(absl::StrCat("geometry: run ", run, " started"));
  thread_ = std::thread([this, run, flag, o]() mutable {
    o.cancel = flag.get();
    emitter::GeometryStats stats;
    auto doc = std::make_shared<absl::StatusOr<emit::GeometryDocument>>(emitter::runGeometry(o, &stats));
    std::string summary = absl::StrCat(stats.families, " families, ", stats.variants, " variants; ", stats.compiled,
                                       " harnesses compiled, ", stats.cachedBinaries, " from the cache; ",
                                       absl::StrFormat("%.2f s", stats.seconds));
    host_.sched.post([this, run, doc, summary] { finished(run, doc, summary); });
  });
}

void BackgroundGeometry::finished(uint64_t run, std::shared_ptr<absl::StatusOr<emit::GeometryDocument>> doc,
                                  std::string summary) {
  if (run == run_) active_ = false;
  if (run != run_ || !doc->ok()) {
    if (run == run_ && doc->status().code() != absl::StatusCode::kCancelled)
      host_.message(Severity::Warning,
                    "impactd: the geometry differential could not run: " + std::string(doc->status().message()) +
                        " (the next save tries again)",
                    "geometry-error");
    host_.log(absl::StrCat("geometry: run ", run, " ended: ", doc->ok() ? "replaced" : doc->status().message()));
    return;
  }
  doc_ = std::make_shared<const emit::GeometryDocument>(std::move(**doc));
  checked_ = false;
  host_.forget("geometry-error");
  host_.log(absl::StrCat("geometry: run ", run, ": ", summary));
  host_.republish();
}

void BackgroundGeometry::stop() {
  if (cancel_) cancel_->store(true);
  if (thread_.joinable()) thread_.join();
}

bool BackgroundGeometry::applies(const AnalysisState& st) {
  if (!doc_ || !st.base || !st.disk) return false;
  if (checked_ && matchedTree_ == doc_->headTree && disk_.lock() == st.disk)
    return matched_ && changesFromDisk(st) == changes_;
  checked_ = true;
  matchedTree_ = doc_->headTree;
  disk_ = st.disk;
  matched_ = emit::treeKey(headSnapshot(st)) == doc_->headTree;
  changes_ = matched_ ? changesFromDisk(st) : std::map<std::string, std::string>{};
  return matched_;
}

bool BackgroundGeometry::fold(const AnalysisState& st, std::vector<Row>& rows, std::vector<std::string>* notes) {
  if (!applies(st)) return false;
  Snapshot head = headSnapshot(st);
  auto out = emit::foldGeometry(rows, *doc_, foldContextFor(*st.base, head, {}).changedPaths);
  if (notes) *notes = std::move(out.notes);
  return true;
}

}  // namespace impact::server
