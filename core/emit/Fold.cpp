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

bool argAgrees(const ArgRecord& copy, const ArgRecord& emitted) {
  if (!copy.name.empty() && copy.name != emitted.name) return false;
  if (!copy.kind.empty() && copy.kind != emitted.kind) return false;
  if (copy.size != 0 && copy.size != emitted.size) return false;
  return true;
}

bool listAgrees(const std::vector<ArgRecord>& copy, const std::vector<ArgRecord>& emitted) {
  if (copy.size() != emitted.size()) return false;
  for (size_t i = 0; i < copy.size(); ++i)
    if (!argAgrees(copy[i], emitted[i])) return false;
  return true;
}

std::string argText(const ArgRecord& a) {
  return absl::StrCat(a.name.empty() ? "?" : a.name, " (", a.kind.empty() ? "?" : a.kind, "/", a.size, ")");
}

// The first difference between a copy and one emitted kernel's list.
std::string firstDifference(const std::vector<ArgRecord>& copy, const KernelRecord& k) {
  for (size_t i = 0; i < std::min(copy.size(), k.args.size()); ++i)
    if (!argAgrees(copy[i], k.args[i]))
      return absl::StrCat("#", i, ": copy has ", argText(copy[i]), ", ", k.name, " emitted ", argText(k.args[i]), " (",
                          k.args[i].type, ")");
  return absl::StrCat("copy has ", copy.size(), " arguments, ", k.name, " emitted ", k.args.size());
}

// A family whose arguments changed, for the kernargs row of one of its builders' copies: the
// mismatch message when the copy agrees with no kernel emitted at the head; "" otherwise.
std::string argumentEvidence(const Family& f, const std::vector<ArgRecord>& copy) {
  bool changed = false;
  const KernelRecord* example = nullptr;
  const Variant* exampleVariant = nullptr;
  size_t variants = 0;
  for (const auto& v : f.variants) {
    if (!v.head.present || !v.head.error.empty() || v.head.kernels.empty()) continue;
    if (v.base.present && v.base.error.empty() && !v.argsEqual()) changed = true;
    ++variants;
    for (const auto& k : v.head.kernels)
      if (listAgrees(copy, k.args)) return "";
    if (!example) example = &v.head.kernels.front(), exampleVariant = &v;
  }
  if (!changed || !example) return "";
  return absl::StrCat("emitter: the copy agrees with no kernel ", f.builder, " emitted at the head (", variants,
                      variants == 1 ? " variant" : " variants", "; ", exampleVariant->name, ": ",
                      firstDifference(copy, *example), ")");
}

// What the emitter could not run of an AOT catalog family (issue 39), "" when every kernel ran at
// both revisions: a row says so, never silence (the family's builder cannot import here, a kernel
// its producer's reading cannot build again, a variant that failed).
std::string aotNotRun(const Family& f) {
  for (const FamilySide* s : {&f.head, &f.base})
    if (s->status == "failed" || s->status == "timed_out")
      return absl::StrCat("not run at the ", s == &f.head ? "head" : "base", ": ",
                          s->status == "timed_out" ? "timed out" : s->error.empty() ? "failed" : s->error);
  size_t failed = 0, total = 0;
  std::string first;
  for (const auto& v : f.variants)
    for (const VariantSide* s : {&v.head, &v.base}) {
      if (!s->present || s->otherShard) continue;
      ++total;
      if (s->error.empty()) continue;
      if (failed++ == 0) first = absl::StrCat(v.name, " at the ", s == &v.head ? "head" : "base", ": ", s->error);
    }
  if (!failed) return "";
  return absl::StrCat(failed, " of ", total, " kernel builds did not run (", first, ")");
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
    // Evidence first: a builder whose emitted arguments changed, and a copy that matches none.
    if (r.contract == "kernargs" && r.status == Status::Changed && r.view.empty()) {
      auto copy = ctx.copyArgs.find(r.key);
      if (copy != ctx.copyArgs.end())
        for (const auto& f : doc.families) {
          if (f.path != r.python.path || f.builder != r.python.symbol) continue;
          if (std::string why = argumentEvidence(f, copy->second); !why.empty()) {
            r.status = Status::Mismatch;
            r.message = absl::StrCat(r.message.empty() ? "" : r.message + "; ", why);
            ++out.mismatches;
            break;
          }
        }
    }
    if (!foldable(r)) continue;
    const std::string& module = r.python.path;
    if (runsAfterLowering(module)) {
      kept.insert(absl::StrCat(module, ": runs after lowering (an equal IR proves nothing about it)"));
      continue;
    }
    // A changed C++ (or other) copy is code the IR does not cover; a Python restatement in the
    // builder's own module is part of what the family imported and built.
    if (!r.mirror.empty() && r.mirror.path != module && ctx.changedPaths.count(r.mirror.path)) continue;
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
  for (const auto& f : doc.families) {
    if (f.producers.empty()) continue;
    std::string why = aotNotRun(f);
    if (why.empty()) continue;
    Row r;
    r.contract = "emit";
    r.status = Status::Outside;
    r.python.path = f.path;
    r.python.symbol = f.builder;
    r.message = absl::StrCat("emitter: AOT catalog kernels of ", absl::StrJoin(f.producers, ", "), ": ", why);
    r.key = "emit|" + f.key();
    rows.push_back(std::move(r));
  }
  out.notes.insert(out.notes.begin(), absl::StrCat("emitter: ", out.folded, out.folded == 1 ? " row" : " rows",
                                                   " folded to inert (", doc.families.size(),
                                                   doc.families.size() == 1 ? " family" : " families", " emitted)",
                                                   out.mismatches ? absl::StrCat("; ", out.mismatches,
                                                                                 " copies disagree with the emitted arguments")
                                                                  : std::string()));
  return out;
}

}  // namespace impact::emit
