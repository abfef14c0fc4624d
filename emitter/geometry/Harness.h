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

// Built with UBSan (-fsanitize=undefined, recoverable) when the compiler can: the sanitized build
// is tried first and, when it fails to compile or link while the plain one builds, the plain
// binary is used and `noUbsan` says why (the sanitized build's first error line).
struct HarnessBuild {
  std::string binary;  // "" when it did not build
  bool cached = false;
  std::string error;   // the compiler's first error line, naming what did not compile
  bool ubsan = false;  // the binary reports undefined behaviour
  std::string noUbsan; // why it does not ("" when it does, or nothing was built)
};

HarnessBuild buildHarness(const GeometryFamilyPlan& plan, const Snapshot& head, const Compiler& cxx,
                          const Confinement& jail, const std::string& cacheDir,
                          std::chrono::steady_clock::time_point deadline);

// The harness prints a marker line to stderr before each variant; the UBSan runtime's reports
// (UBSAN_OPTIONS: one line each, no stack trace, never halting) after it are that variant's. The
// runtime reports a source location once per process, so after a variant with a report the run
// goes on in a new process from the next variant: every variant's own first report is seen. A
// variant the runtime stopped on (an unrecoverable check) has its report and no values.
struct HarnessRun {
  // One per input line: {grid, block} or {error} or {declined}, with "ub": "<path>:<line>:<col>:
  // runtime error: ..." (the path as in the tree) when the variant's evaluation had undefined behaviour.
  std::vector<nlohmann::json> answers;
  std::string error;                    // the run failed as a whole
  size_t processes = 0;                 // how many runs it took
};

// The first UBSan report of each of `variants` variants in a harness's stderr ("" for none).
std::vector<std::string> ubReportsByVariant(const std::string& err, size_t variants);

HarnessRun runHarness(const std::string& binary, const std::vector<std::string>& lines, const Confinement& jail,
                      std::chrono::steady_clock::time_point deadline);

}  // namespace impact::emitter
