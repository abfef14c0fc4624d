// Judgement (SPEC R3): compares the contracts of the base and the head and decides each row's
// status. The one place statuses are decided.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <vector>

#include "contracts/Kernargs.h"

#include "analysis/TreeFacts.h"
#include "git/Snapshot.h"
#include "model/Layout.h"
#include "model/Report.h"

namespace impact {

// One side of the comparison: its facts, and the content id of any path (for "touched").
class ModuleGraph;
class ArchIndex;

// What is derived from one side's facts, computed once and reused while they do not change
// (the language server keeps the base's for as long as the merge base holds). The module graph
// memoizes lookups: use one Derived from one thread at a time.
struct Derived {
  std::shared_ptr<const TreeFacts> facts;
  Layout layout;
  std::vector<KernargsPair> pairs;
  std::vector<KernargsPair> unpaired;  // copies that pair with nothing, with why (accounting)
  std::unique_ptr<ModuleGraph> graph;
  std::unique_ptr<ArchIndex> archs;
  static std::shared_ptr<const Derived> of(std::shared_ptr<const TreeFacts> facts, const Layout& layout);
  ~Derived();
};

struct Revision {
  const TreeFacts& facts;
  std::function<const FileRef*(const std::string& path)> find;
  const std::vector<KernargsPair>* pairs = nullptr;  // precomputed pairs of `facts`, if any
  const Derived* derived = nullptr;                  // precomputed graph and archs, if any

  static Revision of(const Snapshot& snap, const TreeFacts& facts) {
    return {facts, [&snap](const std::string& p) { return snap.find(p); }, nullptr};
  }
};

// Did the path's content change between the two sides (added and removed count)?
bool touched(const Revision& base, const Revision& head, const std::string& path);
// Did it change beyond comments, whitespace and value-preserving layout (FileFacts::fingerprint)?
// A touched file that is not analysed, added, removed or unreadable counts as changed.
bool changedInCode(const Revision& base, const Revision& head, const std::string& path);

// Rows for every contract the change (base -> head) touches, in a stable order.
struct ContractRows;

// What a caller that judges again and again (the language server) keeps between judgements:
// the rows of each contract, and the kinds of the files that changed since they were made. A
// contract that reads none of those kinds is not judged again.
struct JudgeMemo {
  bool valid = false;             // false: judge every contract (new base, new working tree)
  std::set<FileKind> changedKinds;
  std::map<std::string, ContractRows> rows;
  int judged = 0;                 // contracts judged (not reused) over the memo's life
  JudgeMemo();
  ~JudgeMemo();
};

// Notes about the judgement itself (a missing generic-target table) go to `notes` when given.
std::vector<Row> judge(const Revision& base, const Revision& head, const Layout& layout,
                       std::vector<std::string>* notes = nullptr, JudgeMemo* memo = nullptr);

}  // namespace impact
