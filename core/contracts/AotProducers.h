// The AOT catalog's producer scripts (DOMAIN.md §6): each family folder
// (`rocke/aot_catalog/<arch>/<family>/`, or the older `aot_catalog_engine/library/<arch>/<family>/`)
// holds a `produce_<family>_co.py` that imports the builders, builds every shipped spec and writes
// `<symbol>.co`. Its `main()` is run by the evaluator (DeclEval::trace) through the tree's modules:
// every call of a `b.param` builder of the tree (any module, the producer's own included) is
// recorded with the spec object it was given and not run; the strings the run computed from that
// spec (`spec.kernel_name()`), or passed to the builder, are its symbols.
#pragma once

#include <optional>
#include <string>

#include "analysis/CrossModule.h"
#include "analysis/TreeFacts.h"
#include "model/Layout.h"

namespace impact {

// The folder of a catalog file when it is a family folder holding a producer's family.json
// ("…/rocke/aot_catalog/gfx1151/rmsnorm2d/"), else "".
std::string aotFamilyFolder(const std::string& catalogPath);

// The arch a producer's kernels are built for: the `arch` of the catalog entries of the family.json
// beside it (the entry named by one of `names` first); "" when its folder has no catalog entry.
std::string aotProducerArch(const TreeFacts& facts, const std::string& producerPath,
                            const std::vector<std::string>& names = {});

// Runs every family folder's producer scripts (the folder's Python files that define `main`)
// and sets `facts.producers`.
void readProducers(TreeFacts& facts, const Layout& layout, const TreeReader& read);

// Runs one producer (`path`, its text `source`): nothing when it defines no `main`.
std::optional<AotProducer> runProducer(const TreeFacts& facts, const Layout& layout, const std::string& path,
                        const std::string& source, const TreeReader& read);

}  // namespace impact
