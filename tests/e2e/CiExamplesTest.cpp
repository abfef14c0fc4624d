// The CI examples of docs/ci.md do what the page says: the GitHub Actions workflow's report and
// gate steps, run as written on a fixture laid out like a pull request's checkout, and the
// pre-push hook, installed in a clone, refusing a push that BREAKS.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using M = MonorepoFixture;

const fs::path kCi = fs::path(IMPACT_EXAMPLE_DIR) / ".." / "ci";

// A bare remote `origin` holding main; the fixture's feature branch then breaks the pin.
void withOriginAndABreak(M& repo, const std::string& bare) {
  run("git init -q --bare " + shellQuote(bare));
  repo.git("remote add origin " + shellQuote(bare));
  repo.git("push -q origin main");
  repo.git("fetch -q origin");
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window, pin left behind");
}

YAML::Node stepNamed(const YAML::Node& steps, const std::string& name) {
  for (const auto& s : steps)
    if (s["name"] && s["name"].as<std::string>() == name) return s;
  ADD_FAILURE() << "no step named " << name;
  return YAML::Node();
}

TEST(CiExamples, TheWorkflowsReportAndGateStepsRunAsWritten) {
  YAML::Node wf = YAML::LoadFile((kCi / "github" / "impact.yml").string());
  YAML::Node steps = wf["jobs"]["impact"]["steps"];
  ASSERT_TRUE(steps.IsSequence());
  // The SARIF log goes to code scanning, and the facts cache is restored from $XDG_CACHE_HOME.
  bool upload = false, factsCache = false;
  for (const auto& s : steps) {
    std::string uses = s["uses"] ? s["uses"].as<std::string>() : "";
    if (uses.starts_with("github/codeql-action/upload-sarif@")) {
      upload = true;
      EXPECT_EQ(s["with"]["sarif_file"].as<std::string>(), "impact.sarif");
    }
    if (uses.starts_with("actions/cache@") && s["with"]["path"].as<std::string>() == "${{ env.XDG_CACHE_HOME }}/impactd")
      factsCache = true;
  }
  EXPECT_TRUE(upload);
  EXPECT_TRUE(factsCache);
  EXPECT_TRUE(wf["permissions"]["security-events"].as<std::string>() == "write");

  M repo;
  std::string bare = repo.dir() + "-origin.git";
  withOriginAndABreak(repo, bare);
  // What the job's steps see: GITHUB_BASE_REF, impact on PATH (the build step adds it), a cache.
  std::string env = "GITHUB_BASE_REF=main XDG_CACHE_HOME=" + shellQuote(repo.dir() + "-xdg") +
                    " PATH=" + shellQuote(std::string(IMPACT_BIN_DIR)) + ":\"$PATH\" ";
  // The emitter matrix as written: each shard's step (matrix values substituted as GitHub does),
  // the artifacts downloaded into shards/, the merge step; the report steps read all.json.
  YAML::Node shards = wf["jobs"]["emit"]["strategy"]["matrix"]["shard"];
  ASSERT_TRUE(shards.IsSequence());
  EXPECT_EQ(wf["jobs"]["impact"]["needs"].as<std::string>(), "merge");
  fs::create_directories(repo.dir() + "-shards");
  for (const auto& k : shards) {
    std::string step = stepNamed(wf["jobs"]["emit"]["steps"], "Emit (shard)")["run"].as<std::string>();
    for (auto [from, to] : {std::pair<std::string, std::string>{"${{ matrix.shard }}", k.as<std::string>()},
                            {"${{ strategy.job-total }}", std::to_string(shards.size())}})
      for (size_t at; (at = step.find(from)) != std::string::npos;) step.replace(at, from.size(), to);
    RunResult e = run(env + "bash -eo pipefail -c " + shellQuote(step), repo.dir());
    ASSERT_EQ(e.exitCode, 0) << step << e.err;
    std::string file = "emit-shard-" + k.as<std::string>() + ".json";
    fs::rename(repo.dir() + "/" + file, repo.dir() + "-shards/" + file);
  }
  fs::create_directories(repo.dir() + "/shards");
  for (const auto& f : fs::directory_iterator(repo.dir() + "-shards"))
    fs::rename(f.path(), fs::path(repo.dir()) / "shards" / f.path().filename());
  RunResult merge = run(env + "bash -eo pipefail -c " +
                            shellQuote(stepNamed(wf["jobs"]["merge"]["steps"], "Merge")["run"].as<std::string>()),
                        repo.dir());
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  ASSERT_TRUE(fs::exists(repo.dir() + "/all.json"));
  fs::remove_all(repo.dir() + "-shards");

  RunResult sarif = run(env + "bash -eo pipefail -c " + shellQuote(stepNamed(steps, "Report (SARIF)")["run"].as<std::string>()),
                        repo.dir());
  ASSERT_EQ(sarif.exitCode, 0) << sarif.err;
  std::ifstream in(repo.dir() + "/impact.sarif");
  nlohmann::json log = nlohmann::json::parse(in);
  EXPECT_EQ(log["runs"][0]["properties"]["rollup"]["verdict"], "BREAKS");
  EXPECT_FALSE(log["runs"][0]["results"].empty());
  EXPECT_TRUE(fs::is_directory(repo.dir() + "-xdg/impactd")) << "the step did not fill the cache the workflow restores";

  RunResult gate = run(env + "bash -eo pipefail -c " + shellQuote(stepNamed(steps, "Gate")["run"].as<std::string>()),
                       repo.dir());
  EXPECT_EQ(gate.exitCode, 1) << gate.out << gate.err;  // BREAKS fails the job
  EXPECT_FALSE(rowsStarting(gate.out, std::string("::error file=") + M::kAttentionPin).empty()) << gate.out;
  fs::remove_all(bare);
  fs::remove_all(repo.dir() + "-xdg");
}

TEST(CiExamples, ThePrePushHookRefusesAPushThatBreaksAndLetsTheRestThrough) {
  M repo;
  std::string bare = repo.dir() + "-origin.git";
  withOriginAndABreak(repo, bare);
  fs::copy_file(kCi / "hooks" / "pre-push", repo.dir() + "/.git/hooks/pre-push");
  std::string env = "IMPACT_TARGET=origin/main PATH=" + shellQuote(std::string(IMPACT_BIN_DIR)) + ":\"$PATH\" ";

  RunResult refused = run(env + "git push origin feature", repo.dir());
  EXPECT_NE(refused.exitCode, 0) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("BREAKS a kernel contract against origin/main; push refused"), std::string::npos) << refused.err;
  EXPECT_EQ(run("git rev-parse --verify -q refs/heads/feature", bare).exitCode, 1) << "the branch reached the remote";

  // The pin follows the builder: the push goes through.
  repo.replace(M::kAttentionPin, "        KernelArgument{\"by_value\", 4, 44, \"\"},\n    };",
               "        KernelArgument{\"by_value\", 4, 44, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 48, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 52, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 56, \"\"},\n    };");
  repo.commit("the pin follows");
  ASSERT_NE(lastLine(report(repo).out), "Runtime impact: BREAKS");
  RunResult pushed = run(env + "git push -q origin feature", repo.dir());
  EXPECT_EQ(pushed.exitCode, 0) << pushed.err;
  EXPECT_EQ(run("git rev-parse --verify -q refs/heads/feature", bare).exitCode, 0);
  fs::remove_all(bare);
}

}  // namespace
}  // namespace impact::testing
