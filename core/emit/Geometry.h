// The geometry differential's judgement (issue 17, SPEC R4.4): a pure function of the report's
// rows and what the emitter layer evaluated (emitter/geometry/): per family whose profile declares
// a grid and a block launch surface, the Python grid/block functions and the header-only C++
// geometry on every shipped variant, compared axis by axis.
// - a disagreement, or the header throwing on a shipped variant -> the launch-surface:grid /
//   launch-surface:block row is a mismatch naming the axes, how many variants, the first few by
//   name with both values (a row is added when nothing touched the surface);
// - undefined behaviour UBSan reports while the header evaluates a shipped variant -> a mismatch
//   too (the values it returned cannot be trusted), the values still compared;
// - the header function declining (an empty optional) a shipped variant -> a mismatch when the
//   launch has no other path; when it has one (the conv pack's direct family), those variants are
//   not compared and the rows stay changed, naming the path;
// - every variant agrees -> those rows fold to inert;
// - not checked (no compiler, a header that does not compile standalone, an argument impactd
//   cannot resolve, a module that does not import, Python raising on a variant) -> the rows stay
//   changed and say why.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "model/Report.h"

namespace impact::emit {

struct GeometrySide {
  bool ok = false;
  std::vector<int64_t> grid, block;  // 3 values each when ok
  std::string error;                 // Python's exception, or what the header threw
  bool declined = false;             // C++: the header function returned an empty optional
  // C++, built with UBSan: the runtime's first report while evaluating this variant
  // ("<path>:<line>:<col>: runtime error: ..."); the values, when there are any, are still compared.
  std::string ub;
};

struct GeometryVariant {
  std::string name;
  GeometrySide python, cpp;
  std::string notEvaluable;  // why the C++ side could not be fed this variant ("" when it was)
};

struct GeometryFamily {
  std::string manifest;                       // the profile declaring the surfaces
  std::string module;                         // repository path of the Python module
  std::string gridFunction, blockFunction;    // Python symbols ("" when the profile has no such entry)
  std::string header, headerFunction;         // the cpp_mirror
  std::string pack;                           // where the call site is ("" when none was found)
  uint32_t packLine = 0;                      // 0-based line of the header function's call there
  std::vector<std::string> inputs;            // every file the evaluation read (pre-existing or new)
  std::vector<std::string> archs;
  std::vector<std::string> plan;              // "blockM <- metadata block_m", one per parameter
  // What else the pack's launch reads, on another path ("`conv::directLaunchGeometry(...)` in
  // directLaunch"): a variant the header function declines may be launched through it.
  std::vector<std::string> otherPaths;
  std::string notChecked;                     // "" when evaluated
  std::vector<GeometryVariant> variants;
  double seconds = 0;                         // what the evaluation cost
  bool cachedBinary = false;                  // the harness came from the cache
  // Why the harness was built without UBSan (the sanitized build's first error line); "" when it
  // was built with it, or not built.
  std::string noUbsan;
};

struct GeometryDocument {
  std::string headTree;  // emit/TreeKey of the head it was made for
  std::vector<GeometryFamily> families;
  // The same families at the merge base, evaluated only for those that disagree at the head: a
  // disagreement the base has too is pre-existing.
  std::vector<GeometryFamily> baseFamilies;
};

// Does the family disagree on some variant (a value, a throw, undefined behaviour)? grid: the grid group, else the block's.
bool geometryDisagrees(const GeometryFamily& f, bool grid);
bool geometryDisagrees(const GeometryFamily& f);

struct GeometryOutcome {
  size_t folded = 0, mismatches = 0, notChecked = 0;
  std::vector<std::string> notes;
};

// changedPaths: paths whose content differs between base and head. A mismatch is pre-existing when
// the base's evaluation of the family disagrees too, or (not evaluated there) none of its inputs changed.
GeometryOutcome foldGeometry(std::vector<Row>& rows, const GeometryDocument& doc, const std::set<std::string>& changedPaths);

}  // namespace impact::emit
