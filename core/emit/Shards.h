// The emitter across a job matrix: which shard builds which family (`impact emit --shard K/N`)
// and the merge of the shard documents into the document of one unsharded run
// (`impact emit --merge`). Pure data; no process handling, no files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "emit/EmitDocument.h"

namespace impact::emit {

struct ShardItem {
  std::string family;    // "source:builder"
  size_t variants = 0;   // the builds it costs (base + head variants)
};

// A stable hash of a family key (FNV-1a 64): the same on every machine and run.
uint64_t stableFamilyHash(const std::string& key);

// The shard (1..count) of each item, in the items' order: items sorted by (variants desc, stable
// hash, key) go one by one to the least-loaded shard (by variants; ties: the lowest index).
// Deterministic for the same families whatever the order they come in.
std::vector<int> assignShards(const std::vector<ShardItem>& items, int count);

// One document equal to the unsharded run's from every shard of it (any order). Refused
// (FailedPrecondition, one message): a document that is no shard, mixed trees, flavors, driver
// versions or shard counts, a shard given twice, a missing shard.
absl::StatusOr<EmitDocument> mergeShards(const std::vector<EmitDocument>& shards);

}  // namespace impact::emit
