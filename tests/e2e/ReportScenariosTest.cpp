// `impact report` end to end: fixture repositories laid out like the monorepo, the real binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

TEST(ReportScenarios, BuilderGainsThreeArgumentsPackFollowsPinDoesNot) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  int pinLine = repo.lineOf(M::kAttentionPin, "return {");
  auto pin = rowsWith(r.out, {"mismatch", "kernargs", std::string(M::kAttentionPin) + ":" + std::to_string(pinLine)});
  ASSERT_EQ(pin.size(), 1u) << r.out;
  EXPECT_NE(pin[0].find("copy has 8 arguments, builder has 11"), std::string::npos) << pin[0];
  EXPECT_NE(pin[0].find("window_left (by_value/4) at #8"), std::string::npos) << pin[0];
  // The pack followed: its static list and its launch call agree and read changed.
  auto pack = rowsWith(r.out, {"kernargs", M::kAttentionPack});
  ASSERT_EQ(pack.size(), 2u) << r.out;
  for (const auto& row : pack) EXPECT_TRUE(row.starts_with("changed")) << row;
  // The 5-argument persistent pin still agrees with the persistent body.
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "expectedPersistentSignature"}).empty()) << r.out;
  EXPECT_EQ(report(repo, "--fail-on breaks").exitCode, 1);
}

TEST(ReportScenarios, CommentAndWhitespaceEditsOnBothSidesAreInert) {
  M repo;
  repo.replace(M::kAttention, "    b.param(\"scale\", F32)\n",
               "    # softmax scale, pre-multiplied by log2(e)\n    b.param( \"scale\",  F32 )\n");
  repo.replace(M::kAttention, "\"\"\"gfx950 dense flash-attention prefill.\"\"\"", "# gfx950 dense attention\n\"\"\"gfx950 dense flash-attention prefill.\"\"\"");
  repo.replace(M::kAttentionPack, "        {\"by_value\", F32, 32, \"scale\"},\n",
               "        // softmax scale\n        {\"by_value\",   F32, 32, \"scale\"}, /* f32 */\n");
  repo.commit("comments");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  EXPECT_FALSE(rowsWith(r.out, {"inert", "kernargs", M::kAttentionPack}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed"}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

// A guard no shipped spec decides (the KDP's specs do not state use_alibi): SPEC R2.2's
// "changed", saying the shipped variants did not settle it.
TEST(ReportScenarios, ConditionalArgumentAddedWithCppUnchangedNeedsADeviceRun) {
  M repo;
  repo.replace(M::kAttention, "    # The body is elided",
               "    if spec.use_alibi:\n        b.param(\"alibi_ptr\", PtrType(F32, \"global\"), readonly=True)\n\n"
               "    # The body is elided");
  repo.commit("alibi");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  auto pack = rowsWith(r.out, {"changed", "kernargs", M::kAttentionPack, "attentionDenseKernelSignature"});
  ASSERT_EQ(pack.size(), 1u) << r.out;
  EXPECT_NE(pack[0].find("alibi_ptr (if spec.use_alibi)"), std::string::npos) << pack[0];
  EXPECT_NE(pack[0].find("not settled by the shipped variants"), std::string::npos) << pack[0];
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

TEST(ReportScenarios, TwoCppArgumentNamesSwappedBreaks) {
  M repo;
  repo.replace(M::kAttentionPack, "{\"global_buffer\", PTR, 8, \"k_ptr\"}", "{\"global_buffer\", PTR, 8, \"v_ptr\"}");
  repo.replace(M::kAttentionPack, "{\"global_buffer\", PTR, 16, \"v_ptr\"}", "{\"global_buffer\", PTR, 16, \"k_ptr\"}");
  repo.commit("swap");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsWith(r.out, {"mismatch", M::kAttentionPack, "k_ptr and v_ptr swapped"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
}

TEST(ReportScenarios, ArgumentTypeWidenedBreaks) {
  M repo;
  repo.replace(M::kAttention, "    b.param(\"batch\", I32)", "    b.param(\"batch\", I64)");
  repo.replace(M::kAttention, "from rocke.core.ir import BF16, F16, F32, I32,", "from rocke.core.ir import BF16, F16, F32, I32, I64,");
  repo.commit("widen batch");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsWith(r.out, {"mismatch", M::kAttentionPack, "#5 batch: copy by_value/4, builder by_value/8"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", M::kAttentionPin}).size(), 1u) << r.out;
}

TEST(ReportScenarios, UnrelatedFileChangedIsNotApplicable) {
  M repo;
  repo.write("projects/hipdnn/docs/notes.md", "# hipDNN notes\n\nRewritten.\n");
  repo.write("projects/hipdnn/src/Unrelated.cpp", "int unrelated() { return 1; }\n");
  repo.commit("docs");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "Runtime impact: N/A\n");
}

TEST(ReportScenarios, UncommittedBreakInTheWorkingTreeBreaks) {
  M repo;
  repo.addSlidingWindowToBuilder();  // not committed
  repo.write("dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/scratch.py", "X = 1\n");  // untracked
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", M::kAttentionPin, "copy has 8 arguments, builder has 11"}).size(), 1u)
      << r.out;
  // The same revision as a commit gives the same verdict; the head commit alone (clean) does not.
  RunResult clean = report(repo, "--head HEAD");
  EXPECT_EQ(lastLine(clean.out), "Runtime impact: N/A") << clean.out;
}

// build_rms_norm declares what rms_norm_signature's SignatureBuilder chain lists (`for entry in
// rms_norm_signature(spec): b.param(entry["name"], _ir_type(entry["type"]))`): the evaluator reads it
// through the chain, so an argument added to the chain is the builder's, and the rows name it.
TEST(ReportScenarios, SignatureBuilderAgainstTheLambdaPack) {
  M repo;
  repo.replace(M::kRmsNorm, "sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\")",
               "sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\").scalar(\"stride\", \"i32\")");
  repo.commit("rms_norm: stride");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto pack = rowsWith(r.out, {"mismatch", "build_rms_norm", M::kRmsNormPack, "rmsNormKernelSignature"});
  ASSERT_EQ(pack.size(), 1u) << r.out;
  EXPECT_NE(pack[0].find("missing stride (by_value/4) at #6"), std::string::npos) << pack[0];
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "build_rms_norm", M::kRmsNormPin}).size(), 1u) << r.out;

  // The lambda pack follows (the residual pointer stays conditional on both sides): only the pin breaks.
  repo.replace(M::kRmsNormPack, "    add(\"by_value\", F32, \"eps\");\n",
               "    add(\"by_value\", F32, \"eps\");\n    add(\"by_value\", I32, \"stride\");\n");
  repo.commit("pack follows");
  r = report(repo);
  EXPECT_EQ(rowsWith(r.out, {"changed", "build_rms_norm", M::kRmsNormPack}).size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", M::kRmsNormPack}).empty()) << r.out;
}

TEST(ReportScenarios, PersistentEarlyReturnAgainstTheFiveArgumentPin) {
  M repo;
  // The persistent body changes in code but keeps its five arguments: the pin still agrees.
  repo.replace(M::kAttention, "IRBuilder(\"attention_dense_persistent\")", "IRBuilder(\"attention_dense_persistent_v2\")");
  repo.commit("rename persistent kernel");
  RunResult r = report(repo);
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"changed", M::kAttentionPin, "expectedPersistentSignature"}).size(), 1u) << r.out;

  // The persistent body gains an argument: the 5-argument pin breaks.
  repo.replace(M::kAttention, "    b.param(\"work_items\", I32)\n", "    b.param(\"work_items\", I32)\n    b.param(\"tiles\", I32)\n");
  repo.commit("persistent: tiles");
  r = report(repo);
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsWith(r.out, {"mismatch", M::kAttentionPin, "expectedPersistentSignature"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("copy has 5 arguments, builder has 6"), std::string::npos) << rows[0];
}

TEST(ReportScenarios, SyntaxErrorInASurfaceFileIsChangedWithTheReason) {
  M repo;
  repo.replace(M::kAttention, "def build_attention_dense(spec, *, arch=\"gfx950\"):", "def build_attention_dense(spec, *, arch=\"gfx950\"\n");
  repo.commit("broken");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(lastLine(r.out), "Runtime impact: NONE") << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: N/A") << r.out;
  auto rows = rowsWith(r.out, {"changed", M::kAttention, "could not be read: line"});
  EXPECT_FALSE(rows.empty()) << r.out;
}

TEST(ReportScenarios, JsonOutputFollowsTheSchema) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.commit("builder only");
  RunResult r = report(repo, "--format json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rollup"]["verdict"], "BREAKS");
  ASSERT_TRUE(j["rows"].is_array());
  bool sawPin = false;
  for (const auto& row : j["rows"]) {
    for (const char* k : {"contract", "status", "preexisting", "python", "mirror", "message"})
      EXPECT_TRUE(row.contains(k)) << k;
    if (row["status"] == "mismatch" && row["mirror"].is_object() && row["mirror"]["path"] == M::kAttentionPin) {
      sawPin = true;
      EXPECT_EQ(row["python"]["symbol"], "build_attention_dense");
      EXPECT_EQ(row["python"]["path"], M::kAttention);
      EXPECT_GT(row["mirror"]["line"].get<int>(), 0);
      EXPECT_EQ(row["preexisting"], false);
    }
  }
  EXPECT_TRUE(sawPin) << r.out;
}

TEST(ReportScenarios, PreexistingMismatchIsMarkedAndNotABreak) {
  M repo;
  repo.git("checkout -q main");
  repo.replace(M::kAttentionPin, "        KernelArgument{\"by_value\", 4, 44, \"\"},\n", "");
  repo.commit("a pin that already drifted");
  repo.git("checkout -q -b feature2");
  repo.replace(M::kAttentionPin, "// Restated from", "// Restated (by hand) from");
  repo.replace(M::kAttentionPin, "RefusesAnExtraArgument)\n{", "RefusesAnExtraArgument)\n{\n    SCOPED_TRACE(\"extra\");");
  repo.commit("touch the pin");
  RunResult r = report(repo);
  auto rows = rowsWith(r.out, {"mismatch (pre-existing)", M::kAttentionPin});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(ReportCli, UnknownRevisionIsNamed) {
  M repo;
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base no-such-branch");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("unknown revision 'no-such-branch'"), std::string::npos) << r.err;
}

TEST(ReportCli, RepositoryWithoutAMergeBase) {
  M repo;
  repo.git("checkout -q --orphan unrelated");
  repo.commit("unrelated history");
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base main");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("no merge base"), std::string::npos) << r.err;
}

TEST(ReportCli, NotAGitRepository) {
  RunResult r = impact("report --repo /proc/self --base main");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("not a git repository"), std::string::npos) << r.err;
}

TEST(ReportCli, UsageErrorsExitTwo) {
  EXPECT_EQ(impact("report --repo .").exitCode, 2);                           // no --base
  EXPECT_EQ(impact("report --base main --format xml").exitCode, 2);           // bad format
  EXPECT_EQ(impact("report --base main --bogus").exitCode, 2);                // unknown option
  EXPECT_EQ(impact("frobnicate").exitCode, 2);                                // unknown command
  RunResult help = impact("report --help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("--target-tip"), std::string::npos);
}

TEST(ReportCli, FailOnNeedsDevice) {
  M repo;
  repo.replace(M::kAttention, "IRBuilder(\"attention_dense\")", "IRBuilder(\"attention_dense_v2\")");
  repo.commit("rename");
  EXPECT_EQ(report(repo).exitCode, 0);
  EXPECT_EQ(report(repo, "--fail-on breaks").exitCode, 0);
  EXPECT_EQ(report(repo, "--fail-on needs-device").exitCode, 1);
}

// A report that cannot be written (a full disk, here /dev/full) is an error that says so: an
// empty report read as "nothing to say" by CI must never exit 0.
TEST(ReportCli, AReportThatCannotBeWrittenExitsThreeAndSaysWhy) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "this machine has no /dev/full";
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.commit("sliding window");
  RunResult r = report(repo, "--no-cache >/dev/full");
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("the report could not be written"), std::string::npos) << r.err;
  RunResult ok = report(repo, "--no-cache");
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_EQ(lastLine(ok.out), "Runtime impact: BREAKS") << ok.out;
}

}  // namespace
}  // namespace impact::testing

namespace impact::testing {
namespace {

TEST(FactsCli, PrintsWhatImpactdReadsInAFile) {
  MonorepoFixture repo;
  RunResult r = impact("facts " + shellQuote(repo.dir() + "/" + MonorepoFixture::kAttention) + " --as " +
                       MonorepoFixture::kAttention);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["builders"].is_array());
  const nlohmann::json* dense = nullptr;
  for (const auto& b : j["builders"])
    if (b["name"] == "build_attention_dense") dense = &b;
  ASSERT_NE(dense, nullptr) << r.out;
  const auto& own = (*dense)["abis"][0]["args"];
  ASSERT_EQ(own.size(), 9u);
  EXPECT_EQ(own[4]["name"], "scale");
  EXPECT_EQ(own[4]["kind"], "by_value");
  EXPECT_EQ(own[4]["size"], 4);
  EXPECT_EQ(own[8]["condition"], "spec.use_sinks");
  EXPECT_EQ((*dense)["abis"][1]["guard"], "spec.persistent");

  RunResult m = impact("facts " + shellQuote(repo.dir() + "/" + MonorepoFixture::kProfile) + " --as " +
                       MonorepoFixture::kProfile);
  auto mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(mj["manifest"]["builder"], "build_attention_dense");
  EXPECT_EQ(mj["manifest"]["launch_surface"][1]["name"], "kernargs");
  EXPECT_EQ(impact("facts /no/such/file").exitCode, 3);
}

}  // namespace
}  // namespace impact::testing
