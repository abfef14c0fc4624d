// The facts of every analysed file of one snapshot, extracted through the shared cache.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "git/Snapshot.h"
#include "model/AotFacts.h"
#include "model/Layout.h"

namespace impact {

struct TreeFacts {
  std::map<std::string, std::shared_ptr<const FileFacts>> files;  // analysed files only
  // Files whose content could not be read (a missing or corrupted git object): path -> why.
  // Their facts say so too (ok = false), but a report must not go on without them.
  std::map<std::string, std::string> unreadable;
  // Python files whose builders' lists were followed into a helper module (core/analysis/
  // CrossModule): the facts as extracted, before that.
  std::map<std::string, std::shared_ptr<const FileFacts>> unfollowed;
  // What following a file last gave (CrossModule): its facts as extracted, every file the
  // following read (path, its content id, or "-" for its absence) and the result (null: left as
  // extracted). Reused while none of those changed: a keystroke elsewhere re-reads, never
  // re-evaluates.
  struct Followed {
    std::shared_ptr<const FileFacts> from;
    std::vector<std::pair<std::string, std::string>> reads;
    std::shared_ptr<const FileFacts> result;
  };
  std::map<std::string, Followed> followed;
  // The AOT catalog families' producer scripts, run through the tree (core/contracts/
  // AotProducers): path -> what each builds.
  std::map<std::string, std::shared_ptr<const AotProducer>> producers;
  // The AOT catalog engine's packing rules, read from its launch/LaunchAbi.cpp (null: none read;
  // contracts/CatalogBindings falls back to its table and says so).
  std::shared_ptr<const LaunchAbiRules> launchAbi;
  // What launchAbi was read from: each LaunchAbi.cpp of the tree with its content id (kept, not
  // read again, while they are the same: a keystroke elsewhere does not parse it).
  std::string launchAbiFrom;
  const FileFacts* find(const std::string& path) const {
    auto it = files.find(path);
    return it == files.end() ? nullptr : it->second.get();
  }
};

// Extracts (or takes from the cache) every file of the snapshot that the layout analyses.
// Files are extracted on a thread pool of every core; unchanged blobs are never re-read.
TreeFacts collectFacts(const Snapshot& snap, const Layout& layout, ExtractCache& cache);
// The same for several snapshots at once, on one pool: a file with the same content in several
// (the base and the head share most) is extracted once. One TreeFacts per snapshot, in order.
std::vector<TreeFacts> collectFacts(const std::vector<const Snapshot*>& snaps, const Layout& layout,
                                    ExtractCache& cache);

}  // namespace impact
