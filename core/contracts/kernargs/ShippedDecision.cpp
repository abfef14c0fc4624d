#include "contracts/kernargs/ShippedDecision.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/Guards.h"

namespace impact::kernargs_detail {

namespace {

constexpr size_t kNamed = 3;  // variants named in a message; the rest counted

std::string someOf(const std::vector<std::string>& names) {
  std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kNamed));
  std::string out = absl::StrJoin(shown, ", ");
  if (names.size() > kNamed) absl::StrAppend(&out, " and ", names.size() - kNamed, " more");
  return out;
}

std::string described(const KernelArg& a) {
  return a.condition.empty() ? a.name : absl::StrCat(a.name, " (if ", a.condition, ")");
}

}  // namespace

ShippedDecision decideByShipped(const PyAbi& abi, const std::vector<int>& lacked, const CppArgList& copy,
                                const ShippedSet* shipped) {
  ShippedDecision d;
  if (lacked.empty()) return d;
  // The variants: a descriptor copy's own spec, else the builder's shipped set.
  std::vector<const ShippedVariant*> variants;
  ShippedVariant own;
  std::string from, incomplete;
  if (!copy.spec.empty()) {
    own.name = "its own variant";
    own.spec = &copy.spec;
    variants.push_back(&own);
    from = "the descriptor's spec";
  } else if (shipped) {
    for (const auto& v : shipped->variants) variants.push_back(&v);
    from = shipped->from;
    incomplete = shipped->incomplete;
  }
  if (variants.empty()) return d;

  size_t building = 0;  // variants that (may) build this list
  std::vector<std::vector<std::string>> on(lacked.size());
  std::vector<std::string> undecided;
  for (const ShippedVariant* v : variants) {
    Truth when = evalGuard(abi.when, *v->spec);
    if (when == Truth::False) continue;
    ++building;
    bool open = false;
    for (size_t i = 0; i < lacked.size(); ++i) {
      Truth t = evalGuard(argGuard(abi.args[lacked[i]]), *v->spec);
      if (t == Truth::True && when == Truth::True) on[i].push_back(v->name);
      else if (t != Truth::False) open = true;
    }
    if (open) undecided.push_back(v->name);
  }

  std::vector<std::string> parts;
  for (size_t i = 0; i < lacked.size(); ++i) {
    if (on[i].empty()) continue;
    if (d.focusBuilder < 0) d.focusBuilder = lacked[i];
    parts.push_back(absl::StrCat("copy leaves out ", described(abi.args[lacked[i]]), ", which ", on[i].size(), " of ",
                                 variants.size(), " shipped variant", variants.size() > 1 ? "s turn" : " turns",
                                 " on: ", someOf(on[i])));
  }
  std::vector<std::string> names;
  for (int i : lacked) names.push_back(described(abi.args[i]));
  const std::string lackedText = absl::StrCat("the conditional argument", lacked.size() > 1 ? "s " : " ",
                                              absl::StrJoin(names, ", "));
  if (!parts.empty()) {
    d.verdict = ShippedDecision::Verdict::On;
    d.message = absl::StrCat(absl::StrJoin(parts, "; "), " (", from, ")");
  } else if (building == 0) {
    d.message = absl::StrCat("not settled by the shipped variants: none of the ", variants.size(),
                             " builds this list (", from, ")");
  } else if (!undecided.empty()) {
    d.message = absl::StrCat("not settled by the shipped variants: the guard of ", lackedText,
                             " is not decided by the spec of ", undecided.size(), " of ", variants.size(), " (",
                             someOf(undecided), "; ", from, ")");
  } else if (!incomplete.empty()) {
    d.message = absl::StrCat("not settled by the shipped variants: the guard is off for the ", variants.size(),
                             " listed, but ", incomplete);
  } else {
    d.verdict = ShippedDecision::Verdict::Off;
    d.message = absl::StrCat("copy leaves out ", lackedText, ": the guard is off for every shipped variant (",
                             copy.spec.empty() ? absl::StrCat(building, ", from ", from) : from, ")");
  }
  return d;
}

}  // namespace impact::kernargs_detail
