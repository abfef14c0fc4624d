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

// Kind and size agree (unknown on either side counts as agreeing: it is reported separately).
bool sameType(const KernelArg& b, const KernelArg& c) {
  if (!typeKnown(b) || !typeKnown(c)) return true;
  return b.kind == c.kind && b.size == c.size;
}

bool sameName(const KernelArg& b, const KernelArg& c) {
  return b.name.empty() || c.name.empty() || b.name == c.name;
}

std::string label(const KernelArg& a) { return a.name.empty() ? std::string("(unnamed)") : a.name; }


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
      d.parts.push_back(absl::StrCat("#", i, " ", label(b[i]), ": copy ", kindSize(c[i]), ", builder ",
                                     kindSize(b[i])));
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
        typeDiffs.push_back(absl::StrCat("#", i, " ", label(b[i]), ": copy ", kindSize(c[j]), ", builder ",
                                         kindSize(b[i])));
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

std::string joinDiff(const Diff& d) {
  if (d.parts.empty()) return "";
  std::string s = d.parts[0];
  for (size_t i = 1; i < d.parts.size(); ++i) s += (i == 1 && d.parts[0].starts_with("copy has") ? ": " : "; ") + d.parts[i];
  return s;
}
}  // namespace kernargs_detail
}  // namespace impact
