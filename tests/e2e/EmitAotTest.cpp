// Issue 39 item 5: the emitter builds the AOT catalog families. Each kernel an AOT producer builds
// (its static reading: the builder, the spec and the call) is a variant, built in the child as the
// producer calls the builder and lowered for the catalog's arch. On the real rocKE subset
// (shared/real-data/rocke-cpu, copied into a fixture repository at test time) with an AOT family in
// the platform package's form (rocke/instances/common/, a producer and a family.json in
// rocke/aot_catalog/gfx1151/): an IR-preserving refactor of the builder folds to inert, a body
// change needs a device run on gfx1151, an argument change breaks the catalog entries. The real
// gfx1151 rmsnorm2d family (shared/real-data/aot-catalog) cannot run on that subset: its row says so.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

const std::string kHkp = "dnn-providers/hip-kernel-provider/";
const std::string kBuilder = kHkp + "rocke/platform/python/rocke/instances/common/elementwise.py";
const std::string kFamily = kHkp + "rocke/aot_catalog/gfx1151/activation/";

// A builder in the platform package's form, on the real rocKE IR (it builds and lowers).
constexpr const char* kBuilderText = R"("""Elementwise scale: an AOT catalog family's builder."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.ir import F32, I32, I64, IRBuilder, KernelDef, PtrType


@dataclass(frozen=True)
class ElementwiseSpec:
    op: str = "scale"
    block_size: int = 256
    save_mask: bool = False
    name: str = "rocke_elementwise"

    def kernel_name(self) -> str:
        suffix = "_m" if self.save_mask else ""
        return f"{self.name}_{self.op}_b{self.block_size}{suffix}"


def build_elementwise(spec: ElementwiseSpec) -> KernelDef:
    b = IRBuilder(spec.kernel_name())
    a = b.param("A", PtrType(F32, "global"), noalias=True, readonly=True)
    c = b.param("C", PtrType(F32, "global"), noalias=True, writeonly=True)
    if spec.save_mask:
        b.param("Mask", PtrType(F32, "global"), noalias=True, writeonly=True)
    b.param("N", I32)
    factor = b.param("alpha", F32)
    idx = b.add(b.mul(b.block_id_x(), b.const_i32(spec.block_size)), b.thread_id_x())
    x = b.global_load_f32(a, idx)
    b.global_store(c, idx, b.fmul(x, factor))
    b.ret()
    return b.kernel
)";

// The producer in the real form (produce_rmsnorm2d_co.py): every spec built with the builder,
// compiled with the tree's own compile_kernel, written as <spec.kernel_name()>.co.
constexpr const char* kProducerText = R"(import os
import sys

from rocke.instances.common.elementwise import ElementwiseSpec, build_elementwise
from rocke.helpers.compile import compile_kernel

ARCH = "gfx1151"

TUNING = [256, 512]


def main() -> int:
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    for block_size in TUNING:
        spec = ElementwiseSpec(op="scale", block_size=block_size, save_mask=False)
        artifact = compile_kernel(build_elementwise(spec), arch=ARCH)
        symbol = spec.kernel_name()
        with open(os.path.join(out_dir, symbol + ".co"), "wb") as f:
            f.write(artifact.hsaco)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
)";

std::string entry(int block) {
  std::string sym = "rocke_elementwise_scale_b" + std::to_string(block);
  return R"(        {
            "symbol": ")" + sym + R"(",
            "co_file": ")" + sym + R"(.co",
            "constraints": {"dtype": {"equals": "f32"}},
            "grid": {"x": {"ceil_div": ["N", )" + std::to_string(block) + R"(]}, "y": 1, "z": 1},
            "block": [)" + std::to_string(block) + R"(, 1, 1],
            "args_signature": [
                {"name": "A", "type": "ptr"},
                {"name": "C", "type": "ptr"},
                {"name": "N", "type": "i32"},
                {"name": "alpha", "type": "f32"}
            ],
            "workspace_bytes": 0
        })";
}

class EmitAot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (sharedDir().empty() || !fs::is_directory(sharedDir() + "/real-data/rocke-cpu"))
      GTEST_SKIP() << "shared/real-data/rocke-cpu is absent: the AOT family cannot be built here";
    repo_ = std::make_unique<EmitFixture>(sharedDir() + "/real-data/rocke-cpu");
    EmitFixture& repo = *repo_;
    repo.git("checkout -q main");
    repo.write(kHkp + "rocke/platform/python/rocke/instances/__init__.py", "");
    repo.write(kHkp + "rocke/platform/python/rocke/instances/common/__init__.py", "");
    repo.write(kBuilder, kBuilderText);
    repo.write(kFamily + "produce_activation_co.py", kProducerText);
    repo.write(kFamily + "family.json", "{\n    \"family\": \"activation_gfx1151\",\n    \"op_kind\": \"pointwise\",\n"
                                        "    \"arch\": \"gfx1151\",\n    \"kernels\": [\n" +
                                            entry(256) + ",\n" + entry(512) + "\n    ]\n}\n");
    repo.commit("an AOT catalog family");
    repo.git("checkout -q -B feature");
  }
  std::unique_ptr<EmitFixture> repo_;
};

TEST_F(EmitAot, AnIrPreservingRefactorOfTheBuilderFoldsToInert) {
  EmitFixture& repo = *repo_;
  RunResult e = repo.emitEdit(kBuilder, "    x = b.global_load_f32(a, idx)\n    b.global_store(c, idx, b.fmul(x, factor))\n",
                              "    # load, scale, store\n    loaded = b.global_load_f32(a, idx)\n"
                              "    b.global_store(c, idx, b.fmul(loaded, factor))\n",
                              "refactor build_elementwise");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  auto doc = repo.doc();
  const auto* fam = repo.family(doc, "rocke/instances/common/elementwise.py");
  ASSERT_NE(fam, nullptr) << doc.dump(1);
  EXPECT_EQ((*fam)["producers"], nlohmann::json::array({kFamily + "produce_activation_co.py"})) << fam->dump(1);
  ASSERT_EQ((*fam)["head"]["status"], "ok") << fam->dump(1);
  // The producer's two kernels, named by their symbols, built for the catalog's arch with the
  // producer's spec (its explicit save_mask=False, the rest the class's defaults).
  ASSERT_EQ((*fam)["variants"].size(), 2u) << fam->dump(1);
  const auto& v = (*fam)["variants"][0];
  EXPECT_EQ(v["name"], "rocke_elementwise_scale_b256");
  EXPECT_EQ(v["arch"], "gfx1151");
  EXPECT_EQ(v["head"]["spec"], nlohmann::json({{"op", "scale"}, {"block_size", 256}, {"save_mask", false},
                                                {"name", "rocke_elementwise"}}));
  const auto& k = v["head"]["kernels"][0];
  EXPECT_EQ(k["name"], "rocke_elementwise_scale_b256");
  ASSERT_EQ(k["args"].size(), 4u) << k.dump(1);
  EXPECT_EQ(k["args"][2]["name"], "N");
  EXPECT_EQ(k["args"][2]["size"], 4);
  EXPECT_EQ(k["compile"]["isa"], "amdgcn-amd-amdhsa--gfx1151");
  EXPECT_EQ(k["ir_sha256"], v["base"]["kernels"][0]["ir_sha256"]);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs", kBuilder, kFamily + "family.json", "equal for all 2 shipped variants"}).size(),
            2u)
      << r.out;
  // Each entry was compared with the list its own kernel's run recorded.
  EXPECT_NE(r.out.find("2 copies compared with the recorded argument lists (2 variant comparisons); 0 disagree"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed", kBuilder}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST_F(EmitAot, ABodyChangeNeedsADeviceRunOnTheFamilysArch) {
  EmitFixture& repo = *repo_;
  ASSERT_EQ(repo.emitEdit(kBuilder, "b.fmul(x, factor)", "b.fadd(x, factor)", "add instead of scaling").exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernargs", kBuilder, kFamily + "family.json"}).size(), 2u) << r.out;
  EXPECT_NE(r.out.find("build_elementwise variant rocke_elementwise_scale_b256: IR differs"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx1151") << r.out;
}

TEST_F(EmitAot, AnArgumentChangeBreaksTheCatalogEntries) {
  EmitFixture& repo = *repo_;
  ASSERT_EQ(repo.emitEdit(kBuilder, "    b.param(\"N\", I32)\n", "    b.param(\"N\", I64)\n", "a 64-bit element count").exitCode, 0);
  auto doc = repo.doc();
  const auto* fam = repo.family(doc, "rocke/instances/common/elementwise.py");
  ASSERT_NE(fam, nullptr);
  const auto& k = (*fam)["variants"][1]["head"]["kernels"][0];
  EXPECT_EQ(k["args"][2]["size"], 8) << fam->dump(1);  // the run declares what the catalog does not
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "kernargs", kBuilder, kFamily + "family.json", "#2 N"}).size(), 2u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// The producer's reading skips what another module runs on a built kernel (the tree's real
// compile_kernel, which would stop it at its limits after the first kernel), never the producer's
// own helper given the kernel: here the helper names it, and both entries pair.
TEST_F(EmitAot, TheProducersReadingRunsItsOwnHelperGivenTheKernel) {
  EmitFixture& repo = *repo_;
  repo.replace(kFamily + "produce_activation_co.py",
               "        artifact = compile_kernel(build_elementwise(spec), arch=ARCH)\n"
               "        symbol = spec.kernel_name()\n"
               "        with open(os.path.join(out_dir, symbol + \".co\"), \"wb\") as f:\n"
               "            f.write(artifact.hsaco)\n",
               "        _emit(out_dir, build_elementwise(spec), spec)\n");
  repo.replace(kFamily + "produce_activation_co.py", "def main() -> int:",
               "def _emit(out_dir, kernel, spec):\n    artifact = compile_kernel(kernel, arch=ARCH)\n"
               "    symbol = spec.kernel_name()\n    with open(os.path.join(out_dir, symbol + \".co\"), \"wb\") as f:\n"
               "        f.write(artifact.hsaco)\n\n\ndef main() -> int:");
  repo.commit("the producer writes through a helper");
  RunResult r = impact("check --repo " + shellQuote(repo.dir()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* sym : {"rocke_elementwise_scale_b256", "rocke_elementwise_scale_b512"})
    EXPECT_NE(r.out.find(std::string("produce_activation_co.py builds ") + sym + " with build_elementwise(ElementwiseSpec)"),
              std::string::npos)
        << r.out;
  EXPECT_NE(r.out.find("produce_activation_co.py: 2 kernels built by"), std::string::npos) << r.out;
}

// The real gfx1151 rmsnorm2d family over the real rocKE subset: its builders import
// rocke.helpers.io, reduction and sweep, which the subset does not hold, so no kernel runs. Each
// builder's family is a row saying so; its changed rows stay changed, for the catalog's arch.
TEST(EmitAotReal, TheRealRmsnormFamilyThatCannotRunHereIsANamedRow) {
  if (sharedDir().empty() || !fs::is_directory(sharedDir() + "/real-data/rocke-cpu") ||
      !fs::is_directory(sharedDir() + "/real-data/aot-catalog"))
    GTEST_SKIP() << "shared/real-data/rocke-cpu or aot-catalog is absent";
  EmitFixture repo(sharedDir() + "/real-data/rocke-cpu");
  repo.git("checkout -q main");
  fs::copy(sharedDir() + "/real-data/aot-catalog/dnn-providers", repo.dir() + "/dnn-providers",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  repo.git("add -A");
  repo.commit("the real rmsnorm2d family");
  repo.git("checkout -q -B feature");
  const std::string rms = kHkp + "rocke/platform/python/rocke/instances/common/rmsnorm2d.py";
  RunResult e = repo.emitEdit(rms, "    tid = b.thread_id_x()\n    row = b.block_id_x()\n",
                              "    # thread and row\n    tid, row = b.thread_id_x(), b.block_id_x()\n",
                              "refactor build_rmsnorm2d", "--no-probe");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  auto doc = repo.doc();
  const auto* fam = repo.family(doc, "rocke/instances/common/rmsnorm2d.py");
  ASSERT_NE(fam, nullptr) << doc.dump(1);
  EXPECT_EQ((*fam)["variants"].size(), 14u);  // the 14 static kernels the producer builds
  EXPECT_EQ((*fam)["variants"][0]["name"], "rocke_rmsnorm2d_fwd_f16_N2048_b256_v4");
  EXPECT_EQ((*fam)["variants"][0]["head"]["spec"]["wave_size"], 32);  // the producer's, not the class default
  EXPECT_EQ((*fam)["head"]["status"], "failed");
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* builder : {"rmsnorm2d.py build_rmsnorm2d ", "rmsnorm2d_dynamic.py build_rmsnorm2d_dynamic "})
    EXPECT_EQ(rowsWith(r.out, {"outside", "emit", builder,
                               "produce_rmsnorm2d_co.py: not run at the head: ModuleNotFoundError: No module named "
                               "'rocke.helpers.io'"})
                  .size(),
              1u)
        << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"inert", rms}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx1151") << r.out;
}

}  // namespace
}  // namespace impact::testing
