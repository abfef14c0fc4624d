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

// One unit of a shard: chunk `chunk` of a family (its base and head slices together, so that a
// build both revisions share stays one build).
struct ShardItem {
  std::string family;    // "source:builder"
  size_t variants = 0;   // the builds it costs (base + head variants of the chunk)
  size_t chunk = 0;      // the chunk's index in its family
};

// The variants per chunk of a family side of `sideVariants` (the larger of base and head) in a
// run of `shardCount` shards (0: unsharded) whose driver calls take at most `chunkVariants`: the
// unsharded chunk, made smaller when the family would have fewer chunks than there are shards, so
// that a family of 24 variants spreads over 2 or 7 shards too. At least 1.
size_t shardChunkVariants(size_t sideVariants, int shardCount, size_t chunkVariants);

// "source:builder#c": a chunk's name in a shard document.
std::string chunkName(const std::string& family, size_t chunk);

// A stable hash of a family key (FNV-1a 64): the same on every machine and run.
uint64_t stableFamilyHash(const std::string& key);

// The shard (1..count) of each item, in the items' order: items sorted by (variants desc, stable
// hash of the chunk's name, family, chunk) go one by one to the least-loaded shard (by variants; ties: the lowest index).
// Deterministic for the same families whatever the order they come in.
std::vector<int> assignShards(const std::vector<ShardItem>& items, int count);

// One document equal to the unsharded run's from every shard of it (any order): a family split
// over shards is reassembled variant by variant (each side from the shard that built it, the
// family side's status the worst of the shards that built part of it). Refused
// (FailedPrecondition, one message): a document that is no shard, mixed trees, flavors, driver
// versions or shard counts, a shard given twice, a missing shard, a variant built by no shard or
// by two, shards that disagree on a family's variants.
absl::StatusOr<EmitDocument> mergeShards(const std::vector<EmitDocument>& shards);

}  // namespace impact::emit
