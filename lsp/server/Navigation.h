// Which kernel argument is at a position, and every copy of it: for hover, definition and
// references. Pure functions of one AnalysisState; repository-relative paths, tree-sitter
// points (0-based line, byte column).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/Workspace.h"

namespace impact::server {

struct ArgSite {
  std::string path;
  SourceRange range;   // the b.param call / the element
  std::string owner;   // builder name, or the copy's function/variable
  KernelArg arg;
  std::string status;  // "builder" | "agrees" | "differs: <what>" | "missing from this copy" | ...
};

struct ArgCopies {
  ArgSite builder;               // the builder's declaration of the argument
  int index = -1;                // its position in the builder's list
  std::string list;              // the builder list's origin (own body or early-return target)
  std::vector<ArgSite> copies;   // one per paired copy that restates it (or lacks it)
  SourceRange at;                // the range under the cursor
};

std::optional<ArgCopies> argumentAt(const AnalysisState& st, const std::string& path, uint32_t line, uint32_t byteCol);

// The pairs whose copy lies in `path` and overlaps the lines [firstLine, lastLine].
std::vector<const KernargsPair*> pairsInRange(const AnalysisState& st, const std::string& path, uint32_t firstLine,
                                              uint32_t lastLine);

// What copy element `c` of `list` states differently from the builder's argument `want` (the
// differences hover and inlay hints show: "named x", "by_value/8"); "" when it agrees.
std::string elementDifference(const CppArgList& list, const KernelArg& c, const KernelArg& want);

std::string renderHover(const ArgCopies& a, bool markdown);

}  // namespace impact::server
