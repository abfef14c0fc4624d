// The builder's own run is the truth where it exists (issue 36 item 5): the emit document records
// the argument list every shipped variant's builder declared when it ran (emit/EmitDocument.h).
//  - judgeCopiesByRun: every copy paired with a family's builder is compared with the RECORDED
//    lists of the variants it serves (its conditional arguments decided by each variant's spec);
//    a disagreement the static reading missed makes its row a mismatch (a row is added when the
//    change did not touch the copy). The static reading stays the live path; this only adds.
//  - staticVsRun: the static evaluator's list for each built family's builder, evaluated for each
//    variant's spec (early returns and conditional arguments decided), against the recorded list.
//    A disagreement is a row "static reading of build_x differs from its run: …" naming the
//    variant and the position; a list the spec does not decide, or open at a point, is compared
//    up to that point and counted in the note.
// Pure functions of the rows, the document and the head's facts and pairs.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "emit/EmitDocument.h"
#include "model/Report.h"

namespace impact::emit {

// A spec as the guards read it: JSON scalars as text ("true", "8", "bf16", "null").
std::map<std::string, std::string> specText(const nlohmann::json& spec);

// A recorded argument as a builder's argument: name, kind, size and its type class ("f32", "i32",
// a pointer's element class).
KernelArg recordedArg(const ArgRecord& a);

struct RunTruthOutcome {
  size_t copies = 0;         // copies compared with at least one variant's recorded list
  size_t comparisons = 0;    // (copy, variant) comparisons
  size_t disagreements = 0;  // copies found disagreeing that the static reading had not
  std::vector<std::string> notes;
};

// `changedPaths`: paths that differ between base and head (a disagreement with nothing changed
// under it was already there at the base: preexisting).
RunTruthOutcome judgeCopiesByRun(std::vector<Row>& rows, const EmitDocument& doc,
                                 const std::vector<KernargsPair>& headPairs,
                                 const std::set<std::string>& changedPaths);

struct StaticRunDiff {
  std::string path, builder, variant;
  int position = -1;     // the first argument that differs (-1: the lists' lengths)
  std::string message;   // "static reading of build_x differs from its run: variant v: #5 ..."
};

struct StaticRunOutcome {
  size_t builders = 0, variants = 0;  // compared
  size_t open = 0;                    // variants compared only up to an open end or undecided guard
  std::vector<StaticRunDiff> diffs;
  std::vector<std::string> openWhy;   // why each open comparison stopped (for the note)
};

StaticRunOutcome staticVsRun(const EmitDocument& doc, const TreeFacts& head);

// The rows and note of staticVsRun (status `outside`: impactd's own reading, never the change's
// verdict; the copies were judged by the run above).
void addStaticRunRows(std::vector<Row>& rows, std::vector<std::string>& notes, const StaticRunOutcome& out,
                      const TreeFacts& head);

}  // namespace impact::emit
