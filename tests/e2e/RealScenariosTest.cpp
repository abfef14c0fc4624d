// Every real-family scenario file (tests/scenarios/<tree>/<family>.yaml): one test per scenario,
// `RealScenarios/Scenario.Run/<family>_<scenario>`. Adding a family or a scenario adds a file or
// an entry, no C++ (issue 26 item 7). Each skips, saying so, when its tree is absent from
// ../shared/real-data; a file that cannot be read fails, naming the file and why.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

// A scenario that asks for what the runner cannot do fails, naming the file and the reason: an
// unknown key (a typo would otherwise check nothing), a snippet that is not there, a `find` the
// file does not hold. On the example monorepo, so that it runs without ../shared.
TEST(ScenarioFiles, AScenarioTheRunnerCannotRunFailsSayingWhy) {
  static std::string dir = ::testing::TempDir() + "/scenarios-bad-steps";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/bad.yaml") << R"yaml(tree: example-monorepo
files:
  builder: dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py
scenarios:
  - name: Typo
    steps:
      - report:
          verdcit: "Runtime impact: N/A"
  - name: NoSuchSnippet
    steps:
      - replace: builder
        find: "{{snippet:nowhere}}"
        with: ""
  - name: FindNotInTheFile
    steps:
      - replace: builder
        find: "b.param(\"no_such_argument\", I32)"
        with: ""
)yaml";
  static std::vector<ScenarioCase> cases = loadScenarioCases(dir);
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& c : cases) EXPECT_EQ(c.error, "") << c.name;
  EXPECT_FATAL_FAILURE(runScenario(cases[0]), "bad.yaml: scenario Typo: unknown key `verdcit` in a report step");
  EXPECT_FATAL_FAILURE(runScenario(cases[1]), "bad.yaml: scenario NoSuchSnippet: no snippet `nowhere` in `snippets:`");
  EXPECT_FATAL_FAILURE(runScenario(cases[2]), "fixture: 'b.param(\"no_such_argument\", I32)' not in dnn-providers/");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace impact::testing
