// The geometry differential in the background of the server (issue 17): after a debounced save of
// a file a geometry family reads (its Python module, header, pack, profile or descriptors;
// emitter/geometry/GeometryPlan.h geometryInputs), in a trusted workspace with the emitter set to
// "auto" (the same gate: it compiles and runs the tree's header and imports its Python), one run
// of emitter::runGeometry over the saved working tree on a thread of its own; a save during a run
// cancels it and runs again after. Its progress goes out as the emitter's does ($/progress, token
// impact.geometry-N; impactd/status "geometry": "done/total"), a run that could not start is said
// once. Its document is applied to the published rows by core's applyGeometry (the function
// `impact report --geometry` applies, core/analysis/Analysis.h): only while the analysed head is
// the tree it was made for; a stale one is never applied. Every method runs on the server's
// worker, except the run's thread, which posts its progress and its end to it.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "emit/Geometry.h"
#include "server/BackgroundEmit.h"
#include "server/Diagnostics.h"

namespace impact::server {

// A folded document's mismatches get the argument plan as related information: on each
// launch-surface:grid/block mismatch of a family (on its module and its header), a link to the
// pack whose launch was evaluated, "blockM <- metadata block_m, …".
void addGeometryRelated(const emit::GeometryDocument& doc, std::map<std::string, std::vector<FileDiag>>& byFile);

class BackgroundGeometry {
 public:
  explicit BackgroundGeometry(EmitHost host) : host_(std::move(host)) {}
  ~BackgroundGeometry() { stop(); }

  // Saved or changed files (repository-relative): a run after the debounce when one is an input.
  void afterSave(const std::vector<std::string>& relPaths);
  // The client cancelled the run's progress: it stops (the next save of an input runs again).
  void cancel();
  // Shutdown (from any thread): cancels the running run and waits for it; nothing starts after.
  void stop() { stopUntil(OwnedThread::Clock::time_point::max()); }
  // The same until `deadline`; false when the run is still going then (left running: the caller
  // keeps this object alive, server/OwnedThread.h).
  bool stopUntil(OwnedThread::Clock::time_point deadline);

  // Whether the last document was made for the analysed head. A run reads the saved working
  // tree, so a head with unsaved differences from the disk snapshot is not its head; the disk
  // snapshot's tree key is hashed once per snapshot, never per keystroke.
  bool applies(const AnalysisState& st);
  // Folds the last document into `rows` when it applies; the notes say what was evaluated.
  // False (rows untouched) when there is none for this head.
  bool fold(const AnalysisState& st, std::vector<Row>& rows, std::vector<std::string>* notes = nullptr);
  const std::shared_ptr<const emit::GeometryDocument>& document() const { return doc_; }

 private:
  void start();
  void progress(uint64_t run, size_t done, size_t total, const std::string& module);
  void finished(uint64_t run, std::shared_ptr<absl::StatusOr<emit::GeometryDocument>> doc, std::string stats);

  EmitHost host_;
  std::shared_ptr<const emit::GeometryDocument> doc_;
  std::mutex mu_;  // thread_ and cancel_: stop() may come from the server's destructor
  OwnedThread thread_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  uint64_t run_ = 0;
  bool active_ = false;
  bool again_ = false;  // a save came during the run: start again when it has ended
  std::atomic<bool> stopped_{false};  // shut down (set from the server's destructor): nothing starts
  // The disk snapshot's emit::treeKey, for the snapshot it was hashed for.
  std::string diskKey_;
  std::weak_ptr<const Snapshot> disk_;
};

}  // namespace impact::server
