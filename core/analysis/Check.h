// impact check (issue 26 item 4): what impactd understood of a tree, as `clangd --check` says
// what it understood of a file — per family, the builder and its evaluated argument lists with
// guards, every copy and the declaration that paired it, and every "not read / not compared"
// with its reason (contracts/Accounting.h decides; this runs it on a revision and renders it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/TreeFacts.h"
#include "contracts/Accounting.h"
#include "extract/Extract.h"
#include "model/Layout.h"

namespace impact {

struct CheckRequest {
  std::string repo = ".";
  std::string head;    // a commit; "" = the working tree
  std::string config;  // as ReportRequest::config
  std::vector<std::string> paths;  // repository-relative prefixes; empty = everything
};

struct CheckResult {
  std::string head;                         // "working tree" or the commit
  std::shared_ptr<const TreeFacts> facts;   // what `accounting` points into
  Accounting accounting;
};

absl::StatusOr<CheckResult> runCheck(const CheckRequest& req, const Layout& defaults, ExtractCache& cache);

// Only the families, copies and builders under `paths` (a family is in when its builder or one of
// its copies is); the counts recomputed. Empty `paths`: unchanged.
Accounting filterAccounting(const Accounting& a, const std::vector<std::string>& paths);

std::string renderCheckText(const CheckResult& r, const Accounting& a);
std::string renderCheckJson(const CheckResult& r, const Accounting& a);

}  // namespace impact
