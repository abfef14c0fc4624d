// The grid/block a real AOT catalog entry states restate the launch geometry of the module its
// folder names (DOMAIN.md §6). Rule (docs/contracts.md, "catalog-geometry"): for each catalog
// file present on both sides whose module (CatalogPairing) defines geometry functions (module
// functions named `*_grid` / `*_block`), a change in code of any of them while no entry's
// grid/block changed is a `changed` row (the catalog may be stale: re-derive it); entries whose
// grid/block changed while those functions did not is a `changed` row too (the catalog moved
// alone); both moving is `changed`, saying so. Never a mismatch: a grid is an expression over
// the spec that no static reading evaluates. Comment-only edits leave fingerprints alone.
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/CatalogPairing.h"
#include "extract/Descriptor.h"
#include "judge/Contracts.h"

namespace impact {

namespace {

bool isGeometryFunction(const PyDef& d) {
  return d.kind == PyDef::Kind::Function && d.name.find('.') == std::string::npos &&
         (d.name.ends_with("_grid") || d.name.ends_with("_block"));
}

std::map<std::string, const PyDef*> geometryDefs(const FileFacts* f) {
  std::map<std::string, const PyDef*> out;
  if (!f) return out;
  for (const auto& d : f->module.defs)
    if (isGeometryFunction(d)) out.emplace(d.name, &d);
  return out;
}

std::map<std::string, const CppArgList*> entries(const FileFacts* f) {
  std::map<std::string, const CppArgList*> out;
  if (!f) return out;
  for (const auto& l : f->lists)
    if (l.catalog) out.emplace(l.catalog->symbol, &l);
  return out;
}

}  // namespace

ContractRows judgeCatalogGeometry(const JudgeContext& cx) {
  ContractRows out;
  for (const auto& [path, hf] : cx.head.facts.files) {
    if (hf->kind != FileKind::Descriptor || !isAotCatalog(path)) continue;
    const FileFacts* bf = cx.base.facts.find(path);
    if (!bf) continue;  // an added catalog: its file row says so
    auto now = entries(hf.get()), before = entries(bf);
    if (now.empty()) continue;
    const auto& first = *now.begin()->second->catalog;
    std::string module = catalogModule(cx.head.facts, cx.layout, first.arch, first.family);
    if (module.empty()) continue;
    auto fnNow = geometryDefs(cx.head.facts.find(module));
    auto fnBefore = geometryDefs(cx.base.facts.find(module));
    if (fnNow.empty() && fnBefore.empty()) continue;  // nothing in the module restated

    std::vector<std::string> movedFns;
    for (const auto& [name, d] : fnNow) {
      auto it = fnBefore.find(name);
      if (it == fnBefore.end() || it->second->fingerprint != d->fingerprint) movedFns.push_back(name);
    }
    for (const auto& [name, d] : fnBefore)
      if (!fnNow.count(name)) movedFns.push_back(name + " (removed)");
    std::vector<const CppArgList*> movedEntries;
    for (const auto& [symbol, l] : now) {
      auto it = before.find(symbol);
      if (it != before.end() && (it->second->catalog->grid != l->catalog->grid ||
                                 it->second->catalog->block != l->catalog->block))
        movedEntries.push_back(l);
    }
    if (movedFns.empty() && movedEntries.empty()) continue;

    Row r;
    r.contract = "catalog-geometry";
    r.status = Status::Changed;
    r.key = "catalog-geometry|" + path;
    r.archs = {first.arch};
    std::vector<std::string> fnNames;
    for (const auto& [name, _] : fnNow) fnNames.push_back(name);
    const PyDef* shown = nullptr;
    if (!movedFns.empty() && fnNow.count(movedFns[0])) shown = fnNow.at(movedFns[0]);
    if (!shown && !fnNow.empty()) shown = fnNow.begin()->second;
    r.python.path = module;
    r.python.symbol = absl::StrJoin(fnNames, ", ");
    if (shown) {
      r.python.line = shown->nameLine + 1;
      r.python.range = {shown->nameLine, 0, shown->nameLine, 0};
      r.python.focus = r.python.range;
    }
    const CppArgList* at = movedEntries.empty() ? now.begin()->second : movedEntries[0];
    r.mirror.path = path;
    r.mirror.line = at->catalog->geometry.line + 1;
    r.mirror.symbol = at->catalog->symbol + " grid/block";
    r.mirror.range = at->catalog->geometry;
    r.mirror.focus = at->catalog->geometry;
    std::vector<std::string> symbols;
    for (const CppArgList* l : movedEntries) symbols.push_back(l->catalog->symbol);
    if (movedEntries.empty()) {
      r.message = absl::StrCat(absl::StrJoin(movedFns, ", "), " changed in code; the grid/block of the ", now.size(),
                               " catalog entr", now.size() == 1 ? "y" : "ies", " restating it did not change");
    } else if (movedFns.empty()) {
      r.message = absl::StrCat("grid/block changed in the catalog (", absl::StrJoin(symbols, ", "), "); the Python ",
                               absl::StrJoin(fnNames, ", "), " did not change");
    } else {
      r.message = absl::StrCat(absl::StrJoin(movedFns, ", "), " changed in code and the catalog's grid/block with it (",
                               absl::StrJoin(symbols, ", "), ")");
    }
    out.explained.insert(path);
    out.covered.insert(path);
    out.covered.insert(module);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
