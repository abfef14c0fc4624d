// Profile launch_surface entries read by what they hold (issue 16, forms 1 and 2), in own
// fixtures written in exactly the forms of the real monorepo's first gfx950 convolution forward
// generation (ROCm/rocm-libraries, six arguments, groups = 1): the profile's entry
// `kernargs_and_execution` names the builder in the platform package through a path that climbs
// out of rocke/library (`../platform/python/rocke/instances/common/conv_implicit_gemm.py:
// build_implicit_gemm_conv`) and the Native's `launch`; the descriptors and the profile's other
// entries name the library-side adapter `builders/common/convolution_forward.py`, which imports
// the builder's module and calls it with no callbacks. A declared entry that cannot be resolved
// is a row naming the entry, the side and why.
#include <gtest/gtest.h>

#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

const std::string kHkp = "dnn-providers/hip-kernel-provider/";
const std::string kAdapter = kHkp + "rocke/library/builders/common/convolution_forward.py";
const std::string kBuilder = kHkp + "rocke/platform/python/rocke/instances/common/conv_implicit_gemm.py";
const std::string kPacks = kHkp + "src/engines/kernel_ingestor_engine/packs/";
const std::string kNative = kPacks + "Gfx950ConvFwdNative.cpp";
const std::string kGeometry = kPacks + "Gfx950ConvFwdGeometry.hpp";
const std::string kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_conv_fwd.profile.yaml";
const std::string kKdp =
    kHkp + "src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_conv_fwd/gfx950_conv_fwd.kdp.json";

// The builder, in the platform package: three pointers, a hook that may insert arguments, the
// three byte counts (the Python variable for B is `Bp`: `b` is the IRBuilder).
const char* kBuilderText = R"PY(# SPDX-License-Identifier: MIT
"""Implicit-GEMM forward convolution (NHWC x KYXC -> NHWK)."""

from dataclasses import dataclass
from typing import Callable, Optional

from rocke.core.ir import F16, I32, IRBuilder, KernelDef, PtrType


@dataclass(frozen=True)
class ImplicitGemmConvSpec:
    name: str
    dtype: str = "fp16"
    tile_m: int = 64
    tile_n: int = 64

    def kernel_name(self) -> str:
        return self.name


def _ir_dtype(dtype: str):
    return F16


def build_implicit_gemm_conv(
    spec: ImplicitGemmConvSpec,
    arch: str = "gfx950",
    extra_params: Optional[Callable[[IRBuilder], object]] = None,
) -> KernelDef:
    """Build the IR for one implicit-GEMM conv instance."""
    ir_dtype_a = _ir_dtype(spec.dtype)
    ir_dtype_b = _ir_dtype(spec.dtype)
    ir_dtype_d = _ir_dtype(spec.dtype)

    b = IRBuilder(spec.kernel_name())

    A = b.param(
        "A", PtrType(ir_dtype_a, "global"), noalias=True, readonly=True, align=16
    )
    Bp = b.param(
        "B", PtrType(ir_dtype_b, "global"), noalias=True, readonly=True, align=16
    )
    D = b.param(
        "D", PtrType(ir_dtype_d, "global"), noalias=True, writeonly=True, align=16
    )
    extra_context = extra_params(b) if extra_params is not None else None
    A_bytes = b.param("A_bytes", I32)
    B_bytes = b.param("B_bytes", I32)
    D_bytes = b.param("D_bytes", I32)

    b.ret()
    return b.kernel
)PY";

// The library-side adapter the descriptors name: it imports the builder's module and calls it
// with no callbacks.
const char* kAdapterText = R"PY(# SPDX-License-Identifier: MIT
"""Packaging adapter for the gfx950 implicit-GEMM forward convolution."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.core.ir import KernelDef
from rocke.instances.common import conv_implicit_gemm as _conv

_ARCH = "gfx950"


@dataclass(frozen=True)
class Gfx950ConvFwdSpec:
    N: int
    C: int
    K: int
    dtype: str = "fp16"

    def to_instance_spec(self) -> _conv.ImplicitGemmConvSpec:
        return _conv.ImplicitGemmConvSpec(name="hkp_conv_fwd_gfx950", dtype=self.dtype)


def _problem_error(spec: Gfx950ConvFwdSpec) -> str:
    if spec.N <= 0:
        return "N must be a positive signed 32-bit integer"
    return ""


def supports_gfx950_conv_fwd(spec: Gfx950ConvFwdSpec, *, arch: str = _ARCH) -> tuple[bool, str]:
    if arch != _ARCH:
        return False, f"this adapter requires arch={_ARCH}, got {arch!r}"
    error = _problem_error(spec)
    return (not error), error


def build_gfx950_conv_fwd(spec: Gfx950ConvFwdSpec, *, arch: str = _ARCH) -> KernelDef:
    """The typed ``(spec, *, arch)`` entry point consumed by hkp_pack."""
    ok, reason = supports_gfx950_conv_fwd(spec, arch=arch)
    if not ok:
        raise ValueError(f"invalid packaged forward convolution: {reason}")
    return _conv.build_implicit_gemm_conv(spec.to_instance_spec(), arch=arch)
)PY";

const char* kNativeText = R"CPP(// SPDX-License-Identifier:  MIT
#include <array>
#include <cstdint>
#include <string_view>

#include "engines/kernel_ingestor_engine/packs/Gfx950ConvFwdGeometry.hpp"

namespace hip_kernel_provider::kernel_ingestor_engine
{
namespace conv = gfx950_conv_fwd;

namespace
{

constexpr std::string_view GRAPH_MATCHER_SYMBOL = "hipkernel.gfx950_conv_fwd.graph_match";
constexpr std::string_view DISPATCH_SYMBOL = "hipkernel.gfx950_conv_fwd.dispatch";

bool kernelFits(const MatchedProblem& matched, const KernelDefinition& kernel)
{
    return metadataEquals(kernel, "tile_m", int64_t{64});
}

class PreparedConvFwd : public PreparedDispatch
{
public:
    const compilation::IRunnableKernel& kernel() const
    {
        return *_code.kernel;
    }
    const std::array<int32_t, 3>& bytes() const
    {
        return _bytes;
    }

private:
    IngestorKernelCode _code;
    std::array<int32_t, 3> _bytes;
};

class ConvFwdDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    size_t workspaceBytes(const MatchContext& /*context*/,
                          const BoundTokens& /*bound*/,
                          const KernelDefinition& /*kernel*/) const override
    {
        return 0; // The kernel uses registers and statically allocated LDS only.
    }

    void launch(const Handle& handle,
                const PreparedDispatch& prepared,
                const hipdnnPluginDeviceBuffer_t* deviceBuffers,
                uint32_t numDeviceBuffers,
                void* /*workspace*/) const override
    {
        const auto& convPrepared = dynamic_cast<const PreparedConvFwd&>(prepared);
        const auto& binding = convPrepared.binding();
        const auto a
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.x, deviceBuffers, numDeviceBuffers);
        const auto b
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.w, deviceBuffers, numDeviceBuffers);
        const auto d
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.y, deviceBuffers, numDeviceBuffers);
        const auto& bytes = convPrepared.bytes();
        // build_implicit_gemm_conv, conv_implicit_gemm.py: A*, B*, D*, A_bytes:i32,
        // B_bytes:i32, D_bytes:i32. These are storage byte sizes, not element counts.
        convPrepared.kernel().launch(
            handle.getStream(), a.ptr, b.ptr, d.ptr, bytes[0], bytes[1], bytes[2]);
    }
};

} // namespace

void registerGfx950ConvFwdSymbols(SymbolScope<Handle>& scope)
{
    scope.add(std::string(GRAPH_MATCHER_SYMBOL), &graphMatches);
    scope.add(std::string(DISPATCH_SYMBOL), &dispatchHandler());
}

} // namespace hip_kernel_provider::kernel_ingestor_engine
)CPP";

const char* kGeometryText = R"CPP(// SPDX-License-Identifier:  MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace hip_kernel_provider::kernel_ingestor_engine::gfx950_conv_fwd
{

struct Geometry
{
    int64_t ho;
    int64_t wo;
    std::array<int32_t, 3> tensorBytes;
};

inline std::optional<Geometry> deriveGeometry(const Problem& problem)
{
    if(problem.n <= 0)
    {
        return std::nullopt;
    }
    return Geometry{problem.hi, problem.wi, {0, 0, 0}};
}

inline bool bufferRangesDoNotOverlap(const std::array<uintptr_t, 3>& starts,
                                     const std::array<int32_t, 3>& bytes)
{
    return starts[0] + bytes[0] <= starts[1] || starts[1] + bytes[1] <= starts[0];
}

} // namespace hip_kernel_provider::kernel_ingestor_engine::gfx950_conv_fwd
)CPP";

// The profile, in the real one's form (entries named by what they guard, not `kernargs`).
std::string profileText(const std::string& kernargsSource, const std::string& kernargsMirror,
                        const std::string& kernargsName = "kernargs_and_execution") {
  return "slug: gfx950_conv_fwd\nbundle: gfx950_conv_fwd\npack: gfx950_conv_fwd\narch: gfx950\n"
         "provider_root: dnn-providers/hip-kernel-provider\ndialect: packaged\n"
         "source: builders/common/convolution_forward.py\nbuilder: build_gfx950_conv_fwd\n"
         "kernel_source_kind: rocke\n\n"
         "metadata_fields: &metadata_fields\n  [N, C, K, dtype, tile_m]\n"
         "kmd_fields:\n  - {name: N, type: int}\n  - {name: C, type: int}\n  - {name: K, type: int}\n"
         "  - {name: dtype, type: string}\n  - {name: tile_m, type: int}\n\n"
         "launch_surface:\n"
         "  - name: applicability_and_baked_constants\n"
         "    python_source: builders/common/convolution_forward.py:supports_gfx950_conv_fwd\n"
         "    cpp_mirror: " + kNative + ":kernelFits\n"
         "    kmd_fields: *metadata_fields\n"
         "    guard: matchProblem checks the unfused forward graph; kernelFits compares every compiled shape.\n"
         "    test: " + kHkp + "src/tests/engines/kernel_ingestor_engine/TestGfx950ConvFwdPack.cpp\n"
         "  - name: problem_geometry_and_byte_counts\n"
         "    python_source: builders/common/convolution_forward.py:_problem_error\n"
         "    cpp_mirror: " + kGeometry + ":deriveGeometry\n"
         "    kmd_fields: [N, C, K, dtype]\n"
         "    guard: deriveGeometry rejects nonpositive outputs and signed byte-count overflow.\n"
         "    test: " + kHkp + "src/tests/engines/kernel_ingestor_engine/TestGfx950ConvFwdGeometry.cpp\n"
         "  - name: " + kernargsName + "\n"
         "    python_source: " + kernargsSource + "\n"
         "    cpp_mirror: " + kernargsMirror + "\n"
         "    kmd_fields: [N, C, K, dtype]\n"
         "    guard: prepare preserves tensor bindings and validated i32 byte counts; launch checks device pointers, "
         "16-byte alignment and non-overlap, then passes A, B, D, A_bytes, B_bytes, D_bytes.\n"
         "    test: " + kHkp + "src/integration_tests/kernel_ingestor_engine/IntegrationGpuGfx950ConvFwd.cpp\n"
         "  - name: pointer_nonalias\n"
         "    python_source: ../platform/python/rocke/instances/common/conv_implicit_gemm.py:build_implicit_gemm_conv\n"
         "    cpp_mirror: " + kGeometry + ":bufferRangesDoNotOverlap\n"
         "    kmd_fields: [N, C, K, dtype]\n"
         "    guard: launch requires disjoint byte ranges for A, B and D.\n"
         "    test: " + kHkp + "src/tests/engines/kernel_ingestor_engine/TestGfx950ConvFwdGeometry.cpp\n"
         "  - name: workspace\n"
         "    python_source: ../platform/python/rocke/instances/common/conv_implicit_gemm.py:build_implicit_gemm_conv\n"
         "    cpp_mirror: " + kNative + ":workspaceBytes\n"
         "    kmd_fields: [tile_m]\n"
         "    guard: The mem forward builder has no global workspace argument; workspaceBytes returns zero.\n"
         "    test: " + kHkp + "src/tests/engines/kernel_ingestor_engine/TestGfx950ConvFwdPack.cpp\n";
}

const std::string kPlatformLocator =
    "../platform/python/rocke/instances/common/conv_implicit_gemm.py:build_implicit_gemm_conv";
const std::string kLaunchMirror = kNative + ":launch";

const char* kKdpText = R"({
  "version": 1, "id": "gfx950_conv_fwd", "name": "gfx950_conv_fwd", "arch": ["gfx950"],
  "kernelDescriptors": [
    {"version": 1, "id": "conv_fwd_n1_c64_k64", "name": "conv_fwd_n1_c64_k64",
     "kernel_source": {"kind": "rocke", "source": "builders/common/convolution_forward.py",
       "builder": "build_gfx950_conv_fwd", "spec": {"N": 1, "C": 64, "K": 64, "dtype": "fp16"}}}
  ]
}
)";

// The fixture on main (the platform's core/ir.py as a stand-in the builder imports), with
// branch `feature` checked out.
class ConvProfileRepo : public FixtureRepo {
 public:
  explicit ConvProfileRepo(const std::string& profile = profileText(kPlatformLocator, kLaunchMirror)) {
    write(kHkp + "rocke/platform/python/rocke/__init__.py", "");
    write(kHkp + "rocke/platform/python/rocke/core/__init__.py", "");
    write(kHkp + "rocke/platform/python/rocke/core/ir.py",
          "class IRBuilder:\n    pass\n\n\nclass PtrType:\n    pass\n\n\nclass KernelDef:\n    pass\n\n\n"
          "I32 = 'i32'\nF16 = 'f16'\n");
    write(kHkp + "rocke/platform/python/rocke/instances/__init__.py", "");
    write(kHkp + "rocke/platform/python/rocke/instances/common/__init__.py", "");
    write(kBuilder, kBuilderText);
    write(kHkp + "rocke/library/builders/__init__.py", "");
    write(kHkp + "rocke/library/builders/common/__init__.py", "");
    write(kAdapter, kAdapterText);
    write(kNative, kNativeText);
    write(kGeometry, kGeometryText);
    write(kProfile, profile);
    write(kKdp, kKdpText);
    commit("gfx950 conv fwd");
    git("checkout -q -b feature");
  }
};

const std::string kLaunchRow = "Gfx950ConvFwdNative.cpp";

TEST(ProfileForms, KernargsEntryNamedOtherwiseThroughThePlatformPathPairsTheLaunch) {
  ConvProfileRepo repo;
  // The builder gains an unconditional argument the launch does not pass.
  repo.replace(kBuilder, "    D_bytes = b.param(\"D_bytes\", I32)\n",
               "    D_bytes = b.param(\"D_bytes\", I32)\n    K_gemm = b.param(\"K_gemm\", I32)\n");
  repo.commit("K_gemm as a kernel argument");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The declared pair: the platform builder (the `..` path resolved) with the Native's launch.
  auto rows = rowsStarting(r.out, "mismatch", {"kernargs", kBuilder, "build_implicit_gemm_conv",
                                               "ConvFwdDispatchHandler::launch launch(...)"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("missing K_gemm"), std::string::npos) << rows[0];
  // The entry is a kernargs pair: no launch-surface row of its own, no "code changed outside".
  EXPECT_TRUE(rowsWith(r.out, {"launch-surface:kernargs_and_execution"}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"code changed outside the argument lists"}).empty()) << r.out;
  // The other entries naming the builder are launch surfaces whose C++ side holds no argument list.
  EXPECT_EQ(rowsStarting(r.out, "changed", {"launch-surface:pointer_nonalias", kBuilder}).size(), 1u) << r.out;
  EXPECT_EQ(rowsStarting(r.out, "changed", {"launch-surface:workspace", kBuilder}).size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(ProfileForms, LaunchFollowingTheBuilderAgreesAndADroppedSlotIsAMismatch) {
  ConvProfileRepo repo;
  repo.replace(kNative, "bytes[0], bytes[1], bytes[2]);", "bytes[0], bytes[1]);");
  repo.commit("drop D_bytes from the launch");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsStarting(r.out, "mismatch", {"kernargs", kBuilder, "ConvFwdDispatchHandler::launch launch(...)"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("copy has 5 arguments, builder has 6"), std::string::npos) << rows[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(ProfileForms, UntouchedTreeHasNoMismatch) {
  ConvProfileRepo repo;
  std::string empty = repo.git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty");
  empty.erase(empty.find_last_not_of("\n") + 1);
  std::string all = repo.git("commit-tree feature^{tree} -p " + empty + " -m all");
  all.erase(all.find_last_not_of("\n") + 1);
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base " + empty + " --head " + all);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch").empty()) << r.out;
  auto pair = rowsStarting(r.out, "changed", {"kernargs", kBuilder, "ConvFwdDispatchHandler::launch launch(...)"});
  ASSERT_EQ(pair.size(), 1u) << r.out;
  // The platform module ships through the adapter the descriptor names.
  EXPECT_NE(pair[0].find("[device: gfx950]"), std::string::npos) << pair[0];
  for (const char* entry : {"applicability_and_baked_constants", "problem_geometry_and_byte_counts", "pointer_nonalias",
                            "workspace"})
    EXPECT_EQ(rowsStarting(r.out, "changed", {std::string("launch-surface:") + entry + " "}).size(), 1u)
        << entry << "\n" << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"not compared"}).empty()) << r.out;
}

TEST(ProfileForms, DeclaredEntryWhoseModuleIsMissingIsARow) {
  ConvProfileRepo repo;
  repo.write(kProfile,
             profileText("../platform/python/rocke/instances/common/conv_implicit_gemm_v2.py:build_implicit_gemm_conv",
                         kLaunchMirror));
  repo.commit("profile names a module that is not there");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsStarting(r.out, "mismatch", {"launch-surface:kernargs_and_execution"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("python_source module ../platform/python/rocke/instances/common/conv_implicit_gemm_v2.py "
                         "does not exist"),
            std::string::npos)
      << rows[0];
  EXPECT_NE(rows[0].find(kHkp + "rocke/platform/python/rocke/instances/common/conv_implicit_gemm_v2.py"),
            std::string::npos)
      << rows[0];
}

TEST(ProfileForms, DeclaredKernargsEntryWhoseSideHoldsNothingComparableIsARow) {
  // An entry named kernargs whose C++ side is a function without a launch or a list.
  ConvProfileRepo repo(profileText(kPlatformLocator, kLaunchMirror));
  repo.write(kProfile, profileText(kPlatformLocator, kNative + ":workspaceBytes", "kernargs"));
  repo.commit("kernargs names workspaceBytes");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsStarting(r.out, "changed", {"launch-surface:kernargs", kBuilder});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("not compared: cpp_mirror " + kNative + ":workspaceBytes holds no launch call or "
                         "KernelArgument list"),
            std::string::npos)
      << rows[0];
}

}  // namespace
}  // namespace impact::testing
