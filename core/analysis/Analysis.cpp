#include "analysis/Analysis.h"

#include "absl/strings/str_cat.h"
#include "analysis/TreeFacts.h"
#include "git/Repository.h"
#include "judge/Judge.h"

namespace impact {

absl::StatusOr<Report> runReport(const ReportRequest& req, const Layout& layout, ExtractCache& cache) {
  auto repo = Repository::open(req.repo);
  if (!repo.ok()) return repo.status();
  auto baseTip = (*repo)->resolve(req.base);
  if (!baseTip.ok()) return baseTip.status();
  auto headCommit = (*repo)->resolve(req.head.empty() ? "HEAD" : req.head);
  if (!headCommit.ok()) return headCommit.status();
  if (!req.targetTip.empty()) {
    auto tip = (*repo)->resolve(req.targetTip);
    if (!tip.ok()) return tip.status();
  }
  auto mb = (*repo)->mergeBase(*baseTip, *headCommit);
  if (!mb.ok()) return mb.status();

  auto baseSnap = (*repo)->commitSnapshot(*mb);
  if (!baseSnap.ok()) return baseSnap.status();
  auto headSnap = req.head.empty() ? (*repo)->workdirSnapshot() : (*repo)->commitSnapshot(*headCommit);
  if (!headSnap.ok()) return headSnap.status();

  TreeFacts baseFacts = collectFacts(*baseSnap, layout, cache);
  TreeFacts headFacts = collectFacts(*headSnap, layout, cache);

  Report rep;
  rep.mergeBase = *mb;
  rep.base = *baseTip;
  rep.head = req.head.empty() ? "working tree" : *headCommit;
  rep.rows = judge(Revision::of(*baseSnap, baseFacts), Revision::of(*headSnap, headFacts), layout);
  rep.rollup = rollUp(rep.rows);
  size_t pre = 0;
  for (const auto& r : rep.rows)
    if (r.status == Status::Mismatch && r.preexisting) ++pre;
  if (pre)
    rep.notes.push_back(absl::StrCat(pre, " mismatch", pre == 1 ? " was" : "es were",
                                     " already present at the merge base: reported, not counted as a break"));
  if (!req.targetTip.empty())
    rep.notes.push_back("--target-tip: the merged view is not analysed yet; head and base only");
  return rep;
}

}  // namespace impact
