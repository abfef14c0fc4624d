// impactd and impact share the persistent extraction cache (--cache=DIR): facts one extracted
// the other reads without extracting again.
#include <gtest/gtest.h>

#include <filesystem>

#include "lsp/LspTestSupport.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  std::string path = (fs::temp_directory_path() / ("impact-lsp-cache-" + std::to_string(::getpid()) + "-" +
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                         .string();
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

// The server's "facts: E extracted, H from the cache DIR" log line after its first analysis.
std::pair<long, long> serverFacts(const FixtureRepo& repo, const std::string& cache, std::string* log) {
  LspClient c({"--cache=" + cache, "--log=info"});
  Json init = c.initialize(repo.dir(), Json{{"target", "main"}});
  EXPECT_TRUE(init.contains("result")) << init.dump();
  long extracted = -1, fromCache = -1;
  for (int i = 0; i < 100 && extracted < 0; ++i) {
    std::string err = c.stderrText();
    auto at = err.find("facts: ");
    if (at != std::string::npos && err.find(" from the cache " + cache, at) != std::string::npos)
      std::sscanf(err.c_str() + at, "facts: %ld extracted, %ld from", &extracted, &fromCache);
    else std::this_thread::sleep_for(50ms);
  }
  *log = c.stderrText();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
  return {extracted, fromCache};
}

TEST(LspCache, TheServerReadsWhatImpactWroteAndTheOtherWayRound) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window");

  TempDir a;
  RunResult cli = report(repo, "--cache " + shellQuote(a.path) + " --stats");
  ASSERT_EQ(cli.exitCode, 0) << cli.err;
  ASSERT_NE(cli.err.find("0 corrupt"), std::string::npos) << cli.err;
  std::string log;
  auto [extracted, fromCache] = serverFacts(repo, a.path, &log);
  EXPECT_EQ(extracted, 0) << log;
  EXPECT_GT(fromCache, 10) << log;

  TempDir b;
  auto [byServer, fromEmpty] = serverFacts(repo, b.path, &log);
  EXPECT_GT(byServer, 10) << log;
  EXPECT_EQ(fromEmpty, 0) << log;
  RunResult after = report(repo, "--cache " + shellQuote(b.path) + " --stats");
  ASSERT_EQ(after.exitCode, 0) << after.err;
  EXPECT_NE(after.err.find(": 0 extracted, "), std::string::npos) << after.err;
}

}  // namespace
}  // namespace impact::testing
