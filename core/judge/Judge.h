// Judgement (SPEC R3): compares the contracts of the base and the head and decides each row's
// status. The one place statuses are decided.
#pragma once

#include <vector>

#include "analysis/TreeFacts.h"
#include "git/Snapshot.h"
#include "model/Layout.h"
#include "model/Report.h"

namespace impact {

struct Revision {
  const Snapshot& snap;
  const TreeFacts& facts;
};

// Rows for every contract the change (base -> head) touches, in a stable order.
std::vector<Row> judge(const Revision& base, const Revision& head, const Layout& layout);

}  // namespace impact
