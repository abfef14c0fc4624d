// `impact report` end to end on the REAL gfx950 conv forward files (../shared/real-data/
// rocm-libraries, committed into a fixture repository at test time): the ordered names of the
// conv ABI. `conv_abi.py` builds them as data (`conv_arg_names` → `_fwd_arg_names`, from `_dims`,
// `_magic`, `_grid`), evaluated statically at extraction; `Gfx950ConvFwdGeometry.hpp` restates
// the 39 implicit-GEMM names after the six leading arguments as IMPLICIT_GEMM_KERNARG_NAMES
// (paired through the profile's kernargs_and_execution entry) and the 14 direct names as
// DIRECT_KERNARG_NAMES (paired by names with conv_direct_arg_names). All 39 are i32: only the
// names carry the order, so a p_Hi/p_Wi swap on either side is a mismatch.
// Skips, saying so, when the real files are absent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/RealCorpus.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using R = RealCorpusFixture;

// The row's two sides; `abiLine`: conv_arg_names's line (299, one more below an added line).
std::string implicitSides(int abiLine = 299) {
  return "kernargs  " + std::string(R::kConvAbi) + ":" + std::to_string(abiLine) + " conv_arg_names  <->  " +
         R::kConvGeometry + ":217 IMPLICIT_GEMM_KERNARG_NAMES  ";
}
const std::string kImplicit = implicitSides();
const std::string kDirectSides = "conv_direct_arg_names  <->  ";
const std::string kThroughProfile = "paired through gfx950_conv_fwd.profile.yaml entry kernargs_and_execution; ";
const std::string kLeading = "after its 6 leading (A, B, D, A_bytes, B_bytes, D_bytes)";

// The report line of the IMPLICIT_GEMM_KERNARG_NAMES row ("" when none), the others checked.
std::string rowOf(const std::string& out, const std::string& variable) {
  std::string found;
  size_t from = 0;
  while (from < out.size()) {
    size_t end = out.find('\n', from);
    std::string line = out.substr(from, end == std::string::npos ? std::string::npos : end - from);
    from = end == std::string::npos ? out.size() : end + 1;
    if (line.find("  kernargs  ") != std::string::npos && line.find(" " + variable + "  ") != std::string::npos) {
      EXPECT_TRUE(found.empty()) << "two rows for " << variable << ":\n" << out;
      found = line;
    }
  }
  return found;
}

const std::string kHiWi = "        (\"p_Hi\", \"i32\"),\n        (\"p_Wi\", \"i32\"),\n        (\"p_C\", \"i32\"),\n";
const std::string kWiHi = "        (\"p_Wi\", \"i32\"),\n        (\"p_Hi\", \"i32\"),\n        (\"p_C\", \"i32\"),\n";
const std::string kArrayHi = "                                                                       \"p_Hi\",\n";
const std::string kArrayWi = "                                                                       \"p_Wi\",\n";

TEST(RealCorpusConvNames, UntouchedTreeAgreesOnBothFamilies) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  std::string empty = repo.git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty");
  empty.erase(empty.find_last_not_of("\n") + 1);
  std::string all = repo.git("commit-tree feature^{tree} -p " + empty + " -m corpus");
  all.erase(all.find_last_not_of("\n") + 1);
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base " + empty + " --head " + all);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string implicit = rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES");
  EXPECT_EQ(implicit, "changed  " + kImplicit + kThroughProfile +
                          "agrees: the 39 names of IMPLICIT_GEMM_KERNARG_NAMES are conv_arg_names's " + kLeading +
                          "; names list and array changed  [device: gfx950]")
      << r.out;
  std::string direct = rowOf(r.out, "DIRECT_KERNARG_NAMES");
  EXPECT_NE(direct.find(kDirectSides), std::string::npos) << direct;
  EXPECT_NE(direct.find("paired by names; agrees: the 14 names of DIRECT_KERNARG_NAMES are conv_direct_arg_names's " +
                        kLeading),
            std::string::npos)
      << direct;
  EXPECT_TRUE(direct.starts_with("changed  ")) << direct;
}

TEST(RealCorpusConvNames, HiWiSwappedInTheAbiListBreaks) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kConvAbi, kHiWi, kWiHi);
  repo.commit("conv_abi: p_Wi before p_Hi");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES"),
            "mismatch  " + kImplicit + kThroughProfile + "order differs from conv_arg_names " + kLeading +
                " at 2 positions: conv_arg_names #7 p_Wi, IMPLICIT_GEMM_KERNARG_NAMES[1] p_Hi; #8 p_Hi, [2] p_Wi")
      << r.out;
  // The direct list states its own names: untouched.
  EXPECT_TRUE(rowOf(r.out, "DIRECT_KERNARG_NAMES").starts_with("inert  ")) << r.out;
}

TEST(RealCorpusConvNames, HiWiSwappedInTheNamesArrayBreaks) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kConvGeometry, kArrayHi + kArrayWi, kArrayWi + kArrayHi);
  repo.commit("Geometry: p_Wi before p_Hi");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES"),
            "mismatch  " + kImplicit + kThroughProfile + "order differs from conv_arg_names " + kLeading +
                " at 2 positions: conv_arg_names #7 p_Hi, IMPLICIT_GEMM_KERNARG_NAMES[1] p_Wi; #8 p_Wi, [2] p_Hi")
      << r.out;
}

TEST(RealCorpusConvNames, ANameAddedToThePythonListOnlyBreaks) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kConvAbi, "    out += [(\"p_K_gemm\", \"i32\"), (\"p_M\", \"i32\")]\n",
               "    out += [(\"p_K_gemm\", \"i32\"), (\"p_M\", \"i32\"), (\"p_split_k\", \"i32\")]\n");
  repo.commit("conv_abi: p_split_k after p_M");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES"),
            "mismatch  " + kImplicit + kThroughProfile + "IMPLICIT_GEMM_KERNARG_NAMES has 39 names, conv_arg_names has 40 " +
                kLeading + ": missing from the array: p_split_k (#26)")
      << r.out;
}

TEST(RealCorpusConvNames, ANameAddedAtTheStartOfTheBlockIsNotTakenForALeadingArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  // Before p_N, the array's first name: the base's six leading names still open the list, so
  // the new name is a difference, not a seventh leading argument.
  repo.replace(R::kConvAbi, "    out: List[ArgSpec] = [\n        (\"p_N\", \"i32\"),\n",
               "    out: List[ArgSpec] = [\n        (\"p_batch_stride\", \"i32\"),\n        (\"p_N\", \"i32\"),\n");
  repo.commit("conv_abi: a name before p_N");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string row = rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES");
  EXPECT_TRUE(row.starts_with("mismatch  ")) << r.out;
  EXPECT_NE(row.find("missing from the array: p_batch_stride (#6)"), std::string::npos) << row;
}

TEST(RealCorpusConvNames, ACommentOnlyEditOfTheAbiModuleIsInert) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kConvAbi, kHiWi, "        # input height, then width\n" + kHiWi);
  repo.commit("conv_abi: a comment");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES"),
            "inert  " + implicitSides(300) + kThroughProfile + "its names did not change")
      << r.out;
  // Nothing else of the conv pack moved: every row is inert, or the pre-existing surfaces that
  // name a module not in the corpus.
  for (const auto& line : {std::string("changed"), std::string("mismatch  ")})
    EXPECT_EQ(r.out.find("\n" + line), std::string::npos) << r.out;
  EXPECT_FALSE(r.out.starts_with("changed") || r.out.starts_with("mismatch  ")) << r.out;
}

TEST(RealCorpusConvNames, AnAbiListNoLongerEvaluableSaysWhyItIsNotCompared) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kConvAbi, "def _grid() -> List[ArgSpec]:\n    return [",
               "def _grid() -> List[ArgSpec]:\n    return [(n, \"i32\") for n in (\"p_num_pid_m\", \"p_num_pid_n\")]\n"
               "    return [");
  repo.commit("conv_abi: the grid names by a comprehension");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowOf(r.out, "IMPLICIT_GEMM_KERNARG_NAMES"),
            "changed  " + implicitSides(300) + kThroughProfile +
                "not compared: conv_arg_names is not evaluable: a comprehension  [device: gfx950]")
      << r.out;
}

}  // namespace
}  // namespace impact::testing
