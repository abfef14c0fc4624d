// The C++ half of the geometry differential (issue 17): a small generated program that includes
// the tree's geometry header (its own include folders; a generated stand-in only for the plugin
// exception header), calls the header function the way the pack's call site does, and prints the
// grid and block the pack would launch with, one JSON line per input line (or what the header
// threw). Compiled with the machine's C++ compiler and run, both confined like the emitter's
// child (process/Confine.h); the binary is cached by (header and included blobs, the generated
// source — the call site —, generator version, compiler id, flags).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "geometry/GeometryPlan.h"
#include "process/Confine.h"

namespace impact::emitter {

struct Compiler {
  std::string path;  // absolute
  std::string id;    // the first line of `--version`, and the path
};

// $IMPACT_CXX, $CXX, then c++, g++, clang++ on PATH; nullopt when none runs.
std::optional<Compiler> findCompiler();

// The program's source (for the cache key and for tests).
std::string harnessSource(const GeometryFamilyPlan& plan);

struct HarnessBuild {
  std::string binary;  // "" when it did not build
  bool cached = false;
  std::string error;   // the compiler's first error line, naming what did not compile
};

HarnessBuild buildHarness(const GeometryFamilyPlan& plan, const Snapshot& head, const Compiler& cxx,
                          const Confinement& jail, const std::string& cacheDir,
                          std::chrono::steady_clock::time_point deadline);

struct HarnessRun {
  std::vector<nlohmann::json> answers;  // one per input line: {grid, block} or {error}
  std::string error;                    // the run failed as a whole
};

HarnessRun runHarness(const std::string& binary, const std::vector<std::string>& lines, const Confinement& jail,
                      std::chrono::steady_clock::time_point deadline);

}  // namespace impact::emitter
