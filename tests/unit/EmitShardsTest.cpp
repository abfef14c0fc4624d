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

TEST(EmitShards, MergeRefusesMixedCountsAndWholeRuns) {
  EmitDocument a, b;
  a.shard = Shard{1, 2, {}};
  b.shard = Shard{2, 3, {}};
  auto m = mergeShards({a, b});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("mixed shard counts: shard 1/2 and shard 2/3"), std::string::npos);
  EmitDocument whole;
  EXPECT_FALSE(mergeShards({a, whole}).ok());
  b.shard = Shard{2, 2, {}};
  auto ok = mergeShards({b, a});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_FALSE(ok->shard.has_value());
}

}  // namespace
}  // namespace impact::emit
