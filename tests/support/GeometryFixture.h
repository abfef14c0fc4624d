// What the geometry differential's end-to-end tests share: a fixture repository with its own
// emitter cache folder, `impact report --geometry` on it, and a UKD in the real format.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"

namespace impact::testing {

class GeometryFixture : public ::testing::Test {
 protected:
  // A fresh repository and cache folder (call from SetUp once the real data is known present).
  void startRepo();
  // Commits what was written on main and moves to a branch `feature`.
  void ship(const std::string& message);
  void TearDown() override;
  // `impact report --base main --head feature --geometry` with `env` (NAME=value ...) set.
  RunResult report(const std::string& env = "") const;

  std::unique_ptr<FixtureRepo> repo_;
  std::string cache_;
};

// One rocKE UKD in the real KDP format.
nlohmann::json rockeUkd(const std::string& name, const std::string& id, const std::string& source,
                        const std::string& builder, const nlohmann::json& spec, const nlohmann::json& metadata);

}  // namespace impact::testing
