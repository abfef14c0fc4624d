// The in-memory extraction cache is bounded (issue 37, item 2): versions of a document that
// nothing holds any more are evicted, least recently used first, once they pass the bound;
// what a tree or buffer still holds is never evicted; an unbounded cache (impact's) keeps all.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "extract/Extract.h"

namespace impact {
namespace {

std::string version(int n) {
  std::string text = "from rocke import IRBuilder\n\ndef build(b):\n";
  for (int i = 0; i < 40; ++i) text += "    b.param(\"arg" + std::to_string(i) + "\", I32)\n";
  return text + "# keystroke " + std::to_string(n) + "\n";
}

std::string id(int n) { return "buffer-" + std::to_string(n); }

TEST(ExtractCacheBound, VersionsNothingHoldsAreEvictedPastTheBound) {
  ExtractCache cache;
  cache.setBound(256u << 10);
  for (int n = 0; n < 2000; ++n) cache.put("k.py", id(n), extractFile("k.py", version(n)));
  EXPECT_GT(cache.evictions(), 0u);
  // Within the bound, give or take one sweep's worth (an eighth of it).
  EXPECT_LE(cache.bytes(), (256u << 10) + (256u << 10) / 8 + (64u << 10));
  EXPECT_LT(cache.size(), 2000u);
  // The newest versions are the ones kept.
  EXPECT_TRUE(cache.find("k.py", id(1999)));
  EXPECT_FALSE(cache.find("k.py", id(0)));
}

TEST(ExtractCacheBound, WhatIsHeldElsewhereIsNeverEvicted) {
  ExtractCache cache;
  cache.setBound(64u << 10);
  std::vector<std::shared_ptr<const FileFacts>> held;
  for (int n = 0; n < 50; ++n) held.push_back(cache.put("held.py", id(n), extractFile("held.py", version(n))));
  for (int n = 0; n < 1000; ++n) cache.put("k.py", id(n), extractFile("k.py", version(n)));
  for (int n = 0; n < 50; ++n) EXPECT_EQ(cache.find("held.py", id(n)), held[n]) << n;
  // Let go of them: the next sweeps may evict them.
  held.clear();
  for (int n = 1000; n < 2000; ++n) cache.put("k.py", id(n), extractFile("k.py", version(n)));
  EXPECT_FALSE(cache.find("held.py", id(0)));
}

TEST(ExtractCacheBound, LeastRecentlyUsedGoesFirst) {
  ExtractCache cache;
  cache.setBound(128u << 10);
  cache.put("k.py", id(0), extractFile("k.py", version(0)));
  for (int n = 1; n < 1000; ++n) {
    cache.put("k.py", id(n), extractFile("k.py", version(n)));
    ASSERT_TRUE(cache.find("k.py", id(0))) << "used at every keystroke, evicted at " << n;  // a use
  }
}

TEST(ExtractCacheBound, UnboundedKeepsEverything) {
  ExtractCache cache;
  for (int n = 0; n < 300; ++n) cache.put("k.py", id(n), extractFile("k.py", version(n)));
  EXPECT_EQ(cache.size(), 300u);
  EXPECT_EQ(cache.evictions(), 0u);
}

}  // namespace
}  // namespace impact
