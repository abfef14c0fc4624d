// Issue 36 item 5: the builder's own run is the truth where it exists. The real emitter runs the
// real gfx950 dense attention builder (shared/real-data/rocke-cpu) for four shipped variants that
// take each of its lists (the own body, its two conditional groups, the persistent early return);
// `impact report --emit` then compares the static reading of the builder with every run (zero
// disagreements here: a future one fails this test with the construct named), and every copy with
// the recorded lists of the variants it serves.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

constexpr const char* kDense = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
constexpr const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/"
    "gfx950_attention_dense.kdp.json";

// Four variants in this builder revision's own spec fields; each states the fields its guards
// read (persistent, varlen, paged), as a shipped descriptor does.
std::string kdpText() {
  nlohmann::json base = {{"batch", 1},          {"seqlen_q", 512},      {"seqlen_kv", 512}, {"num_query_heads", 8},
                         {"num_kv_heads", 1},   {"head_size", 128},     {"causal", true},   {"dtype", "bf16"},
                         {"persistent", false}, {"varlen", false},      {"paged", false}};
  std::vector<std::pair<std::string, nlohmann::json>> variants = {
      {"dense_causal_d128", {{"batch", 2}}},
      {"dense_varlen_d128", {{"varlen", true}}},
      {"dense_paged_d128", {{"paged", true}, {"block_size", 64}, {"num_kv_blocks", 32}, {"sliding_window", 128}}},
      {"dense_persistent_d128", {{"persistent", true}}},
  };
  nlohmann::json kdp = {{"version", 1}, {"id", "gfx950_attention_dense"}, {"name", "gfx950_attention_dense"},
                        {"arch", {"gfx950"}}, {"kernelDescriptors", nlohmann::json::array()}};
  for (auto& [name, extra] : variants) {
    nlohmann::json spec = base;
    spec.update(extra);
    kdp["kernelDescriptors"].push_back(
        {{"version", 1}, {"id", name}, {"name", name},
         {"kernel_source",
          {{"kind", "rocke"}, {"source", "kernels/gfx950/attention_dense.py"}, {"builder", "build_attention_dense"},
           {"spec", spec}}}});
  }
  return kdp.dump(1) + "\n";
}

class RunTruth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (sharedDir().empty() || !std::filesystem::is_directory(sharedDir() + "/real-data/rocke-cpu"))
      GTEST_SKIP() << "shared/real-data/rocke-cpu is absent: the real builder cannot be run here";
    if (run("python3 -c pass").exitCode != 0) GTEST_SKIP() << "python3 is absent: the emitter cannot run a builder";
    repo_ = std::make_unique<EmitFixture>(sharedDir() + "/real-data/rocke-cpu");
    repo_->git("checkout -q main");
    repo_->write(kKdp, kdpText());
    repo_->commit("ship four dense attention variants");
    repo_->git("checkout -q -B feature");
  }
  std::unique_ptr<EmitFixture> repo_;
};

std::vector<std::string> argNames(const nlohmann::json& kernel) {
  std::vector<std::string> out;
  for (const auto& a : kernel["args"]) out.push_back(a["name"]);
  return out;
}

TEST_F(RunTruth, StaticReadingAgreesWithEveryRunOfTheRealDenseBuilder) {
  EmitFixture& repo = *repo_;
  repo.replace(kDense, "    B = spec.batch\n", "    B = spec.batch  # the batch\n");
  repo.commit("comment");
  RunResult e = repo.emit("--no-probe");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  auto doc = repo.doc();
  const auto* dense = repo.family(doc, "kernels/gfx950/attention_dense.py");
  ASSERT_NE(dense, nullptr) << doc.dump(1);
  ASSERT_EQ((*dense)["variants"].size(), 4u) << dense->dump(1);
  // The runs take every list of the builder: 5 arguments, 7 with varlen, 8 paged, 5 persistent.
  std::map<std::string, size_t> counts;
  for (const auto& v : (*dense)["variants"]) {
    ASSERT_TRUE(v["head"].value("error", "").empty()) << v.dump(1);
    counts[v["name"]] = argNames(v["head"]["kernels"][0]).size();
  }
  EXPECT_EQ(counts, (std::map<std::string, size_t>{{"dense_causal_d128", 5},
                                                    {"dense_varlen_d128", 7},
                                                    {"dense_paged_d128", 8},
                                                    {"dense_persistent_d128", 5}}));
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Zero disagreements, every variant compared to its end (no open end, no undecided guard).
  EXPECT_NE(r.out.find("note: emitter: static reading compared with the run for 4 variants of 1 builder: 0 differ\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("static reading of"), std::string::npos) << r.out;
  // A copy judged by the run: the recipe pack's and its test's name-keyed checks refuse the
  // varlen and paged variants' pointers ("unknown SDPA pointer argument"), which the static
  // reading (a name-keyed check against the builder's conditional arguments) did not see. It
  // stood at the base (copy and recorded lists unchanged): reported, not a break of this change.
  auto sdpa = rowsWith(r.out, {"mismatch", "kernargs", "RockeSdpaNative.cpp", "the run: the copy disagrees with the argument list "
                                                                             "build_attention_dense recorded for 2 variants "
                                                                             "(dense_varlen_d128, dense_paged_d128)"});
  EXPECT_EQ(sdpa.size(), 1u) << r.out;
  EXPECT_NE(r.out.find("cu_seqlens_q (global_buffer/8) at #5 is not accepted by the name-keyed check"), std::string::npos)
      << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "kernargs", "test_native_sdpa.cpp", "the run:"}).size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "attention_dense_signature"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  // Without the run, the static reading misses it.
  RunResult stat = impact("report --repo " + shellQuote(repo.dir()) + " --base main --head feature");
  EXPECT_TRUE(rowsWith(stat.out, {"mismatch"}).empty()) << stat.out;
}

// A form the static reader does not model but Python runs: the spec's __post_init__ turns
// `varlen` on for a variant whose descriptor says false. The static reading decides the guard
// from the descriptor's spec (5 arguments); the run declares cu_seqlens_q and cu_seqlens_kv too.
TEST_F(RunTruth, ADisagreementOfTheStaticReadingWithTheRunIsARowNamingIt) {
  EmitFixture& repo = *repo_;
  repo.replace(kDense, "    def __post_init__(self) -> None:\n",
               "    def __post_init__(self) -> None:\n"
               "        if self.batch == 2:\n"
               "            object.__setattr__(self, \"varlen\", True)\n");
  repo.commit("batch 2 runs varlen");
  RunResult e = repo.emit("--no-probe");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  auto diff = rowsWith(r.out, {"static-vs-run", "build_attention_dense",
                               "static reading of build_attention_dense differs from its run: variant dense_causal_d128: "
                               "#5: the run declares cu_seqlens_q (global_buffer/8"});
  EXPECT_EQ(diff.size(), 1u) << r.out;
  // The construct: the condition the static reading decided from the descriptor's spec.
  EXPECT_EQ(rowsWith(r.out, {"static-vs-run", "the static reading declares cu_seqlens_q only if spec.varlen (line "}).size(), 1u)
      << r.out;
  EXPECT_NE(r.out.find("static reading compared with the run for 4 variants of 1 builder: 1 differs"), std::string::npos)
      << r.out;
  // The Python restatement in the module decides `if spec.varlen` from the same spec: the run
  // says it is short for that variant: a break of this change.
  auto sig = rowsWith(r.out, {"mismatch", "kernargs", "attention_dense_signature",
                              "the run: the copy disagrees with the argument list build_attention_dense recorded for 1 "
                              "variant (dense_causal_d128)"});
  EXPECT_EQ(sig.size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

}  // namespace
}  // namespace impact::testing
