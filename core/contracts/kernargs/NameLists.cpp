#include "contracts/kernargs/NameLists.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/DeclaredSurfaces.h"

namespace impact {

namespace {

constexpr size_t kMinNamesByName = 4;
constexpr size_t kMaxShown = 6;

size_t held(const PyNameList& l, const CppArgList& a) {
  std::set<std::string> names(l.names.begin(), l.names.end());
  size_t n = 0;
  for (const auto& x : a.args) n += names.count(x.name);
  return n;
}

// Where the array's tail starts in the list: after the leading names (see the header).
size_t leadingCount(const PyNameList& l, const CppArgList& a, const std::vector<std::string>* atBase) {
  if (atBase && atBase->size() <= l.names.size() && std::equal(atBase->begin(), atBase->end(), l.names.begin()))
    return atBase->size();
  std::set<std::string> inArray;
  for (const auto& x : a.args) inArray.insert(x.name);
  for (size_t i = 0; i < l.names.size(); ++i)
    if (inArray.count(l.names[i])) return i;
  return l.names.size();
}

size_t inPlace(const PyNameList& l, const CppArgList& a) {
  size_t off = leadingCount(l, a, nullptr), n = 0;
  for (size_t i = 0; i < a.args.size() && off + i < l.names.size(); ++i) n += a.args[i].name == l.names[off + i];
  return n;
}

struct Candidate {
  std::string path;
  const PyNameList* list;
};

// The best list for an array by names (step 2), or null.
const Candidate* bestByNames(const std::vector<Candidate>& lists, const CppArgList& a) {
  const Candidate* best = nullptr;
  std::tuple<size_t, size_t, long, bool> bestScore{};
  for (const auto& c : lists) {
    size_t h = held(*c.list, a);
    if (h < kMinNamesByName || h * 4 < a.args.size() * 3) continue;
    long lengthGap = std::labs(static_cast<long>(c.list->names.size()) - static_cast<long>(a.args.size()));
    std::tuple<size_t, size_t, long, bool> score{h, inPlace(*c.list, a), -lengthGap, !c.list->function.starts_with("_")};
    if (!best || score > bestScore) best = &c, bestScore = score;
  }
  return best;
}

// Longest common subsequence of two name lists: the matched index pairs, in order.
std::vector<std::pair<size_t, size_t>> lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<uint16_t>> t(a.size() + 1, std::vector<uint16_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) out.emplace_back(i++, j++);
    else if (t[i + 1][j] >= t[i][j + 1]) ++i;
    else ++j;
  }
  return out;
}

std::string shown(const std::vector<std::string>& parts) {
  if (parts.size() <= kMaxShown) return absl::StrJoin(parts, ", ");
  std::vector<std::string> head(parts.begin(), parts.begin() + kMaxShown);
  return absl::StrCat(absl::StrJoin(head, ", "), " and ", parts.size() - kMaxShown, " more");
}

}  // namespace

std::vector<NameListPair> pairNameLists(const TreeFacts& facts, const Layout& layout) {
  std::vector<NameListPair> out;
  std::set<const CppArgList*> paired;
  std::vector<Candidate> evaluated;
  for (const auto& [path, f] : facts.files)
    if (f && f->kind == FileKind::Python)
      for (const auto& l : f->nameLists)
        if (l.evaluated && !l.names.empty()) evaluated.push_back({path, &l});

  // 1 and 3: through the profiles' entries.
  struct Unevaluated {
    NameListPair pair;
    const FileFacts* cpp;
  };
  std::vector<Unevaluated> later;
  for (const auto& [mpath, mf] : facts.files) {
    if (!mf || !mf->manifest) continue;
    const Layout l = profileLayout(*mf->manifest, layout);
    for (const SurfaceEntry& e : mf->manifest->surfaces) {
      if (e.pythonProse || e.pythonSymbol.empty() || e.cppPath.empty()) continue;
      const std::string py = l.libraryPath(e.pythonPath);
      const FileFacts* pf = facts.find(py);
      const FileFacts* cf = facts.find(e.cppPath);
      if (!pf || !cf || cf->nameArrays.empty()) continue;
      for (const auto& list : pf->nameLists) {
        if (list.function != e.pythonSymbol) continue;
        NameListPair p{py, &list, e.cppPath, nullptr, mpath, e.name};
        if (!list.evaluated) {
          if (list.reason.starts_with("not evaluable:")) later.push_back({p, cf});
          continue;
        }
        size_t best = 0;
        for (const auto& a : cf->nameArrays)
          if (size_t h = held(list, a); h > best && h * 2 >= a.args.size()) best = h, p.array = &a;
        if (!p.array || paired.count(p.array)) continue;
        paired.insert(p.array);
        out.push_back(p);
      }
    }
  }
  // 2: by names.
  for (const auto& [cpath, cf] : facts.files) {
    if (!cf || cf->kind != FileKind::Cpp) continue;
    for (const auto& a : cf->nameArrays) {
      if (paired.count(&a)) continue;
      if (const Candidate* c = bestByNames(evaluated, a)) {
        paired.insert(&a);
        out.push_back({c->path, c->list, cpath, &a, "", ""});
      }
    }
  }
  for (auto& u : later)
    for (const auto& a : u.cpp->nameArrays)
      if (!paired.count(&a)) {
        NameListPair p = u.pair;
        p.array = &a;
        out.push_back(p);
      }
  return out;
}

NamesComparison compareNames(const PyNameList& list, const CppArgList& array,
                             const std::vector<std::string>* leadingAtBase) {
  NamesComparison c;
  const size_t off = leadingCount(list, array, leadingAtBase);
  c.leading.assign(list.names.begin(), list.names.begin() + off);
  const std::vector<std::string> tail(list.names.begin() + off, list.names.end());
  std::vector<std::string> names;
  for (const auto& a : array.args) names.push_back(a.name);
  const std::string after =
      off == 0 ? "" : absl::StrCat(" after its ", off, " leading (", shown(c.leading), ")");
  if (tail == names) {
    c.agree = true;
    c.message = absl::StrCat("agrees: the ", names.size(), " names of ", array.variable, " are ", list.function, "'s",
                             after);
    return c;
  }
  auto focus = [&](size_t li, size_t ai) {
    if (c.focusList < 0) c.focusList = static_cast<int>(off + li), c.focusArray = static_cast<int>(ai);
  };
  std::multiset<std::string> a(tail.begin(), tail.end()), b(names.begin(), names.end());
  if (a == b) {
    // The same names in another order: the positions that differ.
    std::vector<std::string> diffs;
    for (size_t i = 0; i < tail.size(); ++i)
      if (tail[i] != names[i]) {
        focus(i, i);
        diffs.push_back(diffs.empty() ? absl::StrCat(list.function, " #", off + i, " ", tail[i], ", ", array.variable, "[",
                                                     i, "] ", names[i])
                                      : absl::StrCat("#", off + i, " ", tail[i], ", [", i, "] ", names[i]));
      }
    c.message = absl::StrCat("order differs from ", list.function, after, " at ", diffs.size(), " positions: ",
                             absl::StrJoin(std::vector<std::string>(diffs.begin(), diffs.begin() + std::min(diffs.size(), kMaxShown)), "; "),
                             diffs.size() > kMaxShown ? absl::StrCat(" and ", diffs.size() - kMaxShown, " more") : "");
    return c;
  }
  std::vector<std::pair<size_t, size_t>> common = lcs(tail, names);
  std::vector<bool> inTail(tail.size(), false), inNames(names.size(), false);
  for (auto [i, j] : common) inTail[i] = inNames[j] = true;
  std::vector<std::string> missing, extra, moved;
  std::set<std::string> tailSet(tail.begin(), tail.end()), nameSet(names.begin(), names.end());
  for (size_t i = 0; i < tail.size(); ++i)
    if (!inTail[i]) {
      focus(i, std::min(i, names.empty() ? 0 : names.size() - 1));
      if (!nameSet.count(tail[i])) missing.push_back(absl::StrCat(tail[i], " (#", off + i, ")"));
      else moved.push_back(absl::StrCat(tail[i], " (#", off + i, ")"));
    }
  for (size_t j = 0; j < names.size(); ++j)
    if (!inNames[j] && !tailSet.count(names[j])) {
      if (c.focusArray < 0 || static_cast<size_t>(c.focusArray) > j) c.focusArray = static_cast<int>(j);
      extra.push_back(absl::StrCat(names[j], " ([", j, "])"));
    }
  std::vector<std::string> parts;
  if (!missing.empty()) parts.push_back("missing from the array: " + shown(missing));
  if (!extra.empty()) parts.push_back("not in the list: " + shown(extra));
  if (!moved.empty()) parts.push_back("out of order: " + shown(moved));
  c.message = absl::StrCat(array.variable, " has ", names.size(), " names, ", list.function, " has ", tail.size(), after,
                           ": ", absl::StrJoin(parts, "; "));
  return c;
}

}  // namespace impact
