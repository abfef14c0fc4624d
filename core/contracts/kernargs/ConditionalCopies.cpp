// A conditional copy (a SignatureBuilder restatement whose `sig = sig.scalar(...)` steps sit under
// `if`s) against one builder list. Every assignment of the distinct atoms of the guards (the
// builder list's own `when`, its arguments' guards, the copy's) that the list's `when` and the
// copy's variant spec allow is one variant: the arguments each side declares under it are
// compared in order. Then:
//  - they agree under every assignment: agree;
//  - an argument the builder declares under every assignment that the copy declares under none,
//    one the copy always declares that the builder never does, or a different order or type of
//    the arguments both always declare: a mismatch;
//  - otherwise they differ only where the guards differ (a guard on one side the other does not
//    state): not settled statically — the row is changed, naming an assignment where they differ.
#include "contracts/kernargs/ConditionalCopies.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/ArgListDiff.h"
#include "contracts/kernargs/Guards.h"

namespace impact::kernargs_detail {

namespace {
constexpr size_t kMaxAtoms = 12;

struct Side {
  std::vector<Guard> guards;
  std::vector<bool> always, ever;
};

Side sideOf(const std::vector<KernelArg>& args) {
  Side s;
  for (const auto& a : args) s.guards.push_back(argGuard(a));
  s.always.assign(args.size(), true);
  s.ever.assign(args.size(), false);
  return s;
}

std::string describe(const std::vector<std::string>& keys, const std::vector<bool>& free, uint64_t bits) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < keys.size(); ++i)
    if (free[i]) parts.push_back(((bits >> i) & 1 ? "" : "not ") + keys[i]);
  return parts.empty() ? "always" : absl::StrJoin(parts, " and ");
}

void mapPairs(Comparison& c, const Diff& d, const std::vector<int>& bIdx, const std::vector<int>& cIdx) {
  auto at = [](const std::vector<int>& v, int i) { return i < 0 || size_t(i) >= v.size() ? -1 : v[i]; };
  c.pairs.clear();
  for (auto [b, k] : d.pairs) c.pairs.emplace_back(at(bIdx, b), at(cIdx, k));
  c.focusBuilder = at(bIdx, d.focusBuilder);
  c.focusCopy = at(cIdx, d.focusCopy);
}
}  // namespace

namespace {
// The lists each side declares under one assignment of the atoms.
void declaredUnder(const std::vector<KernelArg>& args, const std::vector<Guard>& guards,
                   const std::vector<std::string>& keys, uint64_t bits, std::vector<KernelArg>& out) {
  for (size_t i = 0; i < args.size(); ++i)
    if (evalUnder(guards[i], keys, bits) == Truth::True) out.push_back(args[i]);
}

std::string someNames(const std::vector<std::string>& names) {
  constexpr size_t kNamed = 3;
  std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kNamed));
  std::string out = absl::StrJoin(shown, ", ");
  if (names.size() > kNamed) absl::StrAppend(&out, " and ", names.size() - kNamed, " more");
  return out;
}

// The sides differ only where their guards differ: the shipped variants, where known, settle it.
void settleByShipped(Comparison& c, const PyAbi& abi, const CppArgList& copy, const Side& bs, const Side& cs,
                     const std::vector<std::string>& keys, const ShippedSet& shipped) {
  std::vector<std::string> differ, undecided;
  std::string firstDiff;
  size_t building = 0;
  for (const ShippedVariant& v : shipped.variants) {
    std::map<std::string, Truth> vals;
    atomsAgainstSpec(abi.when, *v.spec, vals);
    for (const Guard& g : bs.guards) atomsAgainstSpec(g, *v.spec, vals);
    for (const Guard& g : cs.guards) atomsAgainstSpec(g, *v.spec, vals);
    uint64_t bits = 0;
    bool known = true;
    for (size_t i = 0; i < keys.size() && known; ++i) {
      auto it = vals.find(keys[i]);
      if (it == vals.end() || it->second == Truth::Unknown) known = false;
      else if (it->second == Truth::True) bits |= uint64_t(1) << i;
    }
    if (!known) {
      undecided.push_back(v.name);
      continue;
    }
    if (evalUnder(abi.when, keys, bits) != Truth::True) continue;
    ++building;
    std::vector<KernelArg> bl, cl;
    declaredUnder(abi.args, bs.guards, keys, bits, bl);
    declaredUnder(copy.args, cs.guards, keys, bits, cl);
    Diff d = diffLists(bl, cl, false);
    if (d.parts.empty()) continue;
    if (differ.empty()) firstDiff = joinDiff(d);
    differ.push_back(v.name);
  }
  if (!differ.empty()) {
    c.outcome = Comparison::Outcome::Disagree;
    c.distance = 1;
    c.message = absl::StrCat("copy and builder declare different conditional arguments for ", differ.size(), " of ",
                             shipped.variants.size(), " shipped variants (", someNames(differ), "; ", shipped.from,
                             "): ", firstDiff);
  } else if (undecided.empty() && building > 0 && shipped.incomplete.empty()) {
    c.outcome = Comparison::Outcome::Agree;
    c.shippedNote = absl::StrCat("copy and builder differ only under guards no shipped variant takes (", building,
                                 ", from ", shipped.from, ")");
    c.message.clear();
  } else {
    c.message += absl::StrCat("; not settled by the shipped variants: ",
                              !undecided.empty() ? absl::StrCat("the guards are not decided by the spec of ",
                                                                undecided.size(), " of ", shipped.variants.size(), " (",
                                                                someNames(undecided), ")")
                              : building == 0   ? std::string("none of them builds this list")
                                                : shipped.incomplete);
  }
}
}  // namespace

std::optional<Comparison> compareConditionalCopy(const PyAbi& abi, const CppArgList& copy, const ShippedSet* shipped) {
  bool conditional = std::any_of(copy.args.begin(), copy.args.end(), [](const KernelArg& a) { return a.conditional; });
  if (!conditional || !copy.named || copy.form == CppArgList::Form::Launch) return std::nullopt;
  // A condition stated only as text (a C++ copy's `if (...)`) has no structure to compare with.
  for (const auto& a : copy.args)
    if (a.conditional && a.guard.empty()) return std::nullopt;
  Side bs = sideOf(abi.args), cs = sideOf(copy.args);
  std::vector<std::string> keys;
  guardAtoms(abi.when, keys);
  for (const Guard& g : bs.guards) guardAtoms(g, keys);
  for (const Guard& g : cs.guards) guardAtoms(g, keys);
  if (keys.size() > kMaxAtoms) return std::nullopt;
  // A descriptor copy's spec fixes the atoms it settles.
  std::map<std::string, Truth> fixed;
  if (!copy.spec.empty()) {
    atomsAgainstSpec(abi.when, copy.spec, fixed);
    for (const Guard& g : bs.guards) atomsAgainstSpec(g, copy.spec, fixed);
    for (const Guard& g : cs.guards) atomsAgainstSpec(g, copy.spec, fixed);
  }
  std::vector<bool> free(keys.size(), true);
  uint64_t fixedMask = 0, fixedBits = 0;
  for (size_t i = 0; i < keys.size(); ++i)
    if (auto it = fixed.find(keys[i]); it != fixed.end() && it->second != Truth::Unknown) {
      free[i] = false;
      fixedMask |= uint64_t(1) << i;
      if (it->second == Truth::True) fixedBits |= uint64_t(1) << i;
    }

  Comparison c;
  c.abi = &abi;
  bool any = false, allAgree = true, haveAgree = false;
  Diff firstDiff, firstAgree;
  std::vector<int> firstB, firstC, agreeB, agreeC;
  uint64_t firstBits = 0;
  for (uint64_t bits = 0; bits < (uint64_t(1) << keys.size()); ++bits) {
    if ((bits & fixedMask) != fixedBits) continue;
    if (evalUnder(abi.when, keys, bits) != Truth::True) continue;
    std::vector<KernelArg> bl, cl;
    std::vector<int> bIdx, cIdx;
    for (size_t i = 0; i < abi.args.size(); ++i) {
      bool on = evalUnder(bs.guards[i], keys, bits) == Truth::True;
      bs.always[i] = bs.always[i] && on;
      bs.ever[i] = bs.ever[i] || on;
      if (on) bl.push_back(abi.args[i]), bIdx.push_back(int(i));
    }
    for (size_t i = 0; i < copy.args.size(); ++i) {
      bool on = evalUnder(cs.guards[i], keys, bits) == Truth::True;
      cs.always[i] = cs.always[i] && on;
      cs.ever[i] = cs.ever[i] || on;
      if (on) cl.push_back(copy.args[i]), cIdx.push_back(int(i));
    }
    Diff d = diffLists(bl, cl, false);
    if (d.parts.empty() && !haveAgree) firstAgree = d, agreeB = bIdx, agreeC = cIdx, haveAgree = true;
    any = true;
    if (!d.parts.empty() && allAgree) {
      allAgree = false;
      firstDiff = d, firstB = bIdx, firstC = cIdx, firstBits = bits;
    }
  }
  if (!any) {
    c.outcome = Comparison::Outcome::Disagree;
    c.distance = 1 << 20;
    c.message = "the copy's variant never declares this list of the builder";
    return c;
  }
  if (allAgree) {
    c.outcome = Comparison::Outcome::Agree;
    mapPairs(c, firstAgree, agreeB, agreeC);
    return c;
  }

  // The arguments each side declares whatever the guards say, and the names each ever declares.
  std::set<std::string> bEver, cEver, bAlways, cAlways;
  for (size_t i = 0; i < abi.args.size(); ++i) {
    if (bs.ever[i]) bEver.insert(abi.args[i].name);
    if (bs.always[i]) bAlways.insert(abi.args[i].name);
  }
  for (size_t i = 0; i < copy.args.size(); ++i) {
    if (cs.ever[i]) cEver.insert(copy.args[i].name);
    if (cs.always[i]) cAlways.insert(copy.args[i].name);
  }
  std::vector<std::string> missing, extra, parts;
  int focusB = -1, focusC = -1;
  for (size_t i = 0; i < abi.args.size(); ++i)
    if (bs.always[i] && !cEver.count(abi.args[i].name)) {
      missing.push_back(abi.args[i].name);
      if (focusB < 0) focusB = int(i);
    }
  for (size_t i = 0; i < copy.args.size(); ++i)
    if (cs.always[i] && !bEver.count(copy.args[i].name)) {
      extra.push_back(copy.args[i].name);
      if (focusC < 0) focusC = int(i);
    }
  std::vector<KernelArg> bu, cu;
  std::vector<int> buIdx, cuIdx;
  for (size_t i = 0; i < abi.args.size(); ++i)
    if (bs.always[i] && cAlways.count(abi.args[i].name)) bu.push_back(abi.args[i]), buIdx.push_back(int(i));
  for (size_t i = 0; i < copy.args.size(); ++i)
    if (cs.always[i] && bAlways.count(copy.args[i].name)) cu.push_back(copy.args[i]), cuIdx.push_back(int(i));
  Diff common = diffLists(bu, cu, false);
  std::string guards = absl::StrJoin(keys, ", ");
  if (!missing.empty())
    parts.push_back(absl::StrCat("copy leaves out the unconditional argument", missing.size() > 1 ? "s " : " ",
                                 absl::StrJoin(missing, ", "), " under every assignment of its guards (", guards, ")"));
  if (!extra.empty())
    parts.push_back(absl::StrCat("copy always declares ", absl::StrJoin(extra, ", "), ", which the builder ",
                                 abi.origin, " never declares"));
  if (!common.parts.empty())
    parts.push_back(absl::StrCat(joinDiff(common), " (the arguments both sides declare under every guard)"));
  if (!parts.empty()) {
    c.outcome = Comparison::Outcome::Disagree;
    c.distance = int(missing.size() + extra.size()) + common.distance + 1;
    c.message = absl::StrJoin(parts, "; ");
    if (!common.parts.empty()) mapPairs(c, common, buIdx, cuIdx);
    else mapPairs(c, firstDiff, firstB, firstC);
    if (focusB >= 0 || focusC >= 0) c.focusBuilder = focusB, c.focusCopy = focusC;
    return c;
  }
  c.outcome = Comparison::Outcome::AgreeWithoutConditional;
  mapPairs(c, firstDiff, firstB, firstC);
  c.message = absl::StrCat("copy and builder declare different conditional arguments when ",
                           describe(keys, free, firstBits), ": ", joinDiff(firstDiff),
                           " (their guards differ; not settled statically)");
  if (shipped && !shipped->variants.empty() && copy.spec.empty()) settleByShipped(c, abi, copy, bs, cs, keys, *shipped);
  return c;
}

}  // namespace impact::kernargs_detail
