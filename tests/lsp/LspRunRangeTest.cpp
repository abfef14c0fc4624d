// impact.run for a chosen range (issue 19): {base, head, targetTip} in its argument, the JSON
// report's rows located for the editor (rows[i].mirror.location / python.location: uri + range,
// UTF-16), and impact.refs (the target and the branches and tags a client offers).
#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

Json runImpact(LspClient& c, const Json& argument) {
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", Json::array({argument})}});
  auto r = c.response(id, 30000ms);
  EXPECT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout: " + c.stderrText());
  return r && r->contains("result") ? (*r)["result"] : Json();
}

std::string lineText(const FixtureRepo& repo, const std::string& path, int line) {
  std::istringstream in(repo.read(path));
  std::string s;
  for (int n = 0; std::getline(in, s); ++n)
    if (n == line) return s;
  return "";
}

const Json* rowOf(const Json& report, const std::string& status, const std::string& mirrorSuffix) {
  for (const auto& row : report["rows"])
    if (row["status"] == status && row["mirror"].is_object() &&
        row["mirror"]["path"].get<std::string>().ends_with(mirrorSuffix))
      return &row;
  return nullptr;
}

class LspRunRange : public ::testing::Test {
 protected:
  void SetUp() override {
    addSlidingWindow(repo);
    repo.commit("sliding window, pin left behind");
    repo.git("tag v1-sliding");
    c.initialize(repo.dir(), kTargetMain);
  }
  M repo;
  LspClient c;
};

TEST_F(LspRunRange, RowsCarryEditorLocationsAtTheCopyAndTheBuilder) {
  Json result = runImpact(c, {{"base", "main"}});
  ASSERT_TRUE(result.is_object());
  const Json& report = result["report"];
  EXPECT_EQ(report["rollup"]["verdict"], "BREAKS") << result["text"];
  const Json* pin = rowOf(report, "mismatch", "TestGfx950AttentionDenseSignature.cpp");
  ASSERT_TRUE(pin) << report.dump(1);
  // The copy's side: the pin's file, at the argument the row is about (a KernelArgument element).
  const Json& copy = (*pin)["mirror"]["location"];
  EXPECT_EQ(copy["uri"], uriIn(repo, M::kAttentionPin));
  int copyLine = copy["range"]["start"]["line"];
  EXPECT_NE(lineText(repo, M::kAttentionPin, copyLine).find("KernelArgument{"), std::string::npos)
      << lineText(repo, M::kAttentionPin, copyLine);
  EXPECT_GE(copyLine, line0(repo, M::kAttentionPin, "expectedSignature()"));
  // The builder's side: the builder's file, on one of its b.param calls or its def line.
  const Json& builder = (*pin)["python"]["location"];
  EXPECT_EQ(builder["uri"], uriIn(repo, M::kAttention));
  std::string builderText = lineText(repo, M::kAttention, builder["range"]["start"]["line"]);
  EXPECT_TRUE(builderText.find("b.param(") != std::string::npos || builderText.find("def build_attention_dense") != std::string::npos)
      << builderText;
  // path/line/symbol stay as docs/report-json.md says; every side that exists is located.
  EXPECT_EQ((*pin)["mirror"]["symbol"], "expectedSignature");
  for (const auto& row : report["rows"])
    for (const char* side : {"python", "mirror"})
      if (row[side].is_object()) {
        EXPECT_TRUE(row[side].contains("location")) << row.dump();
        EXPECT_TRUE(row[side]["location"]["uri"].get<std::string>().starts_with("file://")) << row.dump();
      }
}

TEST_F(LspRunRange, TheRangeComesFromTheArguments) {
  // The old arguments: none, and {} (the configured target against the working tree).
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", Json::array()}});
  auto none = c.response(id, 30000ms);
  ASSERT_TRUE(none && none->contains("result")) << (none ? none->dump() : c.stderrText());
  EXPECT_EQ((*none)["result"]["report"]["rollup"]["verdict"], "BREAKS");
  Json target = runImpact(c, Json::object());
  EXPECT_EQ(target["report"]["rollup"]["verdict"], "BREAKS");
  EXPECT_EQ(target["report"]["head"], "working tree");
  // The last commit: HEAD~1..HEAD, a commit head (not the working tree).
  Json last = runImpact(c, {{"base", "HEAD~1"}, {"head", "HEAD"}});
  EXPECT_EQ(last["report"]["rollup"]["verdict"], "BREAKS");
  EXPECT_EQ(last["report"]["head"], repo.git("rev-parse HEAD").substr(0, 40));
  EXPECT_TRUE(rowOf(last["report"], "mismatch", "TestGfx950AttentionDenseSignature.cpp")) << last["text"];
  // Uncommitted changes only: nothing differs from HEAD.
  Json uncommitted = runImpact(c, {{"base", "HEAD"}});
  EXPECT_EQ(uncommitted["report"]["rollup"]["verdict"], "N/A") << uncommitted["text"];
  EXPECT_TRUE(uncommitted["report"]["rows"].empty());
  // A tag as the base: the tag is HEAD, so nothing again.
  EXPECT_EQ(runImpact(c, {{"base", "v1-sliding"}})["report"]["rollup"]["verdict"], "N/A");
  // With the target tip's merged view: still the mismatch (main has not moved).
  Json merged = runImpact(c, {{"targetTip", "main"}});
  EXPECT_EQ(merged["report"]["rollup"]["verdict"], "BREAKS") << merged["text"];
  // An unknown ref is an error that names it.
  id = c.request("workspace/executeCommand",
                 {{"command", "impact.run"}, {"arguments", Json::array({{{"base", "no-such-branch"}}})}});
  auto bad = c.response(id, 30000ms);
  ASSERT_TRUE(bad && bad->contains("error")) << (bad ? bad->dump() : c.stderrText());
  EXPECT_NE((*bad)["error"]["message"].get<std::string>().find("no-such-branch"), std::string::npos) << bad->dump();
}

TEST_F(LspRunRange, RefsListTheTargetBranchesAndTags) {
  repo.git("branch develop main");
  int id = c.request("workspace/executeCommand", {{"command", "impact.refs"}, {"arguments", Json::array()}});
  auto r = c.response(id, 10000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : c.stderrText());
  const Json& refs = (*r)["result"];
  EXPECT_EQ(refs["target"], "main");
  EXPECT_EQ(refs["headBranch"], "feature");
  EXPECT_EQ(refs["branches"], Json::array({"develop", "feature", "main"}));
  EXPECT_EQ(refs["tags"], Json::array({"v1-sliding"}));
  EXPECT_TRUE(refs["remoteBranches"].empty());
}

TEST(LspRunRangeNoRepo, RefsWithoutARepositoryIsAnError) {
  FixtureRepo dir;  // a git repository; its .git removed below makes it a plain folder
  dir.write("kernel.py", "def build():\n    return 0\n");
  ASSERT_EQ(run("rm -rf " + shellQuote(dir.dir() + "/.git")).exitCode, 0);
  LspClient c;
  c.initialize(dir.dir(), Json::object());
  int id = c.request("workspace/executeCommand", {{"command", "impact.refs"}, {"arguments", Json::array()}});
  auto r = c.response(id, 10000ms);
  ASSERT_TRUE(r && r->contains("error")) << (r ? r->dump() : c.stderrText());
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("impact.refs: no git repository"), std::string::npos)
      << r->dump();
}

}  // namespace
}  // namespace impact::testing
