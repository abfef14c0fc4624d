#include "contracts/kernargs/NameKeyedComparison.h"

#include <cctype>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/ArgListDiff.h"

namespace impact::kernargs_detail {

std::string scalarClass(const KernelArg& a, bool nameKeyed) {
  if (nameKeyed) {
    if (a.typeText == "ROCKE_ARG_POINTER") return "ptr";
    if (a.typeText.starts_with("ROCKE_ARG_")) {
      std::string s = a.typeText.substr(10);
      for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return s;
    }
    return "";
  }
  if (a.kind == "global_buffer") return "ptr";
  std::string t = a.typeText;
  if (auto dot = t.rfind('.'); dot != std::string::npos) t = t.substr(dot + 1);
  std::string l;
  for (char ch : t)
    if (std::isalnum(static_cast<unsigned char>(ch))) l += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  static const std::set<std::string> kScalars = {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                                 "f16", "bf16", "f32", "f64", "fp8e4m3", "bf8e5m2"};
  return kScalars.count(l) ? l : "";
}

namespace {

std::string typeOf(const KernelArg& a, bool nameKeyed) {
  std::string cls = scalarClass(a, nameKeyed);
  std::string ks = kindSize(a);
  return cls.empty() || cls == "ptr" ? ks : absl::StrCat(cls, " ", ks);
}

// Where a builder argument the check does not accept fails: the check's own message for its
// pointer or scalar branch, when the file states one.
std::string rejection(const CppArgList& copy, const KernelArg& b) {
  auto it = copy.rejects.find(b.kind == "global_buffer" ? "pointer" : "scalar");
  return it == copy.rejects.end() ? "" : absl::StrCat(" (\"", it->second, "\")");
}

Comparison compareAbi(const PyAbi& abi, const CppArgList& copy) {
  Comparison c;
  c.abi = &abi;
  std::map<std::string, int> accepted;
  for (size_t k = 0; k < copy.args.size(); ++k) accepted.emplace(copy.args[k].name, int(k));
  std::set<std::string> declared, always;
  std::vector<std::string> parts, leftOut;
  for (size_t i = 0; i < abi.args.size(); ++i) {
    const KernelArg& b = abi.args[i];
    declared.insert(b.name);
    if (!b.conditional) always.insert(b.name);
    if (!typeKnown(b)) c.unresolved.push_back(b.name + (b.unresolvedReason.empty() ? "" : ": " + b.unresolvedReason));
    auto it = accepted.find(b.name);
    if (it == accepted.end()) {
      if (b.conditional) {
        leftOut.push_back(absl::StrCat(b.name, " (if ", b.condition, ")"));
      } else {
        parts.push_back(absl::StrCat("builder argument ", b.name, " (", typeOf(b, false), ") at #", i,
                                     " is not accepted by the name-keyed check", rejection(copy, b)));
        if (c.focusBuilder < 0 && c.focusCopy < 0) c.focusBuilder = int(i);
      }
      continue;
    }
    const KernelArg& k = copy.args[it->second];
    c.pairs.emplace_back(int(i), it->second);
    bool differs = false;
    if (typeKnown(b) && typeKnown(k)) differs = b.kind != k.kind || b.size != k.size;
    std::string bc = scalarClass(b, false), kc = scalarClass(k, true);
    if (!bc.empty() && !kc.empty() && bc != kc) differs = true;
    if (differs) {
      parts.push_back(absl::StrCat(b.name, ": builder ", typeOf(b, false), ", the check accepts ", typeOf(k, true),
                                   k.typeText.empty() ? "" : " (" + k.typeText + ")"));
      if (c.focusBuilder < 0 && c.focusCopy < 0) c.focusBuilder = int(i), c.focusCopy = it->second;
    }
  }
  for (size_t k = 0; k < copy.args.size(); ++k) {
    const KernelArg& a = copy.args[k];
    if (!a.resolved) c.unresolved.push_back(absl::StrCat("check of ", a.name, " (", a.unresolvedReason, ")"));
    if (!a.required || always.count(a.name)) continue;
    if (declared.count(a.name)) {
      leftOut.push_back(absl::StrCat(a.name, " (required by the check, conditional in the builder)"));
      continue;
    }
    parts.push_back(absl::StrCat("the check requires ", a.name, ", which the builder does not declare"));
    if (c.focusBuilder < 0 && c.focusCopy < 0) c.focusCopy = int(k);
  }
  if (!parts.empty()) {
    c.outcome = Comparison::Outcome::Disagree;
    c.distance = int(parts.size());
    c.message = absl::StrJoin(parts, "; ");
  } else if (!leftOut.empty()) {
    c.outcome = Comparison::Outcome::AgreeWithoutConditional;
    c.message = absl::StrCat("the name-keyed check does not accept the conditional argument",
                             leftOut.size() > 1 ? "s " : " ", absl::StrJoin(leftOut, ", "));
  } else {
    c.outcome = Comparison::Outcome::Agree;
  }
  return c;
}

}  // namespace

// Unlike an ordered copy, which states one of the builder's lists, a name-keyed check runs on
// whichever list the recipe was built from: it must accept each of them.
Comparison compareNameKeyed(const PyBuilder& builder, const CppArgList& copy) {
  Comparison best;
  auto rank = [](const Comparison& x) {
    return x.outcome == Comparison::Outcome::Agree ? 0 : x.outcome == Comparison::Outcome::AgreeWithoutConditional ? 1 : 2;
  };
  for (const auto& abi : builder.abis) {
    Comparison c = compareAbi(abi, copy);
    if (builder.abis.size() > 1 && c.outcome == Comparison::Outcome::Disagree && !abi.guard.empty())
      c.message = absl::StrCat(c.message, " (vs the ", abi.origin, " list, when ", abi.guard, ")");
    // The check meets every list the recipe can be built from: the worst one is the verdict
    // (ties go to the builder's own body, the unguarded list).
    if (!best.abi || rank(c) > rank(best) || (rank(c) == rank(best) && c.distance > best.distance)) best = c;
  }
  if (!best.abi) {
    best.outcome = Comparison::Outcome::Disagree;
    best.message = absl::StrCat(builder.name, " declares no argument list");
  }
  if (copy.args.empty() && best.abi) {  // said, never a pass and never a guessed break
    best.outcome = Comparison::Outcome::AgreeWithoutConditional;
    best.message = "not compared: the name-keyed check states no argument name impactd can read";
  }
  return best;
}

}  // namespace impact::kernargs_detail
