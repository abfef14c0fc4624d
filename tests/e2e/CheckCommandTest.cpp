// impact check (issue 26 items 3 and 4): what impactd understood of a tree — every builder with
// its arguments, every copy with what paired it, every "not read / not compared" with why — and
// the report's coverage line, on the bundled example and on the real corpus.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "support/FixtureRepo.h"
#include "support/RealCorpus.h"
#include "support/RecipeCorpus.h"
#include "support/StrayPack.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;
using R = RealCorpusFixture;

RunResult check(const FixtureRepo& repo, const std::string& more = "") {
  return impact("check --no-cache --repo " + shellQuote(repo.dir()) + (more.empty() ? "" : " " + more));
}


TEST(CheckCommand, TheExampleIsAccountedForInFull) {
  M repo;
  RunResult r = check(repo);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("builder " + std::string(M::kAttention) + ":build_attention_dense"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("q_ptr global_buffer/8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[if spec.use_sinks]"), std::string::npos) << r.out;
  // The KDP's rms_norm builder takes its names and types from the SignatureBuilder chain, read
  // through it (`entry["name"]`, a type string starting "ptr<"): six arguments, not one unknown.
  EXPECT_NE(r.out.find("arguments (6): x_ptr global_buffer/8, weight_ptr global_buffer/8, y_ptr global_buffer/8, "
                       "residual_ptr global_buffer/8 [if spec.with_residual], rows by_value/4, eps by_value/4"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("copy " + std::string(M::kAttentionPack)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("paired by profile " + std::string(M::kProfile)), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not compared:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("coverage: copies compared 6 of 6; builders read 2 of 2"), std::string::npos) << r.out;
}

TEST(CheckCommand, ACopyThatPairsWithNothingIsNamedWithWhyAndExitsOne) {
  M repo;
  repo.write(kStrayPack, kStrayText);
  repo.commit("a pack nothing declares");
  RunResult r = check(repo);
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  auto at = r.out.find("not compared:");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string(kStrayPack) + ":6 launch call in", at), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pairs with no builder", at), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("copies compared 6 of 7"), std::string::npos) << r.out;
  // Narrowed to the attention family, everything is accounted for.
  RunResult narrow = check(repo, M::kAttention);
  EXPECT_EQ(narrow.exitCode, 0) << narrow.out;
  EXPECT_EQ(narrow.out.find(kStrayPack), std::string::npos) << narrow.out;
  // JSON carries the same counts.
  RunResult json = check(repo, "--format json");
  EXPECT_EQ(json.exitCode, 1) << json.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["coverage"]["copies_compared"], 6);
  EXPECT_EQ(j["coverage"]["copies_total"], 7);
  EXPECT_EQ(j["unaccounted"], 1);
}

// What impactd understood of an argument whose type a condition chooses: each type with its
// condition, where the type alone would read "?".
TEST(CheckCommand, ATypeChosenByAConditionIsListedWithItsChoices) {
  M repo;
  repo.replace(M::kRmsNorm, "    return b.finish()",
               "    b.param(\"n\", I64 if spec.large else I32)\n    return b.finish()");
  repo.replace(M::kRmsNorm, "from rocke.core.ir import IRBuilder, PtrType, I32, F32",
               "from rocke.core.ir import IRBuilder, PtrType, I32, I64, F32");
  repo.commit("rms_norm: an index whose width a spec field chooses");
  RunResult r = check(repo);
  EXPECT_NE(r.out.find("n (by_value/8 if spec.large | by_value/4 if not spec.large)"), std::string::npos) << r.out;
}

TEST(CheckCommand, TheReportStatesTheCoverageAfterItsRows) {
  M repo;
  repo.write(kStrayPack, kStrayText);
  repo.commit("a pack nothing declares");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("Coverage: copies compared 6 of 7; builders read 2 of 2 (impact check says what and why)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(lastLine(r.out).rfind("Runtime impact:", 0), 0u) << r.out;
  RunResult json = impact("report --no-cache --format json --repo " + shellQuote(repo.dir()) + " --base main");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["coverage"]["copies_total"], 7);
  EXPECT_EQ(j["coverage"]["builders_read"], 2);
}

TEST(CheckCommand, UsageAndBadRepository) {
  EXPECT_EQ(impact("check --format xml").exitCode, 2);
  EXPECT_EQ(impact("check --bogus").exitCode, 2);
  RunResult r = impact("check --repo /nonexistent-impact-check");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_FALSE(r.err.empty());
}

TEST(CheckCommand, TheRealCorpusListsEveryBuilderAndCopyAndSaysWhatItDidNotRead) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  RunResult r = check(repo);
  // Everything on the surface is read or accounted: the conv entry point is read through the
  // builders it dispatches to, so the check exits 0.
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("builder " + std::string(R::kTiledBuilder) + ":build_unified_attention_2d_tiled"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("arguments (18): output_ptr global_buffer/8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("copy " + std::string(R::kTiledPack)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("arguments (5): q_ptr global_buffer/8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("KernelArgument list in attention_dense_signature"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("names array `IMPLICIT_GEMM_KERNARG_NAMES`"), std::string::npos) << r.out;
  // A names array of KMD keys is set aside, not an unaccounted copy.
  auto asides = r.out.find("not copies:");
  ASSERT_NE(asides, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("`GEMM_TUNING_FIELDS`", asides), std::string::npos) << r.out;
  // The conv entry point (hkp_pack's `(spec, *, arch)` function) builds nothing itself: it returns
  // build_implicit_gemm_conv's kernel (another module of the tree, read through it) or a direct
  // conv's (a module the corpus does not hold: named, never guessed), each under its guard.
  auto adapter = r.out.find("builder " + std::string(R::kConvAdapter) + ":build_gfx950_conv_fwd (line ");
  ASSERT_NE(adapter, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("arguments (when not spec.is_direct) (6): A global_buffer/8, B global_buffer/8, D global_buffer/8, "
                       "A_bytes by_value/4",
                       adapter),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(early return to build_direct_depthwise when spec.is_direct) (0):  … then whatever "
                       "build_direct_depthwise declares",
                       adapter),
            std::string::npos)
      << r.out;
  // Its copies stay with the builder the profile's entries name for their file.
  EXPECT_NE(r.out.find("builder " + std::string(R::kConvBuilder) + ":build_implicit_gemm_conv"), std::string::npos)
      << r.out;
  // The conv Native's second copy: the signature convFwdKernelSignature builds by appends, read up
  // to its loop over a parameter.
  EXPECT_NE(r.out.find("KernelArgument list `signature` built by appends in convFwdKernelSignature"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the arguments from #7 on: appended in a loop over 'names'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("copies compared 7 of 7; builders read 4 of 4"), std::string::npos) << r.out;
  // Each attention family on its own is read and compared in full.
  EXPECT_EQ(check(repo, R::kTiledBuilder).exitCode, 0);
  EXPECT_EQ(check(repo, R::kDensePack).exitCode, 0);
}

// The real rocke-cpu tree: the gfx950 dense builder, its SignatureBuilder restatement and the two
// name-keyed checks of the recipe's launch plan, all compared; the standalone's `const char*
// options[] = {"-O3"}` is a string array naming no argument of the tree: not a copy.
TEST(CheckCommand, TheRockeCpuTreeIsAccountedForInFull) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  RecipeCorpusFixture repo;
  RunResult r = check(repo);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("builder " + std::string(RecipeCorpusFixture::kBuilder) + ":build_attention_dense"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("copy " + std::string(RecipeCorpusFixture::kNative)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("copy " + std::string(RecipeCorpusFixture::kStandalone)), std::string::npos) << r.out;
  auto asides = r.out.find("not copies:");
  ASSERT_NE(asides, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("names array `options`", asides), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("coverage: copies compared 3 of 3; builders read 1 of 1"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace impact::testing
