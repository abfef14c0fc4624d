// `impact report` end to end on the REAL gfx950 conv forward files (../shared/real-data/
// rocm-libraries, committed into a fixture repository at test time): the ordered names of the
// conv ABI. `conv_abi.py` builds them as data (`conv_arg_names` → `_fwd_arg_names`, from `_dims`,
// `_magic`, `_grid`), evaluated statically at extraction; `Gfx950ConvFwdGeometry.hpp` restates
// the 39 implicit-GEMM names after the six leading arguments as IMPLICIT_GEMM_KERNARG_NAMES
// (paired through the profile's kernargs_and_execution entry) and the 14 direct names as
// DIRECT_KERNARG_NAMES (paired by names with conv_direct_arg_names). All 39 are i32: only the
// names carry the order, so a p_Hi/p_Wi swap on either side is a mismatch.
// The untouched tree against an empty commit; the edit scenarios are data:
// tests/scenarios/rocm-libraries/gfx950-conv-fwd-names.yaml. Skips, saying so, when the real files
// are absent.
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

}  // namespace
}  // namespace impact::testing
