// The identity of an analysed tree, as the emit document records it: a commit's git tree id, or
// for a working tree (no tree object) "worktree:" and a digest of every path and blob id.
#pragma once

#include <string>

#include "git/Snapshot.h"

namespace impact::emit {

std::string treeKey(const Snapshot& snap);

}  // namespace impact::emit
