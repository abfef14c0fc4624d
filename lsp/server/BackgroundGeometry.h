// The geometry differential in the background of the server (issue 17): after a debounced save of
// a file a geometry family reads (its Python module, header, pack, profile or descriptors;
// emitter/geometry/GeometryPlan.h geometryInputs), in a trusted workspace with the emitter set to
// "auto" (the same gate: it compiles and runs the tree's header and imports its Python), one run
// of emitter::runGeometry over the saved working tree on a thread of its own; a save during a run
// cancels it and runs again after. Its document is folded into the published rows (the fold
// `impact report --geometry` applies, core/emit/Geometry.h) while the analysed head is the tree it
// was made for; a stale one is never applied. Every method runs on the server's worker, except
// the run's thread, which posts its end to it.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "emit/Geometry.h"
#include "server/BackgroundEmit.h"

namespace impact::server {

class BackgroundGeometry {
 public:
  explicit BackgroundGeometry(EmitHost host) : host_(std::move(host)) {}
  ~BackgroundGeometry() { stop(); }

  // Saved or changed files (repository-relative): a run after the debounce when one is an input.
  void afterSave(const std::vector<std::string>& relPaths);
  // Shutdown: cancels the running run and waits for it.
  void stop();

  // Folds the last document into `rows` when it was made for the state's head; the notes say
  // what was evaluated. False (rows untouched) when there is none for this head.
  bool fold(const AnalysisState& st, std::vector<Row>& rows, std::vector<std::string>* notes = nullptr);
  const std::shared_ptr<const emit::GeometryDocument>& document() const { return doc_; }

 private:
  void start();
  void finished(uint64_t run, std::shared_ptr<absl::StatusOr<emit::GeometryDocument>> doc, std::string stats);
  bool applies(const AnalysisState& st);

  EmitHost host_;
  std::shared_ptr<const emit::GeometryDocument> doc_;
  std::thread thread_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  uint64_t run_ = 0;
  bool active_ = false;
  // The document's match with the analysed head (as EmitMatch: the whole tree hashed once per
  // document and disk snapshot, then only the files that differ from the disk snapshot).
  std::string matchedTree_;
  std::weak_ptr<const Snapshot> disk_;
  std::map<std::string, std::string> changes_;
  bool matched_ = false, checked_ = false;
};

}  // namespace impact::server
