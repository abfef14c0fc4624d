// The fold (SPEC R4.3): a pure function of the report's rows and a validated emit document.
// A `changed` row on a shipped Python module becomes `inert` only when every built family whose
// module closure holds the module emitted equal arguments, IR and compile inputs at both
// revisions. Never for code that runs after lowering (rocke/helpers/compile.py, rocke/runtime/),
// never when a DVC pointer changed, never when such a family failed or timed out, never when the
// row's copy changed too, and in the merged view only when the target tip changed no descriptor
// and no shipped-closure module since the base.
// A family whose arguments differ between the revisions is evidence: a kernargs row whose copy
// agrees with no kernel the builder emitted at the head becomes a mismatch, even where static
// extraction could not resolve the builder's list.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "emit/EmitDocument.h"
#include "model/Report.h"

namespace impact::emit {

struct FoldContext {
  std::set<std::string> changedPaths;  // paths whose content differs between base and head
  // The head's copies of argument lists, by kernargs row key ("kernargs|<copy key>"): name (""
  // when unnamed), kind and size ("" / 0 when the copy does not state them).
  std::map<std::string, std::vector<ArgRecord>> copyArgs;
  bool mergedGuard = false;            // the merged view may fold (see above)
  std::string mergedGuardWhy;          // why not, for the note
};

struct FoldOutcome {
  size_t folded = 0;
  size_t mismatches = 0;  // rows the emitted arguments turned into mismatches
  std::vector<std::string> notes;
};

// Does the path hold code that runs after lowering (an equal IR digest says nothing about it)?
bool runsAfterLowering(const std::string& path);

FoldOutcome foldRows(std::vector<Row>& rows, const EmitDocument& doc, const FoldContext& ctx);

}  // namespace impact::emit
