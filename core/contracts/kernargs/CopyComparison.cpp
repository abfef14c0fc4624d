#include "contracts/Kernargs.h"

#include "contracts/CatalogPairing.h"
#include "contracts/kernargs/ArgListDiff.h"
#include "contracts/kernargs/OpenTails.h"
#include "contracts/kernargs/NameKeyedComparison.h"
#include "contracts/kernargs/ConditionalCopies.h"
#include "contracts/kernargs/Guards.h"
#include "contracts/kernargs/LaunchValues.h"
#include "contracts/kernargs/ShippedDecision.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <map>
#include <optional>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

// Comparing one copy with its builder: which ABI (variant, guards), agree or disagree, and why.

namespace impact {
using namespace kernargs_detail;

namespace {
// Indices of the unconditional arguments.
std::vector<int> unconditionalIndex(const std::vector<KernelArg>& args) {
  std::vector<int> out;
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].conditional) out.push_back(int(i));
  return out;
}

// Takes a diff's correspondence (in the lists it compared) back to the full lists.
void adopt(Comparison& c, const Diff& d, const std::vector<int>* bIdx, const std::vector<int>* cIdx) {
  auto mapB = [&](int i) { return i < 0 || !bIdx ? i : (size_t(i) < bIdx->size() ? (*bIdx)[i] : -1); };
  auto mapC = [&](int i) { return i < 0 || !cIdx ? i : (size_t(i) < cIdx->size() ? (*cIdx)[i] : -1); };
  c.pairs.clear();
  for (auto [b, k] : d.pairs) c.pairs.emplace_back(mapB(b), mapC(k));
  c.focusBuilder = mapB(d.focusBuilder);
  c.focusCopy = mapC(d.focusCopy);
}
}  // namespace

namespace {
// The builder's lists a copy can state: a variant's spec (descriptor copies) settles the
// early-return guards it names; otherwise every list (also one no shipped variant takes: a pin
// may state a kernel the pack does not ship yet).
std::vector<const PyAbi*> abisFor(const PyBuilder& builder, const CppArgList& copy) {
  std::vector<const PyAbi*> all;
  for (const auto& a : builder.abis) all.push_back(&a);
  if (copy.spec.empty()) return all;
  bool allFalse = true;
  for (const PyAbi* a : all) {
    if (a->guard.empty()) continue;
    Truth v = evalGuard(a->when, copy.spec);
    if (v == Truth::True) return {a};
    if (v != Truth::False) allFalse = false;
  }
  if (!allFalse) return all;
  std::vector<const PyAbi*> own;
  for (const PyAbi* a : all)
    if (a->guard.empty()) own.push_back(a);
  return own.empty() ? all : own;
}
}  // namespace

namespace {
std::string typeOf(const TypeChoice& t) {
  return absl::StrCat(t.name.empty() ? "" : t.name + " ", t.kind, "/", t.size);
}

// A builder argument whose type a condition chooses (KernelArg::choices): the specs the copy
// stands for pick one — a descriptor copy's own spec, else every shipped variant's (a complete
// set). All picking the same: the argument has that type. Picking different ones: one copy states
// one type, so the pick that differs from the copy's argument is compared (a mismatch) and the
// note names the variants. No specs, or one that does not decide: unchanged (its type "not
// resolved", as before). Returns the notes, one per argument picked.
struct Picked {
  std::vector<std::string> notes;
  std::vector<std::string> names;  // the picked arguments' names as they were (before a chosen name)
};
Picked pickChoices(std::vector<KernelArg>& bArgs, const std::vector<KernelArg>& cArgs, const CppArgList& copy,
                   const ShippedSet* shipped) {
  std::vector<std::pair<std::string, const std::map<std::string, std::string>*>> specs;
  if (!copy.spec.empty()) specs.emplace_back("its spec", &copy.spec);
  else if (shipped && shipped->incomplete.empty())
    for (const ShippedVariant& v : shipped->variants)
      if (v.spec) specs.emplace_back(v.name, v.spec);
  Picked out;
  std::vector<std::string>& notes = out.notes;
  if (specs.empty()) return out;
  for (size_t i = 0; i < bArgs.size(); ++i) {
    KernelArg& a = bArgs[i];
    if (a.choices.empty()) continue;
    std::vector<size_t> pick;
    for (auto& [name, spec] : specs) {
      std::optional<size_t> chosen;
      for (size_t c = 0; c < a.choices.size(); ++c)
        if (evalGuard(a.choices[c].when, *spec) == Truth::True) chosen = c;
      if (!chosen) break;
      pick.push_back(*chosen);
    }
    if (pick.size() != specs.size()) continue;  // a spec that does not decide
    const KernelArg* ca = i < cArgs.size() ? &cArgs[i] : nullptr;
    if (copy.named && !a.name.empty())
      for (const KernelArg& k : cArgs)
        if (k.name == a.name) ca = &k;
    size_t use = pick[0];
    std::vector<std::string> differing;
    for (size_t s = 0; s < pick.size(); ++s) {
      const TypeChoice& t = a.choices[pick[s]];
      bool otherName = ca && !t.name.empty() && copy.named && !ca->name.empty() && t.name != ca->name;
      if (ca && !ca->kind.empty() && (t.kind != ca->kind || t.size != ca->size || otherName)) {
        if (differing.empty()) use = pick[s];
        if (pick[s] == use) differing.push_back(specs[s].first);
      }
    }
    bool allSame = std::all_of(pick.begin(), pick.end(), [&](size_t c) { return c == pick[0]; });
    if (!allSame && differing.empty()) continue;  // the copy states no type here to hold them against
    const TypeChoice& t = a.choices[use];
    std::string was = a.name;  // as written, when the name is chosen
    out.names.push_back(was);
    if (!t.name.empty()) a.name = t.name;
    a.kind = t.kind;
    a.size = t.size;
    a.typeClass = t.typeClass;
    a.resolved = true;
    a.unresolvedReason.clear();
    std::string by = copy.spec.empty() ? absl::StrCat("the shipped variants (", specs.size(), ")") : "the copy's spec";
    notes.push_back(differing.empty() || !copy.spec.empty()
                        ? absl::StrCat(t.name.empty() ? a.name + "'s type" : was, " is chosen by a condition; ", by,
                                       " pick", copy.spec.empty() ? " " : "s ", typeOf(t))
                        : absl::StrCat(t.name.empty() ? a.name + "'s type" : was, " is chosen by a condition: ",
                                       typeOf(t), " for ",
                                       absl::StrJoin(differing, ", ")));
  }
  return out;
}
}  // namespace

Comparison comparePair(const KernargsPair& pair, const ListAtBase* atBase) {
  return compareCopy(*pair.builder->builder, *pair.copy.list, pair.shipped.get(), atBase);
}

namespace {
// A list agrees with the copy only through an open end when the part of the copy it could not
// compare is not empty: the builder's list is open before the copy's last argument, or the copy
// (a launch's trailing pack) is open before the builder's.
bool agreesThroughOpenEnd(const Comparison& c, const CppArgList& copy) {
  if (!c.abi || c.outcome == Comparison::Outcome::Disagree) return false;
  if (!copy.openStart.empty()) return true;  // its start is never compared
  if (builderOpen(*c.abi) && !copyOpen(copy)) return copy.args.size() > c.abi->args.size();
  if (copyOpen(copy) && !builderOpen(*c.abi)) return c.abi->args.size() > copy.args.size();
  if (copyOpen(copy) && (c.abi->tailModule.empty() || copy.openBefore))  // both open, the shorter prefix compared (OpenTails.h)
    return c.abi->args.size() != copy.args.size();
  return false;
}

std::string listName(const PyAbi& a) {
  return a.guard.empty() ? absl::StrCat(a.origin, "'s list") : absl::StrCat("the ", a.origin, " list (when ", a.guard, ")");
}

// Stable pairing (issue 36 item 4): the comparison with the list the copy agreed with at the merge
// base replaces `best` when it disagrees and `best` agrees only through an open end, or `best`
// disagrees too, or the copy did not change; and when it agrees while `best` agrees only through
// an open end. Says which list was set aside.
void keepListOfBase(Comparison& best, const std::optional<Comparison>& stable, const CppArgList& copy,
                    const ListAtBase& atBase) {
  if (!stable || !best.abi || stable->abi == best.abi) return;
  const bool open = agreesThroughOpenEnd(best, copy);
  const bool disagrees = stable->outcome == Comparison::Outcome::Disagree;
  if (disagrees && !open && best.outcome != Comparison::Outcome::Disagree && !atBase.copyUnchanged) return;
  if (!disagrees && !open) return;
  std::string setAside;
  if (disagrees && best.outcome != Comparison::Outcome::Disagree)
    setAside = absl::StrCat(" (compared with ", listName(*stable->abi), ", which it matched at the base; ",
                            listName(*best.abi),
                            open ? " agrees only up to its open end)" : " agrees, but the copy did not change)");
  best = *stable;
  best.message += setAside;
}
}  // namespace

Comparison compareCopy(const PyBuilder& builder, const CppArgList& copy, const ShippedSet* shipped,
                       const ListAtBase* atBase) {
  if (copy.form == CppArgList::Form::NameKeyed) return compareNameKeyed(builder, copy);  // order-free
  Comparison best;
  best.distance = 1 << 30;
  // A launch call states expressions, not names: its kinds and sizes (where the file states
  // them) and its count are compared.
  const bool ignoreNames = copy.form == CppArgList::Form::Launch;
  std::optional<Comparison> guardedDisagree;
  std::optional<Comparison> stable;  // the comparison with the list the copy agreed with at the base
  const std::vector<const PyAbi*> lists = abisFor(builder, copy);
  const bool someKnown = std::any_of(lists.begin(), lists.end(), [](const PyAbi* a) { return !isDispatch(*a); });
  for (const PyAbi* abiPtr : lists) {
    const PyAbi& abi = *abiPtr;
    Comparison c;
    c.abi = &abi;
    for (const auto& a : abi.args)
      if (!typeKnown(a))
        c.unresolved.push_back(a.name + (a.unresolvedReason.empty() ? "" : ": " + a.unresolvedReason));
    if (ignoreNames)  // a launch argument whose kind the file does not state: said, not guessed
      for (std::string& u : unresolvedLaunchSlots(copy.args)) c.unresolved.push_back(std::move(u));
    // A list known only up to a point (OpenTails.h): the part both state is compared.
    std::vector<KernelArg> bArgs, cArgs;
    const size_t lead = comparedPrefix(abi, copy, bArgs, cArgs);
    Picked pickedArgs = pickChoices(bArgs, cArgs, copy, shipped);
    const std::vector<std::string>& picked = pickedArgs.notes;
    // a type (or name) a spec picked is compared, no longer "not resolved"
    c.unresolved.erase(std::remove_if(c.unresolved.begin(), c.unresolved.end(),
                                      [&](const std::string& u) {
                                        for (const std::string& n : pickedArgs.names)
                                          if (u.rfind(n + ":", 0) == 0) return true;
                                        return false;
                                      }),
                       c.unresolved.end());
    c.notCompared = notComparedParts(abi, copy, -1);
    // Guards on both sides (a complete list): compared per assignment (ConditionalCopies.cpp).
    std::optional<Comparison> guarded =
        c.notCompared.empty() ? compareConditionalCopy(abi, copy, shipped) : std::optional<Comparison>{};
    if (guarded) {
      guarded->unresolved = std::move(c.unresolved);
      c = std::move(*guarded);
    }
    Diff full = guarded ? Diff{} : diffLists(bArgs, cArgs, ignoreNames);
    // A launch's values named for another argument (LaunchValues.h) are differences too.
    if (ignoreNames && !guarded) addValueEvidence(full, bArgs, cArgs);
    std::vector<KernelArg> bu = unconditional(bArgs), cu = unconditional(cArgs);
    std::vector<int> bIdx = unconditionalIndex(bArgs), cIdx = unconditionalIndex(cArgs);
    if (guarded) {
      // compared per assignment of the guards (ConditionalCopies.cpp)
    } else if (full.parts.empty()) {
      c.outcome = Comparison::Outcome::Agree;
      c.distance = 0;
      adopt(c, full, nullptr, nullptr);
    } else {
      Diff unc = diffLists(bu, cu, ignoreNames);
      if (ignoreNames) addValueEvidence(unc, bu, cu);
      if (bu.size() != bArgs.size() && unc.parts.empty()) {
        c.outcome = Comparison::Outcome::AgreeWithoutConditional;
        c.distance = 0;
        adopt(c, unc, &bIdx, &cIdx);
        std::vector<std::string> cond;
        std::vector<int> lacked;
        for (size_t i = 0; i < bArgs.size(); ++i)
          if (bArgs[i].conditional) {
            cond.push_back(absl::StrCat(bArgs[i].name, " (if ", bArgs[i].condition, ")"));
            lacked.push_back(int(i));
          }
        c.message = "copy leaves out the conditional argument" + std::string(cond.size() > 1 ? "s " : " ") +
                    absl::StrJoin(cond, ", ");
        // The shipped variants, where known, decide (ShippedDecision.h).
        ShippedDecision sd = decideByShipped(abi, lacked, copy, shipped);
        if (sd.verdict == ShippedDecision::Verdict::On) {
          c.outcome = Comparison::Outcome::Disagree;
          c.distance = 1;
          c.message = sd.message;
          c.focusBuilder = sd.focusBuilder;
          c.focusCopy = -1;
        } else if (sd.verdict == ShippedDecision::Verdict::Off) {
          c.outcome = Comparison::Outcome::Agree;
          c.message.clear();
          c.shippedNote = sd.message;
        } else if (!sd.message.empty()) {
          c.message += "; " + sd.message;
        }
      } else {
        // Say what differs against whichever list (with or without the conditional
        // arguments) the copy is closer to.
        bool uncCloser = bu.size() != bArgs.size() &&
                         (unc.distance < full.distance || (cu.size() == bu.size() && cArgs.size() != bArgs.size()));
        const Diff& closer = uncCloser ? unc : full;
        c.outcome = Comparison::Outcome::Disagree;
        c.distance = closer.distance + 1;
        c.message = joinDiff(closer);
        if (uncCloser) adopt(c, unc, &bIdx, &cIdx);
        else adopt(c, full, nullptr, nullptr);
      }
    }
    if (lead > 0) {  // `cArgs` led by the builder's own arguments for the copy's open start: copy indices
      auto toCopy = [lead](int i) { return i < static_cast<int>(lead) ? -1 : i - static_cast<int>(lead); };
      c.focusCopy = toCopy(c.focusCopy);
      for (auto& pr : c.pairs) pr.second = toCopy(pr.second);
      c.pairs.erase(std::remove_if(c.pairs.begin(), c.pairs.end(), [](const auto& pr) { return pr.second < 0; }),
                    c.pairs.end());
    }
    if (!picked.empty() && !guarded) {
      if (c.outcome == Comparison::Outcome::Disagree) c.message += "; " + absl::StrJoin(picked, "; ");
      else c.shippedNote += (c.shippedNote.empty() ? "" : "; ") + absl::StrJoin(picked, "; ");
    }
    if (builder.abis.size() > 1 && c.outcome == Comparison::Outcome::Disagree)
      c.message = absl::StrCat(c.message, abi.guard.empty() ? "" : absl::StrCat(" (vs the ", abi.origin, " list, when ", abi.guard, ")"));
    // A list of which nothing is known (another module's function, not in the tree) agrees with
    // any copy: it never hides what a known list says.
    auto rank = [someKnown](const Comparison& x) {
      if (someKnown && x.abi && isDispatch(*x.abi)) return 3;
      return x.outcome == Comparison::Outcome::Agree ? 0 : x.outcome == Comparison::Outcome::AgreeWithoutConditional ? 1 : 2;
    };
    // Ties go to the builder's own body (the unguarded list).
    bool better = !best.abi || rank(c) < rank(best) ||
                  (rank(c) == rank(best) && (c.distance < best.distance ||
                                             (c.distance == best.distance && abi.guard.empty() && !best.abi->guard.empty())));
    if (atBase && abi.origin == atBase->origin && abi.guard == atBase->guard && !stable) stable = c;
    if (better) best = c;
    // A conditional copy restates every list of the builder: a mismatch against one of them is
    // not hidden by another list it differs from only where the guards differ.
    if (guarded && c.outcome == Comparison::Outcome::Disagree &&
        (!guardedDisagree || c.distance < guardedDisagree->distance ||
         (c.distance == guardedDisagree->distance && abi.guard.empty())))
      guardedDisagree = c;
  }
  if (guardedDisagree && best.outcome == Comparison::Outcome::AgreeWithoutConditional) best = *guardedDisagree;
  if (atBase) keepListOfBase(best, stable, copy, *atBase);
  if (!best.abi) {
    best.outcome = Comparison::Outcome::Disagree;
    best.message = absl::StrCat(builder.name, " declares no argument list");
  }
  return best;
}

}  // namespace impact
