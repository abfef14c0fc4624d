// Exports the files below a tree's Python import roots (modules and the data files they read)
// from git objects (or the working tree's contents) into the emitter's cache folder, keyed by the
// tree's id. Never a checkout of the repository, never a write into it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "git/Snapshot.h"
#include "model/Layout.h"

namespace impact::emitter {

struct ExportedTree {
  std::string dir;                       // <cache>/trees/<key>
  std::vector<std::string> importRoots;  // absolute sys.path entries, in the layout's order
  size_t files = 0;
  bool reused = false;                   // the export was already in the cache
};

// Errors name the file that could not be read or written.
absl::StatusOr<ExportedTree> exportTree(const Snapshot& snap, const Layout& layout, const std::string& cacheDir);

}  // namespace impact::emitter
