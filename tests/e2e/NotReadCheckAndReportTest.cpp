// impact check and impact report decide from the same result (issue 36): a builder whose
// arguments are not read is "NOT READ" in the check and "not compared" in the report, never a
// mismatch "declares no argument list" (a break the builder did not make).
#include <gtest/gtest.h>

#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

TEST(NotReadCheckAndReport, ABuilderNotReadIsNotComparedInTheReportAsInTheCheck) {
  M repo;
  // Past the evaluator's step limit before its declarations: its arguments are not read.
  repo.replace(M::kAttention, "    b = IRBuilder(\"attention_dense\")\n",
               "    b = IRBuilder(\"attention_dense\")\n"
               "    for _i in range(3000):\n"
               "        for _j in range(3000):\n"
               "            pass\n");
  repo.commit("attention_dense: a warm-up loop past the evaluator's step limit");
  RunResult check = impact("check --no-cache --repo " + shellQuote(repo.dir()));
  EXPECT_NE(check.out.find(":build_attention_dense (line 62)  NOT READ"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("arguments not read: the step limit"), std::string::npos) << check.out;
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("declares no argument list"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not compared: the builder's arguments not read: the step limit"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace impact::testing
