// emit/Shards: the shard assignment is balanced by variant count and independent of the order
// the families come in; the merge refuses shards of different counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "emit/Shards.h"

namespace impact::emit {
namespace {

TEST(EmitShards, AssignmentIsBalancedAndIndependentOfOrder) {
  std::vector<ShardItem> items = {{"a.py:big", 40}, {"b.py:x", 10}, {"c.py:y", 10}, {"d.py:z", 10},
                                  {"e.py:w", 10},   {"f.py:v", 5},  {"g.py:u", 5}};
  std::vector<int> which = assignShards(items, 2);
  size_t load[3] = {0, 0, 0};
  for (size_t i = 0; i < items.size(); ++i) {
    ASSERT_GE(which[i], 1);
    ASSERT_LE(which[i], 2);
    load[which[i]] += items[i].variants;
  }
  EXPECT_EQ(load[1], 45u);
  EXPECT_EQ(load[2], 45u);
  std::vector<ShardItem> reversed(items.rbegin(), items.rend());
  std::vector<int> again = assignShards(reversed, 2);
  for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(again[items.size() - 1 - i], which[i]) << items[i].family;
}

TEST(EmitShards, ChunksShrinkSoThatAFamilySpreadsOverTheShards) {
  EXPECT_EQ(shardChunkVariants(880, 0, 32), 32u);  // unsharded: the driver call's chunk
  EXPECT_EQ(shardChunkVariants(880, 1, 32), 32u);
  EXPECT_EQ(shardChunkVariants(880, 4, 32), 32u);
  EXPECT_EQ(shardChunkVariants(24, 2, 32), 12u);
  EXPECT_EQ(shardChunkVariants(24, 7, 32), 4u);
  EXPECT_EQ(shardChunkVariants(3, 7, 32), 1u);   // fewer variants than shards: one per chunk
}

TEST(EmitShards, OneBigFamilySplitsIntoQuartersByItsChunks) {
  // 880 variants at base and head in chunks of 32: 27 chunks of 64 builds and one of 32.
  std::vector<ShardItem> items;
  for (size_t c = 0; c * 32 < 880; ++c) items.push_back({"dense.py:build", 2 * std::min<size_t>(32, 880 - c * 32), c});
  std::vector<int> which = assignShards(items, 4);
  size_t load[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < items.size(); ++i) load[which[i]] += items[i].variants;
  for (int k = 1; k <= 4; ++k) {
    EXPECT_GE(load[k], 1760u / 4 - 64) << "shard " << k;
    EXPECT_LE(load[k], 1760u / 4 + 64) << "shard " << k;
  }
  // The same chunks in another order: the same shards.
  std::vector<ShardItem> reversed(items.rbegin(), items.rend());
  std::vector<int> again = assignShards(reversed, 4);
  for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(again[items.size() - 1 - i], which[i]) << i;
}

Variant variant(const std::string& name, bool baseHere, bool headHere, const std::string& ir) {
  Variant v;
  v.name = name;
  v.arch = "gfx950";
  for (VariantSide* s : {&v.base, &v.head}) {
    s->present = true;
    s->spec = {{"n", 1}};
  }
  v.base.otherShard = !baseHere;
  v.head.otherShard = !headHere;
  if (baseHere) v.base.kernels.push_back({"k", {}, ir, nlohmann::json::object()});
  if (headHere) v.head.kernels.push_back({"k", {}, ir, nlohmann::json::object()});
  return v;
}

TEST(EmitShards, MergeReassemblesAFamilySplitOverShards) {
  EmitDocument a, b;
  a.shard = Shard{1, 2, {"x.py:build"}, {"x.py:build#0"}};
  b.shard = Shard{2, 2, {"x.py:build"}, {"x.py:build#1"}};
  Family f;
  f.source = "x.py";
  f.builder = "build";
  f.base = f.head = {"ok", "", true, {"x.py"}};
  Family fa = f, fb = f;
  fa.variants = {variant("v0", true, true, "ir0"), variant("v1", false, false, "")};
  fb.variants = {variant("v0", false, false, ""), variant("v1", true, true, "ir1")};
  fb.head = {"failed", "boom", true, {"x.py"}};
  a.families = {fa};
  b.families = {fb};
  auto m = mergeShards({b, a});
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->families.size(), 1u);
  const Family& got = m->families[0];
  ASSERT_EQ(got.variants.size(), 2u);
  EXPECT_EQ(got.variants[0].base.kernels.at(0).irSha256, "ir0");
  EXPECT_EQ(got.variants[1].head.kernels.at(0).irSha256, "ir1");
  EXPECT_FALSE(got.variants[0].base.otherShard);
  EXPECT_FALSE(got.variants[1].head.otherShard);
  EXPECT_EQ(got.base.status, "ok");
  EXPECT_EQ(got.head.status, "failed");  // the worst of the shards that built part of it
  EXPECT_EQ(got.head.error, "boom");

  // A variant built by two shards, or by none, is no single run.
  EmitDocument twice = b;
  twice.families[0].variants[0] = variant("v0", true, true, "ir0");
  auto t = mergeShards({a, twice});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("the variant v0 of x.py:build was built by two shards"), std::string::npos);
  EmitDocument none = b;
  none.families[0].variants[1] = variant("v1", false, false, "");
  auto n = mergeShards({a, none});
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.status().message().find("the variant v1 of x.py:build was built by no shard"), std::string::npos);
}

TEST(EmitShards, MergeRefusesMixedCountsAndWholeRuns) {
  EmitDocument a, b;
  a.shard = Shard{1, 2, {}, {}};
  b.shard = Shard{2, 3, {}, {}};
  auto m = mergeShards({a, b});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("mixed shard counts: shard 1/2 and shard 2/3"), std::string::npos);
  EmitDocument whole;
  EXPECT_FALSE(mergeShards({a, whole}).ok());
  b.shard = Shard{2, 2, {}, {}};
  auto ok = mergeShards({b, a});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_FALSE(ok->shard.has_value());
}

}  // namespace
}  // namespace impact::emit
