// The real rocm-libraries corpus (../shared/real-data/rocm-libraries, copied into a fixture
// repository at test time) through the real `impact` binary: the untouched tree against an empty
// commit (every contract of the tree compared; the set of rows printed, exactly). The edit
// scenarios of the real families are data: tests/scenarios/rocm-libraries/*.yaml.
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
    std::vector<std::string> f = rowFields(line);
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

}  // namespace
}  // namespace impact::testing
