// The persistent extraction cache through `impact report --cache DIR --stats`: a second run is
// served from it, a corrupt entry is rewritten, two processes share it, and a process killed
// while writing leaves nothing a later run reads as an entry.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cache/DiskCache.h"
#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using M = MonorepoFixture;

struct Stats {
  size_t files = 0, extracted = 0, fromCache = 0, written = 0, corrupt = 0;
};

// Reads "impact: facts of N files: E extracted, H from the cache DIR; W written, C corrupt ...".
Stats statsOf(const std::string& err) {
  Stats s;
  auto at = err.find("impact: facts of ");
  EXPECT_NE(at, std::string::npos) << err;
  if (at == std::string::npos) return s;
  char dir[512] = {0};
  int n = std::sscanf(err.c_str() + at, "impact: facts of %zu files: %zu extracted, %zu from the cache %511[^;]; %zu written, %zu corrupt",
                      &s.files, &s.extracted, &s.fromCache, dir, &s.written, &s.corrupt);
  EXPECT_EQ(n, 6) << err;
  return s;
}

class CacheScenarios : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = (fs::temp_directory_path() / ("impact-cache-e2e-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                 .string();
    fs::remove_all(cache_);
    repo_.addSlidingWindowToBuilder();
    repo_.addSlidingWindowToPack();
    repo_.commit("sliding window");
    reference_ = report(repo_, "--no-cache").out;
    ASSERT_EQ(lastLine(reference_), "Runtime impact: BREAKS") << reference_;
  }
  void TearDown() override { fs::remove_all(cache_); }
  RunResult cached() { return report(repo_, "--cache " + shellQuote(cache_) + " --stats"); }
  // Every entry a process finds in the cache (by pack and offset).
  std::vector<DiskCache::Location> entries() const { return DiskCache(cache_).entries(); }
  std::vector<fs::path> files(std::string_view ending) const {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(cache_))
      if (e.is_regular_file() && e.path().string().ends_with(ending)) out.push_back(e.path());
    return out;
  }

  M repo_;
  std::string cache_, reference_;
};

TEST_F(CacheScenarios, ASecondRunIsServedFromTheCache) {
  RunResult first = cached();
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_EQ(first.out, reference_);
  Stats a = statsOf(first.err);
  EXPECT_GT(a.files, 10u);
  EXPECT_GT(a.extracted, 0u);
  EXPECT_GT(a.written, 0u);
  EXPECT_EQ(a.corrupt, 0u);
  EXPECT_FALSE(entries().empty());

  RunResult second = cached();
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, reference_);
  Stats b = statsOf(second.err);
  EXPECT_EQ(b.files, a.files);
  EXPECT_EQ(b.extracted, 0u) << second.err;
  EXPECT_EQ(b.fromCache, b.files) << second.err;
  EXPECT_EQ(b.written, 0u);
}

TEST_F(CacheScenarios, CorruptEntriesAreIgnoredAndRewritten) {
  ASSERT_EQ(cached().exitCode, 0);
  auto all = entries();
  ASSERT_GE(all.size(), 3u);
  EXPECT_EQ(files(".pack").size(), 1u) << "a run writes its entries as one pack";
  // One cut short, one with a flipped byte, one zeroed (all three inside the one pack).
  {
    std::fstream io(all[0].file, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(static_cast<std::streamoff>(all[0].offset + all[0].length / 2));
    io << std::string(all[0].length - all[0].length / 2, '\0');
    io.seekp(static_cast<std::streamoff>(all[1].offset + all[1].length - 2));
    io.put('\x7f');
    io.seekp(static_cast<std::streamoff>(all[2].offset));
    io << std::string(all[2].length, '\0');
  }

  RunResult r = cached();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, reference_);
  Stats s = statsOf(r.err);
  EXPECT_EQ(s.corrupt, 3u) << r.err;
  EXPECT_EQ(s.extracted, 3u) << r.err;
  EXPECT_EQ(s.written, 3u) << r.err;
  // Rewritten (to a newer pack, which wins): the next run reads all of them.
  Stats again = statsOf(cached().err);
  EXPECT_EQ(again.corrupt, 0u);
  EXPECT_EQ(again.extracted, 0u);
}

TEST_F(CacheScenarios, TwoProcessesAtOnceShareOneCache) {
  std::string cmd = std::string(IMPACT_BIN_DIR) + "/impact report --repo " + shellQuote(repo_.dir()) +
                    " --base main --cache " + shellQuote(cache_) + " --stats";
  fs::path out = fs::path(cache_ + "-out");
  fs::create_directories(out);
  for (int round = 0; round < 3; ++round) {
    RunResult both = run("(" + cmd + " >" + (out / "a").string() + " 2>" + (out / "a.err").string() + " & " + cmd + " >" +
                         (out / "b").string() + " 2>" + (out / "b.err").string() + " & wait)");
    ASSERT_EQ(both.exitCode, 0) << both.err;
    for (const char* who : {"a", "b"}) {
      std::ifstream in(out / who);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(text, reference_) << "round " << round << ", process " << who;
      std::ifstream ein(out / (std::string(who) + ".err"));
      std::string err((std::istreambuf_iterator<char>(ein)), std::istreambuf_iterator<char>());
      EXPECT_EQ(statsOf(err).corrupt, 0u) << err;
    }
  }
  fs::remove_all(out);
  Stats s = statsOf(cached().err);
  EXPECT_EQ(s.extracted, 0u);
  EXPECT_EQ(s.corrupt, 0u);
}

TEST_F(CacheScenarios, AProcessKilledWhileWritingCorruptsNothing) {
  // More files to write, so that the kill lands in the extraction and the write.
  for (int i = 0; i < 150; ++i)
    repo_.write("dnn-providers/hip-kernel-provider/rocke/library/kernels/common/gen_" + std::to_string(i) + ".py",
                "def helper_" + std::to_string(i) + "(spec):\n    return spec.block_m * " + std::to_string(i) + "\n");
  repo_.commit("helpers");
  reference_ = report(repo_, "--no-cache").out;
  std::string cmd = std::string(IMPACT_BIN_DIR) + "/impact report --repo " + shellQuote(repo_.dir()) +
                    " --base main --cache " + shellQuote(cache_) + " >/dev/null 2>&1";
  size_t before = 0, after = 0;  // kills that left no entry / every entry
  std::string log;
  for (int delayMs : {5, 10, 20, 30, 40, 60, 80, 120, 200, 400}) {
    fs::remove_all(cache_);
    RunResult k = run("(" + cmd + " & pid=$!; sleep " + std::to_string(delayMs / 1000.0) +
                      "; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true)");
    ASSERT_EQ(k.exitCode, 0) << k.err;
    size_t left = fs::exists(cache_) ? entries().size() : 0;
    RunResult r = cached();
    size_t full = entries().size();
    log += std::to_string(delayMs) + " ms: " + std::to_string(left) + " of " + std::to_string(full) + " entries\n";
    before += left == 0;
    after += left > 0;
    EXPECT_TRUE(left == 0 || left == full) << "a pack is whole or absent: " << left << " of " << full;
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, reference_) << "killed after " << delayMs << " ms";
    EXPECT_EQ(statsOf(r.err).corrupt, 0u) << "killed after " << delayMs << " ms: " << r.err;
  }
  std::cout << log;
  EXPECT_GT(before, 0u) << "no kill landed before the write\n" << log;

  // What a kill in the middle of writing the pack leaves: the pack's temp file, half written. The
  // next run reads none of it and writes its own pack; trim removes the temp once stale.
  fs::remove_all(cache_);
  ASSERT_EQ(cached().exitCode, 0);
  auto packs = files(".pack");
  ASSERT_EQ(packs.size(), 1u);
  std::string half = packs[0].string() + ".tmp";
  fs::copy_file(packs[0], half);
  fs::resize_file(half, fs::file_size(half) / 2);
  fs::remove(packs[0]);
  RunResult r = cached();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, reference_);
  Stats s = statsOf(r.err);
  EXPECT_EQ(s.corrupt, 0u) << r.err;
  EXPECT_EQ(s.fromCache, 0u) << "nothing is read from a temp file: " << r.err;
  EXPECT_EQ(files(".pack").size(), 1u);
  fs::last_write_time(half, fs::file_time_type::clock::now() - std::chrono::hours(1));
  DiskCache(cache_).trim();
  EXPECT_FALSE(fs::exists(half)) << "a stale temp file is trimmed";
}

}  // namespace
}  // namespace impact::testing
