// `impact emit`: builds every shipped rocKE variant at the merge base and at the head on the CPU
// (SPEC R4) and returns the emit document. Families run in parallel, each (family, revision) in
// its own sandboxed child with a budget; results are cached per family (cache/FamilyCache.h).
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "emit/EmitDocument.h"
#include "process/Confine.h"
#include "run/DriverCall.h"

namespace impact::emitter {

struct EmitOptions {
  std::string repo = ".";
  std::string base, head;     // head "" = the working tree
  std::string config;         // layout configuration (as impact report --config)
  std::string cacheDir;       // "" = $IMPACT_CACHE_DIR, else $XDG_CACHE_HOME/impactd, else ~/.cache/impactd
  int jobs = 0;               // 0 = the core count
  double familyBudget = 300;  // seconds per family and revision
  double runBudget = 3600;    // seconds for the whole run
  bool progress = false;      // a progress line on stderr
  bool probe = true;          // pack-time predicate tables (R5)
  Limits limits;              // the child's resource limits (--family-memory sets limits.memoryBytes)
  bool requireSandbox = false;  // refuse to run when the kernel offers no confinement (process/Confine.h)
  bool unconfined = false;      // --unconfined: no Landlock, namespaces or seccomp (the limits stay), said so
  // --child-per-chunk: one child per driver call, as before issue 27 (for a tree whose builders
  // keep state between calls, and for comparing); else one child per job and tree serves its
  // chunks one after another (docs/emitter.md, "One child per job").
  bool childPerChunk = false;
  // --shard K/N: build only the families emit/Shards.h assigns to shard K of N (0/0: all).
  int shardIndex = 0, shardCount = 0;
  // Set by another thread: running children's groups are killed, no further one starts, and
  // runEmit returns a Cancelled error (nothing of the cancelled calls is cached).
  const std::atomic<bool>* cancel = nullptr;
  // Called (from the worker threads, serialised) when a family build starts or ends.
  std::function<void(size_t done, size_t total, const std::string& current)> onProgress;
};

struct EmitStats {
  size_t families = 0, variants = 0, built = 0, cached = 0;
  size_t shared = 0;  // family sides equal to the other revision's (same cache key): built once
  size_t children = 0;  // driver children started for the family builds (each imports its tree once)
  std::string sandbox;  // the confinement in force, for people (confinementSummary)
};

// Errors: the same as impact report (not a repository, unknown revision, ...), no python3, a
// cache folder that cannot be written.
absl::StatusOr<emit::EmitDocument> runEmit(const EmitOptions& opts, EmitStats* stats = nullptr);

std::string defaultCacheDir();

struct Driver;
// Writes the driver into the cache folder and finds the python3 it runs with and the confinement
// its children enter (--unconfined: none of Landlock, namespaces or seccomp).
absl::StatusOr<Driver> installDriver(const std::string& cacheDir, const Limits& limits, bool unconfined);

// The confinement every child of a run would enter here (impact emit --sandbox-check).
absl::StatusOr<Confinement> sandboxInForce(const Limits& limits);

}  // namespace impact::emitter
