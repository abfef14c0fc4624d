#include "emit/Fold.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact::emit {

bool runsAfterLowering(const std::string& path) {
  return path.ends_with("rocke/helpers/compile.py") || path.find("rocke/runtime/") != std::string::npos;
}

namespace {

// Why a family cannot prove anything ("" when it emitted equal results for every variant).
std::string familyVerdict(const Family& f, const std::set<std::string>& failed) {
  if (failed.count(f.key())) return "recorded a failure";
  for (const FamilySide* s : {&f.base, &f.head})
    if (s->status != "ok") return s->status == "timed_out" ? "timed out" : s->status;
  if (f.variants.empty()) return "built no variant";
  for (const auto& v : f.variants) {
    if (!v.base.present || !v.head.present) return absl::StrCat("variant ", v.name, " ships at one revision only");
    if (!v.base.error.empty() || !v.head.error.empty()) return absl::StrCat("variant ", v.name, " failed");
    if (!v.argsEqual()) return absl::StrCat("variant ", v.name, ": arguments differ");
    for (size_t i = 0; i < v.base.kernels.size(); ++i) {
      const auto &b = v.base.kernels[i], &h = v.head.kernels[i];
      if (b.irSha256 != h.irSha256) return absl::StrCat("variant ", v.name, ": IR differs");
      if (b.compile != h.compile) return absl::StrCat("variant ", v.name, ": compile inputs differ");
      if (b.name != h.name) return absl::StrCat("variant ", v.name, ": kernel name differs");
    }
  }
  return "";
}

bool foldable(const Row& r) {
  return r.status == Status::Changed && (r.contract == "kernel-code" || r.contract == "kernargs") &&
         r.python.path.ends_with(".py") && r.label.empty();
}

}  // namespace

FoldOutcome foldRows(std::vector<Row>& rows, const EmitDocument& doc, const FoldContext& ctx) {
  FoldOutcome out;
  std::vector<std::string> dvc;
  for (const auto& p : ctx.changedPaths)
    if (p.ends_with(".dvc")) dvc.push_back(p);
  if (!dvc.empty()) {
    out.notes.push_back(absl::StrCat("emitter: no row folds: a DVC pointer changed (", absl::StrJoin(dvc, ", "),
                                     "); the emitter cannot prove the file it points at equal"));
    return out;
  }
  std::set<std::string> failed;
  for (const auto& f : doc.failures) failed.insert(f.family);
  std::map<std::string, std::string> verdicts;  // family key -> why not ("" = equal)
  for (const auto& f : doc.families) verdicts[f.key()] = familyVerdict(f, failed);

  std::set<std::string> kept;
  for (Row& r : rows) {
    if (!foldable(r)) continue;
    const std::string& module = r.python.path;
    if (runsAfterLowering(module)) {
      kept.insert(absl::StrCat(module, ": runs after lowering (an equal IR proves nothing about it)"));
      continue;
    }
    if (!r.mirror.empty() && ctx.changedPaths.count(r.mirror.path)) continue;
    if (r.view == "merged" && !ctx.mergedGuard) {
      kept.insert(absl::StrCat(module, " [merged]: ", ctx.mergedGuardWhy));
      continue;
    }
    size_t families = 0, variants = 0;
    std::string why;
    for (const auto& f : doc.families) {
      bool reaches = std::find(f.base.closure.begin(), f.base.closure.end(), module) != f.base.closure.end() ||
                     std::find(f.head.closure.begin(), f.head.closure.end(), module) != f.head.closure.end();
      if (!reaches) continue;
      ++families;
      variants += f.variants.size();
      if (const std::string& v = verdicts[f.key()]; !v.empty() && why.empty()) why = absl::StrCat(f.key(), " ", v);
    }
    if (families == 0) {
      kept.insert(absl::StrCat(module, ": no built family imports it"));
      continue;
    }
    if (!why.empty()) {
      kept.insert(absl::StrCat(module, ": ", why));
      continue;
    }
    r.status = Status::Inert;
    r.message = absl::StrCat(r.message.empty() ? "" : r.message + "; ", "emitter: arguments, IR and compile inputs equal for all ",
                             variants, variants == 1 ? " shipped variant" : " shipped variants", " of ", families,
                             families == 1 ? " family" : " families", " importing it");
    ++out.folded;
  }
  for (const auto& k : kept) out.notes.push_back("emitter: stays changed: " + k);
  out.notes.insert(out.notes.begin(), absl::StrCat("emitter: ", out.folded, out.folded == 1 ? " row" : " rows",
                                                   " folded to inert (", doc.families.size(),
                                                   doc.families.size() == 1 ? " family" : " families", " emitted)"));
  return out;
}

}  // namespace impact::emit
