// A cpp_mirror naming two symbols, in the real gfx950 dense profile's form (ROCm/rocm-libraries
// e712c086: `…Native.cpp:gfx950AttentionDenseGraphMatches` folded onto `and kernelMatches`):
// both functions are the mirror. Before, the second was dropped without a note, so an edit of
// kernelMatches alone left the applicability entry reading as if its mirror had not moved.
#include <gtest/gtest.h>

#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

const std::string kProfile =
    "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_dense.profile.yaml";

const char* kEntry = R"(
  - name: applicability
    python_source: >-
      kernels/gfx950/attention_dense.py:supports_attention_dense (~457-467) -- a thin
      arch gate that RECONSTRUCTS the spec and reports its ValueError.
    cpp_mirror: >-
      dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp:gfx950AttentionDenseGraphMatches
      and kernelMatches
    kmd_fields: []
    guard: >-
      kernelMatches requires strict equality between the graph's derived shape and
      every one of these KMD fields.
    test: >-
      dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp
)";

const char* kMatchers = R"CPP(
std::optional<BoundTokens> gfx950AttentionDenseGraphMatches(const MatchContext& context)
{
    if(context.nodeCount() != 1)
    {
        return std::nullopt;
    }
    return BoundTokens{};
}

bool kernelMatches(const KernelDefinition& kernel, const BoundTokens& bound)
{
    return kernel.getIntMetadata("head_size") == bound.headSize;
}

IngestorKernelCode prepareGfx950AttentionDense(const KernelBinary& binary))CPP";

class TwoSymbolMirrorRepo : public M {
 public:
  TwoSymbolMirrorRepo() {
    replace(kProfile, "launch_surface:\n", std::string("launch_surface:") + kEntry);
    replace(kAttentionPack, "\nIngestorKernelCode prepareGfx950AttentionDense(const KernelBinary& binary)", kMatchers);
    commit("applicability entry naming both matcher functions");
    git("branch -f main HEAD");
  }
};

TEST(MirrorSymbols, EditOfTheSecondSymbolIsAChangeOfTheMirror) {
  TwoSymbolMirrorRepo repo;
  repo.replace(M::kAttentionPack, "getIntMetadata(\"head_size\") == bound.headSize",
               "getIntMetadata(\"head_size\") >= bound.headSize");
  repo.commit("kernelMatches relaxed");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "launch-surface:applicability"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("C++ mirror changed"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("gfx950AttentionDenseGraphMatches and kernelMatches"), std::string::npos) << rows[0];
}

TEST(MirrorSymbols, EditOfNeitherSymbolLeavesTheEntryAlone) {
  TwoSymbolMirrorRepo repo;
  repo.replace(M::kAttentionPack, "return buildIngestorKernelCode(binary, attentionDenseKernelSignature());",
               "auto code = buildIngestorKernelCode(binary, attentionDenseKernelSignature());\n    return code;");
  repo.commit("prepare refactored");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"changed", "launch-surface:applicability"}).empty()) << r.out;
}

TEST(MirrorSymbols, ASecondSymbolThatIsGoneIsAMismatch) {
  TwoSymbolMirrorRepo repo;
  repo.replace(M::kAttentionPack, "bool kernelMatches(", "bool kernelFits(");
  repo.commit("kernelMatches renamed");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:applicability"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("cpp_mirror symbol kernelMatches is not defined"), std::string::npos) << rows[0];
}

}  // namespace
}  // namespace impact::testing
