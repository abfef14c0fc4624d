// One report from revisions: resolve them, snapshot base and head, extract, judge, roll up.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "emit/EmitDocument.h"
#include "extract/Extract.h"
#include "model/Layout.h"
#include "model/Report.h"

namespace impact {

struct ReportRequest {
  std::string repo = ".";
  std::string base;       // a revision; the merge base of it and the head is compared
  std::string head;       // a commit; "" = the working tree (HEAD + index + worktree + untracked)
  std::string targetTip;  // a revision; when set, the head merged into it is analysed too (R1.1)
  // The layout configuration (model/LayoutConfig.h); "" = .impactd.yaml at the work tree's root
  // when there is one, else the monorepo's defaults.
  std::string config;
  std::string genericTargets;  // overrides the layout's generic-target table when set
  // An emit document (impact emit) to fold (core/emit/Fold.h); refused when it was made for other
  // trees than this report's base and head.
  std::shared_ptr<const emit::EmitDocument> emit;
};

// With a target tip, base-vs-merged is judged as well: the head commit merged into the tip in
// memory (for a working-tree head, HEAD's commit with the uncommitted changes merged in). Rows
// found only there carry view "merged", rows reading a conflicted file are dropped, and one
// "merge-conflict" row names the conflicted files.
// Errors (the analysis could not run): not a git repository, unknown revision, no merge
// base, unreadable object. Each message names its cause.
class Repository;
// The layout a request runs with: its --config file, else .impactd.yaml at the work tree's
// root, else `defaults`. A configuration that does not read is an error naming the file.
absl::StatusOr<Layout> layoutFor(const ReportRequest& req, const Repository& repo, const Layout& defaults);

absl::StatusOr<Report> runReport(const ReportRequest& req, const Layout& layout, ExtractCache& cache);

}  // namespace impact
