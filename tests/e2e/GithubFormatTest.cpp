// `impact report --format github` end to end: workflow commands a GitHub runner turns into
// annotations on the pull request's diff.
#include <gtest/gtest.h>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

TEST(GithubFormat, FindingsAnnotateTheCopyAndTheVerdictEndsTheLog) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.replace(M::kRmsNormPack, "    add(\"by_value\", F32, \"eps\");\n", "    add(\"by_value\", F32, \"eps\");  // epsilon\n");
  repo.commit("sliding window; a comment");
  RunResult r = report(repo, "--format github --fail-on breaks");
  EXPECT_EQ(r.exitCode, 1) << r.err;  // --fail-on still decides the exit code
  int pinLine = repo.lineOf(M::kAttentionPin, "return {");
  auto pin = rowsStarting(r.out, std::string("::error file=") + M::kAttentionPin + ",line=" + std::to_string(pinLine) +
                                     ",title=impact kernargs mismatch::copy has 8 arguments, builder has 11");
  EXPECT_EQ(pin.size(), 1u) << r.out;
  auto pack = rowsStarting(r.out, std::string("::warning file=") + M::kAttentionPack, {"%0Arun on a device: gfx950"});
  EXPECT_EQ(pack.size(), 2u) << r.out;
  // The inert rms_norm pack is in the text report, never an annotation.
  EXPECT_FALSE(rowsWith(report(repo).out, {"inert", M::kRmsNormPack}).empty());
  EXPECT_EQ(r.out.find(M::kRmsNormPack), std::string::npos) << r.out;
  // Every line is a workflow command but the plain verdict at the end; none spans two lines.
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS");
  EXPECT_EQ(rowsStarting(r.out, "::error title=impact verdict::Runtime impact: BREAKS").size(), 1u) << r.out;
  for (const auto& line : rowsStarting(r.out, ""))
    if (line != "Runtime impact: BREAKS") EXPECT_TRUE(line.starts_with("::")) << line;
}

}  // namespace
}  // namespace impact::testing
