// Launch surfaces (SPEC R2.4), removed Python symbols (R2.6) and the shipped closure (R2.7),
// end to end through `impact report` on the example monorepo.
#include <gtest/gtest.h>

#include <sstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kUnified = kLib + "kernels/common/attention_unified.py";

// On main: the grid helper hands off to kernels/common/attention_unified.py through a module
// alias; then a branch `work` is checked out for the change.
void gridThroughCommonHelper(M& repo) {
  repo.git("checkout -q main");
  repo.write(kUnified,
             "\"\"\"Shared launch geometry of the unified attention kernels.\"\"\"\n\n"
             "ROWS_PER_PROGRAM = 1\n\n\n"
             "def _get_2d_launch_meta(spec, seqlen_q):\n"
             "    return (seqlen_q + spec.block_m - 1) // spec.block_m * ROWS_PER_PROGRAM\n\n\n"
             "def unrelated_helper():\n    return 0\n");
  repo.replace(M::kAttention, "from rocke.core.ir import", "import kernels.common.attention_unified as au\nfrom rocke.core.ir import");
  repo.replace(M::kAttention, "    return ((seqlen_q + spec.block_m - 1) // spec.block_m, spec.num_query_heads, batch)",
               "    return (au._get_2d_launch_meta(spec, seqlen_q), spec.num_query_heads, batch)");
  repo.commit("grid through the common helper");
  repo.git("checkout -q -b work");
}

TEST(SurfaceScenarios, GridHelperWhoseCalleeInAnotherModuleChanged) {
  M repo;
  gridThroughCommonHelper(repo);
  repo.replace(kUnified, "ROWS_PER_PROGRAM = 1", "ROWS_PER_PROGRAM = 2");
  repo.replace(kUnified, "    return (seqlen_q + spec.block_m - 1)", "    # round up\n    return (seqlen_q + spec.block_m - 1)");
  repo.commit("two rows per program");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto grid = rowsStarting(r.out, "changed", {"launch-surface:grid", M::kAttention, "attention_dense_grid"});
  ASSERT_EQ(grid.size(), 1u) << r.out;
  EXPECT_NE(grid[0].find("python side changed: attention_dense_grid reaches kernels/common/attention_unified.py:"
                         "ROWS_PER_PROGRAM which changed"),
            std::string::npos)
      << grid[0];
  EXPECT_NE(grid[0].find("the C++ mirror"), std::string::npos) << grid[0];
  EXPECT_NE(grid[0].find("[device: gfx950]"), std::string::npos) << grid[0];
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;

  // A comment-only edit of the callee is inert.
  repo.git("checkout -q main");
  repo.git("checkout -q -b comments");
  repo.replace(kUnified, "    return (seqlen_q + spec.block_m - 1)", "    # ceil division\n    return (seqlen_q + spec.block_m - 1)");
  repo.commit("comment");
  r = report(repo);
  EXPECT_TRUE(rowsStarting(r.out, "changed", {}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST(SurfaceScenarios, CalleeBodyEditNamesTheCallee) {
  M repo;
  gridThroughCommonHelper(repo);
  repo.replace(kUnified, "// spec.block_m * ROWS_PER_PROGRAM", "// spec.block_m * ROWS_PER_PROGRAM + 1");
  repo.commit("off by one");
  RunResult r = report(repo);
  auto grid = rowsStarting(r.out, "changed", {"launch-surface:grid",
                                      "attention_dense_grid reaches kernels/common/attention_unified.py:"
                                      "_get_2d_launch_meta which changed"});
  EXPECT_EQ(grid.size(), 1u) << r.out;
  // An edit of a helper the grid does not reach gives no launch-surface row.
  repo.git("checkout -q main");
  repo.git("checkout -q -b unrelated");
  repo.replace(kUnified, "    return 0\n", "    return 1\n");
  repo.commit("unrelated");
  r = report(repo);
  EXPECT_TRUE(rowsStarting(r.out, "changed", {"launch-surface:grid"}).empty()) << r.out;
}

TEST(SurfaceScenarios, CppMirrorAloneChanged) {
  M repo;
  repo.replace("dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseGeometry.hpp",
               "return {(seqlenQ + blockM - 1) / blockM, heads, batch};", "return {seqlenQ / blockM, heads, batch};");
  repo.commit("floor");
  RunResult r = report(repo);
  auto grid = rowsStarting(r.out, "changed", {"launch-surface:grid", "C++ mirror changed"});
  EXPECT_EQ(grid.size(), 1u) << r.out;
}

TEST(SurfaceScenarios, PythonSourceNamingAMethodOfATuningClassResolves) {
  M repo;
  repo.git("checkout -q main");
  repo.replace(M::kAttention, "AttentionDenseSpec = Gfx950AttentionDenseSpec\n",
               "AttentionDenseSpec = Gfx950AttentionDenseSpec\n\n\n@dataclass(frozen=True)\nclass Gfx950AttentionTuning:\n"
               "    block_m: int = 256\n\n    def launch_block(self, spec):\n"
               "        return (self.block_m // GFX950_ROWS_PER_WAVE * GFX950_WAVE_LANES, 1, 1)\n");
  repo.commit("tuning class");
  repo.git("checkout -q -b work");
  repo.replace(M::kProfile, "  - name: kernargs\n",
               "  - name: block\n    python_source: kernels/gfx950/attention_dense.py:launch_block  (tuning method)\n"
               "    cpp_mirror: dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/"
               "Gfx950AttentionDenseGeometry.hpp:gfx950AttentionDenseBlock\n    kmd_fields: [block_m]\n"
               "    guard: none\n    test: none\n\n  - name: kernargs\n");
  repo.commit("declare the block surface");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {}).empty()) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "changed", {"launch-surface:block"}).empty()) << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(SurfaceScenarios, MissingPythonSourceSymbolIsAMismatch) {
  M repo;
  repo.replace(M::kProfile, "python_source: kernels/gfx950/attention_dense.py:attention_dense_grid",
               "python_source: kernels/gfx950/attention_dense.py:attention_dense_grid_v2");
  repo.commit("point at a grid that does not exist");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto miss = rowsStarting(r.out, "mismatch", {"launch-surface:grid", "attention_dense_grid_v2 is not defined in kernels/gfx950/attention_dense.py"});
  EXPECT_EQ(miss.size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(SurfaceScenarios, MissingCppMirrorSymbolIsAMismatch) {
  M repo;
  repo.replace(M::kProfile, "packs/Gfx950AttentionDenseGeometry.hpp\n", "packs/Gfx950AttentionDenseGeometry.hpp:gfx950AttentionDenseGridV2\n");
  repo.commit("mirror symbol");
  RunResult r = report(repo);
  EXPECT_EQ(rowsStarting(r.out, "mismatch", {"launch-surface:grid", "cpp_mirror symbol gfx950AttentionDenseGridV2 is not defined"}).size(), 1u)
      << r.out;
}

// A report between two commits lists only the folders that can hold an analysed file; a
// cpp_mirror elsewhere (a shared header of another project) is still found in the commit's tree,
// and one that is really missing is still a mismatch.
TEST(SurfaceScenarios, CppMirrorOutsideTheAnalysedFoldersIsFoundBetweenCommits) {
  M repo;
  const std::string kept = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseGeometry.hpp\n";
  repo.write("projects/shared_geometry/include/AttentionGeometry.hpp", "inline int attentionGrid() { return 1; }\n");
  repo.replace(M::kProfile, kept, "projects/shared_geometry/include/AttentionGeometry.hpp\n");
  repo.commit("the grid's mirror lives in a shared header");
  std::string head = repo.git("rev-parse HEAD");
  while (!head.empty() && head.back() == '\n') head.pop_back();
  RunResult r = report(repo, "--head " + head);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {"does not exist"}).empty()) << r.out;

  repo.replace(M::kProfile, "projects/shared_geometry/include/AttentionGeometry.hpp\n",
               "projects/shared_geometry/include/Gone.hpp\n");
  repo.commit("point at a header that is not there");
  head = repo.git("rev-parse HEAD");
  while (!head.empty() && head.back() == '\n') head.pop_back();
  RunResult gone = report(repo, "--head " + head);
  EXPECT_EQ(rowsStarting(gone.out, "mismatch", {"cpp_mirror projects/shared_geometry/include/Gone.hpp does not exist"}).size(), 1u)
      << gone.out;
}

TEST(SurfaceScenarios, RemovedFunctionStillImportedWhileAnotherModuleDefinesTheName) {
  M repo;
  repo.git("checkout -q main");
  repo.write(kLib + "kernels/common/tiles.py", "def tile_count(spec):\n    return spec.block_m // spec.block_n\n");
  repo.write(kLib + "kernels/gfx942/__init__.py", "");
  repo.write(kLib + "kernels/gfx942/tiles.py", "def tile_count(spec):\n    return 4\n");
  repo.replace(M::kAttention, "from rocke.core.ir import", "from kernels.common.tiles import tile_count\nfrom rocke.core.ir import");
  repo.replace(M::kAttention, "def attention_dense_block(spec):\n",
               "def attention_dense_tiles(spec):\n    return tile_count(spec)\n\n\ndef attention_dense_block(spec):\n");
  repo.commit("tiles helper");
  repo.git("checkout -q -b work");
  repo.write(kLib + "kernels/common/tiles.py", "\"\"\"tile_count moved to the per-arch modules.\"\"\"\n");
  repo.commit("remove the common tile_count");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rm = rowsStarting(r.out, "mismatch", {"removed-symbol", "kernels/common/tiles.py:tile_count was removed",
                                     "kernels/gfx950/attention_dense.py"});
  ASSERT_FALSE(rm.empty()) << r.out;
  EXPECT_NE(rm[0].find("still imports it from kernels.common.tiles"), std::string::npos) << rm[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;

  // The reader follows to the per-arch module: no removed-symbol row.
  repo.replace(M::kAttention, "from kernels.common.tiles import tile_count", "from kernels.gfx942.tiles import tile_count");
  repo.commit("reader follows");
  r = report(repo);
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {"removed-symbol"}).empty()) << r.out;
}

TEST(SurfaceScenarios, MemberRemovedFromABaseClassReadThroughASubclassIsChanged) {
  M repo;
  repo.git("checkout -q main");
  repo.write(kLib + "kernels/common/tuning.py",
             "class TuningBase:\n    def waves(self):\n        return 4\n\n    def lanes(self):\n        return 64\n");
  repo.write(kLib + "kernels/gfx950/tuning.py",
             "from kernels.common.tuning import TuningBase\n\n\nclass Gfx950Tuning(TuningBase):\n    pass\n\n\n"
             "def threads(t):\n    return t.waves() * t.lanes()\n\n\ndef direct():\n    return TuningBase.lanes(None)\n");
  repo.commit("tuning");
  repo.git("checkout -q -b work");
  repo.replace(kLib + "kernels/common/tuning.py", "    def lanes(self):\n        return 64\n", "");
  repo.commit("drop lanes");
  RunResult r = report(repo);
  auto direct = rowsStarting(r.out, "mismatch", {"removed-symbol", "TuningBase.lanes was removed", "still uses TuningBase.lanes"});
  EXPECT_EQ(direct.size(), 1u) << r.out;
  // Only the worst finding per reader module is kept: the direct read makes it a mismatch.
  repo.replace(kLib + "kernels/gfx950/tuning.py", "\n\ndef direct():\n    return TuningBase.lanes(None)\n", "\n");
  repo.commit("no direct read");
  r = report(repo);
  auto untyped = rowsStarting(r.out, "changed", {"removed-symbol", "TuningBase.lanes was removed", "receiver of unknown type"});
  EXPECT_EQ(untyped.size(), 1u) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {"removed-symbol"}).empty()) << r.out;
}

TEST(SurfaceScenarios, ResignedFunctionReadersAreChanged) {
  M repo;
  repo.git("checkout -q main");
  repo.write(kLib + "kernels/common/tiles.py", "def tile_count(spec):\n    return 1\n");
  repo.replace(M::kAttention, "from rocke.core.ir import", "from kernels.common.tiles import tile_count\nfrom rocke.core.ir import");
  repo.replace(M::kAttention, "def attention_dense_block(spec):\n",
               "def attention_dense_tiles(spec):\n    return tile_count(spec)\n\n\ndef attention_dense_block(spec):\n");
  repo.commit("tiles");
  repo.git("checkout -q -b work");
  repo.write(kLib + "kernels/common/tiles.py", "def tile_count(spec, arch):\n    return 1\n");
  repo.commit("re-sign");
  RunResult r = report(repo);
  auto rs = rowsStarting(r.out, "changed", {"removed-symbol", "tile_count changed its parameters (spec) -> (spec, arch)"});
  EXPECT_FALSE(rs.empty()) << r.out;
}

TEST(SurfaceScenarios, LaunchSurfaceModuleWithASyntaxErrorIsReportedAsSuch) {
  M repo;
  repo.replace(M::kAttention, "def attention_dense_grid(spec, seqlen_q, batch):", "def attention_dense_grid(spec, seqlen_q, batch)");
  repo.commit("broken");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto bad = rowsStarting(r.out, "changed", {"launch-surface:grid", "does not parse"});
  EXPECT_EQ(bad.size(), 1u) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch", {"launch-surface:grid"}).empty()) << r.out;
}

TEST(SurfaceScenarios, ModuleOutsideTheShippedClosureIsOutside) {
  M repo;
  repo.write(kLib + "kernels/gfx950/experimental.py", "def build_experimental(spec):\n    return None\n");
  repo.commit("experimental kernel nothing ships");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsStarting(r.out, "outside", {"kernels/gfx950/experimental.py"}).size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
  // A module a shipped builder imports is inside.
  repo.replace(M::kAttention, "from rocke.core.ir import", "import kernels.gfx950.experimental\nfrom rocke.core.ir import");
  repo.commit("import it");
  r = report(repo);
  EXPECT_TRUE(rowsStarting(r.out, "outside", {"kernels/gfx950/experimental.py"}).empty()) << r.out;
}

}  // namespace
}  // namespace impact::testing
