// kernargs rows of names arrays against the Python names lists they restate
// (contracts/kernargs/NameLists.h): a names array (`IMPLICIT_GEMM_KERNARG_NAMES`) and the
// evaluated list (`conv_abi.py:conv_arg_names`), compared name by name in order. A row is made
// when the module, the C++ file or the profile it pairs through was touched: mismatch when the
// names differ (pre-existing when they already did at the base), changed when they agree and
// either side's names moved, inert otherwise. A list that cannot be evaluated is a changed row
// saying why it is not compared; an array that paired at the base and pairs with no list now is
// a mismatch.
#include <map>

#include "absl/strings/str_cat.h"
#include "contracts/kernargs/NameLists.h"
#include "judge/Contracts.h"

namespace impact {

namespace {

std::string fileName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

Location listLoc(const NameListPair& p) {
  return {p.pyPath, p.list->range.line + 1, p.list->function, p.list->range, p.list->range};
}

Location arrayLoc(const NameListPair& p) {
  std::string sym = p.array->symbol.empty() ? p.array->variable : p.array->symbol + " " + p.array->variable;
  return {p.cppPath, p.array->range.line + 1, sym, p.array->range, p.array->range};
}

const PyNameList* sameList(const TreeFacts& facts, const std::string& path, const std::string& fn) {
  const FileFacts* f = facts.find(path);
  if (!f) return nullptr;
  for (const auto& l : f->nameLists)
    if (l.function == fn) return &l;
  return nullptr;
}

std::vector<std::string> arrayNames(const CppArgList& a) {
  std::vector<std::string> out;
  for (const auto& x : a.args) out.push_back(x.name);
  return out;
}

const CppArgList* sameArray(const TreeFacts& facts, const std::string& path, const CppArgList& a) {
  const FileFacts* f = facts.find(path);
  if (!f) return nullptr;
  for (const auto& x : f->nameArrays)
    if (x.symbol == a.symbol && x.variable == a.variable) return &x;
  return nullptr;
}

}  // namespace

ContractRows judgeNameLists(const JudgeContext& cx) {
  ContractRows out;
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  const std::vector<NameListPair> headPairs = pairNameLists(head.facts, cx.layout);
  const std::vector<NameListPair> basePairs = pairNameLists(base.facts, cx.layout);
  std::map<std::string, const NameListPair*> baseByKey;
  for (const auto& p : basePairs) baseByKey.emplace(p.key(), &p);
  std::set<std::string> headKeys;

  auto archsOf = [&](const NameListPair& p, const std::string& profileArch) {
    std::set<std::string> a = cx.headArchs.forModule(p.pyPath);
    auto b = cx.baseArchs.forModule(p.pyPath);
    a.insert(b.begin(), b.end());
    if (a.empty() && !profileArch.empty()) a.insert(profileArch);
    if (a.empty() && !archFromPath(p.cppPath).empty()) a.insert(archFromPath(p.cppPath));
    return std::vector<std::string>(a.begin(), a.end());
  };

  for (const auto& p : headPairs) {
    headKeys.insert(p.key());
    const bool relevant = touched(base, head, p.pyPath) || touched(base, head, p.cppPath) ||
                          (!p.manifest.empty() && touched(base, head, p.manifest));
    if (!relevant) continue;
    const FileFacts* mf = p.manifest.empty() ? nullptr : head.facts.find(p.manifest);
    Row r;
    r.contract = "kernargs";
    r.python = listLoc(p);
    r.mirror = arrayLoc(p);
    r.key = "kernargs|names|" + p.key();
    r.archs = archsOf(p, mf && mf->manifest ? mf->manifest->arch : "");
    const std::string lead = p.manifest.empty()
                                 ? "paired by names; "
                                 : absl::StrCat("paired through ", fileName(p.manifest), " entry ", p.entry, "; ");
    out.covered.insert(p.pyPath);
    out.covered.insert(p.cppPath);
    if (!p.list->evaluated) {
      r.status = Status::Changed;
      r.message = absl::StrCat(lead, "not compared: ", p.list->function, " is ", p.list->reason);
      out.explained.insert(p.pyPath);
      out.explained.insert(p.cppPath);
      out.rows.push_back(std::move(r));
      continue;
    }
    const NameListPair* bp = baseByKey.count(p.key()) ? baseByKey.at(p.key()) : nullptr;
    std::optional<NamesComparison> before;
    if (bp && bp->list->evaluated) before = compareNames(*bp->list, *bp->array, nullptr);
    NamesComparison now = compareNames(*p.list, *p.array, before ? &before->leading : nullptr);
    const PyNameList* bl = sameList(base.facts, p.pyPath, p.list->function);
    const CppArgList* ba = sameArray(base.facts, p.cppPath, *p.array);
    std::vector<std::string> moved;
    if (!bl || !bl->evaluated || bl->names != p.list->names) moved.push_back("names list");
    if (!ba || arrayNames(*ba) != arrayNames(*p.array)) moved.push_back("array");
    if (!now.agree) {
      r.status = Status::Mismatch;
      r.preexisting = before && !before->agree;
      if (now.focusList >= 0 && size_t(now.focusList) < p.list->sites.size())
        r.python.focus = p.list->sites[now.focusList];
      if (now.focusArray >= 0 && size_t(now.focusArray) < p.array->args.size())
        r.mirror.focus = p.array->args[now.focusArray].range;
      r.message = lead + now.message + (r.preexisting ? " (already so at the base)" : "");
    } else if (!moved.empty()) {
      r.status = Status::Changed;
      r.message = absl::StrCat(lead, now.message, "; ", moved.size() == 2 ? "names list and array" : moved[0], " changed");
    } else {
      r.status = Status::Inert;
      r.message = lead + "its names did not change";
    }
    if (r.status != Status::Inert) {
      out.explained.insert(p.pyPath);
      out.explained.insert(p.cppPath);
    }
    out.rows.push_back(std::move(r));
  }

  // An array that paired at the base and pairs with no list now, while it is still there.
  for (const auto& p : basePairs) {
    if (headKeys.count(p.key()) || !p.list->evaluated) continue;
    if (!sameArray(head.facts, p.cppPath, *p.array)) continue;
    Row r;
    r.contract = "kernargs";
    r.status = Status::Mismatch;
    r.python = listLoc(p);
    r.python.line = 0;
    r.mirror = arrayLoc(p);
    const PyNameList* now = sameList(head.facts, p.pyPath, p.list->function);
    r.message = now && !now->evaluated
                    ? absl::StrCat("not compared: ", p.list->function, " is ", now->reason)
                    : absl::StrCat("the array restated ", p.list->function, " at the base; no names list matches it now");
    if (now && !now->evaluated) r.status = Status::Changed;
    r.key = "kernargs|names|" + p.key();
    r.archs = archsOf(p, "");
    out.explained.insert(p.pyPath);
    out.explained.insert(p.cppPath);
    out.covered.insert(p.pyPath);
    out.covered.insert(p.cppPath);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
