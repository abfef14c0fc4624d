// The emitter on the real rocKE subset (shared/real-data/rocke-cpu: the real platform package and
// the real gfx950 dense attention builder), copied into a fixture repository at test time.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

constexpr const char* kDense = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
constexpr const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/"
    "gfx950_attention_dense.kdp.json";

// A KDP for this builder revision, in its own spec fields (the newer real KDP's specs carry
// fields this builder refuses).
constexpr const char* kKdpText = R"({
  "version": 1, "id": "gfx950_attention_dense", "name": "gfx950_attention_dense", "arch": ["gfx950"],
  "kernelDescriptors": [
    {"version": 1, "id": "dense_causal_d64", "name": "dense_causal_d64",
     "kernel_source": {"kind": "rocke", "source": "kernels/gfx950/attention_dense.py", "builder": "build_attention_dense",
       "spec": {"batch": 1, "seqlen_q": 512, "seqlen_kv": 512, "num_query_heads": 8, "num_kv_heads": 1,
                "head_size": 64, "causal": true, "dtype": "bf16"}}},
    {"version": 1, "id": "dense_d128", "name": "dense_d128",
     "kernel_source": {"kind": "rocke", "source": "kernels/gfx950/attention_dense.py", "builder": "build_attention_dense",
       "spec": {"batch": 2, "seqlen_q": 256, "seqlen_kv": 256, "num_query_heads": 8, "num_kv_heads": 8,
                "head_size": 128, "causal": false, "dtype": "bf16"}}}
  ]
}
)";

class RealRocke : public ::testing::Test {
 protected:
  void SetUp() override {
    if (sharedDir().empty() || !std::filesystem::is_directory(sharedDir() + "/real-data/rocke-cpu"))
      GTEST_SKIP() << "shared/real-data/rocke-cpu is absent: the real rocKE subset cannot be tested here";
    repo_ = std::make_unique<EmitFixture>(sharedDir() + "/real-data/rocke-cpu");
    repo_->git("checkout -q main");
    repo_->write(kKdp, kKdpText);
    repo_->commit("ship two dense attention variants");
    repo_->git("checkout -q -B feature");
  }
  std::unique_ptr<EmitFixture> repo_;
};

TEST_F(RealRocke, RefactorOfTheRealDenseBuilderFolds) {
  EmitFixture& repo = *repo_;
  repo.replace(kDense, "    B = spec.batch\n    Sq = spec.seqlen_q\n", "    # batch and query length\n    B, Sq = spec.batch, spec.seqlen_q\n");
  repo.commit("refactor build_attention_dense");
  RunResult e = repo.emit();
  ASSERT_EQ(e.exitCode, 0) << e.err;
  auto doc = repo.doc();
  const auto* dense = repo.family(doc, "kernels/gfx950/attention_dense.py");
  ASSERT_NE(dense, nullptr) << doc.dump(1);
  ASSERT_EQ((*dense)["head"]["status"], "ok") << dense->dump(1);
  ASSERT_EQ((*dense)["variants"].size(), 2u);
  const auto& k = (*dense)["variants"][0]["head"]["kernels"][0];
  ASSERT_EQ(k["args"].size(), 5u) << k.dump(1);
  EXPECT_EQ(k["args"][0]["name"], "q_ptr");
  EXPECT_EQ(k["args"][0]["kind"], "global_buffer");
  EXPECT_EQ(k["args"][4]["name"], "scale");
  EXPECT_EQ(k["args"][4]["size"], 4);
  EXPECT_EQ(k["compile"]["isa"], "amdgcn-amd-amdhsa--gfx950");
  EXPECT_EQ(k["compile"]["options"], nlohmann::json::array({"-O3"}));
  EXPECT_EQ(doc["flavor"], "llvm23");  // the newest flavor both revisions' ladders know
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The builder's three copies (the module's own attention_dense_signature, the recipe pack's
  // launch-plan check and the standalone test's) fold: every shipped variant emitted the same
  // arguments and IR (the builder's code change is read on those rows, so no kernel-code row).
  EXPECT_EQ(rowsWith(r.out, {"inert", kDense, "equal for all 2 shipped variants"}).size(), 3u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs", kDense, "equal for all 2 shipped variants"}).size(), 3u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs", "RockeSdpaNative.cpp"}).size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs", "test_native_sdpa.cpp"}).size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed", kDense}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST_F(RealRocke, AnIrChangingEditOfTheRealDenseBuilderDoesNotFold) {
  EmitFixture& repo = *repo_;
  repo.replace(kDense, "_LAZY_RESCALE_THRESHOLD = 8.0", "_LAZY_RESCALE_THRESHOLD = 4.0");
  repo.commit("rescale earlier");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"changed", kDense}).empty()) << r.out;
  EXPECT_NE(r.out.find("IR differs"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

// The real KDP (trimmed to its first 4 UKDs) names spec fields this builder revision does not have:
// each variant is recorded as failed with the fields it refused, and no row folds on them.
TEST_F(RealRocke, TheRealKdpsSpecsAreRefusedByThisBuilderRevisionAndNothingFolds) {
  EmitFixture& repo = *repo_;
  std::ifstream in(sharedDir() + "/real-data/gfx950_attention_dense.kdp.trimmed.json");
  std::stringstream ss;
  ss << in.rdbuf();
  repo.write(kKdp, ss.str());
  repo.replace(kDense, "    B = spec.batch\n    Sq = spec.seqlen_q\n", "    B, Sq = spec.batch, spec.seqlen_q\n");
  repo.commit("the real KDP, and a refactor");
  ASSERT_EQ(repo.emit("--no-probe").exitCode, 0);
  auto doc = repo.doc();
  const auto* dense = repo.family(doc, "kernels/gfx950/attention_dense.py");
  ASSERT_NE(dense, nullptr);
  // The base ships this file's two variants; the head ships the real KDP's four.
  ASSERT_EQ((*dense)["variants"].size(), 6u) << dense->dump(1);
  EXPECT_EQ((*dense)["variants"][0]["name"], "attention_dense.bf16_d64_hq8_kv1_ca.gfx950");
  size_t atHead = 0;
  for (const auto& v : (*dense)["variants"]) {
    if (v["head"].is_null()) {
      EXPECT_FALSE(v["base"]["kernels"].empty()) << v.dump(1);  // dense_causal_d64, dense_d128 still build at the base
      continue;
    }
    ++atHead;
    std::string err = v["head"].value("error", "");
    EXPECT_NE(err.find("AttentionDenseSpec has no field"), std::string::npos) << v.dump(1);
    EXPECT_NE(err.find("block_m"), std::string::npos) << err;
    EXPECT_NE(err.find("wide_lds_dma"), std::string::npos) << err;
  }
  EXPECT_EQ(atHead, 4u);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"changed", kDense}).empty()) << r.out;
  EXPECT_NE(r.out.find("kernels/gfx950/attention_dense.py:build_attention_dense variant attention_dense.bf16_d64_hq8_kv1_ca.gfx950 "
                       "ships at one revision only"),
            std::string::npos) << r.out;
}

}  // namespace
}  // namespace impact::testing
