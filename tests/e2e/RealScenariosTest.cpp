// Every real-family scenario file (tests/scenarios/<tree>/<family>.yaml): one test per scenario,
// `RealScenarios/Scenario.Run/<family>_<scenario>`. Adding a family or a scenario adds a file or
// an entry, no C++ (issue 26 item 7). Each skips, saying so, when its tree is absent from
// ../shared/real-data; a file that cannot be read fails, naming the file and why.
#include <gtest/gtest.h>

#include "support/Scenarios.h"

namespace impact::testing {
namespace {

class Scenario : public ::testing::TestWithParam<ScenarioCase> {};

TEST_P(Scenario, Run) { runScenario(GetParam()); }

INSTANTIATE_TEST_SUITE_P(RealScenarios, Scenario, ::testing::ValuesIn(loadScenarioCases(IMPACT_SCENARIO_DIR)),
                         [](const ::testing::TestParamInfo<ScenarioCase>& info) { return scenarioTestName(info.param); });

// The runner itself: a malformed file is a failing case that names it, never a crash or silence.
TEST(ScenarioFiles, AMalformedFileIsACaseThatSaysWhy) {
  std::string dir = ::testing::TempDir() + "/scenarios-malformed";
  std::filesystem::create_directories(dir + "/rocm-libraries");
  std::ofstream(dir + "/rocm-libraries/broken.yaml") << "tree: rocm-libraries\nscenarios: [ {name: a\n";
  std::ofstream(dir + "/rocm-libraries/empty.yaml") << "tree: rocm-libraries\n";
  std::ofstream(dir + "/rocm-libraries/ok.yaml") << "tree: rocm-libraries\nscenarios:\n  - name: One thing\n    steps: []\n";
  auto cases = loadScenarioCases(dir);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].family, "broken");
  EXPECT_FALSE(cases[0].error.empty());
  EXPECT_EQ(cases[1].family, "empty");
  EXPECT_EQ(cases[1].error, "no `scenarios:` list");
  EXPECT_EQ(cases[2].error, "");
  EXPECT_EQ(scenarioTestName(cases[2]), "ok_One_thing");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace impact::testing
