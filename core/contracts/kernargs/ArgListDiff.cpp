#include "contracts/Kernargs.h"

#include "contracts/CatalogPairing.h"
#include "contracts/kernargs/ArgListDiff.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <map>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

// Comparing two argument lists: kind/size text, positional and aligned diffs, the diff message.

namespace impact {

std::string kindSize(const KernelArg& a) {
  if (a.kind.empty() && a.size == 0) return "?";
  return absl::StrCat(a.kind.empty() ? "?" : a.kind, "/", a.size ? std::to_string(a.size) : "?");
}

namespace kernargs_detail {

std::vector<KernelArg> unconditional(const std::vector<KernelArg>& args) {
  std::vector<KernelArg> out;
  for (const auto& a : args)
    if (!a.conditional) out.push_back(a);
  return out;
}

bool typeKnown(const KernelArg& a) { return a.resolved && !a.kind.empty() && a.size != 0; }

std::string label(const KernelArg& a) { return a.name.empty() ? std::string("(unnamed)") : a.name; }

// Two type classes (Facts.h KernelArg::typeClass) agree: either side unstated; the same float
// class; integers of one width whose signedness, where both state it ("sN" / "uN"), agrees.
bool sameTypeClass(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a == b) return true;
  auto intWidth = [](const std::string& t) -> std::string {
    if (t.size() >= 2 && (t[0] == 'i' || t[0] == 's' || t[0] == 'u') && std::isdigit(static_cast<unsigned char>(t[1])))
      return t.substr(1);
    return "";
  };
  std::string wa = intWidth(a), wb = intWidth(b);
  if (wa.empty() || wb.empty() || wa != wb) return false;
  return a[0] == 'i' || b[0] == 'i';  // one side states no signedness
}

// Kind and size agree, and the type class where both state it (unknown on either side counts
// as agreeing: it is reported separately).
bool sameType(const KernelArg& b, const KernelArg& c) {
  if (!typeKnown(b) || !typeKnown(c)) return true;
  return b.kind == c.kind && b.size == c.size && sameTypeClass(b.typeClass, c.typeClass);
}

// A type class as a message writes it: "i32" (signed or signless), "u32", "f32"; a pointer
// "ptr<bf16>".
std::string classLabel(const KernelArg& a) {
  std::string t = a.typeClass;
  if (t.size() >= 2 && t[0] == 's' && std::isdigit(static_cast<unsigned char>(t[1]))) t[0] = 'i';
  return a.kind == "global_buffer" ? "ptr<" + t + ">" : t;
}

// One slot whose types differ: kind/size when those differ, else the type classes
// ("#4 scale: builder i32, copy f32").
std::string typeDiff(size_t i, const KernelArg& b, const KernelArg& c) {
  if (b.kind == c.kind && b.size == c.size)
    return absl::StrCat("#", i, " ", label(b), ": builder ", classLabel(b), ", copy ", classLabel(c));
  return absl::StrCat("#", i, " ", label(b), ": copy ", kindSize(c), ", builder ", kindSize(b));
}

bool sameName(const KernelArg& b, const KernelArg& c) {
  return b.name.empty() || c.name.empty() || b.name == c.name;
}



// Positional comparison of two lists of equal length. A launch call's "names" are its argument
// expressions: never compared (ignoreNames), kinds and sizes are.
Diff positional(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  Diff d;
  for (size_t i = 0; i < b.size(); ++i) d.pairs.emplace_back(int(i), int(i));
  auto sameName = [&](const KernelArg& x, const KernelArg& y) { return ignoreNames || kernargs_detail::sameName(x, y); };
  std::vector<size_t> nameDiff;
  for (size_t i = 0; i < b.size(); ++i) {
    if (!sameName(b[i], c[i]) || !sameType(b[i], c[i])) d.focus(int(i), int(i));
    if (!sameName(b[i], c[i])) nameDiff.push_back(i);
    if (!sameType(b[i], c[i])) {
      ++d.distance;
      d.parts.push_back(typeDiff(i, b[i], c[i]));
    }
  }
  // Name differences: say "swapped" for a pair that exchanged names.
  std::set<size_t> done;
  for (size_t x : nameDiff) {
    if (done.count(x)) continue;
    for (size_t y : nameDiff) {
      if (y <= x || done.count(y)) continue;
      if (b[x].name == c[y].name && b[y].name == c[x].name) {
        d.parts.push_back(absl::StrCat(b[x].name, " and ", b[y].name, " swapped: copy has ", c[x].name,
                                       " at #", x, " and ", c[y].name, " at #", y));
        done.insert(x);
        done.insert(y);
        d.distance += 2;
        break;
      }
    }
    if (!done.count(x)) {
      d.parts.push_back(absl::StrCat("#", x, ": copy names ", c[x].name, ", builder ", b[x].name));
      done.insert(x);
      ++d.distance;
    }
  }
  return d;
}

// Alignment of lists of different length (longest common subsequence on name, or on type for
// unnamed copies), then what is missing from or extra in the copy.
Diff aligned(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  Diff d;
  d.parts.push_back(absl::StrCat("copy has ", c.size(), " arguments, builder has ", b.size()));
  d.distance = 2 * static_cast<int>(b.size() > c.size() ? b.size() - c.size() : c.size() - b.size());
  bool named = !ignoreNames && std::any_of(c.begin(), c.end(), [](const KernelArg& a) { return !a.name.empty(); });
  auto eq = [&](const KernelArg& x, const KernelArg& y) {
    return named ? (x.name == y.name) : (sameType(x, y));
  };
  size_t n = b.size(), m = c.size();
  std::vector<std::vector<int>> L(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      L[i][j] = eq(b[i], c[j]) ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
  std::vector<std::string> missing, extra, typeDiffs;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && eq(b[i], c[j])) {
      d.pairs.emplace_back(int(i), int(j));
      if (!sameType(b[i], c[j])) {
        d.focus(int(i), int(j));
        typeDiffs.push_back(typeDiff(i, b[i], c[j]));
      }
      ++i, ++j;
    } else if (i < n && (j == m || L[i + 1][j] >= L[i][j + 1])) {
      d.focus(int(i), j < m ? int(j) : (m ? int(m) - 1 : -1));
      missing.push_back(absl::StrCat(label(b[i]), " (", kindSize(b[i]), ") at #", i));
      ++i;
    } else {
      d.focus(i < n ? int(i) : (n ? int(n) - 1 : -1), int(j));
      extra.push_back(absl::StrCat(label(c[j]), " (", kindSize(c[j]), ") at #", j));
      ++j;
    }
  }
  if (!missing.empty()) d.parts.push_back("missing " + absl::StrJoin(missing, ", "));
  if (!extra.empty()) d.parts.push_back("extra " + absl::StrJoin(extra, ", "));
  for (auto& t : typeDiffs) d.parts.push_back(t);
  d.distance += static_cast<int>(typeDiffs.size());
  return d;
}

Diff diffLists(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  return b.size() == c.size() ? positional(b, c, ignoreNames) : aligned(b, c, ignoreNames);
}

std::vector<std::string> unresolvedLaunchSlots(const std::vector<KernelArg>& args) {
  // Slots with one reason are said once: "launch arguments #4–#7 (fields of `shape`, ...)".
  std::vector<std::pair<std::string, std::vector<size_t>>> groups;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].resolved) continue;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == args[i].unresolvedReason; });
    if (g == groups.end()) groups.push_back({args[i].unresolvedReason, {i}});
    else g->second.push_back(i);
  }
  std::vector<std::string> out;
  for (const auto& [why, idx] : groups) {
    if (idx.size() == 1) {
      out.push_back(absl::StrCat("launch argument #", idx[0], " ", args[idx[0]].name, " (", why, ")"));
      continue;
    }
    std::vector<std::string> runs;  // consecutive slots as ranges: #4–#7, #9
    for (size_t k = 0; k < idx.size();) {
      size_t e = k;
      while (e + 1 < idx.size() && idx[e + 1] == idx[e] + 1) ++e;
      runs.push_back(e == k ? absl::StrCat("#", idx[k]) : absl::StrCat("#", idx[k], "\u2013#", idx[e]));
      k = e + 1;
    }
    out.push_back(absl::StrCat("launch arguments ", absl::StrJoin(runs, ", "), " (", why, ")"));
  }
  return out;
}

std::string joinDiff(const Diff& d) {
  if (d.parts.empty()) return "";
  std::string s = d.parts[0];
  for (size_t i = 1; i < d.parts.size(); ++i) s += (i == 1 && d.parts[0].starts_with("copy has") ? ": " : "; ") + d.parts[i];
  return s;
}
}  // namespace kernargs_detail
}  // namespace impact
