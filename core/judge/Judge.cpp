#include "judge/Judge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/Kernargs.h"
#include "judge/Archs.h"
#include "judge/Contracts.h"
#include "python/ModuleGraph.h"

namespace impact {


bool touched(const Revision& base, const Revision& head, const std::string& path) {
  const FileRef* a = base.find(path);
  const FileRef* b = head.find(path);
  if (!a || !b) return a != b;
  return a->id != b->id;
}

bool changedInCode(const Revision& base, const Revision& head, const std::string& path) {
  if (path.empty() || !touched(base, head, path)) return false;
  const FileFacts* a = base.facts.find(path);
  const FileFacts* b = head.facts.find(path);
  if (!a || !b || !a->ok || !b->ok) return true;
  return a->fingerprint != b->fingerprint;
}

std::shared_ptr<const Derived> Derived::of(std::shared_ptr<const TreeFacts> facts, const Layout& layout) {
  auto d = std::make_shared<Derived>();
  d->facts = std::move(facts);
  d->layout = layout;
  d->pairs = pairKernargs(*d->facts, d->layout, &d->unpaired);
  d->graph = std::make_unique<ModuleGraph>(*d->facts, d->layout);
  d->archs = std::make_unique<ArchIndex>(*d->facts, d->layout, *d->graph);
  return d;
}

Derived::~Derived() = default;

std::vector<Row> judge(const Revision& base, const Revision& head, const Layout& layout,
                       std::vector<std::string>* notes, JudgeMemo* memo) {
  // Each side's module graph and arch index: precomputed when the caller has them.
  std::optional<ModuleGraph> ownHeadGraph, ownBaseGraph;
  std::optional<ArchIndex> ownHeadArchs, ownBaseArchs;
  if (!head.derived) ownHeadGraph.emplace(head.facts, layout);
  if (!base.derived) ownBaseGraph.emplace(base.facts, layout);
  const ModuleGraph& headGraph = head.derived ? *head.derived->graph : *ownHeadGraph;
  const ModuleGraph& baseGraph = base.derived ? *base.derived->graph : *ownBaseGraph;
  if (!head.derived) ownHeadArchs.emplace(head.facts, layout, headGraph);
  if (!base.derived) ownBaseArchs.emplace(base.facts, layout, baseGraph);
  const ArchIndex& headArchs = head.derived ? *head.derived->archs : *ownHeadArchs;
  const ArchIndex& baseArchs = base.derived ? *base.derived->archs : *ownBaseArchs;
  JudgeContext cx{base, head, layout, baseGraph, headGraph, baseArchs, headArchs};
  if (notes && !headArchs.unexpanded().empty()) {
    std::string names;
    for (const auto& g : headArchs.unexpanded()) names += (names.empty() ? "" : ", ") + g;
    notes->push_back(headArchs.tableFound()
                         ? "generic targets not in the table " + layout.genericTargetTable + ": " + names + " (kept as named)"
                         : "no generic-target table at " + layout.genericTargetTable + ": " + names +
                               " kept as named (their member archs are unknown)");
  }

  std::vector<KernargsPair> headOwn, baseOwn;
  const std::vector<KernargsPair>* headGiven = head.pairs ? head.pairs : head.derived ? &head.derived->pairs : nullptr;
  const std::vector<KernargsPair>* baseGiven = base.pairs ? base.pairs : base.derived ? &base.derived->pairs : nullptr;
  if (!headGiven) headOwn = pairKernargs(head.facts, layout);
  if (!baseGiven) baseOwn = pairKernargs(base.facts, layout);
  // kernargs rows (KernargRows.cpp); paths a row explains (a changed or mismatch row reads them)
  // or covers (any row reads them) get no generic file row below.
  ContractRows pairs = judgeKernargPairs(cx, baseGiven ? *baseGiven : baseOwn, headGiven ? *headGiven : headOwn);
  std::vector<Row> rows = std::move(pairs.rows);
  std::set<std::string> explained = std::move(pairs.explained), covered = std::move(pairs.covered);

  // The other contracts (SPEC R2.4–R2.9), each judged in its own file under core/judge/. With
  // a memo (the language server), a contract none of whose input kinds changed since the
  // last judgement is not judged again: its rows are reused.
  struct Entry {
    const char* name;
    ContractRows (*judge)(const JudgeContext&);
    std::set<FileKind> reads;
  };
  static const Entry contracts[] = {
      {"launch-surface", &judgeLaunchSurfaces, {FileKind::Python, FileKind::Cpp, FileKind::Manifest, FileKind::Descriptor}},
      {"symbols", &judgeSymbols, {FileKind::Cpp, FileKind::Manifest, FileKind::Descriptor}},
      {"removed-symbol", &judgeRemovedSymbols, {FileKind::Python, FileKind::Descriptor}},
      {"build", &judgeBuildFiles, {FileKind::Cpp, FileKind::Other}},
      {"catalog-geometry", &judgeCatalogGeometry, {FileKind::Python, FileKind::Descriptor}},
      {"catalog-bindings", &judgeCatalogBindings, {FileKind::Cpp, FileKind::Descriptor}},
      {"kernargs-names", &judgeNameLists, {FileKind::Python, FileKind::Cpp, FileKind::Manifest}},
  };
  for (const Entry& e : contracts) {
    bool reuse = memo && memo->valid && memo->rows.count(e.name);
    for (FileKind k : e.reads) reuse = reuse && !memo->changedKinds.count(k);
    ContractRows more = reuse ? memo->rows[e.name] : e.judge(cx);
    if (memo) memo->rows[e.name] = more;
    if (memo) memo->judged += reuse ? 0 : 1;
    for (auto& r : more.rows) rows.push_back(std::move(r));
    if (notes) notes->insert(notes->end(), more.notes.begin(), more.notes.end());
    explained.insert(more.explained.begin(), more.explained.end());
    covered.insert(more.covered.begin(), more.covered.end());
  }

  // Touched surface files whose change no pair row explains (FileRows.cpp).
  for (Row& r : judgeTouchedFiles(cx, explained, covered)) rows.push_back(std::move(r));

  // A pre-existing mismatch on files this change touched only inertly asks for no device run.
  for (Row& r : rows) {
    if (r.status != Status::Mismatch || !r.preexisting) continue;
    std::vector<std::string> reads{r.python.path, r.mirror.path};
    if (r.key.starts_with("launch-surface|")) reads.push_back(r.key.substr(15, r.key.find('|', 15) - 15));
    r.inertTouch = std::none_of(reads.begin(), reads.end(),
                                [&](const std::string& p) { return changedInCode(base, head, p); });
  }

  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.status != b.status) return a.status < b.status;
    const std::string& pa = a.mirror.empty() ? a.python.path : a.mirror.path;
    const std::string& pb = b.mirror.empty() ? b.python.path : b.mirror.path;
    if (pa != pb) return pa < pb;
    return a.mirror.line < b.mirror.line;
  });
  return rows;
}

}  // namespace impact
