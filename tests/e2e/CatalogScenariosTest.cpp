// `impact report` end to end on the real AOT catalog format (DOMAIN.md §6):
// `rocke/aot_catalog/<arch>/<family>/family.json` whose entries name no builder. The catalogs are
// written here in the real format (no real catalog is in ../shared/real-data) against the
// example monorepo's gfx950 attention_dense module (8 arguments; a persistent early return
// with 5).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

constexpr const char* kCatalog =
    "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/attention_dense_prefill/family.json";
constexpr const char* kSymbol = "rocke_attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal";
constexpr const char* kPersistSymbol = "rocke_attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal_persist256";

const std::string kEight = R"(        {"name": "Q", "type": "ptr"},
        {"name": "K", "type": "ptr"},
        {"name": "V", "type": "ptr"},
        {"name": "O", "type": "ptr"},
        {"name": "scale_raw", "type": "f32"},
        {"name": "B", "type": "i32"},
        {"name": "S_q", "type": "i32"},
        {"name": "S_kv", "type": "i32", "size_bytes": 4})";
const std::string kFive = R"(        {"name": "Q", "type": "ptr"},
        {"name": "K", "type": "ptr"},
        {"name": "V", "type": "ptr"},
        {"name": "O", "type": "ptr"},
        {"name": "scale_raw", "type": "f32"})";
const std::string kPersistFive = R"(        {"name": "Q", "type": "ptr"},
        {"name": "K", "type": "ptr"},
        {"name": "V", "type": "ptr"},
        {"name": "O", "type": "ptr"},
        {"name": "work_items", "type": "i32"})";

// A family.json in the real format: one non-persistent entry and its persistent variant.
std::string catalog(const std::string& args, const std::string& block = "[512, 1, 1]") {
  return R"({
  "family": "attention_dense_prefill_gfx950",
  "op_kind": "attention_prefill",
  "arch": "gfx950",
  "dtype": ["bf16"],
  "_comment": "AOT attention kernels for the dispatcher; each entry's args_signature is its launch ABI.",
  "kernels": [
    {
      "symbol": ")" + std::string(kSymbol) + R"(",
      "co_file": "attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal.co",
      "constraints": {"B": {"equals": 1}, "S_q": {"multiple_of": 256}, "D": {"equals": 128}},
      "grid": {"x": {"ceil_div": ["S_q", 256]}, "y": "H", "z": "B"},
      "block": )" + block + R"(,
      "args_signature": [
)" + args + R"(
      ],
      "workspace_bytes": 0
    },
    {
      "symbol": ")" + std::string(kPersistSymbol) + R"(",
      "co_file": "attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal_persist256.co",
      "constraints": {"B": {"equals": 1}, "D": {"equals": 128}},
      "grid": {"x": 256, "y": 1, "z": 1},
      "block": [512, 1, 1],
      "args_signature": [
)" + kPersistFive + R"(
      ],
      "workspace_bytes": 0
    }
  ]
}
)";
}

void commitAsBase(M& repo, const std::string& message) {
  repo.commit(message);
  repo.git("branch -f main HEAD");
}

std::string line(const M& repo, const std::string& needle, const std::string& after = "") {
  std::istringstream in(repo.read(kCatalog));
  std::string s;
  bool armed = after.empty();
  for (int n = 1; std::getline(in, s); ++n) {
    if (!armed && s.find(after) != std::string::npos) armed = true;
    if (armed && s.find(needle) != std::string::npos) return std::to_string(n);
  }
  ADD_FAILURE() << needle << " not in the catalog";
  return "?";
}

// The rows of a report (not the notes or the verdict).
std::vector<std::string> rows(const std::string& out) {
  std::vector<std::string> r;
  std::istringstream in(out);
  std::string s;
  while (std::getline(in, s))
    if (!s.empty() && !s.starts_with("note:") && !s.starts_with("Coverage:") && !s.starts_with("Runtime impact:")) r.push_back(s);
  return r;
}

const std::string kBuilderSide =
    "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py:62 build_attention_dense";

TEST(CatalogScenarios, ACatalogLeftAtAnOldAbiIsAMismatchThePersistentEntryAgreesWithThePersistentBody) {
  M repo;
  repo.write(kCatalog, catalog(kFive));
  repo.commit("catalog at the old five-argument ABI");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  const std::string cat = std::string(kCatalog) + ":";
  EXPECT_EQ(rows(r.out),
            (std::vector<std::string>{
                "mismatch  kernargs  " + kBuilderSide + "  <->  " + cat + line(repo, "\"args_signature\"") + " " +
                    kSymbol +
                    " args_signature  copy has 5 arguments, builder has 8: missing batch (by_value/4) at #5, "
                    "seqlen_q (by_value/4) at #6, seqlen_kv (by_value/4) at #7",
                "changed  descriptor  -  <->  " + std::string(kCatalog) + "  added",
                "changed  kernargs  " + kBuilderSide + "  <->  " + cat +
                    line(repo, "\"args_signature\"", kPersistSymbol) + " " + kPersistSymbol +
                    " args_signature  agrees (5 arguments); copy changed in code  [device: gfx950]"}))
      << r.out;
}

TEST(CatalogScenarios, TheBuilderGainsAnArgumentTheCatalogLacks) {
  M repo;
  repo.write(kCatalog, catalog(kEight));
  commitAsBase(repo, "catalog agrees");
  RunResult clean = report(repo);
  EXPECT_EQ(lastLine(clean.out), "Runtime impact: N/A") << clean.out;
  repo.replace(M::kAttention, "    b.param(\"seqlen_kv\", I32)\n", "    b.param(\"seqlen_kv\", I32)\n    b.param(\"window_left\", I32)\n");
  repo.commit("builder gains window_left");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto catalogRows = rowsWith(r.out, {kCatalog});
  const std::string cat = std::string(kCatalog) + ":";
  EXPECT_EQ(catalogRows,
            (std::vector<std::string>{
                "mismatch  kernargs  " + kBuilderSide + "  <->  " + cat + line(repo, "\"args_signature\"") + " " +
                    kSymbol + " args_signature  copy has 8 arguments, builder has 9: missing window_left (by_value/4) at #8",
                "changed  kernargs  " + kBuilderSide + "  <->  " + cat +
                    line(repo, "\"args_signature\"", kPersistSymbol) + " " + kPersistSymbol +
                    " args_signature  agrees (5 arguments); builder changed in code  [device: gfx950]"}))
      << r.out;
}

TEST(CatalogScenarios, SizeBytesIsComparedWhenTheCatalogStatesIt) {
  M repo;
  std::string wide = kEight;
  wide.replace(wide.find("\"size_bytes\": 4"), 15, "\"size_bytes\": 8");
  repo.write(kCatalog, catalog(wide));
  repo.commit("catalog says 8 bytes for S_kv");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto m = rowsWith(r.out, {"mismatch", "kernargs", kCatalog});
  ASSERT_EQ(m.size(), 1u) << r.out;
  EXPECT_TRUE(m[0].ends_with(std::string(kSymbol) + " args_signature  #7 seqlen_kv: copy by_value/8, builder by_value/4"))
      << m[0];
}

TEST(CatalogScenarios, AFamilyWhoseModuleDoesNotExistSaysWhatWasLookedFor) {
  M repo;
  const std::string other = "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/softmax_online/family.json";
  std::string text = catalog(kEight);
  repo.write(other, text);
  repo.commit("catalog of a family with no module");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto k = rowsWith(r.out, {"changed", "kernargs", other});
  ASSERT_EQ(k.size(), 2u) << r.out;
  EXPECT_NE(k[0].find("catalog family softmax_online (gfx950): no module "
                      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/softmax_online.py nor "
                      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/softmax.py"),
            std::string::npos)
      << k[0];
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
}

// The grid/block rule (docs/contracts.md, catalog-geometry).

TEST(CatalogScenarios, ThePythonGridChangingInCodeMakesTheCatalogGeometryRead) {
  M repo;
  repo.write(kCatalog, catalog(kEight));
  commitAsBase(repo, "catalog agrees");
  repo.replace(M::kAttention, "spec.num_query_heads, batch)", "spec.num_query_heads * 2, batch)");
  repo.commit("grid doubles y");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"catalog-geometry"}),
            (std::vector<std::string>{
                "changed  catalog-geometry  dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/"
                "attention_dense.py:" + std::to_string(repo.lineOf(M::kAttention, "def attention_dense_grid(")) +
                " attention_dense_block, attention_dense_grid  <->  " + kCatalog + ":" + line(repo, "\"grid\"") + " " +
                kSymbol + " grid/block  attention_dense_grid changed in code; the grid/block of the 2 catalog entries "
                "restating it did not change  [device: gfx950]"}))
      << r.out;
  // The argument lists did not move: no kernargs row on the catalog says otherwise.
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", kCatalog}).empty()) << r.out;
}

TEST(CatalogScenarios, TheCatalogBlockChangingAloneReadsChanged) {
  M repo;
  repo.write(kCatalog, catalog(kEight));
  commitAsBase(repo, "catalog agrees");
  repo.write(kCatalog, catalog(kEight, "[256, 1, 1]"));
  repo.commit("catalog block halves");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  // One changed row, on the entry whose block moved; the argument lists did not move (their
  // kernargs rows are inert), and the file's change is explained (no descriptor row).
  const std::string cat = std::string(kCatalog) + ":";
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernargs"}),
            (std::vector<std::string>{
                "inert  kernargs  " + kBuilderSide + "  <->  " + cat + line(repo, "\"args_signature\"") + " " + kSymbol +
                    " args_signature  its argument list did not change",
                "inert  kernargs  " + kBuilderSide + "  <->  " + cat + line(repo, "\"args_signature\"", kPersistSymbol) +
                    " " + kPersistSymbol + " args_signature  its argument list did not change"}))
      << r.out;
  EXPECT_EQ(rowsStarting(r.out, "changed"),
            (std::vector<std::string>{
                "changed  catalog-geometry  dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/"
                "attention_dense.py:" + std::to_string(repo.lineOf(M::kAttention, "def attention_dense_block(")) +
                " attention_dense_block, attention_dense_grid  <->  " + kCatalog + ":" + line(repo, "\"grid\"") + " " +
                kSymbol + " grid/block  grid/block changed in the catalog (" + kSymbol +
                "); the Python attention_dense_block, attention_dense_grid did not change  [device: gfx950]"}))
      << r.out;
}

TEST(CatalogScenarios, ACommentInTheGridFunctionLeavesTheCatalogAlone) {
  M repo;
  repo.write(kCatalog, catalog(kEight));
  commitAsBase(repo, "catalog agrees");
  repo.replace(M::kAttention, "def attention_dense_grid(spec, seqlen_q, batch):\n",
               "def attention_dense_grid(spec, seqlen_q, batch):\n    # one CTA per block_m rows\n");
  repo.commit("comment");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"catalog-geometry"}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed", kCatalog}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

}  // namespace
}  // namespace impact::testing
