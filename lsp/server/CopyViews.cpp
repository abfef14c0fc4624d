#include "server/CopyViews.h"

#include "absl/strings/str_cat.h"
#include "server/Navigation.h"

namespace impact::server {

CopyView viewOf(const KernargsPair& p) {
  CopyView v;
  v.pair = &p;
  v.cmp = comparePair(p);
  const CppArgList& list = *p.copy.list;
  v.builderOf.assign(list.args.size(), -1);
  v.diffs.assign(list.args.size(), "");
  if (!v.cmp.abi) return v;
  const auto& bargs = v.cmp.abi->args;
  std::vector<bool> bound(bargs.size(), false);
  for (auto [bi, ci] : v.cmp.pairs) {
    if (ci < 0 || size_t(ci) >= list.args.size() || bi < 0 || size_t(bi) >= bargs.size()) continue;
    v.builderOf[ci] = bi;
    bound[bi] = true;
  }
  for (size_t j = 0; j < list.args.size(); ++j) {
    if (v.builderOf[j] < 0) {
      // Past a list the builder completes elsewhere (an open tail), an element is not judged.
      if (!v.cmp.notCompared.empty()) continue;
      v.diffs[j] = "not in the builder's list";
    } else {
      v.diffs[j] = elementDifference(list, list.args[j], bargs[v.builderOf[j]]);
    }
    if (!v.diffs[j].empty()) ++v.mismatches;
  }
  if (v.cmp.notCompared.empty() && list.form != CppArgList::Form::NameKeyed)
    for (size_t i = 0; i < bargs.size(); ++i)
      if (!bound[i] && !bargs[i].conditional) ++v.mismatches;
  if (!v.agrees() && v.mismatches == 0) v.mismatches = 1;  // what the comparison found, said once
  return v;
}

std::vector<CopyView> viewsOfBuilder(const AnalysisState& st, const std::string& path, const PyBuilder* b) {
  std::vector<CopyView> out;
  for (const auto& p : st.headPairs)
    if (p.builder && p.builder->path == path && p.builder->builder == b) out.push_back(viewOf(p));
  return out;
}

int elementFor(const CopyView& view, const PyAbi* abi, int index) {
  const CppArgList& list = *view.pair->copy.list;
  if (view.cmp.abi == abi) {
    for (size_t j = 0; j < view.builderOf.size(); ++j)
      if (view.builderOf[j] == index) return int(j);
    return -1;
  }
  const KernelArg& want = abi->args[index];
  if (want.name.empty() || list.form == CppArgList::Form::Launch) return -1;
  for (size_t j = 0; j < list.args.size(); ++j)
    if (list.args[j].name == want.name) return int(j);
  return -1;
}

std::vector<int64_t> impliedOffsets(const std::vector<KernelArg>& args) {
  std::vector<int64_t> out;
  int64_t at = 0;
  for (const auto& a : args) {
    if (at < 0 || a.size == 0) {
      at = -1;
      out.push_back(-1);
      continue;
    }
    int64_t align = 1;
    while (align < 8 && a.size % (align * 2) == 0) align *= 2;
    at = (at + align - 1) / align * align;
    out.push_back(at);
    at += a.size;
  }
  return out;
}

std::string copyName(const CppArgList& l) {
  if (!l.symbol.empty()) return l.variable.empty() ? l.symbol : l.symbol + " " + l.variable;
  if (l.catalog) return l.catalog->symbol;
  return l.variable.empty() ? "(list)" : l.variable;
}

std::string fileName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace impact::server
