// One report from revisions: resolve them, snapshot base and head, extract, judge, roll up.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "contracts/Kernargs.h"
#include "emit/EmitDocument.h"
#include "emit/Fold.h"
#include "emit/Geometry.h"
#include "git/Snapshot.h"
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
  // Unsaved editor buffers (repository-relative path -> content), laid over the working tree
  // when head is "" (SPEC R1.1: the head is the working tree with the open buffers overlaid).
  std::map<std::string, std::string> overlay;
  // An emit document (impact emit) to fold (core/emit/Fold.h); refused when it was made for other
  // trees than this report's base and head.
  std::shared_ptr<const emit::EmitDocument> emit;
  // When set, a document made for other trees is left out with a note instead of refused (the
  // language server's impact.run: it includes the emit result only when one for the same trees
  // exists).
  bool emitIfSameTrees = false;
  // The geometry differential's evaluation (emitter/geometry/, issue 17): folds or breaks the
  // launch-surface:grid/block rows (core/emit/Geometry.h); refused when made for another head.
  std::shared_ptr<const emit::GeometryDocument> geometry;
  // The language server's last background result: for another head it is left out with a note.
  bool geometryIfSameTree = false;
  // When set, the analysis' own tables (each side's snapshot, facts, pairs, graph) are handed to
  // the caller instead of freed: a process that exits after printing the report (`impact
  // report`) never frees them (a tenth of a warm run was spent freeing them).
  std::vector<std::shared_ptr<const void>>* keepAlive = nullptr;
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

// The fold's context for a head the caller already judged (the language server's working tree):
// the paths that differ between base and head, and the head's copies of argument lists.
emit::FoldContext foldContextFor(const Snapshot& base, const Snapshot& head, const std::vector<KernargsPair>& headPairs);

// The geometry document applied to `rows` of a head (`impact report --geometry`, the language
// server's background run): refused (FailedPrecondition naming both) unless it was made for that
// head, `headKey` being emit::treeKey(head) (the server passes the key it keeps per head); else
// folded (emit::foldGeometry, base and head giving the changed paths) and the fold's notes returned.
absl::StatusOr<std::vector<std::string>> applyGeometry(std::vector<Row>& rows, const emit::GeometryDocument& doc,
                                                       const Snapshot& base, const Snapshot& head,
                                                       const std::string& headKey);

absl::StatusOr<Report> runReport(const ReportRequest& req, const Layout& layout, ExtractCache& cache);

}  // namespace impact
