// The real rocm-libraries files of ../shared/real-data/rocm-libraries (two whole kernels with
// every C++ restatement) committed into a fixture repository at test time; never copied into
// this repository. Tests skip, saying so, when the folder is absent.
#pragma once

#include <string>

#include "support/FixtureRepo.h"

namespace impact::testing {

// ../shared/real-data/rocm-libraries, or "" when absent.
std::string realCorpusDir();

// Skips the current test when the real files are absent (CI has them).
#define IMPACT_REQUIRE_REAL_CORPUS()                                                       \
  do {                                                                                     \
    if (::impact::testing::realCorpusDir().empty())                                        \
      GTEST_SKIP() << "../shared/real-data/rocm-libraries is absent: real code not checked"; \
  } while (0)

// The real corpus committed on main, with branch `feature` checked out at the same commit.
class RealCorpusFixture : public FixtureRepo {
 public:
  RealCorpusFixture();

  static constexpr const char* kHkp = "dnn-providers/hip-kernel-provider/";
  // gfx950 tiled 2D attention: 18 unconditional arguments, launch in
  // Gfx950AttentionTiledDispatchHandler::launch.
  static constexpr const char* kTiledBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_tiled_2d.py";
  static constexpr const char* kTiledPack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledNative.cpp";
  static constexpr const char* kTiledGeometry =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledGeometry.hpp";
  static constexpr const char* kTiledProfile =
      "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_tiled.profile.yaml";
  static constexpr const char* kTiledMatchersTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950AttentionTiledMatchers.cpp";
  static constexpr const char* kTiledPacksTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950AttentionTiledPacks.cpp";
  static constexpr const char* kTiledGeometryTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950AttentionTiledGeometry.cpp";
  // gfx942 dense attention: 5 arguments declared in _build_attention_dense_single_buffer; the
  // SignatureBuilder restatement attention_dense_signature in the same module.
  static constexpr const char* kDenseBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/attention_dense.py";
  static constexpr const char* kDensePack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp";
  static constexpr const char* kDenseGeometry =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseGeometry.hpp";
  static constexpr const char* kDenseProfile =
      "projects/hipdnn/tools/IngestorGenerator/configs/gfx942_attention_dense.profile.yaml";
  static constexpr const char* kDenseMatchersTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx942AttentionDenseMatchers.cpp";
  static constexpr const char* kDensePacksTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx942AttentionDensePacks.cpp";
  static constexpr const char* kDenseGeometryTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx942AttentionDenseGeometry.cpp";
  // gfx950 conv forward, the two-family AOT generation (fork rdoshi-amd/rocm-libraries): the
  // implicit-GEMM builder declares A, B, D, A_bytes, B_bytes, D_bytes, then emit_param_block
  // (its module is not in the corpus) declares the 39 problem arguments; the launch in
  // ConvFwdDispatchHandler::launch passes the six, then a parameter pack from a std::variant.
  static constexpr const char* kConvBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_implicit_gemm.py";
  static constexpr const char* kConvAbi = "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_abi.py";
  static constexpr const char* kConvArgs = "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_args.py";
  static constexpr const char* kConvAdapter =
      "dnn-providers/hip-kernel-provider/rocke/library/builders/common/convolution_forward.py";
  static constexpr const char* kConvPack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdNative.cpp";
  static constexpr const char* kConvGeometry =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdGeometry.hpp";
  static constexpr const char* kConvProfile =
      "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_conv_fwd.profile.yaml";
  static constexpr const char* kConvYaml = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_conv_fwd.yaml";
  static constexpr const char* kConvGeometryTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950ConvFwdGeometry.cpp";
  static constexpr const char* kConvMatchersTest =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950ConvFwdMatchers.cpp";
  static constexpr const char* kConvKdp =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_conv_fwd/"
      "gfx950_conv_fwd.kdp.json";
};

}  // namespace impact::testing
