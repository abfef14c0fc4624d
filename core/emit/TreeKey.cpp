#include "emit/TreeKey.h"

namespace impact::emit {

std::string treeKey(const Snapshot& snap) {
  if (!snap.treeId.empty()) return snap.treeId;
  std::string listing;
  for (const auto& [path, ref] : snap.files) listing += path + '\0' + ref.id + '\n';
  return "worktree:" + blobId(listing);
}

}  // namespace impact::emit
