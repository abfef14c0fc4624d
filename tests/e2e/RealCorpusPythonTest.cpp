// The Python side of the real rocm-libraries corpus (../shared/real-data/rocm-libraries, copied into a
// fixture repository at test time) through the real `impact` binary: for both real kernels (gfx950
// tiled 2D, gfx942 dense) the untouched tree, comment- and whitespace-only edits on both sides, a
// pure body refactor of the builder, the gfx942 helper gaining an argument (the Python copy
// attention_dense_signature must break), and the tiled profile's prose applicability locator.
// Every scenario asserts the exact set of rows it prints (status, contract, both sides).
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "support/RealCorpus.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using C = RealCorpusFixture;
using Rows = std::multiset<std::string>;

// "status | contract | python side | mirror side" of each row, with the provider root and line
// numbers dropped (edits move lines): "mismatch | kernargs | rocke/library/kernels/x.py f | ...".
Rows rowSet(const std::string& out) {
  Rows rows;
  std::istringstream in(out);
  std::string line;
  auto side = [](std::string s) {
    const std::string hkp = C::kHkp;
    if (s.rfind(hkp, 0) == 0) s = s.substr(hkp.size());
    auto colon = s.find(':');
    auto space = s.find(' ');
    if (colon != std::string::npos && (space == std::string::npos || colon < space)) {
      size_t end = colon + 1;
      while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
      if (end > colon + 1) s.erase(colon, end - colon);
    }
    return s;
  };
  while (std::getline(in, line)) {
    if (line.starts_with("note:") || line.starts_with("Coverage:") || line.starts_with("Runtime impact:") || line.empty()) continue;
    std::vector<std::string> f;
    for (size_t at = 0;;) {
      size_t next = line.find("  ", at);
      f.push_back(line.substr(at, next == std::string::npos ? std::string::npos : next - at));
      if (next == std::string::npos) break;
      at = next + 2;
    }
    if (f.size() < 5 || f[3] != "<->") {
      rows.insert("unparsed: " + line);
      continue;
    }
    rows.insert(f[0] + " | " + f[1] + " | " + side(f[2]) + " | " + side(f[4]));
  }
  return rows;
}

std::string dump(const Rows& rows) {
  std::string s;
  for (const auto& r : rows) s += "  " + r + "\n";
  return s;
}

#define EXPECT_ROWS(out, ...)                                         \
  do {                                                                \
    Rows want_{__VA_ARGS__};                                          \
    Rows got_ = rowSet(out);                                          \
    EXPECT_EQ(got_, want_) << "got:\n" << dump(got_) << "\n" << (out); \
  } while (0)

const std::string kDenseLib = "rocke/library/kernels/gfx942/attention_dense.py";
const std::string kTiledLib = "rocke/library/kernels/gfx950/attention_tiled_2d.py";
const std::string kPacks = "src/engines/kernel_ingestor_engine/packs/";
const std::string kUnified = "rocke/library/kernels/common/attention_unified.py";
const std::string kConvLib = "rocke/library/kernels/common/";
const std::string kConvAdapter = "rocke/library/builders/common/convolution_forward.py";
const std::string kConvDirect = "rocke/library/kernels/common/conv_direct_grouped.py";
// The C++ launch calls each builder pairs with (Class::launch in each pack).
const std::string kDenseLaunchCall =
    kPacks + "Gfx942AttentionDenseNative.cpp Gfx942AttentionDenseDispatchHandler::launch launch(...)";
const std::string kTiledLaunchCall =
    kPacks + "Gfx950AttentionTiledNative.cpp Gfx950AttentionTiledDispatchHandler::launch launch(...)";

// Rows a change touching the tiled pack prints for the profile surfaces naming
// kernels/common/attention_unified.py, which the corpus does not hold (already so at the base).
Rows unifiedPreexisting(bool gridAndBlock) {
  Rows r{"mismatch (pre-existing) | launch-surface:spec_resolution | " + kUnified + " _tiled_spec_from_problem | " +
         kPacks + "Gfx950AttentionTiledNative.cpp prepare"};
  if (gridAndBlock)
    for (const char* s : {"grid", "block"})
      r.insert("mismatch (pre-existing) | launch-surface:" + std::string(s) + " | " + kUnified + " _get_2d_launch_meta | " +
               kPacks + "Gfx950AttentionTiledGeometry.hpp gfx950AttentionTiledGeometry");
  return r;
}

TEST(RealCorpusPython, UntouchedTreeHasNoMismatchButMissingModules) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  // Every file added on top of an empty commit: every contract of the tree is compared.
  std::string empty = repo.git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty");
  empty.erase(empty.find_last_not_of("\n") + 1);
  std::string all = repo.git("commit-tree feature^{tree} -p " + empty + " -m corpus");
  all.erase(all.find_last_not_of("\n") + 1);
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base " + empty + " --head " + all);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The only mismatches: surfaces naming modules the corpus does not hold.
  for (const auto& row : rowsStarting(r.out, "mismatch"))
    EXPECT_TRUE(row.find("python_source module kernels/common/attention_unified.py does not exist") != std::string::npos ||
                row.find("python_source module dispatch/attention/gfx942.py does not exist") != std::string::npos ||
                row.find("python_source module kernels/common/conv_direct_grouped.py does not exist") != std::string::npos)
        << row;
  EXPECT_EQ(r.out.find("module Three"), std::string::npos) << r.out;
  const std::string cfg = "projects/hipdnn/tools/IngestorGenerator/configs/";
  EXPECT_ROWS(r.out,
              "mismatch | launch-surface:spec_resolution | rocke/library/dispatch/attention/gfx942.py dense_spec_for_request | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp prepare",
              "mismatch | launch-surface:grid | " + kUnified + " _get_2d_launch_meta | " + kPacks +
                  "Gfx950AttentionTiledGeometry.hpp gfx950AttentionTiledGeometry",
              "mismatch | launch-surface:block | " + kUnified + " _get_2d_launch_meta | " + kPacks +
                  "Gfx950AttentionTiledGeometry.hpp gfx950AttentionTiledGeometry",
              "mismatch | launch-surface:spec_resolution | " + kUnified + " _tiled_spec_from_problem | " + kPacks +
                  "Gfx950AttentionTiledNative.cpp prepare",
              "changed | kernel-code | " + kDenseLib + " | -", "changed | kernel-code | " + kTiledLib + " | -",
              "changed | copy-file | - | " + kPacks + "Gfx942AttentionDenseNative.cpp",
              "changed | copy-file | - | " + kPacks + "Gfx950AttentionTiledNative.cpp",
              "changed | copy-file | - | " + kPacks + "Gfx950ConvFwdNative.cpp",
              // The conv launch (a parameter pack from a std::variant after six explicit slots)
              // pairs with the one builder the conv profile's entries name for that file.
              "changed | kernargs | rocke/library/kernels/common/conv_implicit_gemm.py build_implicit_gemm_conv | " +
                  kPacks + "Gfx950ConvFwdNative.cpp ConvFwdDispatchHandler::launch launch(...)",
              // The conv ABI's ordered names (conv_abi.py, evaluated) against the Geometry
              // header's names arrays: the implicit-GEMM one through the profile's
              // kernargs_and_execution entry, the direct one by names (both agree).
              "changed | kernargs | " + kConvLib + "conv_abi.py conv_arg_names | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp IMPLICIT_GEMM_KERNARG_NAMES",
              "changed | kernargs | " + kConvLib + "conv_abi.py conv_direct_arg_names | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp DIRECT_KERNARG_NAMES",
              "changed | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLaunchCall,
              "changed | kernargs | " + kTiledLib + " build_unified_attention_2d_tiled | " + kTiledLaunchCall,
              "changed | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLib + " attention_dense_signature",
              "changed | launch-surface:grid | " + kDenseLib + " attention_dense_grid | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "changed | launch-surface:block | " + kDenseLib + " attention_dense_block | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "changed | launch-surface:baked_constants | " + kDenseLib + " _build_attention_dense_single_buffer | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp hasBshdStrides",
              "changed | launch-surface:applicability | " + kDenseLib + " supports_attention_dense | " + kPacks +
                  "Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches",
              "changed | launch-surface:paged_kv_layout | " + kTiledLib + " | " + kPacks +
                  "Gfx950AttentionTiledGeometry.hpp gfx950TiledPagedKvGeometry",
              "changed | launch-surface:applicability | " + kTiledLib +
                  " supports_tiled_2d, UnifiedAttention2DTiledSpec.__post_init__ | " + kPacks +
                  "Gfx950AttentionTiledNative.cpp gfx950AttentionTiledGraphMatches",
              "changed | manifest | - | " + cfg + "gfx942_attention_dense.profile.yaml",
              "changed | manifest | - | " + cfg + "gfx950_attention_tiled.profile.yaml",
              // The gfx950 conv fwd generation: its two direct entries name a module the corpus does
              // not hold; every other entry is a launch surface whose sides both resolve (none of
              // them holds a b.param builder facing a launch call or KernelArgument list).
              "mismatch | launch-surface:direct_padding | " + kConvDirect + " forward_padding_reason | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp directPaddingSupported",
              "mismatch | launch-surface:direct_kernargs_and_execution | " + kConvDirect + " emit_direct_params | " +
                  kPacks + "Gfx950ConvFwdGeometry.hpp directKernargs",
              "changed | kernel-code | " + kConvAdapter + " | -", "changed | kernel-code | " + kConvLib + "conv_abi.py | -",
              "changed | kernel-code | " + kConvLib + "conv_args.py | -",
              "changed | kernel-code | " + kConvLib + "conv_implicit_gemm.py | -",
              "changed | descriptor | - | src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_conv_fwd/"
              "gfx950_conv_fwd.kdp.json",
              "changed | launch-surface:pointer_nonalias | " + kConvLib + "conv_implicit_gemm.py build_implicit_gemm_conv | " +
                  kPacks + "Gfx950ConvFwdGeometry.hpp bufferRangesDoNotOverlap",
              "changed | launch-surface:workspace | " + kConvLib + "conv_implicit_gemm.py build_implicit_gemm_conv | " +
                  kPacks + "Gfx950ConvFwdNative.cpp workspaceBytes",
              "changed | launch-surface:problem_geometry_and_byte_counts | " + kConvAdapter + " _problem_error | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp deriveGeometry",
              "changed | launch-surface:grid | " + kConvAdapter + " Gfx950ConvFwdSpec.grid | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp launchGeometry",
              "changed | launch-surface:block | " + kConvAdapter + " Gfx950ConvFwdSpec.block | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp launchGeometry",
              "changed | launch-surface:kernargs_and_execution | " + kConvLib + "conv_abi.py conv_arg_names | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp implicitGemmKernargs",
              "changed | launch-surface:direct_row_coverage | " + kConvAdapter + " _direct_rows_covered | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp directRowsCovered",
              "changed | launch-surface:direct_grid | " + kConvAdapter + " Gfx950ConvFwdSpec.grid | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp directLaunchGeometry",
              "changed | launch-surface:direct_block | " + kConvAdapter + " Gfx950ConvFwdSpec.block | " + kPacks +
                  "Gfx950ConvFwdGeometry.hpp directLaunchGeometry",
              "changed | launch-surface:applicability_and_baked_constants | " + kConvAdapter + " supports_gfx950_conv_fwd | " +
                  kPacks + "Gfx950ConvFwdNative.cpp kernelFits",
              "changed | launch-surface:direct_applicability | " + kConvAdapter + " _direct_error | " + kPacks +
                  "Gfx950ConvFwdNative.cpp kernelFits",
              "changed | launch-surface:fallback_selection | " + kConvAdapter + " gfx950_conv_fwd_spec_for_request | " +
                  kPacks + "Gfx950ConvFwdNative.cpp score",
              "changed | manifest | - | " + cfg + "gfx950_conv_fwd.profile.yaml",
              // The generator config the conv pack's descriptors are generated from: added.
              "changed | generator-config | - | " + cfg + "gfx950_conv_fwd.yaml");
  // What is not compared says why: only the conv launch, whose builder declares its trailing 39
  // arguments through a helper of a module the tree lacks, and whose launch passes them as a pack.
  for (const auto& row : rowsWith(r.out, {"not compared"}))
    EXPECT_TRUE(row.find("not compared: arguments after #6 are declared by emit_param_block "
                         "(kernels/common/_conv_implicit_gemm_common.py, not in the tree); the trailing "
                         "parameter pack values... (from a std::variant)") != std::string::npos)
        << row;
  EXPECT_EQ(rowsWith(r.out, {"not compared"}).size(), 1u) << r.out;
  // The Python copy agrees with the builder today.
  EXPECT_EQ(rowsWith(r.out, {"changed", "attention_dense_signature", "agrees (5 arguments)"}).size(), 1u) << r.out;
}

TEST(RealCorpusPython, TiledCommentAndWhitespaceEditsOnBothSidesAreNone) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kTiledBuilder, "    output = b.param(\n",
               "    # The output pointer is slot 0; the pack passes it first.\n    output = b.param(\n");
  repo.replace(C::kTiledBuilder, "    scale_p = b.param(\"scale\", F32)\n", "    scale_p = b.param(\"scale\",   F32)  \n\n");
  repo.replace(C::kTiledPack, "// The contract with the installed descriptor files",
               "// (kept in step by hand)\n// The contract with the installed descriptor files");
  repo.replace(C::kTiledPack, "\n\n", "\n\n\n");
  repo.commit("comments and whitespace");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  Rows want = unifiedPreexisting(false);
  want.insert("inert | kernargs | " + kTiledLib + " build_unified_attention_2d_tiled | " + kTiledLaunchCall);
  want.insert("inert | launch-surface:paged_kv_layout | " + kTiledLib + " | " + kPacks +
              "Gfx950AttentionTiledGeometry.hpp gfx950TiledPagedKvGeometry");
  want.insert("inert | launch-surface:applicability | " + kTiledLib +
              " supports_tiled_2d, UnifiedAttention2DTiledSpec.__post_init__ | " + kPacks +
              "Gfx950AttentionTiledNative.cpp gfx950AttentionTiledGraphMatches");
  EXPECT_EQ(rowSet(r.out), want) << dump(rowSet(r.out)) << r.out;
  EXPECT_NE(r.out.find("note: 1 mismatch was already present at the merge base"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST(RealCorpusPython, DenseCommentAndWhitespaceEditsOnBothSidesAreNone) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kDenseBuilder, "    scale = b.param(\"scale\", F32)\n",
               "    # softmax scale (1/sqrt(D)), folded into LOG2E below\n    scale = b.param(\"scale\",  F32)\n");
  repo.replace(C::kDenseBuilder, "        .scalar(\"scale\", \"f32\")\n", "        .scalar(\"scale\", \"f32\")  # f32 slot\n");
  repo.replace(C::kDensePack, "bool hasBshdStrides(", "// BSHD only: the kernel indexes tokens densely.\nbool hasBshdStrides(");
  repo.replace(C::kDensePack, "\n\n", "\n \n");
  repo.commit("comments and whitespace");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_ROWS(r.out,
              "mismatch (pre-existing) | launch-surface:spec_resolution | rocke/library/dispatch/attention/gfx942.py "
              "dense_spec_for_request | " + kPacks + "Gfx942AttentionDenseNative.cpp prepare",
              "inert | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLib + " attention_dense_signature",
              "inert | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLaunchCall,
              "inert | launch-surface:grid | " + kDenseLib + " attention_dense_grid | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:block | " + kDenseLib + " attention_dense_block | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:baked_constants | " + kDenseLib + " _build_attention_dense_single_buffer | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp hasBshdStrides",
              "inert | launch-surface:applicability | " + kDenseLib + " supports_attention_dense | " + kPacks +
                  "Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches");
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST(RealCorpusPython, TiledBuilderBodyRefactorIsChangedNeverMismatch) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kTiledBuilder,
               "        lane = b.mod(tid, b.const_i32(WAVE))\n        wave_id = b.div(tid, b.const_i32(WAVE))\n",
               "        wave_size = b.const_i32(WAVE)\n        lane = b.mod(tid, wave_size)\n"
               "        wave_id = b.div(tid, wave_size)\n");
  repo.commit("hoist the wave size constant");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch").empty()) << r.out;
  EXPECT_ROWS(r.out,
              "changed | kernargs | " + kTiledLib + " build_unified_attention_2d_tiled | " + kTiledLaunchCall,
              // a path-only locator: the whole module is its Python side
              "changed | launch-surface:paged_kv_layout | " + kTiledLib + " | " + kPacks +
                  "Gfx950AttentionTiledGeometry.hpp gfx950TiledPagedKvGeometry",
              "inert | launch-surface:applicability | " + kTiledLib +
                  " supports_tiled_2d, UnifiedAttention2DTiledSpec.__post_init__ | " + kPacks +
                  "Gfx950AttentionTiledNative.cpp gfx950AttentionTiledGraphMatches");
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST(RealCorpusPython, DenseBuilderBodyRefactorIsChangedNeverMismatch) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kDenseBuilder, "    qk_scale = b.fmul(scale, b.const_f32(LOG2E))\n",
               "    log2e = b.const_f32(LOG2E)\n    qk_scale = b.fmul(scale, log2e)\n");
  repo.commit("name the LOG2E constant");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch").empty()) << r.out;
  EXPECT_ROWS(r.out,
              "changed | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLib + " attention_dense_signature",
              "changed | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLaunchCall,
              "changed | launch-surface:baked_constants | " + kDenseLib + " _build_attention_dense_single_buffer | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp hasBshdStrides",
              "inert | launch-surface:grid | " + kDenseLib + " attention_dense_grid | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:block | " + kDenseLib + " attention_dense_block | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:applicability | " + kDenseLib + " supports_attention_dense | " + kPacks +
                  "Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches");
  EXPECT_EQ(rowsWith(r.out, {"changed", "attention_dense_signature", "agrees (5 arguments); builder changed in code"}).size(),
            1u)
      << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx942") << r.out;
}

TEST(RealCorpusPython, DenseHelperGainingAnArgumentBreaksThePythonCopy) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kDenseBuilder, "    scale = b.param(\"scale\", F32)\n",
               "    scale = b.param(\"scale\", F32)\n    window_left = b.param(\"window_left\", I32)\n");
  repo.commit("sliding window: window_left");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_ROWS(r.out,
              "mismatch | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLib + " attention_dense_signature",
              "mismatch | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLaunchCall,
              "changed | launch-surface:baked_constants | " + kDenseLib + " _build_attention_dense_single_buffer | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp hasBshdStrides",
              "inert | launch-surface:grid | " + kDenseLib + " attention_dense_grid | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:block | " + kDenseLib + " attention_dense_block | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:applicability | " + kDenseLib + " supports_attention_dense | " + kPacks +
                  "Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches");
  auto copy = rowsWith(r.out, {"mismatch", "attention_dense_signature"});
  ASSERT_EQ(copy.size(), 1u) << r.out;
  EXPECT_NE(copy[0].find("copy has 5 arguments, builder has 6: missing window_left (by_value/4) at #5"), std::string::npos)
      << copy[0];
  EXPECT_EQ(copy[0].find("matches no builder"), std::string::npos) << copy[0];  // its own module's builder
  // The C++ launch lacks it too (RealCorpusCpp's launch scenarios cover the launch side further).
  auto launch = rowsWith(r.out, {"mismatch", "Gfx942AttentionDenseDispatchHandler::launch launch(...)"});
  ASSERT_EQ(launch.size(), 1u) << r.out;
  EXPECT_NE(launch[0].find("copy has 5 arguments, builder has 6: missing window_left (by_value/4) at #5"),
            std::string::npos)
      << launch[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;

  // The restatement follows: the copy agrees again.
  repo.replace(C::kDenseBuilder, "        .scalar(\"scale\", \"f32\")\n",
               "        .scalar(\"scale\", \"f32\")\n        .scalar(\"window_left\", \"i32\")\n");
  repo.commit("the signature follows");
  r = report(repo);
  EXPECT_TRUE(rowsWith(r.out, {"mismatch", "attention_dense_signature"}).empty()) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"changed", "attention_dense_signature", "agrees (6 arguments)"}).size(), 1u) << r.out;
}

// Type identity (SPEC R2.1, issue 16 form 5): the builder's `scale` declared I32 at the same
// size, against a launch that passes a float field and a restatement that says "f32".
TEST(RealCorpusPython, DenseScaleDeclaredI32IsAMismatchAgainstTheFloatLaunchAndTheF32Signature) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  repo.replace(C::kDenseBuilder, "    scale = b.param(\"scale\", F32)\n", "    scale = b.param(\"scale\", I32)\n");
  repo.commit("scale as i32");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_ROWS(r.out,
              "mismatch | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLib + " attention_dense_signature",
              "mismatch | kernargs | " + kDenseLib + " build_attention_dense | " + kDenseLaunchCall,
              "changed | launch-surface:baked_constants | " + kDenseLib + " _build_attention_dense_single_buffer | " +
                  kPacks + "Gfx942AttentionDenseNative.cpp hasBshdStrides",
              "inert | launch-surface:grid | " + kDenseLib + " attention_dense_grid | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:block | " + kDenseLib + " attention_dense_block | " + kPacks +
                  "Gfx942AttentionDenseGeometry.hpp attentionDenseGeometry",
              "inert | launch-surface:applicability | " + kDenseLib + " supports_attention_dense | " + kPacks +
                  "Gfx942AttentionDenseNative.cpp gfx942AttentionDenseGraphMatches");
  for (const std::string& copy :
       {std::string("attention_dense_signature"), std::string("Gfx942AttentionDenseDispatchHandler::launch launch(...)")}) {
    auto row = rowsWith(r.out, {"mismatch", copy});
    ASSERT_EQ(row.size(), 1u) << copy << "\n" << r.out;
    EXPECT_NE(row[0].find("#4 scale: builder i32, copy f32"), std::string::npos) << row[0];
  }
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(RealCorpusPython, TiledProseApplicabilityLocatorIsNoMismatch) {
  IMPACT_REQUIRE_REAL_CORPUS();
  C repo;
  // A value edit of the profile (every surface of it is judged again), and a real edit of
  // supports_tiled_2d, which the applicability prose names: the prose locator follows the code.
  repo.replace(C::kTiledProfile, "      The 2D/3D scope gate is OURS, not rocKE's:",
               "      The 2D/3D scope gate is OURS (D4), not rocKE's:");
  repo.replace(C::kTiledBuilder, "        return False, f\"tiled 2D kernel currently supports fp16/bf16 (got {dtype!r})\"",
               "        return False, f\"tiled 2D kernel supports fp16/bf16 only (got {dtype!r})\"");
  repo.commit("profile: cite the decision; reword a decline");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("module Three"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("python_source is prose"), std::string::npos) << r.out;  // it resolves: no note
  Rows want = unifiedPreexisting(true);
  want.insert("inert | kernargs | " + kTiledLib + " build_unified_attention_2d_tiled | " + kTiledLaunchCall);
  want.insert("changed | launch-surface:paged_kv_layout | " + kTiledLib + " | " + kPacks +
              "Gfx950AttentionTiledGeometry.hpp gfx950TiledPagedKvGeometry");
  want.insert("changed | launch-surface:applicability | " + kTiledLib +
              " supports_tiled_2d, UnifiedAttention2DTiledSpec.__post_init__ | " + kPacks +
              "Gfx950AttentionTiledNative.cpp gfx950AttentionTiledGraphMatches");
  want.insert("changed | manifest | - | " + std::string(C::kTiledProfile));
  EXPECT_EQ(rowSet(r.out), want) << dump(rowSet(r.out)) << r.out;
  auto applicability = rowsWith(r.out, {"changed", "launch-surface:applicability"});
  ASSERT_EQ(applicability.size(), 1u) << r.out;
  EXPECT_NE(applicability[0].find("python side changed: supports_tiled_2d changed"), std::string::npos)
      << applicability[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

}  // namespace
}  // namespace impact::testing
