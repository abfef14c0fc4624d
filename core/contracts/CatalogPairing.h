// Pairing a real AOT catalog entry with its builder (DOMAIN.md §6). A catalog
// (`rocke/aot_catalog/<arch>/<family>/family.json`) names no builder: the folder's arch and
// family name the module (`kernels/<arch>/<family>.py`, else the family with trailing `_word`s
// dropped: attention_dense_prefill -> attention_dense), and the entry's `symbol`
// (`rocke_` + the kernel name) the builder in it. Which of the builder's lists an entry
// restates is its variant's: `_persist<N>` in the symbol selects the persistent early return
// (CppArgList::spec carries `persistent`, read by compareCopy).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "model/Layout.h"

namespace impact {

// The module a catalog family restates ("" when none of the candidates exists); `tried`
// receives the candidates in the order they were looked for.
std::string catalogModule(const TreeFacts& facts, const Layout& layout, const std::string& arch,
                          const std::string& family, std::vector<std::string>* tried = nullptr);

// The builder an entry restates, or nothing with `note` saying what was looked for.
std::optional<BuilderRef> catalogBuilder(const TreeFacts& facts, const Layout& layout,
                                         const CppArgList::CatalogEntry& entry, std::string& note);

}  // namespace impact
