// The real rocm-libraries files of ../shared/real-data/rocm-libraries (two whole kernels with
// every C++ restatement) committed into a fixture repository at test time; never copied into
// this repository. Tests skip, saying so, when the folder is absent. The edit scenarios on these
// files are data: tests/scenarios/rocm-libraries/*.yaml (docs/contracts.md).
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

  // gfx950 tiled 2D attention: 18 unconditional arguments, launch in
  // Gfx950AttentionTiledDispatchHandler::launch.
  static constexpr const char* kTiledBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_tiled_2d.py";
  static constexpr const char* kTiledPack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionTiledNative.cpp";
  // gfx942 dense attention: 5 arguments declared in _build_attention_dense_single_buffer; the
  // SignatureBuilder restatement attention_dense_signature in the same module.
  static constexpr const char* kDenseBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/attention_dense.py";
  static constexpr const char* kDensePack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp";
  // gfx950 conv forward (the two-family AOT generation): the adapter module the profile names.
  static constexpr const char* kConvAdapter =
      "dnn-providers/hip-kernel-provider/rocke/library/builders/common/convolution_forward.py";
  // ... whose entry point returns this module's implicit-GEMM builder's kernel.
  static constexpr const char* kConvBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_implicit_gemm.py";
};

}  // namespace impact::testing
