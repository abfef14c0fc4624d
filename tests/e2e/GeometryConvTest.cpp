// The geometry differential (issue 17) on the conv generation's forms, through the real
// `impact report --geometry`: the real gfx950 conv forward pack, header, profile and KDP of
// shared/real-data/rocm-libraries (fork 54717ce4) and its real adapter module
// `builders/common/convolution_forward.py` (the grid and block are methods of its spec class), in a
// tree with the rocKE platform package of shared/real-data/rocke-cpu. Four modules the adapter
// imports are absent from the folder; the test writes stand-ins (first line says so):
// `dispatch.grouped_convolution` and `kernels.common.conv_direct_grouped` (names only),
// `rocke.helpers.streamk` (names only), and `kernels.common.conv_implicit_gemm` (its problem's
// output extents and the implicit-GEMM grid, the real function's ceiling divisions).
// The C++ side is read as the real pack writes it: the launch reads `launch->geometry.gridX` of
// `kernelFits(...)`; kernelFits returns what implicitGemmLaunch built from `conv::launchGeometry`;
// its Problem is kernelFits' `{"N", p.n}` table; its tiles a loop over GEMM_TUNING_FIELDS; its
// Geometry (`matched.geometry`, derived in code) is declared in .impactd.yaml.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"
#include "support/GeometryFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
constexpr const char* kPacks = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";
constexpr const char* kPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdNative.cpp";
constexpr const char* kHeader =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdGeometry.hpp";
constexpr const char* kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_conv_fwd.profile.yaml";
constexpr const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_conv_fwd/"
    "gfx950_conv_fwd.kdp.json";
constexpr const char* kDeclared = "geometry:\n  gfx950_conv_fwd:\n    matched.geometry: \"deriveGeometry(problem).value()\"\n";

constexpr const char* kConvStandIn = R"(# stand-in: not from the repository -- the problem and grid of the implicit-GEMM builder
from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class ConvProblem:
    N: int
    Hi: int
    Wi: int
    C: int
    K: int
    Y: int
    X: int
    sH: int = 1
    sW: int = 1
    pH: int = 0
    pW: int = 0
    dH: int = 1
    dW: int = 1
    groups: int = 1

    @property
    def Ho(self) -> int:
        return (self.Hi + 2 * self.pH - self.dH * (self.Y - 1) - 1) // self.sH + 1

    @property
    def Wo(self) -> int:
        return (self.Wi + 2 * self.pW - self.dW * (self.X - 1) - 1) // self.sW + 1

    @property
    def M(self) -> int:
        return self.N * self.Ho * self.Wo

    @property
    def N_gemm(self) -> int:
        return self.K // self.groups


@dataclass(frozen=True)
class ConvDataSpec:
    dtype_a: str = "fp16"
    dtype_b: str = "fp16"
    dtype_d: str = "fp16"
    dtype_acc: str = "fp32"


@dataclass(frozen=True)
class ImplicitGemmConvSpec:
    problem: ConvProblem
    name: str
    data: ConvDataSpec
    tile_m: int = 64
    tile_n: int = 64
    tile_k: int = 64
    warp_m: int = 2
    warp_n: int = 2
    warp_tile_m: int = 32
    warp_tile_n: int = 32
    warp_tile_k: int = 16
    wave_size: int = 64
    pipeline: str = "mem"
    epilogue: str = "cshuffle"
    groups: int = 1


def implicit_gemm_conv_grid(spec: ImplicitGemmConvSpec) -> Tuple[int, int, int]:
    p = spec.problem
    gm = (p.M + spec.tile_m - 1) // spec.tile_m
    gn = (p.N_gemm + spec.tile_n - 1) // spec.tile_n
    return (gn, gm, p.groups)
)";

constexpr const char* kNamesOnly = "# stub: not from the repository\n\n\ndef __getattr__(name):\n    return type(name, (), {})\n";

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The real KDP (four variants, none a multiple of its tiles: K 32 < tile_n 64, N*Ho*Wo 392) and
// one more in its format whose shape is a multiple of its tiles (tile_m 128 over M 512, K 64).
std::string kdpText(const std::string& real) {
  nlohmann::json kdp = nlohmann::json::parse(real);
  nlohmann::json extra = kdp["kernelDescriptors"][0];
  extra["id"] = "0b7e4c2a-1d3f-4e5a-9b8c-7d6e5f4a3b2c";
  extra["name"] = "gfx950_conv_fwd_dtypefp16_N2_Hi16_Wi16_C64_K64_Y3_X3_sH1_sW1_pH1_pW1_dH1_dW1_tile_m128";
  for (auto* part : {&extra["kernel_source"]["spec"], &extra["metadata"]}) {
    (*part)["Hi"] = 16;
    (*part)["Wi"] = 16;
    (*part)["C"] = 64;
    (*part)["K"] = 64;
    (*part)["tile_m"] = 128;
  }
  kdp["kernelDescriptors"].push_back(extra);
  return kdp.dump(1) + "\n";
}

class ConvGeometry : public GeometryFixture {
 protected:
  void SetUp() override {
    std::string shared = sharedDir();
    std::string real = shared + "/real-data/rocm-libraries/";
    if (shared.empty() || !fs::is_directory(shared + "/real-data/rocke-cpu") || !fs::exists(real + kPack))
      GTEST_SKIP() << "shared/real-data is absent: the conv geometry forms are not checked on the real files";
    startRepo();
    fs::copy(shared + "/real-data/rocke-cpu", repo_->dir(), fs::copy_options::recursive);
    std::string lib = kLib;
    for (std::string p : {std::string(kPack), std::string(kHeader), std::string(kProfile),
                          lib + "builders/common/convolution_forward.py", lib + "kernels/common/conv_abi.py",
                          lib + "kernels/common/conv_args.py"}) {
      fs::create_directories((fs::path(repo_->dir()) / p).parent_path());
      fs::copy_file(real + p, fs::path(repo_->dir()) / p, fs::copy_options::overwrite_existing);
    }
    repo_->write(lib + "kernels/common/conv_implicit_gemm.py", kConvStandIn);
    repo_->write(lib + "kernels/common/conv_direct_grouped.py", kNamesOnly);
    repo_->write(lib + "dispatch/__init__.py", "# stub: not from the repository\n");
    repo_->write(lib + "dispatch/grouped_convolution.py", kNamesOnly);
    repo_->write("dnn-providers/hip-kernel-provider/rocke/platform/python/rocke/helpers/streamk.py", kNamesOnly);
    repo_->write(kKdp, kdpText(readAll(real + kKdp)));
    repo_->write(".impactd.yaml", kDeclared);
    ship("the real gfx950 conv forward family, shipped");
  }
  // A Python-only refactor of the grid method: the same values, written another way.
  void refactorPythonGrid() {
    repo_->replace(std::string(kLib) + "builders/common/convolution_forward.py",
                   "        if not self.is_direct:\n            return _conv.implicit_gemm_conv_grid(self.to_instance_spec())\n",
                   "        if not self.is_direct:\n            instance = self.to_instance_spec()\n"
                   "            return _conv.implicit_gemm_conv_grid(instance)\n");
  }
};

TEST_F(ConvGeometry, TheUntouchedFamilyAgreesOnEveryVariantThroughKernelFitsTable) {
  refactorPythonGrid();
  repo_->commit("refactor the grid method");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("grid agrees on all 5 shipped variants; block agrees on all 5 shipped variants"), std::string::npos)
      << r.out << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:grid", "agree on every axis for all 5 shipped variants"}).empty())
      << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

// The ceiling divisions of launchGeometry turned into floor divisions: exactly the four real
// variants, whose K and N*Ho*Wo are not multiples of their tiles, disagree; the fifth agrees.
TEST_F(ConvGeometry, CeilingTurnedIntoFloorMismatchesExactlyTheShapesThatAreNotMultiples) {
  repo_->replace(kHeader, "    const auto gridX = 1 + (problem.k / problem.groups - 1) / tileN;\n"
                          "    const auto gridY = 1 + (geometry.gemmM - 1) / tileM;\n",
                 "    const auto gridX = problem.k / problem.groups / tileN;\n"
                 "    const auto gridY = geometry.gemmM / tileM;\n");
  repo_->commit("floor the tile counts");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis x, y differs on 4 shipped variants of 5"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("_tile_k64: Python (1, 7, 1), C++ (0, 6, 1)"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[0].find("tile_m128:"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("problem <- Problem{n = N, c = C, k = K"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("geometry <- declared `deriveGeometry(problem).value()` (.impactd.yaml)"), std::string::npos)
      << rows[0];
  EXPECT_NE(rows[0].find("tileM <- metadata tile_m"), std::string::npos) << rows[0];
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:block"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// kernelFits' table pairs "N" with the channel count: the Problem the header computes with is not
// the shipped one.
TEST_F(ConvGeometry, ATableRowPairingTheWrongMemberIsAMismatch) {
  repo_->replace(kPack, "{{{\"N\", p.n},\n", "{{{\"N\", p.c},\n");
  repo_->replace(kPack, "{\"C\", p.c},\n", "{\"C\", p.n},\n");
  repo_->commit("the table pairs N and C the other way round");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis y differs on 5 shipped variants of 5"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("problem <- Problem{n = C, c = N,"), std::string::npos) << rows[0];
}

// The call passes the tile sizes the other way round: only the variant whose tiles differ shows it.
TEST_F(ConvGeometry, TileArgumentsSwappedAtTheCallMismatchWhereTheTilesDiffer) {
  repo_->replace(kPack, "conv::launchGeometry(p, matched.geometry, tuning[0], tuning[1], tuning[3], tuning[4], 64);",
                 "conv::launchGeometry(p, matched.geometry, tuning[1], tuning[0], tuning[3], tuning[4], 64);");
  repo_->commit("tile_n where tile_m goes");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis y differs on 1 shipped variant of 5"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("tile_m128: Python (1, 4, 1), C++ (1, 8, 1)"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("tileM <- metadata tile_n"), std::string::npos) << rows[0];
}

// Without the declaration, the Geometry argument (derived in code) resolves to nothing: not checked,
// naming it; and a Problem member no table row witnesses is named too.
TEST_F(ConvGeometry, WhatTheCodeDerivesUndeclaredIsNotCheckedNamingIt) {
  refactorPythonGrid();
  repo_->write(".impactd.yaml", "# nothing declared\n");
  repo_->commit("refactor the grid method; drop the declaration");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked: argument #2 geometry (`matched.geometry`",
                             "Geometry::ho", ".impactd.yaml declares no `matched.geometry`"}).size(), 1u) << r.out;

  repo_->write(".impactd.yaml", kDeclared);
  repo_->replace(kPack, "{\"Hi\", p.hi},\n", "");
  repo_->commit("declared again; the table no longer pins Hi");
  r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked: argument #1 problem (`p`",
                             "member Problem::hi of `p` is witnessed equal to no metadata field"}).size(), 1u) << r.out;
}

}  // namespace
}  // namespace impact::testing
