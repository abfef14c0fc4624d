// The geometry harness's sources (geometry/Harness.h): the tree's header and every file of the
// tree it includes, transitively, copied into a build folder with their repository paths kept.
// An include is found the same way at every level: beside the file that includes it, else as
// `**/include/<path>` anywhere in the tree (that folder then becomes an include folder); one not
// found is left to the compiler (the standard library, or an error naming it). The plugin SDK's
// exception header is a generated stand-in. Bounded: an include chain deeper than
// kMaxIncludeDepth, or more than kMaxStagedFiles files, is an error naming the limit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "geometry/GeometryPlan.h"

namespace impact::emitter {

inline constexpr size_t kMaxIncludeDepth = 16;
inline constexpr size_t kMaxStagedFiles = 256;

struct StagedSources {
  // Include folders, relative to the build folder (the compiler runs there, so the file names it
  // writes into diagnostics and the UBSan runtime's reports are `src/<repository path>`).
  std::vector<std::string> includeDirs;
  std::string blobs;  // "path=blob id" per staged file, in staging order (the cache key's part)
  std::string error;  // a limit hit ("" when staged)
};

StagedSources stageSources(const GeometryFamilyPlan& plan, const Snapshot& head, const std::filesystem::path& dir);

}  // namespace impact::emitter
