// The AOT catalog's producer scripts (DOMAIN.md §6): each family folder
// (`rocke/aot_catalog/<arch>/<family>/`, or the older `aot_catalog_engine/library/<arch>/<family>/`)
// holds a `produce_<family>_co.py` that imports the builders, builds every shipped spec and writes
// `<symbol>.co`. Its `main()` is run by the evaluator (DeclEval::trace) through the tree's modules:
// every call of a `b.param` builder of the tree (any module, the producer's own included) is
// recorded with the spec object it was given and not run; the strings the run computed from that
// spec (`spec.kernel_name()`), or passed to the builder, are its symbols.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

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

// Runs already made, by producer path: each with the content id of every path it read or tried
// (the script, each module path its imports looked for; "" absent). Kept by whoever reads several
// trees (collectFacts: the base and the head) or one tree many times (the server's head).
struct ProducerMemo {
  struct Entry {
    std::map<std::string, std::string> ids;
    std::shared_ptr<const AotProducer> producer;  // null: the script is no producer
  };
  std::map<std::string, std::vector<Entry>> byPath;
  // Also kept on disk (a folder of the extraction cache: FactsStore::sideFolder), so that a warm
  // report runs no producer whose reads read the same; "" none.
  std::string diskDir;
  std::set<std::string> loaded;  // paths whose disk entries were read into byPath
};

// Runs every family folder's producer scripts (the folder's Python files that define `main`)
// and sets `facts.producers`. With `ids` and `memo`, a script whose reads all read the same as a
// run in the memo is not run again.
void readProducers(TreeFacts& facts, const Layout& layout, const TreeReader& read, const TreeIds& ids = {},
                   ProducerMemo* memo = nullptr);

// Runs one producer (`path`, its text `source`): nothing when it defines no `main`. `tried`
// receives every module path its imports looked for.
std::optional<AotProducer> runProducer(const TreeFacts& facts, const Layout& layout, const std::string& path,
                                       const std::string& source, const TreeReader& read,
                                       std::vector<std::string>* tried = nullptr);

}  // namespace impact
