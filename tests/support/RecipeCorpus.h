// The real rocKE SDPA recipe set of ../shared/real-data/rocke-cpu (the platform subset, the
// five-argument gfx950 dense builder, the older RockeSdpaExample pack and its recipe fixture)
// committed into a fixture repository at test time; never copied into this repository.
#pragma once

#include <string>

#include "support/FixtureRepo.h"

namespace impact::testing {

// ../shared/real-data/rocke-cpu, or "" when absent.
std::string recipeCorpusDir();

#define IMPACT_REQUIRE_RECIPE_CORPUS()                                                    \
  do {                                                                                    \
    if (::impact::testing::recipeCorpusDir().empty())                                     \
      GTEST_SKIP() << "../shared/real-data/rocke-cpu is absent: the real recipe pack not checked"; \
  } while (0)

// The rocke-cpu tree committed on main, with branch `feature` checked out at the same commit.
class RecipeCorpusFixture : public FixtureRepo {
 public:
  RecipeCorpusFixture();
  static constexpr const char* kBuilder =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
  static constexpr const char* kNative =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/RockeSdpaNative.cpp";
  static constexpr const char* kStandalone =
      "dnn-providers/hip-kernel-provider/src/integration_tests/kernel_ingestor_engine/fixtures/rocke_recipe/"
      "test_native_sdpa.cpp";
};

}  // namespace impact::testing
