// Builders whose list goes on in a helper of another module of the tree (`emit_param_block(b,
// ...)` imported from kernels/common/...): the evaluator (core/extract/python/DeclEval) is run
// again on the builder's module with the tree's modules given to it, so the helper's
// declarations are read where they are made. Extraction stays per file (cached by content); this
// pass reads the few modules such a builder imports.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"

namespace impact {

// The content of a path of the tree, or nullopt when the tree has no such file.
using TreeReader = std::function<std::optional<std::string>(const std::string& path)>;
// The content id of a path of the tree (its blob id, a buffer's content id), "" when the tree's
// listing does not have it: what tells that a file read before still reads the same.
using TreeIds = std::function<std::string(const std::string& path)>;

// Replaces, in `facts`, each Python file whose builders end at a helper of another module that
// `read` finds, by one whose lists include what the helper declares (the original stays in
// `facts.unfollowed`, so a later change of the helper is followed again). A file is followed again
// only when it or a file its following read changed (`facts.followed`, checked by `ids`; without
// them, by a hash of each file's content).
// `changed`, when given, gets each path whose facts the pass replaced or restored (a file other than
// the one edited may read differently: a pack whose header was edited).
void followModules(TreeFacts& facts, const TreeReader& read, const TreeIds& ids = {},
                   std::vector<std::string>* changed = nullptr);

}  // namespace impact
