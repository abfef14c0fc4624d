// The contracts beyond kernargs, each judged in its own file. judge() (Judge.cpp) calls each
// and merges its rows; paths a contract explains (a changed or mismatch row reads them) or
// covers (any row reads them) are not given a generic file row.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "judge/Archs.h"
#include "judge/Judge.h"
#include "python/ModuleGraph.h"

namespace impact {

// What every contract judge reads: both sides, and what is derived from them once per
// judgement (module graphs, architecture indexes).
struct JudgeContext {
  const Revision& base;
  const Revision& head;
  const Layout& layout;
  const ModuleGraph& baseGraph;
  const ModuleGraph& headGraph;
  const ArchIndex& baseArchs;
  const ArchIndex& headArchs;
};

struct ContractRows {
  std::vector<Row> rows;
  std::set<std::string> explained, covered;
  std::vector<std::string> notes;  // said once under the rows (what could not be checked)
};

// kernargs: each copy paired with a builder at the head, and each that paired at the base and
// pairs with nothing now (KernargRows.cpp).
ContractRows judgeKernargPairs(const JudgeContext& cx, const std::vector<KernargsPair>& basePairs,
                               const std::vector<KernargsPair>& headPairs);
// R2.4: launch_surface entries (python_source symbols and the code they reach, C++ mirrors).
ContractRows judgeLaunchSurfaces(const JudgeContext& cx);
// R2.5: descriptor symbol strings vs pack constants; KMD fields read vs declared.
ContractRows judgeSymbols(const JudgeContext& cx);
// R2.6: removed or re-signed Python symbols traced to their readers.
ContractRows judgeRemovedSymbols(const JudgeContext& cx);
// R2.8, R2.9: generated and SDK headers; CMake, requirements and CI test-category files.
ContractRows judgeBuildFiles(const JudgeContext& cx);
// kernargs rows of names arrays against the Python names lists they restate (NameListRows.cpp).
ContractRows judgeNameLists(const JudgeContext& cx);
// DOMAIN.md §6: the grid/block of real AOT catalog entries vs their module's *_grid/*_block.
ContractRows judgeCatalogGeometry(const JudgeContext& cx);
// DOMAIN.md §6: an AOT adapter's (or test's) name-keyed LaunchBindings vs the catalog entries.
ContractRows judgeCatalogBindings(const JudgeContext& cx);
// The touched surface files whose change no row above explains (a changed file) or covers (an
// inert one): their own rows (FileRows.cpp).
std::vector<Row> judgeTouchedFiles(const JudgeContext& cx, const std::set<std::string>& explained,
                                   const std::set<std::string>& covered);

}  // namespace impact
