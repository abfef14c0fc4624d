// A kernel family that only a generator config declares (issue 26: no tool profile, no committed
// KDP): `configs/gfx950_wmma_attention.yaml` names the builder (kernel_defaults) for the engine
// hipkernel:Gfx950WmmaAttention, whose pack (the file defining the function the ingestor's pack
// table registers for that engine) holds a launch call, and its test pin an unnamed copy. Before,
// these copies paired with nothing: no row, a builder break read as NEEDS-DEVICE. And the
// config's variants decide a conditional argument the copies lack (SPEC R2.2).
// The fixture is the example monorepo with this family added on main.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

constexpr const char* kBuilder = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/wmma_fmha.py";
constexpr const char* kPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950WmmaAttentionNative.cpp";
constexpr const char* kPin =
    "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
    "TestGfx950WmmaAttentionSignature.cpp";
constexpr const char* kTable = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/IngestorPacks.cpp";
constexpr const char* kConfig = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_wmma_attention.yaml";
constexpr const char* kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_wmma_attention.profile.yaml";

constexpr const char* kBuilderText = R"PY("""gfx950 WMMA flash attention (test fixture)."""

from dataclasses import dataclass

from rocke.core.ir import IRBuilder, PtrType, I32, F32, BF16


@dataclass(frozen=True)
class WmmaFmhaSpec:
    dtype: str = "bf16"
    head_size: int = 64
    mask_mode: str = "none"
    use_sinks: bool = False


def build_wmma_fmha(spec: WmmaFmhaSpec, *, arch="gfx950"):
    b = IRBuilder("wmma_fmha")
    b.param("q_ptr", PtrType(BF16, "global"), noalias=True, readonly=True)
    b.param("k_ptr", PtrType(BF16, "global"), noalias=True, readonly=True)
    b.param("v_ptr", PtrType(BF16, "global"), noalias=True, readonly=True)
    b.param("o_ptr", PtrType(BF16, "global"), noalias=True, writeonly=True)
    b.param("scale", F32)
    b.param("seqlen", I32)
    # more arguments here
    return b.finish()
)PY";

// The pack: a dispatch handler's launch; it registers through a function no naming convention
// ties to the engine (only the pack table does).
constexpr const char* kPackText = R"CPP(// SPDX-License-Identifier: MIT
#include "IngestorKernelCode.hpp"
#include "IngestorPacks.hpp"

#include <cstdint>
#include <string_view>

namespace hip_kernel_provider::kernel_ingestor_engine
{
namespace
{

constexpr std::string_view GRAPH_MATCHER_SYMBOL = "hipkernel.gfx950_wmma_attention.graph_match";

struct Binding
{
    float scale = 1.0F;
    int64_t seqlen = 0;
};

class WmmaDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    void launch(const Handle& handle, const Buffer& q, const Buffer& k, const Buffer& v, const Buffer& o,
                const Binding& binding) const
    {
        kernel().launch(handle.getStream(),
                        q.ptr,
                        k.ptr,
                        v.ptr,
                        o.ptr,
                        binding.scale,
                        static_cast<int32_t>(binding.seqlen));
    }
};

} // namespace

void registerWmmaPackSymbols(SymbolScope<Handle>& scope)
{
    scope.add(GRAPH_MATCHER_SYMBOL, &graphMatches);
}

} // namespace hip_kernel_provider::kernel_ingestor_engine
)CPP";

constexpr const char* kPinText = R"CPP(// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

#include <vector>

namespace
{

using hipdnn_plugin_sdk::ingestor::KernelArgument;

std::vector<KernelArgument> expectedSignature()
{
    return {
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 8, ""},
        KernelArgument{"global_buffer", 8, 16, ""},
        KernelArgument{"global_buffer", 8, 24, ""},
        KernelArgument{"by_value", 4, 32, ""},
        KernelArgument{"by_value", 4, 36, ""},
    };
}

} // namespace

TEST(TestGfx950WmmaAttentionSignature, MatchesTheBuilder)
{
    EXPECT_EQ(expectedSignature().size(), 6U);
}
)CPP";

constexpr const char* kTableText = R"CPP(// SPDX-License-Identifier: MIT
#include "engines/kernel_ingestor_engine/IngestorPacks.hpp"

namespace hip_kernel_provider::kernel_ingestor_engine
{

const std::vector<IngestorPack>& ingestorPacks()
{
    static const std::vector<IngestorPack> s_packs = {
        {"hipkernel:Gfx950AttentionDense", &registerGfx950AttentionDenseSymbols, true, nullptr},
        {"hipkernel:Gfx950WmmaAttention", &registerWmmaPackSymbols, true, &resetWmmaModuleCache},
    };
    return s_packs;
}

} // namespace hip_kernel_provider::kernel_ingestor_engine
)CPP";

// The generator config, in the real form: engine, packs with kernel_defaults and a variant group
// (spec_defaults, knob sets crossed with shapes). `sinksArm` is the second arm of the knob set.
std::string configText(const std::string& sinksArm = "{mask_mode: causal, tag: causal}") {
  return R"YAML(# gfx950 WMMA attention (test fixture): the only declaration of this family.
dialect: packaged
authored_subpath: rocKE/gfx950_wmma_attention
engine:
  name: hipkernel:Gfx950WmmaAttention
  sdk_version: 1.0.0
  knobs: []
  heuristic: native
kmd_fields:
- name: dtype
  type: string
- name: head_size
  type: int
kernel_source_kind: rocke
workspace_policy: none
packs:
- name: gfx950_wmma_attention
  arch: [gfx950]
  kernel_defaults:
    kind: rocke
    source: kernels/gfx950/wmma_fmha.py
    builder: build_wmma_fmha
  variants:
  - name: wmma.{dtype}_d{head_size}_{tag}.gfx950
    metadata: [dtype, head_size]
    spec_order: [dtype, head_size, mask_mode, use_sinks]
    spec_defaults:
      use_sinks: false
    knob_sets:
      masks:
      - {mask_mode: none, tag: none}
      - )YAML" + sinksArm + R"YAML(
    shapes:
    - {dtype: bf16, head_size: 64, knobs: masks}
    - {dtype: bf16, head_size: 128, knobs: masks}
)YAML";
}

// The example monorepo with the family added on main; the feature branch at the same commit.
class WmmaRepo : public MonorepoFixture {
 public:
  explicit WmmaRepo(bool withConfig = true, const std::string& sinksArm = "{mask_mode: causal, tag: causal}") {
    write(kBuilder, kBuilderText);
    write(kPack, kPackText);
    write(kPin, kPinText);
    write(kTable, kTableText);
    if (withConfig) write(kConfig, configText(sinksArm));
    commit("gfx950 WMMA attention family");
    git("branch -f main HEAD");
  }
  void addToBuilder(const std::string& lines) { replace(kBuilder, "    # more arguments here\n", lines); }
};

constexpr const char* kWindow = "    b.param(\"window\", I32)\n";
constexpr const char* kSinks = "    if spec.use_sinks:\n        b.param(\"sink_ptr\", PtrType(F32, \"global\"), readonly=True)\n";

TEST(GeneratorConfigScenarios, AnArgumentAddedInTheBuilderBreaksThePacksCopiesAndTheRowNamesTheConfig) {
  WmmaRepo repo;
  repo.addToBuilder(kWindow);
  repo.commit("window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto launch = rowsWith(r.out, {"mismatch", "kernargs", kBuilder, kPack, "launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find(std::string("paired through generator config ") + kConfig +
                           " pack hipkernel:Gfx950WmmaAttention: the pack defines registerWmmaPackSymbols, which " +
                           kTable + " registers for hipkernel:Gfx950WmmaAttention"),
            std::string::npos)
      << launch[0];
  EXPECT_NE(launch[0].find("copy has 6 arguments, builder has 7"), std::string::npos) << launch[0];
  auto pin = rowsWith(r.out, {"mismatch", "kernargs", kBuilder, kPin});
  ASSERT_EQ(pin.size(), 1u) << "the pin pairs through its pack's file name" << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: NONE");

  // The JSON row names the declaration that paired it.
  RunResult j = report(repo, "--format json");
  ASSERT_EQ(j.exitCode, 0) << j.err;
  auto doc = nlohmann::json::parse(j.out);
  std::vector<std::string> pairedBy;
  for (const auto& row : doc["rows"])
    if (row["contract"] == "kernargs" && !row["mirror"].is_null() && row["mirror"]["path"] == kPack)
      pairedBy.push_back(row["paired_by"].get<std::string>());
  ASSERT_EQ(pairedBy.size(), 1u) << j.out;
  EXPECT_EQ(pairedBy[0], std::string("generator config ") + kConfig + " pack hipkernel:Gfx950WmmaAttention");
}

// The config names the pack's typed entry point, which builds nothing itself: it dispatches to
// the builder of another module (and, for a variant the tree does not hold, to a module that is
// not there), as the real build_gfx950_conv_fwd does. The copies pair with the entry point and a
// break made in the builder it returns is found.
constexpr const char* kEntry = "dnn-providers/hip-kernel-provider/rocke/library/builders/common/wmma_entry.py";
constexpr const char* kEntryText = R"PY("""The packaged entry point of the gfx950 WMMA attention (test fixture)."""

from kernels.gfx950 import wmma_fmha as _fmha
from kernels.gfx950 import wmma_split_kv as _split


def build_wmma_entry(spec, *, arch="gfx950"):
    if spec.head_size > 256:
        return _split.build_split_kv(spec, arch=arch)
    return _fmha.build_wmma_fmha(spec, arch=arch)
)PY";

TEST(GeneratorConfigScenarios, AnEntryPointThatDispatchesToTheBuilderIsReadThroughIt) {
  WmmaRepo repo;
  repo.write(kEntry, kEntryText);
  repo.replace(kConfig, "    source: kernels/gfx950/wmma_fmha.py\n    builder: build_wmma_fmha\n",
               "    source: builders/common/wmma_entry.py\n    builder: build_wmma_entry\n");
  repo.commit("the config names the entry point");
  repo.git("branch -f main HEAD");
  RunResult untouched = report(repo);
  ASSERT_EQ(untouched.exitCode, 0) << untouched.err;
  EXPECT_TRUE(rowsWith(untouched.out, {"mismatch"}).empty()) << untouched.out;

  repo.addToBuilder(kWindow);
  repo.commit("window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto launch = rowsWith(r.out, {"mismatch", "kernargs", kEntry, kPack, "launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find("copy has 6 arguments, builder has 7"), std::string::npos) << launch[0];
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "kernargs", kEntry, kPin}).size(), 1u) << r.out;
}

TEST(GeneratorConfigScenarios, WithoutTheConfigTheSameBreakPairsNothingAndIsNoBreak) {
  WmmaRepo repo(/*withConfig=*/false);
  repo.addToBuilder(kWindow);
  repo.commit("window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"kernargs", kPack}).empty()) << "nothing declares this pack's builder" << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(GeneratorConfigScenarios, AConditionalArgumentAShippedVariantTurnsOnIsAMismatchNamingIt) {
  WmmaRepo repo(true, "{mask_mode: causal, use_sinks: true, tag: sinks}");
  repo.addToBuilder(kSinks);
  repo.commit("sinks");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto launch = rowsWith(r.out, {"mismatch", "kernargs", kPack, "launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find("copy leaves out sink_ptr (if spec.use_sinks), which 2 of 4 shipped variants turn on: "
                           "wmma.bf16_d64_sinks.gfx950, wmma.bf16_d128_sinks.gfx950 (generator config " +
                           std::string(kConfig) + ")"),
            std::string::npos)
      << launch[0];
}

TEST(GeneratorConfigScenarios, AConditionalArgumentNoShippedVariantTurnsOnAgreesAndSaysTheGuardIsOff) {
  WmmaRepo repo;
  repo.addToBuilder(kSinks);
  repo.commit("sinks");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto launch = rowsWith(r.out, {"kernargs", kPack, "launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find("agrees (6 arguments); copy leaves out the conditional argument sink_ptr (if "
                           "spec.use_sinks): the guard is off for every shipped variant (4, from generator config " +
                           std::string(kConfig) + ")"),
            std::string::npos)
      << launch[0];
}

TEST(GeneratorConfigScenarios, TurningTheGuardOnInTheConfigAloneBreaksTheCopies) {
  WmmaRepo repo;
  repo.addToBuilder(kSinks);
  repo.commit("sinks, off everywhere");
  repo.git("branch -f main HEAD");
  repo.replace(kConfig, "      - {mask_mode: causal, tag: causal}", "      - {mask_mode: causal, use_sinks: true, tag: sinks}");
  repo.commit("ship a variant with sinks");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "kernargs", kPack, "which 2 of 4 shipped variants turn on"}).size(), 1u) << r.out;
}

TEST(GeneratorConfigScenarios, WhereNoDeclarationStatesTheSpecsAConditionalArgumentStaysChanged) {
  // The same family declared by a tool profile only: no KDP, no generator config, no specs.
  WmmaRepo repo(/*withConfig=*/false);
  repo.write(kProfile, std::string(R"(arch: gfx950
provider_root: dnn-providers/hip-kernel-provider
source: kernels/gfx950/wmma_fmha.py
builder: build_wmma_fmha
launch_surface:
  - name: kernargs
    python_source: kernels/gfx950/wmma_fmha.py:build_wmma_fmha
    cpp_mirror: )") + kPack + "\n    guard: none\n    test: none\n");
  repo.commit("profile");
  repo.git("branch -f main HEAD");
  repo.addToBuilder(kSinks);
  repo.commit("sinks");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  auto launch = rowsWith(r.out, {"changed", "kernargs", kPack, "launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find("copy leaves out the conditional argument sink_ptr (if spec.use_sinks)"), std::string::npos)
      << launch[0];
  EXPECT_EQ(launch[0].find("shipped variant"), std::string::npos) << "no shipped specs are known" << launch[0];
}

TEST(GeneratorConfigScenarios, AMalformedConfigIsARowNamingTheFileNeverACrash) {
  WmmaRepo repo;
  repo.write(kConfig, "engine: {name: hipkernel:Gfx950WmmaAttention\npacks: [\n");
  repo.commit("broken config");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "generator-config", kConfig, "could not be read: line "});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  // The copies it paired at the base: changed (their declaration is unreadable), not a break.
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  auto launch = rowsWith(r.out, {"changed", "kernargs", kPack, std::string(kConfig) + " could not be read"});
  EXPECT_EQ(launch.size(), 1u) << r.out;
}

TEST(GeneratorConfigScenarios, ABodyEditOfABuilderOnlyAConfigShipsNeedsADeviceRunOnItsArch) {
  WmmaRepo repo;
  repo.replace(kBuilder, "    return b.finish()\n", "    b.ret()\n    return b.finish()\n");
  repo.commit("body");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << "the config's builder ships" << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"outside", kBuilder}).empty()) << r.out;
}

}  // namespace
}  // namespace impact::testing

namespace impact::testing {
namespace {

// A config whose packs build no rocKE kernel (embedded HIP sources, as the real scale_add.yaml
// example) is not on the surface: editing it asks for no device run.
TEST(GeneratorConfigScenarios, AConfigOfNonRockeSourcesOnlyIsNotOnTheSurface) {
  const std::string path = "projects/hipdnn/tools/IngestorGenerator/configs/scale_mul.yaml";
  MonorepoFixture repo;
  repo.write(path, R"(engine: {name: hipkernel:ScaleMul}
kernel_source_kind: embedded_source
packs:
  - name: scale_mul
    arch: [gfx942]
    kernels:
      - name: scale_mul.f32_block64
        kernel_source: {kind: embedded_source, source_file: ScaleMul.cpp, entry_point: ScaleMul}
        metadata: {block_size: 64}
)");
  repo.commit("scale_mul");
  repo.git("branch -f main HEAD");
  repo.replace(path, "block_size: 64", "block_size: 128");
  repo.commit("edit");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"generator-config"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
}

}  // namespace
}  // namespace impact::testing
