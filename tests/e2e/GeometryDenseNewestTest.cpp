// The geometry differential on the newest gfx950 dense form, through the real `impact report
// --geometry`: the real gfx950 dense profile (shared/real-data, 12de7def: its grid and block
// mirrors name the header without a function), the real gfx950 dense module of
// shared/real-data/rocke-cpu (attention_dense_grid/_block), and a pack and header written in the
// newest real form (tests/support/Gfx950DenseGeometryNewest.h): the tile is the candidate's own
// `tile->blockM`, the query length and batch are the graph's. A KDP in the real format whose
// metadata omits block_m, as the legacy records do (the profile's KMD default, 256, completes it).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"
#include "support/GeometryFixture.h"
#include "support/Gfx950DenseGeometryNewest.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPacks = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";
constexpr const char* kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_dense.profile.yaml";
constexpr const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/"
    "gfx950_attention_dense.kdp.json";
constexpr const char* kDeclared =
    "geometry:\n  gfx950_attention_dense:\n    problem.seqLenQ: {metadata: seqlen_q}\n    problem.batch: {metadata: batch}\n";

struct Shape {
  int hq, b, s;
};
constexpr Shape kShapes[] = {{8, 1, 512}, {16, 2, 1024}, {32, 4, 768}, {8, 3, 256}};

// `blockM`: a block_m written in the last variant's metadata (0: omitted, as legacy records do).
std::string kdpText(int blockM = 0) {
  nlohmann::json ukds = nlohmann::json::array();
  int i = 0;
  for (const Shape& s : kShapes) {
    std::string name = "attention_dense.bf16_d64_hq" + std::to_string(s.hq) + "_b" + std::to_string(s.b) + "_s" +
                       std::to_string(s.s) + ".gfx950";
    nlohmann::json spec = {{"dtype", "bf16"}, {"head_size", 64}, {"num_query_heads", s.hq}, {"num_kv_heads", 1},
                           {"causal", true}, {"batch", s.b}, {"seqlen_q", s.s}, {"seqlen_kv", s.s},
                           {"sliding_window", 0}, {"ragged", false}, {"varlen", false}, {"persistent", false},
                           {"block_n", 64}, {"waves_per_eu", 2}, {"lds_k_group_pad", 8}, {"interleave", false},
                           {"num_persistent", 256}};
    nlohmann::json metadata = {{"dtype", "BF16"}, {"head_size", 64}, {"num_query_heads", s.hq}, {"num_kv_heads", 1},
                               {"causal", 1}, {"ragged", 0}, {"sliding_window", 0}, {"batch", s.b},
                               {"seqlen_q", s.s}, {"seqlen_kv", s.s}};
    if (blockM && i == 3) metadata["block_m"] = blockM;
    ukds.push_back(rockeUkd(name, "5d0c1e7a-0000-4000-8000-00000000000" + std::to_string(i++),
                            "kernels/gfx950/attention_dense.py", "build_attention_dense", spec, metadata));
  }
  nlohmann::json kdp = {{"version", "1.0"}, {"id", "618b350c-47c6-48fc-9b12-d80ea21c3d72"},
                        {"name", "hipkernel:gfx950_attention_dense"}, {"kernelDescriptors", ukds}, {"arch", {"gfx950"}}};
  return kdp.dump(1) + "\n";
}

class DenseNewestGeometry : public GeometryFixture {
 protected:
  void SetUp() override {
    std::string shared = sharedDir();
    if (shared.empty() || !fs::is_directory(shared + "/real-data/rocke-cpu") ||
        !fs::exists(shared + "/real-data/gfx950_attention_dense.profile.yaml"))
      GTEST_SKIP() << "shared/real-data is absent: the newest dense geometry form is not checked on the real module";
    startRepo();
    fs::copy(shared + "/real-data/rocke-cpu", repo_->dir(), fs::copy_options::recursive);
    fs::create_directories((fs::path(repo_->dir()) / kProfile).parent_path());
    fs::copy_file(shared + "/real-data/gfx950_attention_dense.profile.yaml", fs::path(repo_->dir()) / kProfile);
    repo_->write(std::string(kPacks) + "Gfx950AttentionDenseGeometry.hpp", kDenseNewestHeader);
    repo_->write(std::string(kPacks) + "Gfx950AttentionDenseNative.cpp", kDenseNewestPack);
    repo_->write(kKdp, kdpText());
    repo_->write(".impactd.yaml", kDeclared);
    ship("gfx950 dense, the newest form, shipped");
  }
};

// The mirror names the header only: the function is the one the launch reads. The run-time
// query length and batch are compared at the shape each variant was built for, as declared.
TEST_F(DenseNewestGeometry, TheHeaderFunctionIsFoundAndTheDeclaredShapeAgrees) {
  repo_->replace(std::string(kPacks) + "Gfx950AttentionDenseNative.cpp", "        const auto binding =",
                 "        // The launch below uses the candidate's own tile.\n        const auto binding =");
  repo_->commit("a comment in prepare");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"note: geometry:", "Gfx950AttentionDenseGeometry.hpp:gfx950AttentionDenseGeometry",
                             "grid agrees on all 4 shipped variants; block agrees on all 4 shipped variants"}).size(), 1u)
      << r.out << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

TEST_F(DenseNewestGeometry, WithoutTheDeclarationTheRunTimeShapeIsNotCheckedNamingIt) {
  repo_->write(".impactd.yaml", "# nothing declared\n");
  repo_->commit("drop the declaration");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"note: geometry:", "grid not checked:", "argument #2 seqLenQ (`problem.seqLenQ`"}).size(), 1u)
      << r.out;
  EXPECT_EQ(r.out.find("agrees on all"), std::string::npos) << r.out;
}

// A descriptor carrying a tile the module's grid does not use (the module's _BLOCK_M is 256): the
// C++ side launches block_m 128's grid and block for it.
TEST_F(DenseNewestGeometry, AVariantWhoseMetadataTileDiffersFromTheModulesIsAMismatch) {
  repo_->write(kKdp, kdpText(128));
  repo_->commit("one variant declares block_m 128");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto grid = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis x differs on 1 shipped variant of 4"});
  ASSERT_EQ(grid.size(), 1u) << r.out;
  EXPECT_NE(grid[0].find("attention_dense.bf16_d64_hq8_b3_s256.gfx950: Python (1, 8, 3), C++ (2, 8, 3)"), std::string::npos)
      << grid[0];
  EXPECT_NE(grid[0].find("blockM <- metadata block_m"), std::string::npos) << grid[0];
  EXPECT_NE(grid[0].find("seqLenQ <- metadata seqlen_q, declared (.impactd.yaml)"), std::string::npos) << grid[0];
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "launch-surface:block", "Python (512, 1, 1), C++ (256, 1, 1)"}).size(), 1u) << r.out;
}

TEST_F(DenseNewestGeometry, TheHeaderSwappingHeadsAndBatchIsAMismatch) {
  repo_->replace(std::string(kPacks) + "Gfx950AttentionDenseGeometry.hpp",
                 "    geometry.gridY = static_cast<unsigned>(numQueryHeads);\n    geometry.gridZ = static_cast<unsigned>(batch);\n",
                 "    geometry.gridY = static_cast<unsigned>(batch);\n    geometry.gridZ = static_cast<unsigned>(numQueryHeads);\n");
  repo_->commit("heads and batch the other way round");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis y, z differs on 4 shipped variants of 4"}).size(), 1u)
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

}  // namespace
}  // namespace impact::testing
