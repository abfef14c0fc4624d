// kernargs rows: every copy paired with a builder at the head, judged against the builder's list
// (and against the list it matched at the base: stable pairing), and every copy that paired at
// the base and pairs with nothing now. The comparison itself is contracts/Kernargs.h's; here is
// what a row says: mismatch, changed, inert, or not compared and why.
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/Accounting.h"
#include "contracts/Kernargs.h"
#include "contracts/kernargs/LaunchValues.h"
#include "contracts/kernargs/OpenTails.h"
#include "judge/Contracts.h"

namespace impact {

namespace {

const PyBuilder* builderNamed(const TreeFacts& facts, const std::string& path, const std::string& name) {
  const FileFacts* f = facts.find(path);
  if (!f) return nullptr;
  for (const auto& b : f->builders)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::string> sortedArchs(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

Location builderLoc(const BuilderRef& b) {
  return {b.path, b.builder->range.line + 1, b.builder->name, b.builder->range, b.builder->range};
}

Location copyLoc(const CopyRef& c) {
  std::string sym = c.list->symbol;
  if (!c.list->variable.empty()) sym = sym.empty() ? c.list->variable : sym + " " + c.list->variable;
  if (c.list->form == CppArgList::Form::Launch) sym = (sym.empty() ? "" : sym + " ") + "launch(...)";
  if (sym.empty()) sym = "(list)";
  return {c.path, c.list->range.line + 1, sym, c.list->range, c.list->range};
}

std::string unreadableNote(const TreeFacts& facts, const std::string& path) {
  const FileFacts* f = facts.find(path);
  if (!f || f->ok) return "";
  return absl::StrCat(path, " could not be read: ", f->error);
}

// The comparison at the head and what it is judged against from the base.
struct PairJudgement {
  std::optional<Comparison> before;  // the base's pair of this copy, where its builder was read
  std::optional<ListAtBase> atBase;  // the list the copy agreed with at the base (stable pairing)
  Comparison now;
  std::optional<PyBuilder> closed;  // the builder's open list closed as the base's copy stated it
  std::string closedNote;
};

class PairRows {
 public:
  PairRows(const JudgeContext& cx, const std::vector<KernargsPair>& basePairs) : cx_(cx), basePairs_(basePairs) {
    for (const auto& p : basePairs) baseByCopy_.emplace(p.copy.key, &p);
  }

  ContractRows run(const std::vector<KernargsPair>& headPairs) {
    for (const auto& p : headPairs) {
      headCopyKeys_.insert(p.copy.key);
      if (p.builder) paired(p);
      else unpaired(p);
    }
    lost();
    return std::move(out_);
  }

 private:
  bool touched(const std::string& path) const { return impact::touched(cx_.base, cx_.head, path); }

  std::set<std::string> builderArchs(const std::string& module, const std::string& name) const {
    auto s = cx_.headArchs.forBuilder(module, name);
    auto b = cx_.baseArchs.forBuilder(module, name);
    s.insert(b.begin(), b.end());
    return s;
  }

  void add(Row r, std::initializer_list<std::string> explains) {
    for (const auto& p : explains) out_.explained.insert(p);
    out_.rows.push_back(std::move(r));
  }

  // An AOT catalog entry whose kernel the producer does not build: the catalog engine loads the
  // family's every entry, so a missing .co fails the family's load (its note says which kernel).
  void unbuiltEntry(Row& r, const KernargsPair& p) const {
    r.status = Status::Mismatch;
    r.message += "; the catalog engine cannot load the family";
    auto it = baseByCopy_.find(p.copy.key);
    r.preexisting = it != baseByCopy_.end() && it->second->unbuilt;
    if (r.preexisting) r.message += " (already so at the base)";
  }

  // A copy that pairs with no builder: its note says why.
  void unpaired(const KernargsPair& p) {
    const std::string& cPath = p.copy.path;
    if (!touched(cPath) && !(p.declared && touched(p.manifest))) return;
    Row r;
    r.contract = "kernargs";
    r.status = Status::Changed;
    r.mirror = copyLoc(p.copy);
    r.message = p.note;
    if (p.unbuilt) unbuiltEntry(r, p);
    r.pairedBy = p.pairedBy;
    r.key = "kernargs|" + p.copy.key;
    r.archs = sortedArchs({archFromPath(cPath)});
    if (r.archs.size() == 1 && r.archs[0].empty()) r.archs.clear();
    out_.covered.insert(cPath);
    add(std::move(r), {cPath});
  }

  // Whether anything the pair reads changed: the builder (and the modules it reads through), the
  // copy, the declaration pairing them, the files stating the shipped variants.
  bool pairTouched(const KernargsPair& p) const {
    const BuilderRef& b = *p.builder;
    bool declarationTouched = (p.declared && touched(p.manifest)) || (!p.declaration.empty() && touched(p.declaration));
    // A declaration that states the shipped variants (a KDP, a generator config) decides
    // conditional arguments: its change re-judges the pair.
    if (p.shipped)
      for (const auto& f : p.shipped->files) declarationTouched = declarationTouched || touched(f);
    bool builderTouched = touched(b.path);
    for (const std::string& m : b.builder->readThrough) builderTouched = builderTouched || touched(m);
    // A C++ copy read with the tree's headers (at the head or at the base): a header-only change
    // re-judges it. A list of the same file that reads nothing of them is not touched by them.
    bool copyTouched = touched(p.copy.path);
    for (const std::string& h : p.copy.list->readThrough) copyTouched = copyTouched || touched(h);
    if (auto it = baseByCopy_.find(p.copy.key); it != baseByCopy_.end())
      for (const std::string& h : it->second->copy.list->readThrough) copyTouched = copyTouched || touched(h);
    return builderTouched || copyTouched || declarationTouched;
  }

  PairJudgement compare(const KernargsPair& p, const KernargsPair* bp) const {
    const BuilderRef& b = *p.builder;
    PairJudgement j;
    if (bp && bp->builder && builderNotRead(*bp->builder->builder, bp->builder->path).empty()) j.before = comparePair(*bp);
    // Stable pairing: the list the copy agreed with at the base, where it paired with this builder.
    if (j.before && j.before->abi && j.before->outcome != Comparison::Outcome::Disagree && bp->builder->key() == b.key())
      j.atBase = ListAtBase{j.before->abi->origin, j.before->abi->guard,
                            bp->copy.list->fingerprint == p.copy.list->fingerprint};
    const ListAtBase* atBase = j.atBase ? &*j.atBase : nullptr;
    j.now = comparePair(p, atBase);
    // A list open at a helper impactd cannot see, which the change left as it was: read as the
    // base's agreeing copy stated it (OpenTails.h), so a break made before the helper is found.
    if (j.before && j.now.abi && kernargs_detail::builderOpen(*j.now.abi)) {
      std::string helper = kernargs_detail::helperModulePath(*j.now.abi, b.path);
      bool unchanged = !helper.empty() && !touched(helper);
      j.closed = kernargs_detail::closedFromBase(*b.builder, *j.now.abi, *j.before, *bp->copy.list, unchanged, j.closedNote);
      if (j.closed) j.now = compareCopy(*j.closed, *p.copy.list, p.shipped.get(), atBase);
    }
    // Named launch values that traded places since the base, the builder's list as it was
    // (LaunchValues.h): a mismatch the kinds alone cannot show.
    const auto& before = j.before;
    Comparison& now = j.now;
    if (before && before->abi && now.abi && now.outcome != Comparison::Outcome::Disagree &&
        before->outcome != Comparison::Outcome::Disagree && p.copy.list->form == CppArgList::Form::Launch) {
      auto moved = kernargs_detail::movedValues(*before->abi, *now.abi, *bp->copy.list, *p.copy.list);
      if (!moved.message.empty()) {
        now.outcome = Comparison::Outcome::Disagree;
        now.message = moved.message;
        now.focusBuilder = moved.focusBuilder;
        now.focusCopy = moved.focusCopy;
      }
    }
    return j;
  }

  // The row's status and message from the comparison, and what changed in code.
  void decide(Row& r, const KernargsPair& p, const KernargsPair* bp, const PairJudgement& j) const {
    const BuilderRef& b = *p.builder;
    const Comparison& now = j.now;
    const std::optional<Comparison>& before = j.before;
    const PyBuilder* baseBuilder = builderNamed(cx_.base.facts, b.path, b.builder->name);
    bool builderChanged = !baseBuilder || baseBuilder->fingerprint != b.builder->fingerprint;
    bool copyChanged = !bp || bp->copy.list->fingerprint != p.copy.list->fingerprint;
    // Read with the tree's headers: a header's change that changes what the list reads is the copy's.
    const bool headerOnly =
        !touched(p.copy.path) && (!p.copy.list->readThrough.empty() || (bp && !bp->copy.list->readThrough.empty()));
    copyChanged = copyChanged || (bp && headerOnly && bp->copy.list->args != p.copy.list->args);
    std::vector<std::string> moved;
    if (builderChanged) moved.push_back("builder");
    if (copyChanged) moved.push_back("copy");
    std::string problem = unreadableNote(cx_.head.facts, b.path);
    if (problem.empty()) problem = unreadableNote(cx_.head.facts, p.copy.path);
    std::string lead = p.note.empty() ? "" : p.note + "; ";
    if (!problem.empty()) {
      r.status = Status::Changed;
      r.message = problem;
    } else if (now.outcome == Comparison::Outcome::Disagree) {
      r.status = Status::Mismatch;
      if (now.abi && now.focusBuilder >= 0 && size_t(now.focusBuilder) < now.abi->args.size())
        r.python.focus = now.abi->args[now.focusBuilder].range;
      if (now.focusCopy >= 0 && size_t(now.focusCopy) < p.copy.list->args.size())
        r.mirror.focus = p.copy.list->args[now.focusCopy].range;
      r.preexisting = before && before->outcome == Comparison::Outcome::Disagree;
      r.message = lead + now.message;
      if (r.preexisting) r.message += " (already so at the base)";
    } else if (builderChanged || copyChanged ||
               (now.outcome == Comparison::Outcome::AgreeWithoutConditional &&
                (!before || before->outcome == Comparison::Outcome::Agree))) {
      r.status = Status::Changed;
      std::string what = now.outcome != Comparison::Outcome::Agree ? now.message
                         : now.notCompared.empty()
                             ? absl::StrCat("agrees (", now.shippedNote.empty() && now.abi ? now.abi->args.size()
                                                                                          : now.pairs.size(),
                                            " arguments)")
                             : absl::StrCat("agrees on the ", now.pairs.size(), " arguments both state");
      if (now.outcome == Comparison::Outcome::Agree && !now.shippedNote.empty()) what += "; " + now.shippedNote;
      r.message = lead + what + (moved.empty() ? "" : "; " + absl::StrJoin(moved, " and ") + " changed in code");
    } else {
      r.status = Status::Inert;
      // A catalog entry's list fingerprint is its args_signature alone (grid/block are judged
      // by catalog-geometry): other fields of the entry may have moved.
      r.message = lead + (p.copy.list->catalog ? "its argument list did not change"
                          : headerOnly         ? "a header it is read with changed, not what it reads"
                                               : "only comments or whitespace changed");
    }
    if (r.status == Status::Inert) return;
    if (!now.unresolved.empty()) r.message += "; type not resolved for " + absl::StrJoin(now.unresolved, ", ");
    if (now.abi && !now.notCompared.empty()) {
      std::string helper = kernargs_detail::helperModulePath(*now.abi, b.path);
      int inTree = helper.empty() ? -1 : cx_.head.facts.find(helper) ? 1 : 0;
      r.message += "; not compared: " + absl::StrJoin(kernargs_detail::notComparedParts(*now.abi, *p.copy.list, inTree), "; ");
    }
    if (j.closed) r.message += "; " + j.closedNote;
    if (now.abi)
      for (const std::string& h : kernargs_detail::hookNotes(*b.builder, *now.abi)) r.message += "; " + h;
  }

  void paired(const KernargsPair& p) {
    if (!pairTouched(p)) return;
    const BuilderRef& b = *p.builder;
    const std::string& cPath = p.copy.path;
    Row r;
    r.contract = "kernargs";
    r.python = builderLoc(b);
    r.mirror = copyLoc(p.copy);
    r.key = "kernargs|" + p.copy.key;
    r.archs = sortedArchs(builderArchs(b.path, b.builder->name));
    // A builder no shipped descriptor reaches: the archs its pack's declaration names.
    if (r.archs.empty()) r.archs = sortedArchs({p.declaredArchs.begin(), p.declaredArchs.end()});
    r.pairedBy = p.pairedBy;
    out_.covered.insert(b.path);
    out_.covered.insert(cPath);
    // A builder whose arguments are not read is not compared, as impact check says (Accounting):
    // never a mismatch "declares no argument list" (issue 36).
    if (std::string why = builderNotRead(*b.builder, b.path); !why.empty()) {
      std::string problem = unreadableNote(cx_.head.facts, b.path);
      r.status = Status::Changed;
      r.message = (p.note.empty() ? "" : p.note + "; ") + (problem.empty() ? "not compared: the builder's " + why : problem);
      return add(std::move(r), {b.path, cPath});
    }
    const KernargsPair* bp = nullptr;
    if (auto it = baseByCopy_.find(p.copy.key); it != baseByCopy_.end()) bp = it->second;
    decide(r, p, bp, compare(p, bp));
    if (p.unbuilt && r.status != Status::Mismatch) unbuiltEntry(r, p);
    if (r.status == Status::Inert) return add(std::move(r), {});
    add(std::move(r), {b.path, cPath});
  }

  // A copy that paired at the base and pairs with nothing now (its builder went away).
  void lost() {
    for (const auto& p : basePairs_) {
      if (!p.builder || headCopyKeys_.count(p.copy.key)) continue;
      const FileFacts* hf = cx_.head.facts.find(p.copy.path);
      if (!hf) continue;  // the copy's file is gone too
      bool stillThere = false;
      for (const auto& l : hf->lists)
        if (l.symbol == p.copy.list->symbol && l.form == p.copy.list->form) stillThere = true;
      if (!stillThere) continue;
      Row r;
      r.contract = "kernargs";
      r.status = Status::Mismatch;
      r.python = builderLoc(*p.builder);
      r.python.line = 0;
      r.mirror = copyLoc(p.copy);
      r.message = absl::StrCat("the copy paired with ", p.builder->builder->name, " at the base; no builder matches it now");
      r.pairedBy = p.pairedBy;
      // It paired through a declaration that is gone or unreadable now: the copy and its builder
      // may still agree; what changed is the declaration (its own row says how).
      if (!p.declaration.empty() && p.declaration != p.copy.path) {
        const FileFacts* df = cx_.head.facts.find(p.declaration);
        if (!df || !df->ok) {
          r.status = Status::Changed;
          r.message = absl::StrCat("paired with ", p.builder->builder->name, " at the base through ", p.pairedBy, "; ",
                                   p.declaration, df ? " could not be read: " + df->error : " is gone",
                                   ", and nothing else pairs it now");
        }
      }
      r.key = "kernargs|" + p.copy.key;
      r.archs = sortedArchs(builderArchs(p.builder->path, p.builder->builder->name));
      add(std::move(r), {p.copy.path, p.builder->path});
    }
  }

  const JudgeContext& cx_;
  const std::vector<KernargsPair>& basePairs_;
  std::map<std::string, const KernargsPair*> baseByCopy_;
  std::set<std::string> headCopyKeys_;
  ContractRows out_;
};

}  // namespace

ContractRows judgeKernargPairs(const JudgeContext& cx, const std::vector<KernargsPair>& basePairs,
                               const std::vector<KernargsPair>& headPairs) {
  return PairRows(cx, basePairs).run(headPairs);
}

}  // namespace impact
