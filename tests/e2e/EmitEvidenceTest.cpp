// A family whose emitted arguments changed turns the copies of its builder into evidence: a copy
// that agrees with no emitted kernel is a mismatch, even where static extraction could not
// resolve the builder's list.
#include <gtest/gtest.h>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

constexpr const char* kPack = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ScaleNative.cpp";

constexpr const char* kPackText = R"CPP(// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT

#include "IngestorKernelCode.hpp"
#include "IngestorPacks.hpp"

#include <vector>

namespace hipdnn_kernel_provider::ingestor
{
namespace
{

constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));
constexpr auto F32 = static_cast<uint32_t>(sizeof(float));

std::vector<KernelArgument> scaleKernelSignature()
{
    return {
        {"global_buffer", PTR, 0, "x_ptr"},
        {"global_buffer", PTR, 8, "out_ptr"},
        {"by_value", F32, 16, "alpha"},
        {"by_value", I32, 20, "n"},
    };
}

} // namespace

IngestorKernelCode prepareGfx950Scale(const KernelBinary& binary)
{
    return buildIngestorKernelCode(binary, scaleKernelSignature());
}

} // namespace hipdnn_kernel_provider::ingestor
)CPP";

class EmitEvidence : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.git("checkout -q main");
    repo_.write(kPack, kPackText);
    repo_.commit("the scale pack");
    repo_.git("checkout -q -B feature");
  }
  E repo_;
};

TEST_F(EmitEvidence, ACopyThatDisagreesWithTheEmittedArgumentsIsAMismatch) {
  // alpha's type now comes from a function of the spec: static extraction cannot size it.
  repo_.replace(E::kScale, "    alpha = b.param(\"alpha\", F32)\n", "    alpha = b.param(\"alpha\", _scalar_type(spec))\n");
  repo_.replace(E::kScale, "def build_scale(", "def _scalar_type(spec: ScaleSpec):\n    return BF16 if spec.dtype == \"bf16\" else F32\n\n\ndef build_scale(");
  repo_.commit("alpha in the storage type");
  RunResult without = impact("report --repo " + shellQuote(repo_.dir()) + " --base main --head feature");
  ASSERT_EQ(without.exitCode, 0) << without.err;
  EXPECT_NE(lastLine(without.out), "Runtime impact: BREAKS") << without.out;
  ASSERT_EQ(repo_.emit().exitCode, 0);
  RunResult r = repo_.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "kernargs", kPack, "scaleKernelSignature",
                               "emitter: the copy agrees with no kernel build_scale emitted at the head"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("#2: copy has alpha (by_value/4), scale_n1024_b256 emitted alpha (by_value/2) (bf16)"),
            std::string::npos) << rows[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST_F(EmitEvidence, ACopyThatFollowedTheChangeIsNoMismatch) {
  repo_.replace(E::kScale, "    alpha = b.param(\"alpha\", F32)\n", "    alpha = b.param(\"alpha\", _scalar_type(spec))\n");
  repo_.replace(E::kScale, "def build_scale(", "def _scalar_type(spec: ScaleSpec):\n    return BF16 if spec.dtype == \"bf16\" else F32\n\n\ndef build_scale(");
  repo_.replace(kPack, "        {\"by_value\", F32, 16, \"alpha\"},\n        {\"by_value\", I32, 20, \"n\"},\n",
                "        {\"by_value\", 2, 16, \"alpha\"},\n        {\"by_value\", I32, 18, \"n\"},\n");
  repo_.commit("alpha in the storage type, the pack follows");
  ASSERT_EQ(repo_.emit().exitCode, 0);
  RunResult r = repo_.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST_F(EmitEvidence, AutoRunsForABuilderEditSeenThroughItsCopies) {
  repo_.refactorScale();
  repo_.commit("refactor build_scale");
  RunResult r = run("IMPACT_CACHE_DIR=" + shellQuote(repo_.cacheDir()) + " " +
                    shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " report --repo " + shellQuote(repo_.dir()) +
                    " --base main --head feature --emit auto");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs", kPack, "emitter: arguments, IR and compile inputs equal"}).size(), 1u)
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

// The merged view (--target-tip): the target tip gained a copy of build_scale's list after the merge
// base, so "build_scale <-> the new copy" is a row found only there.
class EmitMergedView : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.refactorScale();
    repo_.commit("refactor build_scale");
    repo_.git("checkout -q main");
    repo_.write(kPack, kPackText);
    repo_.commit("the scale pack lands on the target");
  }
  RunResult reportAt(const std::string& tip) {
    return impact("report --repo " + shellQuote(repo_.dir()) + " --base main --head feature --target-tip " + tip +
                  " --emit " + shellQuote(repo_.docPath()));
  }
  E repo_;
};

TEST_F(EmitMergedView, FoldsWhenTheTargetChangedNoShippedModuleOrDescriptor) {
  std::string mergeBase = repo_.git("merge-base main feature");
  mergeBase.erase(mergeBase.find_last_not_of("\n") + 1);
  RunResult e = run(shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " emit --repo " + shellQuote(repo_.dir()) +
                    " --base " + mergeBase + " --head feature --cache " + shellQuote(repo_.cacheDir()) + " --out " +
                    shellQuote(repo_.docPath()));
  ASSERT_EQ(e.exitCode, 0) << e.err;
  RunResult r = reportAt("main");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto merged = rowsWith(r.out, {"inert [merged]", "kernargs", kPack, "emitter: arguments, IR and compile inputs equal"});
  EXPECT_EQ(merged.size(), 1u) << r.out;
  // The emitter settles the Python side only: the pack file the target added still asks for a run.
  EXPECT_EQ(rowsWith(r.out, {"changed [merged]", "copy-file", kPack}).size(), 1u) << r.out;
}

TEST_F(EmitMergedView, StaysChangedWhenTheTargetChangedAShippedModule) {
  repo_.replace(std::string(E::kLib) + "kernels/gfx950/softmax.py", "    b.store(y, 0, b.op(\"exp\", m))\n",
                "    b.store(y, 0, b.op(\"exp2\", m))\n");
  repo_.commit("softmax in base 2 on the target");
  std::string mergeBase = repo_.git("merge-base main feature");
  mergeBase.erase(mergeBase.find_last_not_of("\n") + 1);
  RunResult e = run(shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " emit --repo " + shellQuote(repo_.dir()) +
                    " --base " + mergeBase + " --head feature --cache " + shellQuote(repo_.cacheDir()) + " --out " +
                    shellQuote(repo_.docPath()));
  ASSERT_EQ(e.exitCode, 0) << e.err;
  RunResult r = reportAt("main");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed [merged]", "kernargs", kPack}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("[merged]: the target tip changed dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/softmax.py since the base"),
            std::string::npos) << r.out;
  // The head's own row still folds: the guard is for the merged view only.
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernel-code", E::kScale}).size(), 1u) << r.out;
}

}  // namespace
}  // namespace impact::testing
