// The persistent extraction cache through `impact report --cache DIR --stats`: a second run is
// served from it, a corrupt entry is rewritten, two processes share it, and a process killed
// while writing leaves nothing a later run reads as an entry.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

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
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(cache_))
      if (e.is_regular_file()) out.push_back(e.path());
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
  auto files = entries();
  ASSERT_GE(files.size(), 3u);
  // One truncated, one with a flipped byte, one emptied.
  {
    std::string p = files[0].string();
    fs::resize_file(p, fs::file_size(p) / 2);
  }
  {
    std::fstream f(files[1], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-2, std::ios::end);
    f.put('\x7f');
  }
  fs::resize_file(files[2], 0);

  RunResult r = cached();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, reference_);
  Stats s = statsOf(r.err);
  EXPECT_EQ(s.corrupt, 3u) << r.err;
  EXPECT_EQ(s.extracted, 3u) << r.err;
  EXPECT_EQ(s.written, 3u) << r.err;
  // Rewritten: the next run reads all of them.
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
  // More files to write, so that the kill lands among the writes.
  for (int i = 0; i < 150; ++i)
    repo_.write("dnn-providers/hip-kernel-provider/rocke/library/kernels/common/gen_" + std::to_string(i) + ".py",
                "def helper_" + std::to_string(i) + "(spec):\n    return spec.block_m * " + std::to_string(i) + "\n");
  repo_.commit("helpers");
  reference_ = report(repo_, "--no-cache").out;
  std::string cmd = std::string(IMPACT_BIN_DIR) + "/impact report --repo " + shellQuote(repo_.dir()) +
                    " --base main --cache " + shellQuote(cache_) + " >/dev/null 2>&1";
  size_t killedMidway = 0;  // kills that left some entries but not all
  std::string log;
  for (int delayMs : {5, 10, 20, 30, 40, 60, 80}) {
    fs::remove_all(cache_);
    RunResult k = run("(" + cmd + " & pid=$!; sleep " + std::to_string(delayMs / 1000.0) +
                      "; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true)");
    ASSERT_EQ(k.exitCode, 0) << k.err;
    size_t left = fs::exists(cache_) ? entries().size() : 0;
    RunResult r = cached();
    size_t full = entries().size();
    log += std::to_string(delayMs) + " ms: " + std::to_string(left) + " of " + std::to_string(full) + " entries\n";
    if (left > 0 && left < full) ++killedMidway;
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, reference_) << "killed after " << delayMs << " ms";
    EXPECT_EQ(statsOf(r.err).corrupt, 0u) << "killed after " << delayMs << " ms: " << r.err;
  }
  std::cout << log;
  EXPECT_GT(killedMidway, 0u) << "no kill landed among the writes: the test proves nothing\n" << log;
}

}  // namespace
}  // namespace impact::testing
