// `impact report --target-tip`: the merged view (SPEC R1.1, R1.2) end to end through the CLI.
// The fixture forks `feature` from `main`; main (the target) then moves on, so the merge base of
// the two is the fork point and the target tip is main's tip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

size_t countOf(const std::string& s, const std::string& needle) {
  size_t n = 0;
  for (auto p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

// main (the target) gains a named restatement of the 8-argument list in the pin file.
void mainAddsANamedPin(M& repo) {
  repo.replace(M::kAttentionPin, "} // namespace\n",
               "// The same list with names, for readable failures.\n"
               "std::vector<KernelArgument> expectedNamedSignature()\n"
               "{\n"
               "    return {\n"
               "        KernelArgument{\"global_buffer\", 8, 0, \"q_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 8, \"k_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 16, \"v_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 24, \"o_ptr\"},\n"
               "        KernelArgument{\"by_value\", 4, 32, \"scale\"},\n"
               "        KernelArgument{\"by_value\", 4, 36, \"batch\"},\n"
               "        KernelArgument{\"by_value\", 4, 40, \"seqlen_q\"},\n"
               "        KernelArgument{\"by_value\", 4, 44, \"seqlen_kv\"},\n"
               "    };\n"
               "}\n"
               "\n"
               "} // namespace\n");
}

// The feature adds three builder arguments and updates every copy it knows: the pack's list,
// its launch call and the unnamed pin.
void featureAddsSlidingWindow(M& repo) {
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.replace(M::kAttentionPin, "        KernelArgument{\"by_value\", 4, 44, \"\"},\n    };",
               "        KernelArgument{\"by_value\", 4, 44, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 48, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 52, \"\"},\n"
               "        KernelArgument{\"by_value\", 4, 56, \"\"},\n    };");
}

const char* kRmsSigLine = "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\")\n";

TEST(MergedView, ContractRaceIsFoundOnlyInTheMergedView) {
  M repo;
  repo.git("checkout -q main");
  mainAddsANamedPin(repo);
  repo.commit("pin: named list");
  repo.git("checkout -q feature");
  featureAddsSlidingWindow(repo);
  repo.commit("sliding window");

  // Head against the merge base: every copy the feature knows follows the builder.
  RunResult head = report(repo);
  ASSERT_EQ(head.exitCode, 0) << head.err;
  EXPECT_NE(lastLine(head.out), "Runtime impact: BREAKS") << head.out;
  EXPECT_EQ(lastLine(head.out), "Runtime impact: NEEDS-DEVICE gfx950") << head.out;
  EXPECT_TRUE(rowsStarting(head.out, "mismatch").empty()) << head.out;
  EXPECT_EQ(head.out.find("[merged]"), std::string::npos) << head.out;

  // Merged into main's tip, main's named copy meets the 11-argument builder.
  RunResult merged = report(repo, "--target-tip main");
  ASSERT_EQ(merged.exitCode, 0) << merged.err;
  EXPECT_EQ(lastLine(merged.out), "Runtime impact: BREAKS") << merged.out;
  auto race = rowsStarting(merged.out, "mismatch [merged]  kernargs",
                   {std::string(M::kAttentionPin), "expectedNamedSignature", "copy has 8 arguments, builder has 11"});
  ASSERT_EQ(race.size(), 1u) << merged.out;
  // The head's rows are not repeated: the race is the only merged-view row.
  EXPECT_EQ(countOf(merged.out, "[merged]"), 1u) << merged.out;
  EXPECT_TRUE(rowsStarting(merged.out, "merge-conflict").empty()) << merged.out;
  EXPECT_EQ(countOf(merged.out, "not analysed yet"), 0u) << merged.out;
  EXPECT_EQ(report(repo, "--target-tip main --fail-on breaks").exitCode, 1);

  // JSON: the merged-view row says so; head rows have a null view.
  RunResult json = report(repo, "--target-tip main --format json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["rollup"]["verdict"], "BREAKS");
  size_t mergedRows = 0, headRows = 0;
  for (const auto& r : j["rows"]) {
    if (r["view"].is_null()) {
      ++headRows;
      continue;
    }
    EXPECT_EQ(r["view"], "merged");
    EXPECT_EQ(r["status"], "mismatch");
    EXPECT_EQ(r["mirror"]["symbol"], "expectedNamedSignature");
    ++mergedRows;
  }
  EXPECT_EQ(mergedRows, 1u) << json.out;
  EXPECT_GT(headRows, 0u) << json.out;
}

TEST(MergedView, ConflictInOneFileAndARaceInAnother) {
  M repo;
  repo.git("checkout -q main");
  mainAddsANamedPin(repo);
  // main also gives rms_norm a stride (builder and pack): the feature edits the same line.
  repo.replace(M::kRmsNorm, kRmsSigLine,
               "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\").scalar(\"stride\", \"i32\")\n");
  repo.replace(M::kRmsNormPack, "    add(\"by_value\", F32, \"eps\");\n",
               "    add(\"by_value\", F32, \"eps\");\n    add(\"by_value\", I32, \"stride\");\n");
  repo.commit("pin: named list; rms_norm: stride");
  repo.git("checkout -q feature");
  featureAddsSlidingWindow(repo);
  repo.replace(M::kRmsNorm, kRmsSigLine,
               "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\")  # rows, then eps\n");
  repo.commit("sliding window; rms_norm comment");

  RunResult head = report(repo);
  ASSERT_EQ(head.exitCode, 0) << head.err;
  EXPECT_NE(lastLine(head.out), "Runtime impact: BREAKS") << head.out;

  RunResult r = report(repo, "--target-tip main");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto conflict = rowsStarting(r.out, "changed [merged]  merge-conflict");
  ASSERT_EQ(conflict.size(), 1u) << r.out;
  EXPECT_NE(conflict[0].find(std::string("conflicts with the target tip in 1 file: ") + M::kRmsNorm +
                             " (rows reading them are dropped)"),
            std::string::npos)
      << conflict[0];
  EXPECT_EQ(countOf(r.out, "merge-conflict"), 1u) << r.out;
  // The race in the pin file (which merged cleanly) is still found.
  EXPECT_EQ(rowsStarting(r.out, "mismatch [merged]  kernargs", {"expectedNamedSignature", "copy has 8 arguments, builder has 11"})
                .size(),
            1u)
      << r.out;
  // Rows reading the conflicted builder (its pack and pin copies) are dropped from the merged view.
  for (const auto& row : rowsStarting(r.out, "", {"[merged]"}))
    EXPECT_EQ(row.find("rms_norm_signature"), std::string::npos) << row;
  EXPECT_EQ(countOf(r.out, "[merged]"), 2u) << r.out;  // the race and the conflict row

  RunResult json = report(repo, "--target-tip main --format json");
  auto j = nlohmann::json::parse(json.out);
  size_t conflicts = 0;
  for (const auto& row : j["rows"])
    if (row["contract"] == "merge-conflict") {
      ++conflicts;
      EXPECT_EQ(row["view"], "merged");
      EXPECT_EQ(row["status"], "changed");
      EXPECT_EQ(row["mirror"]["path"], M::kRmsNorm);
    }
  EXPECT_EQ(conflicts, 1u) << json.out;
}

TEST(MergedView, WorkingTreeHeadMergesTheUncommittedChangesToo) {
  M repo;
  repo.git("checkout -q main");
  mainAddsANamedPin(repo);
  repo.commit("pin: named list");
  repo.git("checkout -q feature");
  featureAddsSlidingWindow(repo);  // uncommitted
  RunResult r = report(repo, "--target-tip main");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowsStarting(r.out, "mismatch [merged]  kernargs", {"expectedNamedSignature"}).size(), 1u) << r.out;
  // The pin file changed both uncommitted and on main: merged three ways, so the unnamed list the
  // working tree updated agrees in the merged view too.
  EXPECT_EQ(countOf(r.out, "[merged]"), 1u) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "merge-conflict").empty()) << r.out;
  EXPECT_NE(r.out.find("note: the merged view merges HEAD's commit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 uncommitted files merged in"), std::string::npos) << r.out;

  // An uncommitted edit that conflicts with main's is a conflict of the merged view.
  repo.replace(M::kAttentionPin, "} // namespace\n", "// local note\n} // namespace\n");
  r = report(repo, "--target-tip main");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto conflict = rowsStarting(r.out, "changed [merged]  merge-conflict", {M::kAttentionPin});
  EXPECT_EQ(conflict.size(), 1u) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch [merged]").empty()) << r.out;  // its rows are dropped
  // Nothing is written to the working tree: no conflict markers.
  EXPECT_EQ(repo.read(M::kAttentionPin).find("<<<<<<<"), std::string::npos);
}

TEST(MergedView, UnknownTargetTipExitsThreeNamingIt) {
  M repo;
  RunResult r = report(repo, "--target-tip no-such-branch");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("unknown revision 'no-such-branch'"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(MergedView, HelpDescribesTheMergedView) {
  RunResult help = impact("report --help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("[merged]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("merge-conflict"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("not analysed yet"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace impact::testing
