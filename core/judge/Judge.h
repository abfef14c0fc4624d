// Judgement (SPEC R3): compares the contracts of the base and the head and decides each row's
// status. The one place statuses are decided.
#pragma once

#include <functional>
#include <vector>

#include "contracts/Kernargs.h"

#include "analysis/TreeFacts.h"
#include "git/Snapshot.h"
#include "model/Layout.h"
#include "model/Report.h"

namespace impact {

// One side of the comparison: its facts, and the content id of any path (for "touched").
struct Revision {
  const TreeFacts& facts;
  std::function<const FileRef*(const std::string& path)> find;
  const std::vector<KernargsPair>* pairs = nullptr;  // precomputed pairs of `facts`, if any

  static Revision of(const Snapshot& snap, const TreeFacts& facts) {
    return {facts, [&snap](const std::string& p) { return snap.find(p); }, nullptr};
  }
};

// Did the path's content change between the two sides (added and removed count)?
bool touched(const Revision& base, const Revision& head, const std::string& path);

// Rows for every contract the change (base -> head) touches, in a stable order.
// Notes about the judgement itself (a missing generic-target table) go to `notes` when given.
std::vector<Row> judge(const Revision& base, const Revision& head, const Layout& layout,
                       std::vector<std::string>* notes = nullptr);

}  // namespace impact
