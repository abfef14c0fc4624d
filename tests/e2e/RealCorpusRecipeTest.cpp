// `impact report` end to end on the REAL rocKE SDPA recipe set (../shared/real-data/rocke-cpu,
// committed into a fixture repository at test time): the older RockeSdpaExample pack checks the
// recipe's launch plan by name (RockeSdpaNative.cpp `Handler::launch`), and its standalone
// consumer (test_native_sdpa.cpp `Prepared::execute`) holds a second copy of that whitelist. Both
// are order-free copies of the five-argument gfx950 dense builder: names, kinds, sizes and scalar
// types, never order. Skips, saying so, when the real files are absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/RecipeCorpus.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using R = RecipeCorpusFixture;

// The first `b.param("scale", F32)` is the builder's own body; the persistent body's follows.
const std::string kScaleThenVarlen = "    scale = b.param(\"scale\", F32)\n    if varlen:\n";

// The kernargs rows of the two name-keyed C++ copies (the builder's module also holds an ordered
// Python restatement, attention_dense_signature, whose rows other suites check).
std::vector<std::string> kernargsLines(const std::string& out) {
  std::vector<std::string> rows;
  for (const auto& l : rowsWith(out, {"kernargs"}))
    if (l.find("attention_dense_signature") == std::string::npos) rows.push_back(l);
  return rows;
}

size_t count(const std::vector<std::string>& rows, const std::string& prefix, const std::string& needle) {
  return size_t(std::count_if(rows.begin(), rows.end(), [&](const std::string& r) {
    return r.starts_with(prefix) && r.find(needle) != std::string::npos;
  }));
}

bool has(const std::string& row, const std::string& needle) { return row.find(needle) != std::string::npos; }

const std::string* rowOf(const std::vector<std::string>& rows, const std::string& file) {
  for (const auto& r : rows)
    if (has(r, file)) return &r;
  return nullptr;
}

TEST(RealCorpusRecipe, UntouchedTreeHasNoKernargsRowAndNoMismatch) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
  EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
}

// Comment-only edits of the builder and of both checks: every side is read and compared, and
// the real files agree (no mismatch, pre-existing or not): each kernargs row is inert.
TEST(RealCorpusRecipe, TheRealChecksAgreeWithTheRealBuilder) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kBuilder, kScaleThenVarlen, "    # the softmax scale\n" + kScaleThenVarlen);
  repo.replace(R::kNative, "        size_t size = rocke_launch_plan_kernarg_size(plan);\n",
               "        // offsets and order come from the plan\n        size_t size = rocke_launch_plan_kernarg_size(plan);\n");
  repo.replace(R::kStandalone, "        size_t size = rocke_launch_plan_kernarg_size(spec.plan.get());\n",
               "        // offsets and order come from the plan\n"
               "        size_t size = rocke_launch_plan_kernarg_size(spec.plan.get());\n");
  repo.commit("comments");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  for (const auto& row : rows) {
    EXPECT_TRUE(row.starts_with("inert")) << row;
    EXPECT_TRUE(has(row, "build_attention_dense")) << row;
  }
  EXPECT_TRUE(rowOf(rows, "RockeSdpaNative.cpp") && rowOf(rows, "test_native_sdpa.cpp")) << r.out;
}

TEST(RealCorpusRecipe, ANewScalarBatchBreaksBothCopies) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kBuilder, kScaleThenVarlen,
               "    scale = b.param(\"scale\", F32)\n    batch = b.param(\"batch\", I32)\n    if varlen:\n");
  repo.commit("builder gains batch");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  const std::string* native = rowOf(rows, "RockeSdpaNative.cpp");
  const std::string* standalone = rowOf(rows, "test_native_sdpa.cpp");
  ASSERT_TRUE(native && standalone) << r.out;
  EXPECT_TRUE(native->starts_with("mismatch")) << *native;
  EXPECT_TRUE(has(*native, "build_attention_dense")) << *native;
  EXPECT_TRUE(has(*native, "Handler::launch")) << *native;
  EXPECT_TRUE(has(*native, "builder argument batch (i32 by_value/4) at #5 is not accepted by the name-keyed check "
                           "(\"unknown SDPA scalar argument\")"))
      << *native;
  EXPECT_TRUE(standalone->starts_with("mismatch")) << *standalone;
  EXPECT_TRUE(has(*standalone, "Prepared::execute")) << *standalone;
  EXPECT_TRUE(has(*standalone, "(\"unbound scalar argument\")")) << *standalone;
}

TEST(RealCorpusRecipe, AnUnknownPointerSinkPtrBreaksBothCopies) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kBuilder, kScaleThenVarlen,
               "    scale = b.param(\"scale\", F32)\n"
               "    sink = b.param(\"sink_ptr\", PtrType(dtype, \"global\"), readonly=True, align=16)\n"
               "    if varlen:\n");
  repo.commit("builder gains sink_ptr");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  EXPECT_EQ(count(rows, "mismatch", "builder argument sink_ptr (global_buffer/8) at #5 is not accepted by the "
                                    "name-keyed check (\"unknown SDPA pointer argument\")"),
            1u)
      << r.out;
  EXPECT_EQ(count(rows, "mismatch", "(\"unbound pointer argument\")"), 1u) << r.out;
}

TEST(RealCorpusRecipe, AReorderOfTheBuilderParametersBreaksNeither) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  const std::string q = "    q = b.param(\n        \"q_ptr\", PtrType(dtype, \"global\"), noalias=True, readonly=True, align=16\n    )\n";
  const std::string k = "    k = b.param(\n        \"k_ptr\", PtrType(dtype, \"global\"), noalias=True, readonly=True, align=16\n    )\n";
  repo.replace(R::kBuilder, q + k, k + q);
  repo.replace(R::kBuilder, kScaleThenVarlen, "    if varlen:\n");
  repo.replace(R::kBuilder, "    o = b.param(\n", "    scale = b.param(\"scale\", F32)\n    o = b.param(\n");
  repo.commit("builder reorders q/k and moves scale before o");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The ordered Python restatement does not follow the reorder (a mismatch); the name-keyed
  // checks state no order, so theirs are only changed.
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "kernargs", "attention_dense_signature"}).size(), 1u) << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  for (const auto& row : rows) {
    EXPECT_TRUE(row.starts_with("changed")) << row;
    EXPECT_TRUE(has(row, "builder changed in code")) << row;
  }
}

TEST(RealCorpusRecipe, ScaleF32ToI32BreaksBothCopiesAtEqualSize) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kBuilder, kScaleThenVarlen, "    scale = b.param(\"scale\", I32)\n    if varlen:\n");
  repo.commit("scale becomes I32");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  EXPECT_EQ(count(rows, "mismatch", "scale: builder i32 by_value/4, the check accepts f32 by_value/4 (ROCKE_ARG_F32)"),
            2u)
      << r.out;
}

TEST(RealCorpusRecipe, ABodyOnlyChangeIsChanged) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kBuilder, "    qk_scale = b.fmul(scale, b.const_f32(LOG2E))\n",
               "    qk_scale = b.fmul(b.const_f32(LOG2E), scale)\n");
  repo.commit("body only");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  for (const auto& row : rows) EXPECT_TRUE(row.starts_with("changed")) << row;
  EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
}

TEST(RealCorpusRecipe, ACommentOnlyEditOfTheNativeIsInert) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.replace(R::kNative, "        size_t size = rocke_launch_plan_kernarg_size(plan);\n",
               "        // the plan's own layout: offsets and order come from the recipe\n"
               "        size_t size = rocke_launch_plan_kernarg_size(plan);\n");
  repo.commit("comment");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  auto rows = kernargsLines(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(rows[0].starts_with("inert")) << rows[0];
  EXPECT_TRUE(has(rows[0], "RockeSdpaNative.cpp")) << rows[0];
}

TEST(RealCorpusRecipe, AnUnrelatedFileIsOutsideTheSurface) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  repo.write("docs/notes.md", "# notes\n");
  repo.commit("unrelated");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
  EXPECT_TRUE(kernargsLines(r.out).empty()) << r.out;
}

}  // namespace
}  // namespace impact::testing
