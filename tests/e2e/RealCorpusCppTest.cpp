// `impact report` end to end on the REAL rocm-libraries files (../shared/real-data/rocm-libraries,
// committed into a fixture repository at test time): the C++ side of each real kernel — the
// launch call inside the dispatch handler's own `launch` method, the declared kernargs surface
// (`File.cpp:Class::method`), and the matcher and pack tests that must never pair. Every
// scenario asserts the exact set of rows printed (status, contract, both sides), and the
// message of each kernargs row. Skips, saying so, when the real files are absent.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "support/RealCorpus.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using R = RealCorpusFixture;

constexpr const char* kPacks = "src/engines/kernel_ingestor_engine/packs/";

struct PrintedRow {
  std::string status, contract, python, mirror, message;
};

std::string withoutProvider(std::string s) {
  const std::string hkp = R::kHkp;
  for (size_t at; (at = s.find(hkp)) != std::string::npos;) s.erase(at, hkp.size());
  return s;
}

// `path:12 symbol` -> `path symbol` (line numbers of rows this file does not own are not pinned).
std::string withoutLine(const std::string& side) {
  auto colon = side.find(':');
  if (colon == std::string::npos) return side;
  size_t end = colon + 1;
  while (end < side.size() && std::isdigit(static_cast<unsigned char>(side[end]))) ++end;
  if (end == colon + 1) return side;
  return side.substr(0, colon) + side.substr(end);
}

// Rows of a text report: `status  contract  python  <->  mirror  message[  [device: ...]]`.
std::vector<PrintedRow> rowsOf(const std::string& out) {
  std::vector<PrintedRow> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("note:") || line.starts_with("Coverage:") || line.starts_with("Runtime impact:")) continue;
    std::vector<std::string> f;
    for (size_t from = 0;;) {
      size_t at = line.find("  ", from);
      f.push_back(line.substr(from, at == std::string::npos ? std::string::npos : at - from));
      if (at == std::string::npos) break;
      from = at + 2;
    }
    PrintedRow r;
    if (f.size() >= 5 && f[3] == "<->") {
      r.status = f[0];
      r.contract = f[1];
      r.python = withoutProvider(f[2]);
      r.mirror = withoutProvider(f[4]);
      for (size_t i = 5; i < f.size(); ++i) r.message += (i > 5 ? "  " : "") + withoutProvider(f[i]);
    } else {
      r.status = "unparsed: " + line;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// status | contract | python | mirror, line numbers left out.
std::vector<std::string> shapes(const std::vector<PrintedRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows)
    out.push_back(r.status + " | " + r.contract + " | " + withoutLine(r.python) + " | " + withoutLine(r.mirror));
  return out;
}

std::vector<const PrintedRow*> kernargsRows(const std::vector<PrintedRow>& rows) {
  std::vector<const PrintedRow*> out;
  for (const auto& r : rows)
    if (r.contract == "kernargs") out.push_back(&r);
  return out;
}

// The sides the kernargs rows of each kernel print, with their lines read off the real files.
std::string tiledBuilderSide(const R& repo) {
  return "rocke/library/kernels/gfx950/attention_tiled_2d.py:" +
         std::to_string(repo.lineOf(R::kTiledBuilder, "def build_unified_attention_2d_tiled(")) +
         " build_unified_attention_2d_tiled";
}
std::string tiledLaunchSide(const R& repo) {
  return std::string(kPacks) + "Gfx950AttentionTiledNative.cpp:" +
         std::to_string(repo.lineOf(R::kTiledPack, "preparedTiled.kernel().launch(")) +
         " Gfx950AttentionTiledDispatchHandler::launch launch(...)";
}
std::string denseBuilderSide(const R& repo) {
  return "rocke/library/kernels/gfx942/attention_dense.py:" +
         std::to_string(repo.lineOf(R::kDenseBuilder, "def build_attention_dense(")) + " build_attention_dense";
}
std::string denseLaunchSide(const R& repo) {
  return std::string(kPacks) + "Gfx942AttentionDenseNative.cpp:" +
         std::to_string(repo.lineOf(R::kDensePack, "preparedDense.kernel().launch(")) +
         " Gfx942AttentionDenseDispatchHandler::launch launch(...)";
}

const std::string kTiledLaunch = "mismatch | kernargs | rocke/library/kernels/gfx950/attention_tiled_2d.py "
                                 "build_unified_attention_2d_tiled | src/engines/kernel_ingestor_engine/packs/"
                                 "Gfx950AttentionTiledNative.cpp Gfx950AttentionTiledDispatchHandler::launch launch(...)";
const std::string kTiledPagedKvChanged =
    "changed | launch-surface:paged_kv_layout | rocke/library/kernels/gfx950/attention_tiled_2d.py | "
    "src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledGeometry.hpp gfx950TiledPagedKvGeometry";
// Pre-existing row of the tiled profile: a surface naming a module the corpus does not hold.
const std::string kTiledSpecResolutionPre =
    "mismatch (pre-existing) | launch-surface:spec_resolution | rocke/library/kernels/common/attention_unified.py "
    "_tiled_spec_from_problem | src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledNative.cpp prepare";
// The prose applicability locator resolves to the functions it names: an inert row when the
// builder's file is touched, no row otherwise.
const std::string kTiledApplicabilityInert =
    "inert | launch-surface:applicability | rocke/library/kernels/gfx950/attention_tiled_2d.py supports_tiled_2d, "
    "UnifiedAttention2DTiledSpec.__post_init__ | src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledNative.cpp "
    "gfx950AttentionTiledGraphMatches";

const std::string kDenseSignature = "mismatch | kernargs | rocke/library/kernels/gfx942/attention_dense.py "
                                    "build_attention_dense | rocke/library/kernels/gfx942/attention_dense.py "
                                    "attention_dense_signature";
const std::string kDenseLaunch = "mismatch | kernargs | rocke/library/kernels/gfx942/attention_dense.py "
                                 "build_attention_dense | src/engines/kernel_ingestor_engine/packs/"
                                 "Gfx942AttentionDenseNative.cpp Gfx942AttentionDenseDispatchHandler::launch launch(...)";
const std::string kDenseBakedChanged =
    "changed | launch-surface:baked_constants | rocke/library/kernels/gfx942/attention_dense.py "
    "_build_attention_dense_single_buffer | src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp "
    "hasBshdStrides";
const std::string kDenseBakedInert =
    "inert | launch-surface:baked_constants | rocke/library/kernels/gfx942/attention_dense.py "
    "_build_attention_dense_single_buffer | src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp "
    "hasBshdStrides";
const std::string kDenseGridInert =
    "inert | launch-surface:grid | rocke/library/kernels/gfx942/attention_dense.py attention_dense_grid | "
    "src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry";
const std::string kDenseBlockInert =
    "inert | launch-surface:block | rocke/library/kernels/gfx942/attention_dense.py attention_dense_block | "
    "src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry";
const std::string kDenseApplicabilityInert =
    "inert | launch-surface:applicability | rocke/library/kernels/gfx942/attention_dense.py supports_attention_dense | "
    "src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches";
const std::string kDenseSpecResolutionPre =
    "mismatch (pre-existing) | launch-surface:spec_resolution | rocke/library/dispatch/attention/gfx942.py "
    "dense_spec_for_request | src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp prepare";

const std::string kTiledLastScalar = "                                      static_cast<int32_t>(0));";

using V = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// gfx950 tiled 2D: 18 unconditional b.param slots; the launch in
// Gfx950AttentionTiledDispatchHandler::launch passes 18 arguments after the stream.

TEST(RealCorpusCpp, TiledBuilderGainsAnUnconditionalArgumentTheLaunchLacks) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kTiledBuilder, "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n",
               "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n"
               "    extra_flag_p = b.param(\"extra_flag\", I32)\n");
  repo.commit("builder gains extra_flag");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kTiledLaunch, kTiledPagedKvChanged, kTiledApplicabilityInert})) << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->python, tiledBuilderSide(repo));
  EXPECT_EQ(k[0]->mirror, tiledLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "copy has 18 arguments, builder has 19: missing extra_flag (by_value/4) at #18");
}

TEST(RealCorpusCpp, TiledLaunchDropsAnArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kTiledPack,
               "                                      static_cast<int32_t>(binding.blockTableStride),\n" +
                   kTiledLastScalar,
               "                                      static_cast<int32_t>(binding.blockTableStride));");
  repo.commit("launch drops qq_bias_stride_0");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kTiledSpecResolutionPre, kTiledLaunch, kTiledApplicabilityInert})) << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->mirror, tiledLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "copy has 17 arguments, builder has 18: missing qq_bias_stride_0 (by_value/4) at #17");
}

TEST(RealCorpusCpp, TiledLaunchAddsAnArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kTiledPack, kTiledLastScalar,
               "                                      static_cast<int32_t>(0),\n"
               "                                      static_cast<int64_t>(binding.totalQ));");
  repo.commit("launch passes one more");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kTiledSpecResolutionPre, kTiledLaunch, kTiledApplicabilityInert})) << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->message,
            "copy has 19 arguments, builder has 18: extra static_cast<int64_t>(binding.totalQ) (by_value/8) at #18");
}

TEST(RealCorpusCpp, TiledArgumentWidenedFromI32ToI64InTheBuilder) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kTiledBuilder, "b.param(\"num_seqs\", I32)", "b.param(\"num_seqs\", I64)");
  repo.commit("num_seqs widened");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kTiledLaunch, kTiledPagedKvChanged, kTiledApplicabilityInert})) << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  // static_cast<int32_t>(binding.numSeqs) is by_value/4: the launch still packs 4 bytes.
  EXPECT_EQ(k[0]->message, "#15 num_seqs: copy by_value/4, builder by_value/8");
}

TEST(RealCorpusCpp, TiledMatcherAndPackTestListsNeverPair) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  // The KMD metadata a matcher test builds and the knob list a pack test pins are KMD
  // vocabulary, not argument lists: editing them gives no kernargs row.
  repo.replace(R::kTiledMatchersTest, "        {std::string(\"waves_per_eu\"), spec.wavesPerEu},\n",
               "        {std::string(\"waves_per_eu\"), spec.wavesPerEu},\n"
               "        {std::string(\"extra_knob\"), spec.wavesPerEu},\n");
  repo.replace(R::kTiledPacksTest, "ASSERT_EQ(set.engine.knobs.size(), 10U);", "ASSERT_EQ(set.engine.knobs.size(), 11U);");
  repo.commit("tests: one more metadata field and knob");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsOf(r.out).size(), 0u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
}

TEST(RealCorpusCpp, TiledDeclaredClassMethodSurfaceYieldsItsPair) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  // An edit of the profile's kernargs entry (prose only) judges every pair it declares: the
  // cpp_mirror `Gfx950AttentionTiledNative.cpp:Gfx950AttentionTiledDispatchHandler::launch`
  // pairs the launch call with the profile's builder, and the untouched copy agrees.
  repo.replace(R::kTiledProfile, "the slot COUNT is fixed at 18 by the kernel, so no decline",
               "the slot COUNT is fixed at 18 by the kernel; so no decline");
  repo.commit("profile prose");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsOf(r.out);
  const std::string prefix = "mismatch (pre-existing) | launch-surface:";
  const std::string attentionUnified = " | rocke/library/kernels/common/attention_unified.py _get_2d_launch_meta | "
                                       "src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledGeometry.hpp "
                                       "gfx950AttentionTiledGeometry";
  EXPECT_EQ(shapes(rows),
            (V{prefix + "grid" + attentionUnified, prefix + "block" + attentionUnified, kTiledSpecResolutionPre,
               "changed | manifest | - | projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_tiled.profile.yaml",
               "inert | kernargs | rocke/library/kernels/gfx950/attention_tiled_2d.py build_unified_attention_2d_tiled | "
               "src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledNative.cpp "
               "Gfx950AttentionTiledDispatchHandler::launch launch(...)"}))
      << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->python, tiledBuilderSide(repo));
  EXPECT_EQ(k[0]->mirror, tiledLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "only comments or whitespace changed");

  // The same profile naming another method of the class: the launch is no longer declared and
  // nothing else pairs it; the copy that paired at the base is reported as left unchecked.
  repo.replace(R::kTiledProfile, "Gfx950AttentionTiledNative.cpp:Gfx950AttentionTiledDispatchHandler::launch",
               "Gfx950AttentionTiledNative.cpp:Gfx950AttentionTiledDispatchHandler::prepare");
  repo.commit("profile names prepare");
  r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  rows = rowsOf(r.out);
  k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->status, "mismatch");
  EXPECT_EQ(k[0]->mirror, tiledLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "the copy paired with build_unified_attention_2d_tiled at the base; no builder matches it now");
}

// ---------------------------------------------------------------------------------------------
// gfx942 dense: 5 arguments declared in _build_attention_dense_single_buffer; the launch in
// Gfx942AttentionDenseDispatchHandler::launch passes q.ptr, k.ptr, v.ptr, o.ptr, binding.scale.
// The profile's kernargs surface names the SignatureBuilder restatement
// attention_dense_signature: the launch pairs with the profile's builder, build_attention_dense.

const std::string kDenseScale = "    scale = b.param(\"scale\", F32)\n";
const std::string kDenseLaunchArgs = "            handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr, binding.scale);";

// The dense helper gaining an unconditional argument (both the launch and the
// attention_dense_signature copy lack it) is RealCorpusPython.DenseHelperGainingAnArgumentBreaksThePythonCopy.

TEST(RealCorpusCpp, DenseLaunchDropsAnArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kDensePack, kDenseLaunchArgs, "            handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr);");
  repo.commit("launch drops scale");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kDenseSpecResolutionPre, kDenseLaunch, kDenseBakedInert, kDenseApplicabilityInert}))
      << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->mirror, denseLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "copy has 4 arguments, builder has 5: missing scale (by_value/4) at #4");
}

TEST(RealCorpusCpp, DenseLaunchAddsAnArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kDensePack, kDenseLaunchArgs,
               "            handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr, binding.scale, binding.causal);");
  repo.commit("launch passes causal");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kDenseSpecResolutionPre, kDenseLaunch, kDenseBakedInert, kDenseApplicabilityInert}))
      << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  // binding.causal is an int64_t field of AttentionDenseBinding.
  EXPECT_EQ(k[0]->message, "copy has 6 arguments, builder has 5: extra binding.causal (by_value/8) at #5");
}

TEST(RealCorpusCpp, DenseArgumentWidenedInTheBuilder) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  // The dense kernel has no I32 argument: its f32 scale becomes an I64.
  repo.replace(R::kDenseBuilder, kDenseScale, "    scale = b.param(\"scale\", I64)\n");
  repo.commit("scale retyped");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows),
            (V{kDenseSignature, kDenseLaunch, kDenseBakedChanged, kDenseGridInert, kDenseBlockInert, kDenseApplicabilityInert}))
      << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 2u) << r.out;  // the attention_dense_signature Python copy lacks it too
  EXPECT_EQ(k[0]->mirror.substr(k[0]->mirror.rfind(' ') + 1), "attention_dense_signature") << r.out;
  EXPECT_EQ(k[0]->message, "#4 scale: copy by_value/4, builder by_value/8");
  k.erase(k.begin());  // the launch call's row
  EXPECT_EQ(k[0]->message, "#4 scale: copy by_value/4, builder by_value/8");
}

TEST(RealCorpusCpp, DenseMatcherAndPackTestListsNeverPair) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kDenseMatchersTest, "        {std::string(\"block_m\"), spec.blockM},\n",
               "        {std::string(\"block_m\"), spec.blockM},\n        {std::string(\"extra_knob\"), spec.blockM},\n");
  std::string packs = repo.read(R::kDensePacksTest);
  repo.write(R::kDensePacksTest, packs + "\n// knobs: block_n, waves_per_eu, persistent, extra_knob\n");
  repo.commit("tests: one more metadata field");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsOf(r.out).size(), 0u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: N/A") << r.out;
}

TEST(RealCorpusCpp, DenseDeclaredClassMethodSurfaceYieldsItsPair) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  repo.replace(R::kDenseProfile, "# Adding a knob to a sweep means adding it here, not editing the tool.",
               "# Adding a knob to a sweep means adding it here -- not editing the tool.");
  repo.commit("profile comment");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsOf(r.out);
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 1u) << r.out;
  EXPECT_EQ(k[0]->status, "inert");
  EXPECT_EQ(k[0]->python, denseBuilderSide(repo));
  EXPECT_EQ(k[0]->mirror, denseLaunchSide(repo));
  EXPECT_EQ(k[0]->message, "only comments or whitespace changed");
  // What this branch prints: the pre-existing spec_resolution row (a module the corpus does not
  // hold) sits on the touched profile and makes the verdict NEEDS-DEVICE; the Python side of
  // issue 7 (an inert change is NONE whatever was wrong at the base) turns it into NONE.
  EXPECT_EQ(shapes(rows), (V{kDenseSpecResolutionPre,
                             "inert | kernargs | rocke/library/kernels/gfx942/attention_dense.py build_attention_dense | "
                             "src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp "
                             "Gfx942AttentionDenseDispatchHandler::launch launch(...)",
                             "inert | manifest | - | projects/hipdnn/tools/IngestorGenerator/configs/"
                             "gfx942_attention_dense.profile.yaml"}))
      << r.out;
}

TEST(RealCorpusCpp, DenseLaunchNoProfileDeclaresPairsThroughTheFileName) {
  IMPACT_REQUIRE_REAL_CORPUS();
  R repo;
  // Without the profile, Gfx942AttentionDenseNative.cpp is named after
  // kernels/gfx942/attention_dense.py, whose one public b.param builder its launch restates.
  repo.remove(R::kDenseProfile);
  repo.commit("no profile");
  repo.git("branch -f main HEAD");
  repo.replace(R::kDenseBuilder, kDenseScale, kDenseScale + "    window_p = b.param(\"window\", I32)\n");
  repo.commit("helper gains window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = rowsOf(r.out);
  EXPECT_EQ(shapes(rows), (V{kDenseSignature, kDenseLaunch})) << r.out;
  auto k = kernargsRows(rows);
  ASSERT_EQ(k.size(), 2u) << r.out;  // the attention_dense_signature Python copy lacks it too
  EXPECT_EQ(k[0]->mirror.substr(k[0]->mirror.rfind(' ') + 1), "attention_dense_signature") << r.out;
  EXPECT_EQ(k[0]->message, "copy has 5 arguments, builder has 6: missing window (by_value/4) at #5");
  k.erase(k.begin());  // the launch call's row
  EXPECT_EQ(k[0]->mirror, denseLaunchSide(repo));
  EXPECT_EQ(k[0]->message,
            "paired through the file name with rocke/library/kernels/gfx942/attention_dense.py:build_attention_dense; "
            "copy has 5 arguments, builder has 6: missing window (by_value/4) at #5");
}

}  // namespace
}  // namespace impact::testing
