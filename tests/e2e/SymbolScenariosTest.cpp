// `impact report` end to end for symbols and KMD fields (R2.5), descriptor copies of the ABI
// (packed UKD signatures, catalog args_signature), build files and generated/SDK headers (R2.8,
// R2.9).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

constexpr const char* kBundle =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/";
constexpr const char* kCatalog = "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/attention_dense/family.json";

// Commits what the test wrote so far and makes it the base (main) as well.
void commitAsBase(M& repo, const std::string& message) {
  repo.commit(message);
  repo.git("branch -f main HEAD");
}

std::string kpackUkd(const std::string& signature) {
  return R"({
  "version": "1.0",
  "id": "9f0e5a1c-0000-4000-8000-000000000001",
  "name": "attention_dense.bf16_d128.packed.gfx950",
  "kernel_source": {
    "kind": "kpack",
    "library": "attention_dense.kpack",
    "toc_key": "attention_dense.bf16_d128",
    "symbol": "attention_dense_kernel",
    "sha256": "00",
    "source": "kernels/gfx950/attention_dense.py",
    "builder": "build_attention_dense",
    "spec": {"persistent": false, "use_sinks": false},
    "signature": [
)" + signature + R"(
    ]
  },
  "arch": ["gfx950"]
}
)";
}

const char* kEightArgs =
    R"(      {"kind": "global_buffer", "size": 8, "offset": 0, "name": "q_ptr"},
      {"kind": "global_buffer", "size": 8, "offset": 8, "name": "k_ptr"},
      {"kind": "global_buffer", "size": 8, "offset": 16, "name": "v_ptr"},
      {"kind": "global_buffer", "size": 8, "offset": 24, "name": "o_ptr"},
      {"kind": "by_value", "size": 4, "offset": 32, "name": "scale"},
      {"kind": "by_value", "size": 4, "offset": 36, "name": "batch"},
      {"kind": "by_value", "size": 4, "offset": 40, "name": "seqlen_q"},
      {"kind": "by_value", "size": 4, "offset": 44, "name": "seqlen_kv"})";

// ---------------------------------------------------------------------------------------------
// Symbols and KMD fields

TEST(SymbolScenarios, UedSymbolNoLongerMatchingThePackConstantBreaks) {
  M repo;
  repo.replace(M::kAttentionPack, "\"hipkernel.gfx950_attention_dense.graph_match\"",
               "\"hipkernel.gfx950_attention_dense.graph_match_v2\"");
  repo.commit("rename the graph matcher symbol in the pack only");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsWith(r.out, {"mismatch", "symbols", "gfx950_attention_dense.ued.json",
                               "\"hipkernel.gfx950_attention_dense.graph_match\"",
                               "closest: GRAPH_MATCHER_SYMBOL = \"hipkernel.gfx950_attention_dense.graph_match_v2\""});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  int line = repo.lineOf(M::kAttentionPack, "GRAPH_MATCHER_SYMBOL =");
  EXPECT_NE(rows[0].find(std::string(M::kAttentionPack) + ":" + std::to_string(line)), std::string::npos) << rows[0];
  // The UMD still matches its constant: no row for it.
  EXPECT_TRUE(rowsWith(r.out, {"symbols", "umd.json"}).empty()) << r.out;
}

TEST(SymbolScenarios, DescriptorAndPackRenamedTogetherAgree) {
  M repo;
  repo.replace(M::kAttentionPack, "\"hipkernel.gfx950_attention_dense.kernel_match\"",
               "\"hipkernel.gfx950_attention_dense.kernel_match2\"");
  repo.replace(std::string(kBundle) + "gfx950_attention_dense.umd.json", "\"hipkernel.gfx950_attention_dense.kernel_match\"",
               "\"hipkernel.gfx950_attention_dense.kernel_match2\"");
  repo.commit("rename on both sides");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

TEST(SymbolScenarios, KmdFieldReadThatNothingDeclaresBreaks) {
  M repo;
  repo.replace(M::kAttentionPack, "constexpr std::string_view BLOCK_M_FIELD = \"block_m\";",
               "constexpr std::string_view BLOCK_M_FIELD = \"block_m\";\n"
               "constexpr std::string_view TILE_K_FIELD = \"tile_k\";\n"
               "constexpr std::string_view SPLIT_FIELD = \"num_splits\";");
  repo.replace(M::kAttentionPack, "    (void)blockM;",
               "    const auto tileK = kernel.getIntMetadata(std::string(TILE_K_FIELD));\n"
               "    const auto split = kernel.tryGetMetadata(std::string(SPLIT_FIELD));\n"
               "    (void)blockM;\n    (void)tileK;\n    (void)split;");
  repo.commit("read tile_k");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsWith(r.out, {"mismatch", "kmd-fields", M::kAttentionPack, "\"tile_k\"", "TILE_K_FIELD"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("gfx950_attention_dense.kmd.json"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("gfx950_attention_dense.profile.yaml"), std::string::npos) << rows[0];
  // tryGetMetadata means "may be absent": not a read to declare; block_m is declared.
  EXPECT_TRUE(rowsWith(r.out, {"kmd-fields", "num_splits"}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"kmd-fields", "\"block_m\""}).empty()) << r.out;
}

TEST(SymbolScenarios, KmdFieldDeclaredInTheSchemaOnlyAgrees) {
  M repo;
  // block_n is in the bundle's KMD schema but not in the manifest's kmd_fields.
  repo.replace(M::kAttentionPack, "constexpr std::string_view BLOCK_M_FIELD = \"block_m\";",
               "constexpr std::string_view BLOCK_M_FIELD = \"block_m\";\n"
               "constexpr std::string_view BLOCK_N_FIELD = \"block_n\";");
  repo.replace(M::kAttentionPack, "    (void)blockM;",
               "    const auto blockN = kernel.getIntMetadata(std::string(BLOCK_N_FIELD));\n"
               "    (void)blockM;\n    (void)blockN;");
  repo.commit("read block_n");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"kmd-fields"}).empty()) << r.out;
}

TEST(SymbolScenarios, KmdFieldRemovedFromTheSchemaAndManifestBreaks) {
  M repo;
  repo.replace(std::string(kBundle) + "gfx950_attention_dense.kmd.json",
               "    {\"name\": \"block_m\", \"type\": \"int\", \"default_value\": 256},\n", "");
  repo.replace(M::kProfile, "  - name: block_m\n    type: int\n    default_value: 256\n", "");
  repo.replace(M::kProfile, "    kmd_fields: [block_m]\n    guard: >\n      Grid", "    kmd_fields: []\n    guard: >\n      Grid");
  repo.replace(M::kProfile, "    kmd_fields: [block_m]\n    guard: >\n      attention", "    kmd_fields: []\n    guard: >\n      attention");
  repo.commit("drop block_m from the declarations");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "kmd-fields", M::kAttentionPack, "\"block_m\"", "BLOCK_M_FIELD"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// ---------------------------------------------------------------------------------------------
// Descriptor copies of the ABI

TEST(SymbolScenarios, KpackSignatureDriftedFromTheBuilderBreaks) {
  M repo;
  const std::string ukd = std::string(kBundle) + "attention_dense_packed.ukd.json";
  repo.write(ukd, kpackUkd(kEightArgs));
  commitAsBase(repo, "a packed UKD that agrees");
  {
    RunResult r = report(repo);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
  }
  // The packed copy drifts: seqlen_q widened to 8 bytes.
  repo.replace(ukd, R"({"kind": "by_value", "size": 4, "offset": 40, "name": "seqlen_q"})",
               R"({"kind": "by_value", "size": 8, "offset": 40, "name": "seqlen_q"})");
  repo.commit("drift");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  int line = repo.lineOf(ukd, "\"signature\"");
  auto rows = rowsWith(r.out, {"mismatch", "kernargs", "build_attention_dense",
                               ukd + ":" + std::to_string(line) + " attention_dense.bf16_d128.packed.gfx950"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("#6 seqlen_q: copy by_value/8, builder by_value/4"), std::string::npos) << rows[0];
}

TEST(SymbolScenarios, KpackSignatureMissingAnArgumentTheBuilderGainedBreaks) {
  M repo;
  const std::string ukd = std::string(kBundle) + "attention_dense_packed.ukd.json";
  repo.write(ukd, kpackUkd(kEightArgs));
  commitAsBase(repo, "a packed UKD that agrees");
  repo.replace(M::kAttention, "    b.param(\"seqlen_kv\", I32)\n", "    b.param(\"seqlen_kv\", I32)\n    b.param(\"window_left\", I32)\n");
  repo.commit("builder gains window_left");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "kernargs", ukd, "window_left (by_value/4) at #8"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
}

std::string catalog(const std::string& nonPersistentArgs) {
  return R"({
  "family": "attention_dense",
  "arch": "gfx950",
  "source": "kernels/gfx950/attention_dense.py",
  "builder": "build_attention_dense",
  "entries": [
    {
      "name": "attention_dense.bf16_d128.gfx950",
      "spec": {"dtype": "bf16", "head_size": 128, "persistent": false},
      "args_signature": [
)" + nonPersistentArgs + R"(
      ]
    },
    {
      "name": "attention_dense.bf16_d128.persistent.gfx950",
      "spec": {"dtype": "bf16", "head_size": 128, "persistent": true},
      "args_signature": [
        {"name": "Q", "type": "ptr<bf16,global>"},
        {"name": "K", "type": "ptr<bf16,global>"},
        {"name": "V", "type": "ptr<bf16,global>"},
        {"name": "O", "type": "ptr<bf16,global>"},
        {"name": "work_items", "type": "i32"}
      ]
    }
  ]
}
)";
}

TEST(SymbolScenarios, CatalogNonPersistentEntryWithTheOldFiveArgumentsBreaksPersistentAgrees) {
  M repo;
  repo.write(kCatalog, catalog(R"(        {"name": "Q", "type": "ptr<bf16,global>"},
        {"name": "K", "type": "ptr<bf16,global>"},
        {"name": "V", "type": "ptr<bf16,global>"},
        {"name": "O", "type": "ptr<bf16,global>"},
        {"name": "scale_raw", "type": "f32"})"));
  repo.commit("catalog");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto stale = rowsWith(r.out, {"mismatch", "kernargs", kCatalog, "attention_dense.bf16_d128.gfx950"});
  ASSERT_EQ(stale.size(), 1u) << r.out;
  EXPECT_NE(stale[0].find("copy has 5 arguments, builder has 8"), std::string::npos) << stale[0];
  int line = repo.lineOf(kCatalog, "\"args_signature\"");
  EXPECT_NE(stale[0].find(std::string(kCatalog) + ":" + std::to_string(line)), std::string::npos) << stale[0];
  // The persistent entry lists the persistent body's five arguments: it agrees.
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "persistent.gfx950"}).empty()) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernargs", "persistent.gfx950", "agrees (5 arguments)"}).size(), 1u) << r.out;
}

TEST(SymbolScenarios, CatalogEntriesInTheCatalogsOwnVocabularyAgree) {
  M repo;
  repo.write(kCatalog, catalog(R"(        {"name": "Q", "type": "ptr<bf16,global>"},
        {"name": "K", "type": "ptr<bf16,global>"},
        {"name": "V", "type": "ptr<bf16,global>"},
        {"name": "O", "type": "ptr<bf16,global>"},
        {"name": "scale_raw", "type": "f32"},
        {"name": "B", "type": "i32"},
        {"name": "Sq", "type": "i32"},
        {"name": "Skv", "type": "i32"})"));
  repo.commit("catalog");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernargs", kCatalog}).size(), 2u) << r.out;
}

// ---------------------------------------------------------------------------------------------
// Build files, generated and SDK headers

TEST(SymbolScenarios, CMakeOnlyChangeIsABuildRowNotNone) {
  M repo;
  const std::string cm = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/CMakeLists.txt";
  repo.write(cm, "add_library(kernel_ingestor_engine IngestorPacks.cpp)\n");
  commitAsBase(repo, "cmake");
  repo.replace(cm, "IngestorPacks.cpp)", "IngestorPacks.cpp packs/Gfx950AttentionDenseNative.cpp)");
  repo.commit("wire the pack");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A; BUILD left to its lane") << r.out;
  auto rows = rowsWith(r.out, {"changed", "build", cm, "left to the BUILD lane"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].find("[device:"), std::string::npos) << rows[0];

  RunResult j = report(repo, "--format json");
  ASSERT_EQ(j.exitCode, 0) << j.err;
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["rollup"]["verdict"], "N/A");
  EXPECT_EQ(doc["rollup"]["lanes"], nlohmann::json::array({"BUILD"}));
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["label"], "BUILD");
  EXPECT_EQ(doc["rows"][0]["archs"], nlohmann::json::array());
}

TEST(SymbolScenarios, RequirementsChangeIsADepsRowBesideADeviceVerdict) {
  M repo;
  const std::string req = "dnn-providers/hip-kernel-provider/rocke/requirements.txt";
  repo.write(req, "numpy>=1.24\n");
  commitAsBase(repo, "requirements");
  repo.replace(req, "numpy>=1.24\n", "numpy>=2.0\n");
  repo.replace(M::kAttention, "    if spec.head_size not in (64, 128):", "    if spec.head_size not in (64, 128, 256):");
  repo.commit("deps and a kernel edit");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "build", req, "left to the DEPS lane"}).size(), 1u) << r.out;
  std::string verdict = lastLine(r.out);
  EXPECT_TRUE(verdict.starts_with("Runtime impact: NEEDS-DEVICE")) << r.out;
  EXPECT_TRUE(verdict.ends_with("; DEPS left to its lane")) << r.out;
}

TEST(SymbolScenarios, GeneratedHeaderChangedWithoutItsSchemaIsChanged) {
  M repo;
  const std::string dir = "projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/flatbuffers/";
  repo.write(dir + "descriptor.fbs", "table Descriptor { id: string; }\nroot_type Descriptor;\n");
  repo.write(dir + "descriptor_generated.h", "// generated by flatc\n#pragma once\nstruct Descriptor { int id; };\n");
  repo.write(dir + "other.fbs", "table Other { x: int; }\n");
  commitAsBase(repo, "flatc");
  // A hand edit, beside an unrelated schema change: not regenerated.
  repo.replace(dir + "descriptor_generated.h", "struct Descriptor { int id; };", "struct Descriptor { long id; };");
  repo.replace(dir + "other.fbs", "x: int;", "x: long;");
  repo.commit("hand edit");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "generated-header", dir + "descriptor_generated.h", "without its schema"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(lastLine(r.out).starts_with("Runtime impact: NEEDS-DEVICE all-ingestor-archs")) << r.out;

  // Regenerated beside its own schema: left to the BUILD lane.
  repo.replace(dir + "descriptor.fbs", "id: string;", "id: long;");
  repo.commit("schema too");
  r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "generated-header", "regenerated beside descriptor.fbs"}).size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A; BUILD left to its lane") << r.out;
}

TEST(SymbolScenarios, SdkHeadersInTheIncludeClosure) {
  M repo;
  const std::string root = "projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/";
  repo.write(root + "ingestor/Descriptors.hpp",
             "#pragma once\n#include \"Detail.hpp\"\n#include \"hipdnn_plugin_sdk/common/Types.hpp\"\n"
             "struct KernelArgument { const char* kind; unsigned size; unsigned offset; const char* name; };\n");
  repo.write(root + "ingestor/Detail.hpp", "#pragma once\ninline int detail() { return 1; }\n");
  repo.write(root + "common/Types.hpp", "#pragma once\nusing Size = unsigned;\n");
  repo.write(root + "common/Unrelated.hpp", "#pragma once\nusing Other = int;\n");
  commitAsBase(repo, "sdk");
  repo.replace(root + "common/Types.hpp", "using Size = unsigned;", "using Size = unsigned long;");
  repo.replace(root + "ingestor/Detail.hpp", "inline int", "// a comment\ninline int");
  repo.replace(root + "common/Unrelated.hpp", "using Other = int;", "using Other = long;");
  repo.commit("sdk edits");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "sdk-header", root + "common/Types.hpp"}).size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"inert", "sdk-header", root + "ingestor/Detail.hpp"}).size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"Unrelated.hpp"}).empty()) << r.out;
  EXPECT_TRUE(lastLine(r.out).starts_with("Runtime impact: NEEDS-DEVICE all-ingestor-archs")) << r.out;
}

TEST(SymbolScenarios, UnreadableSurfaceFileIsChangedNeverSafe) {
  M repo;
  std::string pack = repo.read(M::kAttentionPack);
  pack.replace(pack.find("// The eight-argument"), 3, "// \xff\xfe");
  repo.write(M::kAttentionPack, pack);
  repo.commit("invalid UTF-8 in a comment");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"changed", M::kAttentionPack, "invalid UTF-8"}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"inert"}).empty()) << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: NONE") << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: N/A") << r.out;
}

}  // namespace
}  // namespace impact::testing
