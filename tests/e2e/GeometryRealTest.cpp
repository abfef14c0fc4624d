// The geometry differential (issue 17) through the real `impact report --geometry`, on the real
// gfx942 dense family (tests/support/GeometryTrees.h).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"
#include "support/GeometryFixture.h"
#include "support/GeometryTrees.h"
#include "support/RealCorpus.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

using namespace gfx942;
constexpr const char* kHkp = "dnn-providers/hip-kernel-provider/";

class RealGeometry : public GeometryFixture {
 protected:
  void SetUp() override {
    if (std::string why = realGfx942Missing(); !why.empty()) GTEST_SKIP() << why;
    startRepo();
    writeRealGfx942Family(*repo_);
    ship("the real gfx942 dense family, shipped");
  }
  // A Python-only refactor of the grid: the same ceiling, written another way.
  void refactorPythonGrid() {
    repo_->replace(kModule, "    nqb = (spec.seqlen_q + tuning.block_m - 1) // tuning.block_m\n",
                   "    nqb = -(-spec.seqlen_q // tuning.block_m)  # ceiling division\n");
  }
};

TEST_F(RealGeometry, TheUntouchedTreeAgreesOnEveryVariant) {
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("grid agrees on all 6 shipped variants; block agrees on all 6 shipped variants"), std::string::npos)
      << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  EXPECT_NE(r.err.find("1 harnesses compiled, 0 from the cache"), std::string::npos) << r.err;
  RunResult warm = report();
  EXPECT_NE(warm.err.find("0 harnesses compiled, 1 from the cache; 0 Python evaluations ran, 1 from the cache"),
            std::string::npos) << warm.err;
  EXPECT_NE(warm.out.find("grid agrees on all 6 shipped variants"), std::string::npos) << warm.out;
}

TEST_F(RealGeometry, PythonGridAxesSwappedMismatchOnEveryNonPersistentVariant) {
  repo_->replace(kModule, "    return (nqb, spec.num_query_heads, spec.batch)\n",
                 "    return (spec.num_query_heads, nqb, spec.batch)\n");
  repo_->commit("swap the grid's x and y");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis x, y differs on 4 shipped variants of 6"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("attention_dense.bf16_d128_hq8_kv8_b2_s512_bm256.gfx942: Python (8, 2, 2), C++ (2, 8, 2)"),
            std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("blockM <- metadata block_m"), std::string::npos) << rows[0];
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "launch-surface:block"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST_F(RealGeometry, TheHeadersPersistentBranchRemovedMismatchOnEveryPersistentVariant) {
  repo_->replace(kHeader, "    if(persistent != 0)\n    {\n        geometry.gridX = static_cast<unsigned>(numPersistent);\n"
                          "        geometry.gridY = 1;\n        geometry.gridZ = 1;\n    }\n    else\n    {\n",
                 "    {\n");
  repo_->commit("launch every variant on the default grid (the defect that shipped)");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "differs on 2 shipped variants of 6"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("_persist304.gfx942: Python (304, 1, 1), C++ (16, 32, 2)"), std::string::npos) << rows[0];
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:block", "agree on every axis for all 6"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// The defect already shipped at the merge base: the base is evaluated too (only because the head
// disagrees), and the mismatch is pre-existing, not this change's.
TEST_F(RealGeometry, ADisagreementTheBaseHasTooIsPreExisting) {
  repo_->git("checkout -q main");
  repo_->replace(kHeader, "    if(persistent != 0)\n    {\n        geometry.gridX = static_cast<unsigned>(numPersistent);\n"
                          "        geometry.gridY = 1;\n        geometry.gridZ = 1;\n    }\n    else\n    {\n",
                 "    {\n");
  repo_->commit("the defect, shipped");
  repo_->git("checkout -q -B feature");
  refactorPythonGrid();
  repo_->commit("refactor attention_dense_grid");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch (pre-existing)", "launch-surface:grid", "differs on 2 shipped variants of 6",
                               "(already so at the base)"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST_F(RealGeometry, TheCallSitePassingTwoArgumentsSwappedIsAMismatch) {
  repo_->replace(kPack, "kernel.getIntMetadata(std::string(NUM_QUERY_HEADS_FIELD)),\n", "kernel.getIntMetadata(std::string(BATCH_FIELD)),\n");
  repo_->replace(kPack, "                                     kernel.getIntMetadata(std::string(BATCH_FIELD)),\n"
                        "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),",
                 "                                     kernel.getIntMetadata(std::string(NUM_QUERY_HEADS_FIELD)),\n"
                 "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),");
  repo_->commit("pass batch and the head count the other way round");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis y, z differs on 4 shipped variants of 6"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("numQueryHeads <- metadata batch"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[0].find("already so at the base"), std::string::npos) << rows[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST_F(RealGeometry, APythonOnlyRefactorOfTheGridIsInert) {
  refactorPythonGrid();
  repo_->commit("refactor attention_dense_grid");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:grid", "agree on every axis for all 6 shipped variants"}).empty())
      << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

// The call site passes a field of the graph's problem; kernelMatches requires
// `intField(SEQLEN_Q_FIELD) != problem.seqLenQ` to decline, so on every variant it serves the
// field equals the metadata: an equality witness, and the family is still evaluated.
TEST_F(RealGeometry, AFieldTheMatcherEquatesWithMetadataIsFedFromThatMetadata) {
  refactorPythonGrid();
  repo_->replace(kPack, "        auto code\n            = buildIngestorKernelCode(",
                 "        const auto problem = problemFor(*findTensor(context, binding.q), *findTensor(context, binding.k));\n"
                 "        auto code\n            = buildIngestorKernelCode(");
  repo_->replace(kPack, "kernel.getIntMetadata(std::string(SEQLEN_Q_FIELD)),", "problem.seqLenQ,");
  repo_->commit("the query length from the graph");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:grid", "agree on every axis for all 6 shipped variants"}).empty())
      << r.out;
  EXPECT_NE(r.out.find("grid agrees on all 6 shipped variants"), std::string::npos) << r.out;
}

TEST_F(RealGeometry, NoCompilerOnPathIsNotCheckedAndSaysSo) {
  refactorPythonGrid();
  repo_->commit("refactor attention_dense_grid");
  const char* python = "/usr/bin/python3";
  RunResult r = report(std::string("-u CXX -u IMPACT_CXX IMPACT_PYTHON=") + python + " PATH=/nonexistent");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked: no C++ compiler"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx942") << r.out;
}

TEST_F(RealGeometry, AnArgumentImpactdCannotResolveIsNotCheckedNamingIt) {
  refactorPythonGrid();
  repo_->replace(kPack, "                                     kernel.getIntMetadata(std::string(BATCH_FIELD)),\n"
                        "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),",
                 "                                     problemFor(context).batch,\n"
                 "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),");
  repo_->commit("the batch from the graph");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked: argument #4 batch (`problemFor(context).batch`"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "launch-surface:grid"}).empty()) << r.out;
}

// What the code derives goes in .impactd.yaml, as a C++ expression of the header's other
// parameters: the argument is then fed from it (here a wrong declaration, batch 1, which the
// variants shipping batch 2 and 4 contradict).
TEST_F(RealGeometry, AnArgumentDeclaredInImpactdYamlIsEvaluatedFromTheDeclaration) {
  refactorPythonGrid();
  repo_->replace(kPack, "                                     kernel.getIntMetadata(std::string(BATCH_FIELD)),\n"
                        "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),",
                 "                                     problemFor(context).batch,\n"
                 "                                     kernel.getIntMetadata(std::string(PERSISTENT_FIELD)),");
  repo_->write(".impactd.yaml", "geometry:\n  gfx942_attention_dense:\n    \"problemFor(context).batch\": \"numQueryHeads * 0 + 1\"\n");
  repo_->commit("the batch from the graph, declared");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid", "grid axis z differs on 2 shipped variants of 6",
                               "batch <- declared `numQueryHeads * 0 + 1` (.impactd.yaml)"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
}

TEST_F(RealGeometry, AHeaderIncludingAHeaderTheTreeLacksIsNotCheckedNamingIt) {
  refactorPythonGrid();
  repo_->replace(kHeader, "#include <hipdnn_plugin_sdk/PluginException.hpp>\n",
                 "#include <hipdnn_plugin_sdk/PluginException.hpp>\n#include <hipdnn_plugin_sdk/ingestor/LaunchLimits.hpp>\n");
  repo_->commit("the header includes an SDK header the tree does not have");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked:", "does not compile standalone",
                               "hipdnn_plugin_sdk/ingestor/LaunchLimits.hpp"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "launch-surface:grid"}).empty()) << r.out;
}

// The harness is built with UBSan when the compiler can link it (issue 17): undefined behaviour
// while the header evaluates a shipped variant is a mismatch naming the variant and the runtime's
// report, even where the values agree. The runtime reports a source location once per process:
// both variants overflowing the same multiplication are named.
std::string onPathOf(const std::string& name) {
  RunResult r = run("command -v " + name);
  std::string path = r.exitCode == 0 ? r.out.substr(0, r.out.find('\n')) : "";
  return path;
}

bool compilerOnPath() {
  for (const char* c : {"c++", "g++", "clang++"})
    if (run(std::string("command -v ") + c).exitCode == 0) return true;
  return false;
}

constexpr const char* kGeometryLocal = "    AttentionDenseGeometry geometry;\n";
constexpr const char* kPacksDir = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";

TEST_F(RealGeometry, UndefinedBehaviourOnShippedVariantsIsAMismatchNamingThem) {
  if (!compilerOnPath()) GTEST_SKIP() << "no C++ compiler on PATH: the harness cannot be built";
  // A work estimate in int: 4096 and 8192 query rows times 600000 overflow it; the others do not.
  repo_->replace(kHeader, kGeometryLocal,
                 "    volatile int work = static_cast<int>(seqLenQ) * 600000;\n    (void)work;\n" + std::string(kGeometryLocal));
  repo_->commit("estimate the work in an int");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The head's harness and (it disagrees) the merge base's, both sanitized.
  EXPECT_NE(r.err.find("2 harnesses compiled, 0 from the cache"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("UBSan on 2 of 2 harnesses\n"), std::string::npos) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid",
                               "attentionDenseGeometry has undefined behaviour on 2 shipped variants (first: "
                               "attention_dense.bf16_d128_hq32_kv8_b2_s4096_bm256_persist304.gfx942: " + std::string(kHeader) +
                               ":109:", "runtime error: signed integer overflow: 4096 * 600000 cannot be represented in type 'int'",
                               "the values it returned cannot be trusted"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].find("differs"), std::string::npos) << rows[0];
  EXPECT_FALSE(rowsWith(r.out, {"mismatch", "launch-surface:block", "undefined behaviour on 2 shipped variants"}).empty())
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// An unrecoverable check (reaching __builtin_unreachable) stops the harness on that variant: it
// keeps its report and has no values; the variants after it are evaluated in a new process.
TEST_F(RealGeometry, AVariantTheRuntimeStopsOnIsNamedAndTheOthersStillCompared) {
  if (!compilerOnPath()) GTEST_SKIP() << "no C++ compiler on PATH: the harness cannot be built";
  repo_->replace(kHeader, kGeometryLocal,
                 "    if(seqLenQ == 4096)\n    {\n        __builtin_unreachable();\n    }\n" + std::string(kGeometryLocal));
  repo_->commit("a length the header assumes never comes");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"mismatch", "launch-surface:grid",
                               "attentionDenseGeometry has undefined behaviour on 1 shipped variant (first: "
                               "attention_dense.bf16_d128_hq32_kv8_b2_s4096_bm256_persist304.gfx942: " + std::string(kHeader) +
                               ":111:", "runtime error: execution reached"});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].find("differs"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[0].find("throws"), std::string::npos) << rows[0];
  EXPECT_EQ(r.out.find("not checked"), std::string::npos) << r.out;
}

TEST_F(RealGeometry, TheCleanFamilyAgreesWithUbsanOn) {
  if (!compilerOnPath()) GTEST_SKIP() << "no C++ compiler on PATH: the harness cannot be built";
  refactorPythonGrid();
  repo_->commit("refactor attention_dense_grid");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("UBSan on 1 of 1 harnesses\n"), std::string::npos) << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"inert", "launch-surface:grid", "agree on every axis for all 6 shipped variants"}).empty())
      << r.out;
  EXPECT_EQ(r.out.find("undefined behaviour"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("UBSan not available"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

// A compiler that cannot link the sanitizer (a wrapper refusing -fsanitize as a linker without
// libubsan does): the plain build is used, the note says UBSan was not available and why, and the
// next run takes the plain binary from the cache without trying again.
TEST_F(RealGeometry, ACompilerThatCannotLinkUbsanBuildsPlainAndSaysWhy) {
  std::string cxx = onPathOf("c++");
  if (cxx.empty()) GTEST_SKIP() << "no c++ on PATH: the harness cannot be built";
  refactorPythonGrid();
  repo_->commit("refactor attention_dense_grid");
  fs::create_directories(cache_ + "/bin");
  std::string wrapper = cache_ + "/bin/cxx";
  {
    std::ofstream w(wrapper);
    w << "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -fsanitize=*)\n"
         "  echo '/usr/bin/ld: cannot find -lubsan: No such file or directory' >&2\n"
         "  echo 'collect2: error: ld returned 1 exit status' >&2; exit 1;; esac; done\n"
         "exec " << cxx << " \"$@\"\n";
  }
  fs::permissions(wrapper, fs::perms::owner_all);
  RunResult r = report("IMPACT_CXX=" + shellQuote(wrapper));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("1 harnesses compiled, 0 from the cache"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("UBSan on 0 of 1 harnesses (not available: /usr/bin/ld: cannot find -lubsan"), std::string::npos)
      << r.err;
  EXPECT_FALSE(rowsWith(r.out, {"note: geometry:", "block agrees on all 6 shipped variants; UBSan not available: "
                                "/usr/bin/ld: cannot find -lubsan: No such file or directory"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  RunResult warm = report("IMPACT_CXX=" + shellQuote(wrapper));
  EXPECT_NE(warm.err.find("0 harnesses compiled, 1 from the cache"), std::string::npos) << warm.err;
  EXPECT_FALSE(rowsWith(warm.out, {"note: geometry:", "UBSan not available: /usr/bin/ld: cannot find -lubsan"}).empty())
      << warm.out;
}

// The header's includes are staged transitively, each found as the compiler would: a.hpp beside
// the header includes <sdk/b.hpp>, found under a `**/include/` folder of the tree, which includes
// "detail/c.hpp" beside itself.
class RealGeometryIncludes : public RealGeometry {
 protected:
  void includeChain(bool withSdk) {
    refactorPythonGrid();
    repo_->replace(kHeader, "#include <hipdnn_plugin_sdk/PluginException.hpp>\n",
                   "#include <hipdnn_plugin_sdk/PluginException.hpp>\n\n#include \"a.hpp\"\n");
    repo_->replace(kHeader, "blockM / 32 * 64", "blockM / 32 * kLanesPerWave");
    repo_->write(std::string(kPacksDir) + "a.hpp",
                 "#pragma once\n#include <sdk/b.hpp>\ninline constexpr int kLanesPerWave = sdk::kWave;\n");
    if (withSdk) {
      std::string sdk = std::string(kHkp) + "third_party/wave-sdk/include/sdk/";
      repo_->write(sdk + "b.hpp", "#pragma once\n#include <cstdint>\n#include \"detail/c.hpp\"\n"
                                  "namespace sdk {\ninline constexpr int kWave = detail::kWave;\n}\n");
      repo_->write(sdk + "detail/c.hpp", "#pragma once\nnamespace sdk::detail {\ninline constexpr int kWave = 64;\n}\n");
    }
    repo_->commit("the wave size from an SDK header");
  }
};

TEST_F(RealGeometryIncludes, AHeaderIncludingAFileThatIncludesAnSdkHeaderCompilesAndAgrees) {
  if (!compilerOnPath()) GTEST_SKIP() << "no C++ compiler on PATH: the harness cannot be built";
  includeChain(true);
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("grid agrees on all 6 shipped variants; block agrees on all 6 shipped variants"), std::string::npos)
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
  // Every staged file is in the harness's key: an edit of the innermost one builds again.
  repo_->replace(std::string(kHkp) + "third_party/wave-sdk/include/sdk/detail/c.hpp", "kWave = 64", "kWave = 32");
  repo_->commit("wave32");
  RunResult edited = report();
  // The head's harness built again (and, the head now disagreeing, the merge base's).
  EXPECT_NE(edited.err.find("2 harnesses compiled, 0 from the cache"), std::string::npos) << edited.err;
  EXPECT_FALSE(rowsWith(edited.out, {"mismatch", "launch-surface:block", "block axis x differs on 6 shipped variants"}).empty())
      << edited.out;
}

TEST_F(RealGeometryIncludes, AnSdkHeaderTheTreeLacksTwoLevelsDownIsNotCheckedNamingIt) {
  if (!compilerOnPath()) GTEST_SKIP() << "no C++ compiler on PATH: the harness cannot be built";
  includeChain(false);
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked:", "does not compile standalone",
                               std::string(kPacksDir) + "a.hpp:2:", "sdk/b.hpp"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "launch-surface:grid"}).empty()) << r.out;
}

TEST_F(RealGeometryIncludes, AnIncludeChainDeeperThanTheLimitIsNotCheckedSayingSo) {
  refactorPythonGrid();
  repo_->replace(kHeader, "#include <hipdnn_plugin_sdk/PluginException.hpp>\n",
                 "#include <hipdnn_plugin_sdk/PluginException.hpp>\n#include \"chain/l0.hpp\"\n");
  for (int i = 0; i < 20; ++i)
    repo_->write(std::string(kPacksDir) + "chain/l" + std::to_string(i) + ".hpp",
                 "#pragma once\n#include \"l" + std::to_string(i + 1) + ".hpp\"\n");
  repo_->commit("a long include chain");
  RunResult r = report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "launch-surface:grid", "geometry not checked:",
                             "Gfx942AttentionDenseGeometry.hpp's includes go deeper than 16 levels (chain/l0.hpp -> l1.hpp"})
                .size(), 1u) << r.out;
}

// The whole real corpus as saved (no rocKE platform package, modules missing): every family says
// "not checked" with every reason, never a pass. The gfx950 tiled family's geometry takes a
// run-time request (`binding.totalQ`), not the shipped spec; the conv generation does not import.
TEST(RealCorpusGeometry, FamiliesThatCannotBeEvaluatedAreNotCheckedNamingWhy) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RealCorpusFixture repo;
  char tmpl[] = "/tmp/impact-geometry-cache-XXXXXX";
  std::string cache = ::mkdtemp(tmpl);
  RunResult r = run("env IMPACT_CACHE_DIR=" + shellQuote(cache) + " " + shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") +
                    " report --repo " + shellQuote(repo.dir()) + " --base main --head feature --geometry --no-cache");
  std::error_code ec;
  fs::remove_all(cache, ec);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"note: geometry:", "Gfx950AttentionTiledGeometry.hpp:gfx950AttentionTiledGeometry",
                             "grid not checked:", "argument #3 totalQ (`binding.totalQ`"}).size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"note: geometry:", "Gfx950ConvFwdGeometry.hpp:launchGeometry", "grid not checked:",
                             "No module named 'dispatch'"}).size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"note: geometry:", "Gfx942AttentionDenseGeometry.hpp", "grid not checked:",
                             "No module named 'rocke'"}).size(), 1u) << r.out;
  EXPECT_EQ(r.out.find("agrees on all"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace impact::testing
