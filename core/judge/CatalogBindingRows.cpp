// The AOT catalog engine's name-keyed copies (contracts/CatalogBindings.h): each LaunchBindings
// set (an adapter's buildBindings, a test binding by hand) against the catalog entries it binds.
// A row when the set's file or one of those catalogs was touched: `mismatch` when a name an
// entry needs is not bound where LaunchAbi looks, or with a ScalarValue alternative packArgs does
// not read (every launch of that entry throws); otherwise `inert` (every name is bound as LaunchAbi
// packs it), bindings no entry reads said as a note of the row.
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/CatalogBindings.h"
#include "judge/Contracts.h"

namespace impact {

namespace {
std::string keyOf(const BindingPair& p) { return absl::StrCat(p.path, "|", p.set->function, "|", p.set->variable); }
}  // namespace

ContractRows judgeCatalogBindings(const JudgeContext& cx) {
  ContractRows out;
  std::vector<BindingPair> now = pairBindings(cx.head.facts), before = pairBindings(cx.base.facts);
  std::map<std::string, const BindingPair*> baseByKey;
  for (const BindingPair& p : before) baseByKey[keyOf(p)] = &p;
  for (const BindingPair& p : now) {
    bool moved = touched(cx.base, cx.head, p.path);
    std::set<std::string> catalogs, archs;
    for (const auto& [cpath, e] : p.entries) {
      catalogs.insert(cpath);
      if (e->catalog && !e->catalog->arch.empty()) archs.insert(e->catalog->arch);
    }
    for (const std::string& c : catalogs) moved = moved || touched(cx.base, cx.head, c);
    // LaunchAbi.cpp decides how every binding is packed: an edit of its rules re-judges every set.
    if (p.abi && p.abi->notRead.empty()) moved = moved || touched(cx.base, cx.head, p.abi->path);
    if (!moved) continue;
    BindingCheck c = checkBindings(p);
    Row r;
    r.contract = "catalog-bindings";
    r.key = "catalog-bindings|" + keyOf(p);
    r.status = c.problems.empty() ? Status::Inert : Status::Mismatch;
    r.pairedBy = p.pairedBy;
    if (!c.problems.empty())
      if (auto it = baseByKey.find(keyOf(p)); it != baseByKey.end())
        r.preexisting = checkBindings(*it->second).problems == c.problems;
    const auto& [cpath, first] = p.entries.front();
    r.python.path = cpath;
    r.python.line = first->range.line + 1;
    r.python.symbol = absl::StrCat(p.entries.size(), " catalog entr", p.entries.size() == 1 ? "y" : "ies",
                                   " args_signature");
    r.python.range = r.python.focus = first->range;
    r.mirror.path = p.path;
    r.mirror.symbol = absl::StrCat(p.set->function.empty() ? "(namespace scope)" : p.set->function, " ",
                                   p.set->variable);
    r.mirror.range = p.set->range;
    r.mirror.focus = c.focus ? c.focus->range : p.set->range;
    r.mirror.line = r.mirror.focus.line + 1;
    std::vector<std::string> parts = c.problems;
    if (parts.empty())
      parts.push_back(absl::StrCat("binds every name the ", p.entries.size(), " entries need, as LaunchAbi packs it"));
    if (!c.unused.empty()) parts.push_back("not read by any entry: " + absl::StrJoin(c.unused, ", "));
    if (!c.unstated.empty()) parts.push_back("value type not stated: " + absl::StrJoin(c.unstated, "; "));
    if (!p.abi || !p.abi->notRead.empty()) parts.push_back(c.rules);  // the fallback is said
    r.message = absl::StrJoin(parts, "; ");
    r.archs.assign(archs.begin(), archs.end());
    if (r.status == Status::Mismatch) out.explained.insert(p.path);
    out.covered.insert(p.path);
    out.covered.insert(catalogs.begin(), catalogs.end());
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
