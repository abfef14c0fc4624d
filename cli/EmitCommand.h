// `impact emit` and the emitter side of `impact report --emit FILE|auto`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/Analysis.h"

namespace impact::cli {

// `impact emit ...` (args after "emit"); returns the exit code.
int emitCommand(const std::vector<std::string>& args);

// Reads and validates an emit document; on error prints one message and returns null.
std::shared_ptr<const emit::EmitDocument> loadEmitDocument(const std::string& file);

// --emit auto: runs the emitter when `report` has a changed row on a shipped Python module
// (kernel-code, or kernargs for a builder's edit); else notes why not. Returns the document or null (with *note set), or an error.
absl::StatusOr<std::shared_ptr<const emit::EmitDocument>> autoEmit(const ReportRequest& req, const Report& report,
                                                                  std::string* note);

// --geometry (always) and --emit auto (when a launch-surface:grid/block row changed): the geometry
// differential at the head (emitter/geometry/). Returns the evaluation, or null with *note set
// when it did not run; stats go to stderr.
absl::StatusOr<std::shared_ptr<const emit::GeometryDocument>> runGeometryFor(const ReportRequest& req, const Report& report,
                                                                            bool always, std::string* note,
                                                                            ExtractCache* extractCache = nullptr);

}  // namespace impact::cli
