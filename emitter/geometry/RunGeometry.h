// `impact report --geometry` (and --emit auto): the geometry differential at the head (issue 17).
// Per family of geometry/GeometryPlan.h, the Python grid/block functions in the driver's geometry
// mode (the emitter's sandboxed child) and the generated C++ harness (geometry/Harness.h), on every
// shipped variant; the judgement is core's (emit/Geometry.h).
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "emit/Geometry.h"
#include "process/Confine.h"

namespace impact {
class ExtractCache;
}

namespace impact::emitter {

struct GeometryOptions {
  std::string repo = ".";
  std::string head;      // "" = the working tree
  std::string base;      // the target: at the merge base, the families that disagree at the head are evaluated too
  std::string config;    // layout configuration (as impact report --config)
  std::string cacheDir;  // "" = the emitter's default (run/Emit.h defaultCacheDir)
  double familyBudget = 120;  // seconds per family (the Python child, the compile, the run)
  bool unconfined = false;
  Limits limits;
  // The caller's extraction cache (`impact report --geometry` passes the report's: the trees it
  // just read are not extracted again); null = a cache of this run's own.
  ExtractCache* extractCache = nullptr;
  // Set: stop between families and kill the Python child (the language server's replaced or
  // shut-down run); runGeometry then returns a Cancelled error.
  const std::atomic<bool>* cancel = nullptr;
  // The head's families as they are evaluated: (done, total, the module of the family starting;
  // "" at the end). From the calling thread (the language server's $/progress).
  std::function<void(size_t done, size_t total, const std::string& module)> onProgress;
};

struct GeometryStats {
  size_t families = 0, variants = 0, compiled = 0, cachedBinaries = 0;
  size_t sanitized = 0;     // harnesses built with UBSan
  std::string noUbsan;      // why a harness was built without it (the first such family's reason)
  size_t ranPython = 0, cachedPython = 0;  // Python answers evaluated / taken from the cache
  size_t baseFamilies = 0;                 // families evaluated at the merge base too (they disagree at the head)
  double seconds = 0;
};

absl::StatusOr<emit::GeometryDocument> runGeometry(const GeometryOptions& opts, GeometryStats* stats = nullptr);

}  // namespace impact::emitter
