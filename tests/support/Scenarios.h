// Real-family scenarios as data (issue 26 item 7): one YAML file per family under
// tests/scenarios/<tree>/<family>.yaml, run by one parameterised test (tests/e2e/RealScenariosTest.cpp).
// The format, and how to add a family, is in docs/contracts.md ("Real families as scenario files").
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace impact::testing {

// One scenario of one file. `error` is set when the file could not be read as scenarios: the
// case then fails, naming the file and why.
struct ScenarioCase {
  std::string file;    // the scenario file
  std::string tree;    // what the fixture commits: rocm-libraries, rocke-cpu (../shared/real-data) or example-monorepo
  std::string family;  // the file's name without .yaml
  std::string name;    // the scenario's name ("" with `error`)
  int index = -1;      // its position in the file's `scenarios`
  std::string error;
};

// How gtest names a case's parameter: "family: scenario".
void PrintTo(const ScenarioCase& c, std::ostream* os);

// Every scenario of every .yaml file below `dir` (sorted by file, then position).
std::vector<ScenarioCase> loadScenarioCases(const std::string& dir);

// A test name for the case: family and scenario, letters and digits only.
std::string scenarioTestName(const ScenarioCase& c);

// Builds the case's fixture, runs its steps and checks every expectation (gtest assertions);
// skips, saying so, when the tree is absent from ../shared/real-data. A step or an expectation
// the runner cannot run (an unknown key, a missing snippet) fails the case, naming file and why.
void runScenario(const ScenarioCase& c);

}  // namespace impact::testing
