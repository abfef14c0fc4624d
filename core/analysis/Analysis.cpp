#include "analysis/Analysis.h"

#include "contracts/Accounting.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/LayoutConfig.h"

#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "emit/Fold.h"
#include "emit/PackTimeLine.h"
#include "emit/RunTruth.h"
#include "emit/TreeKey.h"
#include "extract/Descriptor.h"
#include "git/Repository.h"
#include "io/DiskRead.h"
#include "judge/Judge.h"

namespace impact {

namespace {

std::string shortId(const std::string& id) { return id.substr(0, 7); }

// The identity of a row across views: its contract key (or, lacking one, what it names) and status.
std::string rowIdentity(const Row& r) {
  std::string id = !r.key.empty() ? r.key
                                  : absl::StrCat(r.contract, "|", r.python.path, "|", r.python.symbol, "|",
                                                 r.mirror.path, "|", r.mirror.symbol);
  return absl::StrCat(id, "#", statusName(r.status));
}

// SPEC R1.1, R1.2: base vs the head merged into the target tip. Adds the rows found only in the
// merged view (view "merged"), drops those that read a conflicted file, and adds one row that
// stands for the conflicted files.
// For a working-tree head (worktree != null) the merge is of HEAD's commit; the uncommitted
// changes are then merged in too: a file the target tip left as HEAD has it takes its
// working-tree content; a file both changed is merged three ways in memory (a conflict there is a
// conflict of the merged view like any other, keeping the working-tree content).
absl::Status addMergedView(const Repository& repo, const std::string& headCommit, const std::string& tip,
                           const Snapshot* worktree, const Snapshot& baseSnap, const TreeFacts& baseFacts,
                           const Layout& layout, ExtractCache& cache, Report& rep) {
  auto tipBase = repo.mergeBase(headCommit, tip);
  if (!tipBase.ok()) return tipBase.status();
  auto merged = repo.mergedSnapshot(headCommit, tip, *tipBase);
  if (!merged.ok()) return merged.status();
  size_t uncommitted = 0;
  if (worktree) {
    auto committed = repo.commitSnapshot(headCommit);
    if (!committed.ok()) return committed.status();
    auto ancestorSnap = repo.commitSnapshot(*tipBase);
    if (!ancestorSnap.ok()) return ancestorSnap.status();
    auto tipSnap = repo.commitSnapshot(tip);
    if (!tipSnap.ok()) return tipSnap.status();
    auto idOf = [](const Snapshot& s, const std::string& p) {
      const FileRef* f = s.find(p);
      return f ? f->id : std::string();
    };
    std::set<std::string> paths, conflicted(merged->conflicted.begin(), merged->conflicted.end());
    for (const auto& [p, _] : worktree->files) paths.insert(p);
    for (const auto& [p, _] : committed->files) paths.insert(p);
    for (const std::string& p : paths) {
      std::string was = idOf(*committed, p), now = idOf(*worktree, p);
      if (was == now) continue;  // not an uncommitted change
      ++uncommitted;
      const FileRef* wf = worktree->find(p);
      std::string anc = idOf(*ancestorSnap, p), tipId = idOf(*tipSnap, p);
      auto takeWorktree = [&] {
        if (wf) merged->snap.files[p] = *wf;
        else merged->snap.remove(p);
      };
      if ((idOf(merged->snap, p) == was && !conflicted.count(p)) || anc == tipId || tipId == now) {
        takeWorktree();  // the target tip did not change it, or changed it the same way
        conflicted.erase(p);
        continue;
      }
      bool clean = false;
      if (wf && !tipId.empty()) {
        absl::StatusOr<std::string> a = anc.empty() ? std::string() : ancestorSnap->read(p);
        auto t = tipSnap->read(p);
        auto w = worktree->read(p);
        if (!a.ok()) return a.status();
        if (!t.ok()) return t.status();
        if (!w.ok()) return w.status();
        auto m = Repository::mergeText(*a, *t, *w);
        if (!m.ok()) return m.status();
        if (m->clean) {
          merged->snap.overlay(p, std::move(m->content));
          clean = true;
        }
      }
      if (clean) {
        conflicted.erase(p);
      } else {
        takeWorktree();
        conflicted.insert(p);
      }
    }
    merged->conflicted.assign(conflicted.begin(), conflicted.end());
  }
  TreeFacts mergedFacts = collectFacts(merged->snap, layout, cache);
  std::vector<Row> mergedRows =
      judge(Revision::of(baseSnap, baseFacts), Revision::of(merged->snap, mergedFacts), layout);

  std::set<std::string> seen;
  for (const Row& r : rep.rows) seen.insert(rowIdentity(r));
  const std::set<std::string> conflicted(merged->conflicted.begin(), merged->conflicted.end());
  size_t added = 0, dropped = 0;
  for (Row& r : mergedRows) {
    if (seen.count(rowIdentity(r))) continue;
    if ((!r.python.empty() && conflicted.count(r.python.path)) ||
        (!r.mirror.empty() && conflicted.count(r.mirror.path))) {
      ++dropped;
      continue;
    }
    r.view = "merged";
    rep.rows.push_back(std::move(r));
    ++added;
  }
  if (!merged->conflicted.empty()) {
    const auto& files = merged->conflicted;
    Row c;
    c.contract = "merge-conflict";
    c.status = Status::Changed;
    c.view = "merged";
    c.key = "merge-conflict";
    c.mirror.path = files.front();
    c.message = absl::StrCat("conflicts with the target tip in ", files.size(),
                             files.size() == 1 ? " file: " : " files: ", absl::StrJoin(files, ", "),
                             " (rows reading them are dropped)");
    rep.rows.push_back(std::move(c));
  }
  rep.notes.push_back(absl::StrCat("merged view: the head merged into the target tip ", shortId(tip),
                                   " (their merge base ", shortId(*tipBase), "): ", added,
                                   added == 1 ? " row" : " rows", " found only there",
                                   dropped ? absl::StrCat(", ", dropped, " dropped for reading a conflicted file")
                                           : std::string()));
  if (worktree)
    rep.notes.push_back(absl::StrCat("the merged view merges HEAD's commit ", shortId(headCommit), " with ",
                                     uncommitted, " uncommitted ", uncommitted == 1 ? "file" : "files",
                                     " merged in"));
  return absl::OkStatus();
}

std::set<std::string> changedPaths(const Snapshot& a, const Snapshot& b) {
  // A scoped snapshot does not list every path: two commits' trees are compared in git (folders
  // with the same tree id skipped), which sees every path.
  if ((a.scoped || b.scoped) && !a.treeId.empty() && !b.treeId.empty() && a.blobs)
    if (auto changed = a.blobs->changedBetween(a.treeId, b.treeId); changed.ok()) return *std::move(changed);
  std::set<std::string> out;
  for (const auto& [p, f] : a.files)
    if (const FileRef* g = b.find(p); !g || g->id != f.id) out.insert(p);
  for (const auto& [p, f] : b.files)
    if (!a.find(p)) out.insert(p);
  return out;
}

}  // namespace

emit::FoldContext foldContextFor(const Snapshot& base, const Snapshot& head, const std::vector<KernargsPair>& headPairs) {
  emit::FoldContext ctx;
  ctx.changedPaths = changedPaths(base, head);
  for (const auto& p : headPairs) {
    // Launch calls state no kind/size; a name-keyed check states no order.
    if (!p.copy.list || p.copy.list->form == CppArgList::Form::Launch || p.copy.list->form == CppArgList::Form::NameKeyed)
      continue;
    auto& args = ctx.copyArgs["kernargs|" + p.copy.key];
    // A catalog entry's names are the catalog's vocabulary (`Q` for `q_ptr`): its kinds and sizes are compared.
    for (const auto& a : p.copy.list->args)
      args.push_back({p.copy.list->catalog ? "" : a.name, a.resolved ? a.kind : "", "", a.resolved ? a.size : 0u});
  }
  return ctx;
}

namespace {

// SPEC R4.3: folds the rows with the emit document, after checking it was made for these trees.
absl::Status foldEmit(const ReportRequest& req, const Repository& repo, const Snapshot& baseSnap,
                      const Snapshot& headSnap, const TreeFacts& headFacts, const Layout& layout,
                      const std::string& targetTip, Report& rep) {
  const emit::EmitDocument& doc = *req.emit;
  std::string bt = emit::treeKey(baseSnap), ht = emit::treeKey(headSnap);
  if ((doc.baseTree != bt || doc.headTree != ht) && req.emitIfSameTrees) {
    rep.notes.push_back("the emitter's last result is for other trees than this report's: not folded");
    return absl::OkStatus();
  }
  if (doc.baseTree != bt || doc.headTree != ht)
    return absl::FailedPreconditionError(absl::StrCat(
        "the emit document is for other trees (base ", doc.baseTree, ", head ", doc.headTree,
        "); this report compares base ", bt, " and head ", ht, ": run impact emit for this range"));
  std::vector<KernargsPair> headPairs = pairKernargs(headFacts, layout);
  emit::FoldContext ctx = foldContextFor(baseSnap, headSnap, headPairs);
  if (!targetTip.empty()) {
    auto tip = repo.commitSnapshot(targetTip);
    if (!tip.ok()) return tip.status();
    std::set<std::string> shipped;
    for (const auto& f : doc.families)
      for (const auto* s : {&f.base, &f.head}) shipped.insert(s->closure.begin(), s->closure.end());
    for (const auto& p : changedPaths(baseSnap, *tip)) {
      if (!descriptorType(p).empty() || shipped.count(p)) {
        ctx.mergedGuardWhy = "the target tip changed " + p + " since the base";
        break;
      }
    }
    ctx.mergedGuard = ctx.mergedGuardWhy.empty();
  }
  auto out = emit::foldRows(rep.rows, doc, ctx);
  rep.notes.insert(rep.notes.end(), out.notes.begin(), out.notes.end());
  // The run is the truth where it exists (issue 36 item 5): every copy against the recorded
  // lists of the variants it serves, and the static reading of each builder against its run.
  if (!doc.shard) {
    auto truth = emit::judgeCopiesByRun(rep.rows, doc, headPairs, ctx.changedPaths);
    rep.notes.insert(rep.notes.end(), truth.notes.begin(), truth.notes.end());
    emit::addStaticRunRows(rep.rows, rep.notes, emit::staticVsRun(doc, headFacts), headFacts);
  }
  rep.packTime = emit::packTimeLine(doc, &rep.notes);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Layout> layoutFor(const ReportRequest& req, const Repository& repo, const Layout& defaults) {
  std::string path = req.config;
  if (path.empty() && !repo.workdir().empty()) {
    std::string candidate = repo.workdir() + kLayoutConfigFile;
    if (std::filesystem::exists(candidate)) path = candidate;
  }
  if (path.empty()) return defaults;
  // The guarded read (io/DiskRead.h): a checked-out `.impactd.yaml` that is a FIFO or a symlink
  // to /dev/zero is refused, not read forever. One named on the command line may be anywhere.
  auto text = readRegularFile(path, DiskReadLimits::within(req.config.empty() ? repo.workdir() : "/", 1u << 20));
  if (!text.ok())
    return absl::Status(text.status().code(),
                        absl::StrCat("cannot read the layout configuration ", path, ": ",
                                     absl::IsNotFound(text.status()) ? std::string(text.status().message())
                                                                     : notReadMessage(text.status())));
  auto layout = layoutFromYaml(*text, defaults);
  if (!layout.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", layout.status().message()));
  return layout;
}

absl::StatusOr<std::vector<std::string>> applyGeometry(std::vector<Row>& rows, const emit::GeometryDocument& doc,
                                                       const Snapshot& base, const Snapshot& head,
                                                       const std::string& headKey) {
  if (doc.headTree != headKey)
    return absl::FailedPreconditionError(
        absl::StrCat("the geometry evaluation is for another head (", doc.headTree, ") than this report's (", headKey, ")"));
  return emit::foldGeometry(rows, doc, changedPaths(base, head)).notes;
}

absl::StatusOr<Report> runReport(const ReportRequest& req, const Layout& defaults, ExtractCache& cache) {
  auto repo = Repository::open(req.repo);
  if (!repo.ok()) return repo.status();
  auto configured = layoutFor(req, **repo, defaults);
  if (!configured.ok()) return configured.status();
  if (!req.genericTargets.empty()) configured->genericTargetTable = req.genericTargets;
  const Layout& layout = *configured;
  auto baseTip = (*repo)->resolve(req.base);
  if (!baseTip.ok()) return baseTip.status();
  auto headCommit = (*repo)->resolve(req.head.empty() ? "HEAD" : req.head);
  if (!headCommit.ok()) return headCommit.status();
  std::string targetTip;
  if (!req.targetTip.empty()) {
    auto tip = (*repo)->resolve(req.targetTip);
    if (!tip.ok()) return tip.status();
    targetTip = *tip;
  }
  auto mb = (*repo)->mergeBase(*baseTip, *headCommit);
  if (!mb.ok()) return mb.status();

  // A report reads analysed files only (and looks any other path up when a rule names it): the
  // commits' snapshots list only the folders that can hold one, so the rest of a monorepo is
  // never walked. The fold compares every path: between two commits git does (changedPaths);
  // against the working tree, which has no tree id, the snapshots list every path.
  FolderScope scope;
  if (!req.emit || !req.head.empty())
    scope = [&layout](std::string_view folder) { return layout.mayHoldAnalysed(folder); };
  auto baseSnap = (*repo)->commitSnapshot(*mb, scope);
  if (!baseSnap.ok()) return baseSnap.status();
  auto headSnap = req.head.empty() ? (*repo)->workdirSnapshot() : (*repo)->commitSnapshotFrom(*baseSnap, *headCommit, scope);
  if (!headSnap.ok()) {
    if (req.head.empty() && (*repo)->workdir().empty())
      return absl::FailedPreconditionError(
          "the repository is bare: there is no working tree to compare; name a head commit (--head REV)");
    return headSnap.status();
  }
  if (req.head.empty())
    for (const auto& [path, text] : req.overlay) headSnap->overlay(path, text);

  auto both = collectFacts({&*baseSnap, &*headSnap}, layout, cache);
  auto baseShared = std::make_shared<const TreeFacts>(std::move(both[0]));
  auto headShared = std::make_shared<const TreeFacts>(std::move(both[1]));
  const TreeFacts& baseFacts = *baseShared;
  const TreeFacts& headFacts = *headShared;
  for (const TreeFacts* tf : {&baseFacts, &headFacts})
    if (!tf->unreadable.empty())
      return absl::DataLossError(
          absl::StrCat(tf->unreadable.begin()->second, ": the repository is damaged; `git fsck` says more"));

  Report rep;
  rep.mergeBase = *mb;
  rep.base = *baseTip;
  rep.head = req.head.empty() ? "working tree" : *headCommit;
  // Each side's pairs, module graph and arch index, the two sides at once.
  std::shared_ptr<const Derived> baseDerived;
  std::thread baseSide([&] { baseDerived = Derived::of(baseShared, layout); });
  std::shared_ptr<const Derived> headDerived = Derived::of(headShared, layout);
  baseSide.join();
  Revision baseRev = Revision::of(*baseSnap, baseFacts), headRev = Revision::of(*headSnap, headFacts);
  baseRev.derived = baseDerived.get();
  headRev.derived = headDerived.get();
  // The coverage line (the head's accounting) reads only the head's facts and pairs: it is
  // counted beside the judgement.
  Accounting acc;
  std::thread coverage([&] { acc = account(headFacts, layout, headDerived->pairs, headDerived->unpaired, /*compare=*/false); });
  rep.rows = judge(baseRev, headRev, layout, &rep.notes);
  coverage.join();
  rep.coverage = {true, acc.copiesCompared, acc.copiesTotal, acc.buildersRead, acc.buildersTotal};
  if (!targetTip.empty()) {
    absl::Status st = addMergedView(**repo, *headCommit, targetTip, req.head.empty() ? &*headSnap : nullptr,
                                    *baseSnap, baseFacts, layout, cache, rep);
    if (!st.ok()) return st;
  }
  if (req.emit) {
    absl::Status st = foldEmit(req, **repo, *baseSnap, *headSnap, headFacts, layout, targetTip, rep);
    if (!st.ok()) return st;
  }
  if (req.geometry) {
    auto notes = applyGeometry(rep.rows, *req.geometry, *baseSnap, *headSnap, emit::treeKey(*headSnap));
    if (!notes.ok() && req.geometryIfSameTree)
      rep.notes.push_back("the geometry differential's last result is for another head than this report's: not folded");
    else if (!notes.ok())
      return notes.status();
    else
      rep.notes.insert(rep.notes.end(), notes->begin(), notes->end());
  }
  rep.rollup = rollUp(rep.rows);
  size_t pre = 0;
  for (const auto& r : rep.rows)
    if (r.status == Status::Mismatch && r.preexisting) ++pre;
  if (pre)
    rep.notes.push_back(absl::StrCat(pre, " mismatch", pre == 1 ? " was" : "es were",
                                     " already present at the merge base: reported, not counted as a break"));
  if (req.keepAlive)
    for (std::shared_ptr<const void> kept : {std::shared_ptr<const void>(baseDerived), std::shared_ptr<const void>(headDerived),
                                             std::shared_ptr<const void>(std::make_shared<Snapshot>(std::move(*baseSnap))),
                                             std::shared_ptr<const void>(std::make_shared<Snapshot>(std::move(*headSnap))),
                                             std::shared_ptr<const void>(std::shared_ptr<Repository>(std::move(*repo)))})
      req.keepAlive->push_back(std::move(kept));
  return rep;
}

}  // namespace impact
