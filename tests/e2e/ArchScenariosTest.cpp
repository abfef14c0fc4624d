// Which architectures NEEDS-DEVICE names (SPEC R2.7): descriptor arch arrays, a UKD narrowing
// its KDP, generic targets expanded through the table, modules reached from a launch.
#include <gtest/gtest.h>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kDesc = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/";
const std::string kTable = "dnn-providers/hip-kernel-provider/descriptor-packaging/generic_targets.json";

// A gfx942 GEMM kernel shipped by a KDP whose arch list is `kdpArch`; one UKD may narrow it.
void addGemm(M& repo, const std::string& kdpArch, const std::string& ukdArch = "") {
  repo.write(kLib + "kernels/gfx942/gemm.py",
             "from rocke.core.ir import F32, I32, IRBuilder, PtrType\n\n\n"
             "def build_gemm(spec, *, arch=\"gfx942\"):\n"
             "    b = IRBuilder(\"gemm\")\n"
             "    b.param(\"a_ptr\", PtrType(F32, \"global\"))\n"
             "    b.param(\"b_ptr\", PtrType(F32, \"global\"))\n"
             "    b.param(\"m\", I32)\n"
             "    return b.finish()\n");
  std::string ukd = "{\"id\":\"u1\",\"name\":\"gemm.v0\",\"kernel_source\":{\"kind\":\"rocke\",\"source\":"
                    "\"kernels/gfx942/gemm.py\",\"builder\":\"build_gemm\",\"spec\":{}}" +
                    (ukdArch.empty() ? std::string() : ",\"arch\":" + ukdArch) + "}";
  repo.write(kDesc + "gfx942_gemm/gfx942_gemm.kdp.json",
             "{\"id\":\"k1\",\"name\":\"hipkernel:gemm\",\"kernelDescriptors\":[" + ukd + "],\"arch\":" + kdpArch + "}\n");
}

void editGemmBody(M& repo) {
  repo.replace(kLib + "kernels/gfx942/gemm.py", "IRBuilder(\"gemm\")", "IRBuilder(\"gemm_v2\")");
}

TEST(ArchScenarios, AGenericTargetExpandsToItsMemberArchs) {
  M repo;
  repo.git("checkout -q main");
  addGemm(repo, "[\"gfx9-4-generic\"]");
  repo.write(kTable, "{\"gfx9-4-generic\": [\"gfx940\", \"gfx941\", \"gfx942\"], \"gfx9-generic\": [\"gfx900\"]}\n");
  repo.commit("gemm on the gfx9-4 generic target");
  repo.git("checkout -q -b gemm-edit");
  editGemmBody(repo);
  repo.commit("edit gemm");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx940, gfx941, gfx942") << r.out;
}

TEST(ArchScenarios, AMissingTableIsANoteNotACrash) {
  M repo;
  repo.git("checkout -q main");
  addGemm(repo, "[\"gfx9-4-generic\"]");
  repo.commit("gemm on a generic target, no table");
  repo.git("checkout -q -b gemm-edit");
  editGemmBody(repo);
  repo.commit("edit gemm");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("note: no generic-target table at " + kTable + ": gfx9-4-generic kept as named"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx9-4-generic") << r.out;
}

TEST(ArchScenarios, AUkdNarrowsItsKdp) {
  M repo;
  repo.git("checkout -q main");
  addGemm(repo, "[\"gfx942\", \"gfx950\"]", "[\"gfx950\"]");
  repo.commit("gemm shipped on gfx950 only, by its UKD");
  repo.git("checkout -q -b gemm-edit");
  editGemmBody(repo);
  repo.commit("edit gemm");
  RunResult r = report(repo);
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST(ArchScenarios, AModuleALaunchImportsShipsOnThatLaunchsArchs) {
  M repo;
  repo.git("checkout -q main");
  addGemm(repo, "[\"gfx942\"]");
  repo.write(kLib + "kernels/common/__init__.py", "");
  repo.write(kLib + "kernels/common/tiling.py", "def tile(m):\n    return m // 64\n");
  repo.replace(kLib + "kernels/gfx942/gemm.py", "from rocke.core.ir", "from kernels.common.tiling import tile\nfrom rocke.core.ir");
  repo.commit("gemm imports a shared tiling helper");
  repo.git("checkout -q -b tiling-edit");
  repo.replace(kLib + "kernels/common/tiling.py", "m // 64", "m // 128");
  repo.commit("edit the shared helper");
  RunResult r = report(repo);
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx942") << r.out;
}

}  // namespace
}  // namespace impact::testing
