// The parallel run of driver calls: one job per (family, revision, chunk of variants), built once per
// cache key, on --jobs threads, with a progress line; and the merge of a family side's chunks.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/FamilyCache.h"
#include "emit/EmitDocument.h"
#include "run/DriverCall.h"
#include "run/Emit.h"

namespace impact::emitter {

// Variants per driver call: a family of hundreds of variants runs as several children in
// parallel, each with its own budget.
inline constexpr size_t kChunkVariants = 32;

struct Job {
  std::string family;
  bool head = false;
  size_t first = 0, count = 0;  // the slice of the side's variants this call builds
  nlohmann::json request;
  std::string cacheKey;
  emit::FamilySide side;
  nlohmann::json answer;
};

void runJobs(std::vector<Job>& jobs, const Driver& driver, const FamilyCache& cache, const std::string& flavor,
             const EmitOptions& opts, std::chrono::steady_clock::time_point runDeadline, EmitStats& stats);

// One family side from its chunks (in order): the worst status (timed_out, failed, ok), built when
// any chunk was built, and one answer whose "variants" lists every variant in order (a chunk
// without an answer contributes one error record per variant); "probe" from the first chunk.
struct MergedSide {
  emit::FamilySide side;
  nlohmann::json answer;
};
MergedSide mergeChunks(const std::vector<const Job*>& chunks);

}  // namespace impact::emitter
