// impact's path options given relative to the working directory (issue 27): each names what it
// names from where the user typed the command, never a file in the emitter child's home. Every
// command runs from the folder that holds the fixture's emitter cache, with the repository as a
// relative path next to it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using E = EmitFixture;

struct Relative {
  E repo;
  std::string cwd = fs::path(repo.cacheDir()).parent_path().string();  // holds cache/ (not yet made)
  std::string rel = fs::relative(repo.dir(), cwd).string();           // "../impact-fixture-…"

  Relative() {
    repo.refactorScale();
    repo.commit("refactor");
  }
  // `impact ARGS` run in cwd.
  RunResult at(const std::string& args) { return impact(args, cwd); }
  std::string emitArgs() const { return "emit --repo " + shellQuote(rel) + " --base main --head feature"; }
};

// Every variant of the three families built at both revisions.
void expectAllBuilt(const std::string& path) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  auto doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << path;
  EXPECT_EQ(doc["families"].size(), 3u) << doc.dump(1);
  EXPECT_TRUE(doc["failures"].empty()) << doc["failures"].dump(1);
}

TEST(RelativePaths, EmitCacheIsTheWorkingDirectorysFolder) {
  Relative s;
  ASSERT_EQ(s.rel.rfind("../", 0), 0u) << s.rel;
  RunResult r = s.at(s.emitArgs() + " --cache cache --out " + shellQuote(s.cwd + "/doc.json"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("no LLVM flavor ladder"), std::string::npos) << r.err;
  expectAllBuilt(s.cwd + "/doc.json");
  EXPECT_TRUE(fs::is_directory(s.cwd + "/cache/driver")) << "the emitter's cache is ./cache";
}

TEST(RelativePaths, EmitRepoAndOutAndMergedShardFiles) {
  Relative s;
  std::string cache = shellQuote(s.repo.cacheDir());
  for (int k = 1; k <= 2; ++k) {
    RunResult r = s.at(s.emitArgs() + " --cache " + cache + " --shard " + std::to_string(k) + "/2 --out shard" +
                       std::to_string(k) + ".json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(s.cwd + "/shard" + std::to_string(k) + ".json")) << r.err;
  }
  RunResult m = s.at("emit --merge shard1.json shard2.json --out merged.json");
  ASSERT_EQ(m.exitCode, 0) << m.err;
  expectAllBuilt(s.cwd + "/merged.json");
  RunResult missing = s.at("emit --merge shard1.json nosuch.json");
  EXPECT_EQ(missing.exitCode, 3);
  EXPECT_NE(missing.err.find("cannot read the shard document " + s.cwd + "/nosuch.json"), std::string::npos)
      << missing.err;
}

TEST(RelativePaths, ConfigOfEmitAndReport) {
  Relative s;
  std::ofstream(s.cwd + "/layout.yaml") << "provider_root: dnn-providers/hip-kernel-provider\n";
  RunResult r = s.at(s.emitArgs() + " --config layout.yaml --cache " + shellQuote(s.repo.cacheDir()) +
                     " --out doc.json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectAllBuilt(s.cwd + "/doc.json");
  RunResult report = s.at("report --repo " + shellQuote(s.rel) + " --base main --head feature --config layout.yaml");
  ASSERT_EQ(report.exitCode, 0) << report.err;
  RunResult missing = s.at("report --repo " + shellQuote(s.rel) + " --base main --config nosuch.yaml");
  EXPECT_EQ(missing.exitCode, 3);
  EXPECT_NE(missing.err.find("cannot read the layout configuration " + s.cwd + "/nosuch.yaml"), std::string::npos)
      << missing.err;
}

TEST(RelativePaths, ReportEmitDocumentAndCache) {
  Relative s;
  ASSERT_EQ(s.at(s.emitArgs() + " --cache " + shellQuote(s.repo.cacheDir()) + " --out doc.json").exitCode, 0);
  RunResult r = s.at("report --repo " + shellQuote(s.rel) + " --base main --head feature --emit doc.json --cache facts --stats");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;  // the document folded the refactor
  EXPECT_NE(r.err.find("from the cache " + s.cwd + "/facts;"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_directory(s.cwd + "/facts"));
}

}  // namespace
}  // namespace impact::testing
