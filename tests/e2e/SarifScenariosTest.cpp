// `impact report --format sarif` end to end: the SARIF log of reports holding every row kind,
// validated by Microsoft's SARIF validator (npm @microsoft/sarif-multitool, installed in
// tests/sarif by scripts/setup.sh), and read back for what code scanning relies on: levels,
// locations, fingerprints that survive code moving, the rollup.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;
using json = nlohmann::json;

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kCMake = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/CMakeLists.txt";
const std::string kRequirements = "dnn-providers/hip-kernel-provider/rocke/requirements.txt";
const std::string kGeometry =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseGeometry.hpp";
const char* kRmsSigLine = "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\")\n";

// A feature branch touching every contract kind at once, and a target tip (main) that moved on:
// a named pin the feature never saw (a race in the merged view) and a conflicting rms_norm edit.
void everyKindScenario(M& repo) {
  // The base: a common helper the builder module imports, a CMake file and requirements.
  repo.write(kLib + "kernels/common/tiles.py", "def tile_count(spec):\n    return spec.block_m // spec.block_n\n");
  repo.replace(M::kAttention, "from rocke.core.ir import", "from kernels.common.tiles import tile_count\nfrom rocke.core.ir import");
  repo.replace(M::kAttention, "def attention_dense_block(spec):\n",
               "def attention_dense_tiles(spec):\n    return tile_count(spec)\n\n\ndef attention_dense_block(spec):\n");
  repo.write(kCMake, "add_library(kernel_ingestor_engine IngestorPacks.cpp)\n");
  repo.write(kRequirements, "numpy>=1.24\n");
  repo.commit("base");
  repo.git("branch -f main HEAD");

  // The target moves on.
  repo.git("checkout -q main");
  repo.replace(M::kAttentionPin, "} // namespace\n",
               "std::vector<KernelArgument> expectedNamedSignature()\n{\n    return {\n"
               "        KernelArgument{\"global_buffer\", 8, 0, \"q_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 8, \"k_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 16, \"v_ptr\"},\n"
               "        KernelArgument{\"global_buffer\", 8, 24, \"o_ptr\"},\n"
               "        KernelArgument{\"by_value\", 4, 32, \"scale\"},\n"
               "        KernelArgument{\"by_value\", 4, 36, \"batch\"},\n"
               "        KernelArgument{\"by_value\", 4, 40, \"seqlen_q\"},\n"
               "        KernelArgument{\"by_value\", 4, 44, \"seqlen_kv\"},\n    };\n}\n\n} // namespace\n");
  repo.replace(M::kRmsNorm, kRmsSigLine,
               "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\").scalar(\"stride\", \"i32\")\n");
  repo.commit("target: named pin, rms_norm stride");

  // The feature.
  repo.git("checkout -q feature");
  repo.addSlidingWindowToBuilder();  // the pin does not follow: kernargs mismatch
  repo.addSlidingWindowToPack();     // the pack follows: kernargs changed [device: gfx950]
  repo.replace(M::kAttentionPack, "\"hipkernel.gfx950_attention_dense.graph_match\"",
               "\"hipkernel.gfx950_attention_dense.graph_match_v2\"");  // symbols mismatch
  repo.replace(kGeometry, "return {(seqlenQ + blockM - 1) / blockM, heads, batch};",
               "return {seqlenQ / blockM, heads, batch};");  // launch-surface changed
  repo.write(kLib + "kernels/common/tiles.py", "\"\"\"tile_count moved.\"\"\"\n");  // removed-symbol
  repo.replace(kCMake, "IngestorPacks.cpp)", "IngestorPacks.cpp packs/Gfx950AttentionDenseNative.cpp)");  // build
  repo.replace(kRequirements, "numpy>=1.24\n", "numpy>=2.0\n");  // deps
  repo.replace(M::kRmsNorm, kRmsSigLine,
               "    sig = sig.scalar(\"rows\", \"i32\").scalar(\"eps\", \"f32\")  # rows, then eps\n");  // conflict
  repo.commit("feature");
}

// A pin that had already drifted at the base, touched by the change (pre-existing), and a
// comment edit (inert: not a finding).
void preexistingAndInertScenario(M& repo) {
  repo.git("checkout -q main");
  repo.replace(M::kAttentionPin, "        KernelArgument{\"by_value\", 4, 44, \"\"},\n", "");
  repo.commit("a pin that already drifted");
  repo.git("checkout -q -b feature2");
  repo.replace(M::kAttentionPin, "// Restated from", "// Restated (by hand) from");
  repo.replace(M::kAttentionPin, "RefusesAnExtraArgument)\n{", "RefusesAnExtraArgument)\n{\n    SCOPED_TRACE(\"extra\");");
  repo.replace(M::kRmsNormPack, "    add(\"by_value\", F32, \"eps\");\n", "    add(\"by_value\", F32, \"eps\");  // epsilon\n");
  repo.commit("touch the pin; comment the rms pack");
}

json sarifOf(const FixtureRepo& repo, const std::string& extra, std::string* raw = nullptr) {
  RunResult r = report(repo, "--format sarif " + extra);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  if (raw) *raw = r.out;
  return json::parse(r.out);
}

// Runs the validator on the files; returns the uri of each file it found an error-level result
// in (schema violations), and the results as text in `log`.
std::multiset<std::string> validatorErrors(const std::vector<std::string>& files, std::string& log) {
  namespace fs = std::filesystem;
  std::string tool = IMPACT_SARIF_VALIDATOR;
  EXPECT_TRUE(fs::exists(tool)) << tool << " is missing: run scripts/setup.sh (npm ci in tests/sarif)";
  fs::path out = fs::temp_directory_path() / ("impact-sarif-validate-" + std::to_string(::getpid()) + ".sarif");
  std::string cmd = shellQuote(tool) + " validate";
  for (const auto& f : files) cmd += " " + shellQuote(f);
  cmd += " -o " + shellQuote(out.string()) + " --log ForceOverwrite";
  RunResult v = run(cmd);
  std::ifstream in(out);
  EXPECT_TRUE(in.good()) << "the validator wrote no log: " << v.out << v.err;
  if (!in.good()) return {"no validator log"};
  json j = json::parse(in);
  fs::remove(out);
  std::multiset<std::string> errors;
  for (const auto& run : j["runs"])
    for (const auto& res : run.value("results", json::array())) {
      // The validator's exit code is 0 even for an invalid file: its results say.
      std::string level = res.value("level", "warning");
      std::string uri = res["locations"][0]["physicalLocation"]["artifactLocation"].value("uri", "?");
      log += level + " " + res.value("ruleId", "") + " " + uri + " " + res["message"].dump() + "\n";
      if (level == "error") errors.insert(fs::path(uri).filename().string());
    }
  return errors;
}

std::string writeTemp(const std::string& name, const std::string& content) {
  auto p = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".sarif");
  std::ofstream(p) << content;
  return p.string();
}

// The results by rule id and level.
std::multiset<std::string> ruleLevels(const json& sarif) {
  std::multiset<std::string> out;
  for (const auto& r : sarif["runs"][0]["results"]) out.insert(r["ruleId"].get<std::string>() + "/" + r["level"].get<std::string>());
  return out;
}

TEST(SarifScenarios, EveryRowKindPassesMicrosoftsValidator) {
  M a;
  everyKindScenario(a);
  std::string rawA;
  json sa = sarifOf(a, "--target-tip main", &rawA);
  auto levels = ruleLevels(sa);
  // Every kind this scenario touches is a result at its level.
  for (const char* want : {"kernargs/error", "kernargs/warning", "symbols/error", "launch-surface/warning",
                           "removed-symbol/error", "build/warning", "merge-conflict/warning"})
    EXPECT_TRUE(levels.count(want)) << want << " missing in\n" << rawA;

  M b;
  preexistingAndInertScenario(b);
  std::string rawB;
  json sb = sarifOf(b, "", &rawB);
  EXPECT_TRUE(ruleLevels(sb).count("kernargs/note")) << rawB;
  // The inert row (the commented rms pack) is in the text report but is not a result.
  RunResult text = report(b);
  ASSERT_FALSE(rowsWith(text.out, {"inert", M::kRmsNormPack}).empty()) << text.out;
  for (const auto& r : sb["runs"][0]["results"])
    EXPECT_NE(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], M::kRmsNormPack) << r.dump();

  // An N/A report (no rows) is a valid log with no results.
  M c;
  c.write("README.md", "unrelated\n");
  c.commit("docs");
  std::string rawC;
  json sc = sarifOf(c, "", &rawC);
  EXPECT_TRUE(sc["runs"][0]["results"].empty()) << rawC;
  EXPECT_EQ(sc["runs"][0]["properties"]["rollup"]["verdict"], "N/A");

  // A copy without its tool.driver is invalid: the validator must say so (else it checked nothing).
  json broken = sa;
  broken["runs"][0]["tool"].erase("driver");
  std::vector<std::string> files = {writeTemp("every-kind", rawA), writeTemp("preexisting", rawB), writeTemp("na", rawC),
                                    writeTemp("control-invalid", broken.dump(2))};
  std::string log;
  auto errors = validatorErrors(files, log);
  const std::string control = std::filesystem::path(files.back()).filename().string();
  EXPECT_GE(errors.count(control), 1u) << "the validator found nothing wrong in a log without a driver:\n" << log;
  errors.erase(control);
  EXPECT_TRUE(errors.empty()) << "validator errors:\n" << log;
  for (const auto& f : files) std::filesystem::remove(f);
  std::cout << log;  // the validator's warnings, for the reader of the test log
}

TEST(SarifScenarios, ResultsPointAtTheCopyWithTheBuilderRelatedAndTheRollupInTheRun) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");
  std::string raw;
  json s = sarifOf(repo, "", &raw);
  ASSERT_EQ(s["version"], "2.1.0");
  ASSERT_EQ(s["runs"].size(), 1u);
  const json& run = s["runs"][0];
  const json& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "impact");
  EXPECT_FALSE(driver["version"].get<std::string>().empty());
  EXPECT_TRUE(driver["informationUri"].get<std::string>().starts_with("https://"));
  std::set<std::string> ruleIds;
  for (const auto& r : driver["rules"]) {
    ruleIds.insert(r["id"]);
    EXPECT_FALSE(r["help"]["text"].get<std::string>().empty()) << r.dump();
  }
  for (const char* id : {"kernargs", "launch-surface", "symbols", "kmd-fields", "removed-symbol", "kernel-code",
                         "copy-file", "manifest", "descriptor", "sdk-header", "generated-header", "build",
                         "merge-conflict"})
    EXPECT_TRUE(ruleIds.count(id)) << id;
  EXPECT_EQ(run["properties"]["rollup"]["verdict"], "BREAKS");
  EXPECT_EQ(run["properties"]["rollup"]["line"], "Runtime impact: BREAKS");

  int pinLine = repo.lineOf(M::kAttentionPin, "return {");
  bool sawPin = false, sawPack = false;
  for (const auto& r : run["results"]) {
    const json& loc = r["locations"][0]["physicalLocation"];
    if (loc["artifactLocation"]["uri"] == M::kAttentionPin && r["level"] == "error") {
      sawPin = true;
      EXPECT_EQ(loc["region"]["startLine"], pinLine) << r.dump();
      EXPECT_NE(r["message"]["text"].get<std::string>().find("copy has 8 arguments, builder has 11"), std::string::npos);
      const json& rel = r["relatedLocations"][0];
      EXPECT_EQ(rel["physicalLocation"]["artifactLocation"]["uri"], M::kAttention);
      EXPECT_EQ(rel["message"]["text"], "builder build_attention_dense");
    }
    if (loc["artifactLocation"]["uri"] == M::kAttentionPack) {
      sawPack = true;
      EXPECT_EQ(r["level"], "warning") << r.dump();
      EXPECT_EQ(r["properties"]["archs"], json::array({"gfx950"})) << r.dump();
      EXPECT_NE(r["message"]["text"].get<std::string>().find("Run on a device: gfx950."), std::string::npos) << r.dump();
    }
  }
  EXPECT_TRUE(sawPin) << raw;
  EXPECT_TRUE(sawPack) << raw;
}

TEST(SarifScenarios, FingerprintsSurviveCodeMovingAndDifferPerFinding) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");
  json before = sarifOf(repo, "");
  // Lines move in the builder, the pack and the pin; nothing else changes.
  repo.replace(M::kAttentionPin, "// Restated from", "// (moved)\n// (moved)\n// Restated from");
  repo.replace(M::kAttentionPack, "namespace", "// (moved)\n// (moved)\n// (moved)\nnamespace");
  repo.replace(M::kAttention, "def build_attention_dense", "# (moved)\n\ndef build_attention_dense");
  repo.commit("move code");
  json after = sarifOf(repo, "");

  auto byPrint = [](const json& s) {
    std::map<std::string, json> out;
    for (const auto& r : s["runs"][0]["results"]) {
      std::string fp = r["partialFingerprints"]["impactFinding/v1"];
      EXPECT_EQ(out.count(fp), 0u) << "two findings share a fingerprint: " << r.dump();
      out[fp] = r;
    }
    return out;
  };
  auto b = byPrint(before), a = byPrint(after);
  ASSERT_FALSE(b.empty());
  ASSERT_EQ(a.size(), b.size());
  bool moved = false;
  for (const auto& [fp, r] : b) {
    ASSERT_TRUE(a.count(fp)) << "finding lost its fingerprint: " << r.dump();
    if (r["locations"][0]["physicalLocation"].contains("region") &&
        r["locations"][0]["physicalLocation"]["region"] != a[fp]["locations"][0]["physicalLocation"]["region"])
      moved = true;
  }
  EXPECT_TRUE(moved) << "the edit moved no finding's line: the test proves nothing";
}

}  // namespace
}  // namespace impact::testing
