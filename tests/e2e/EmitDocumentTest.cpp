// The emit document: refused for other trees, another schema or a malformed shape; what the
// emitter records about the descriptors it reads (duplicate names, not_inspected, multi-launch).
#include <gtest/gtest.h>

#include <fstream>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

TEST(EmitDocument, DocumentForOtherTreesIsRefused) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    b.param(\"m\", I32)\n");
  repo.commit("a later head");
  RunResult r = repo.report();
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("refusing the emit document is for other trees"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("run impact emit for this range"), std::string::npos) << r.err;
}

TEST(EmitDocument, OtherSchemaIsRefused) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  doc["schema"]["version"] = 99;
  writeFile(repo.docPath(), doc.dump());
  RunResult r = repo.report();
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("refusing the emit document " + repo.docPath() +
                       ": schema \"impactd-emit\" version 99; this impact reads impactd-emit version 2"),
            std::string::npos)
      << r.err;
}

TEST(EmitDocument, MalformedDocumentsAreRefusedWithTheirReason) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto good = repo.doc();
  struct Case {
    std::string text, reason;
  };
  auto noFamilies = good;
  noFamilies["families"] = "all of them";
  auto badSize = good;
  badSize["families"][0]["variants"][0]["head"]["kernels"][0]["args"][0]["size"] = -8;
  auto badStatus = good;
  badStatus["families"][1]["head"]["status"] = "fine";
  for (const Case& c : std::vector<Case>{
           {"{\"schema\": ", "malformed: not JSON (byte 12)"},
           {"[1, 2]", "malformed: the document is not a JSON object"},
           {noFamilies.dump(), "malformed: document.families is not a list"},
           {badSize.dump(), "malformed: families[0].variants[0].head.kernels[0].args[0].size is not a non-negative integer"},
           {badStatus.dump(), "malformed: families[1].head.status 'fine' is not a known status"}}) {
    writeFile(repo.docPath(), c.text);
    RunResult r = repo.report();
    EXPECT_EQ(r.exitCode, 3) << c.reason;
    EXPECT_NE(r.err.find(c.reason), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one message: " << r.err;
  }
}

TEST(EmitDocument, TwoVariantsWithOneNameButDifferentSpecsAreAFailure) {
  E repo;
  repo.refactorScale();
  repo.addUkd("scale_1024", R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", "builder": "build_scale", "spec": {"n": 1024, "block": 128}})");
  repo.commit("refactor, and a second scale_1024");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  ASSERT_EQ(doc["failures"].size(), 1u) << doc["failures"].dump();
  EXPECT_EQ(doc["failures"][0]["family"], "kernels/gfx950/scale.py:build_scale");
  EXPECT_NE(doc["failures"][0]["message"].get<std::string>().find("two variants named scale_1024 (gfx950) with different specs"),
            std::string::npos);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", E::kScale}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("build_scale recorded a failure"), std::string::npos) << r.out;
}

TEST(EmitDocument, CompanionLaunchesOfOneBuilderAreNoDuplicateNames) {
  E repo;
  repo.addUkd("two_scales", R"({"sources": [
    {"kind": "rocke", "source": "kernels/gfx950/scale.py", "builder": "build_scale", "spec": {"n": 2048, "block": 256}},
    {"kind": "rocke", "source": "kernels/gfx950/scale.py", "builder": "build_scale", "spec": {"n": 2048, "block": 128}}]})");
  repo.commit("a multi-launch UKD of one builder");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  EXPECT_TRUE(doc["failures"].empty()) << doc["failures"].dump();
  std::vector<std::string> names;
  for (const auto& v : (*repo.family(doc, "kernels/gfx950/scale.py"))["variants"]) names.push_back(v["name"]);
  EXPECT_NE(std::find(names.begin(), names.end(), "two_scales/0"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "two_scales/1"), names.end());
}

TEST(EmitDocument, RecordsWhatItCouldNotInspectAndBuildsEveryLaunchOfAMultiLaunchUkd) {
  E repo;
  repo.refactorScale();
  repo.addUkd("no_builder", R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", "builder": 7})");
  repo.addUkd("no_source", "null");
  const std::string broken =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_broken/gfx950_broken.kdp.json";
  repo.write(broken, "{\"kernelDescriptors\": [\n");
  repo.commit("refactor, a UKD with a non-string builder, one without a kernel_source, a KDP cut short");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  std::vector<std::string> reasons;
  for (const auto& n : doc["not_inspected"]) reasons.push_back(n["reason"]);
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "broken_spec: kernel_source.spec is not an object"), reasons.end());
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "no_builder: kernel_source.source or .builder is not a string"),
            reasons.end());
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "no_source: no kernel_source"), reasons.end());
  bool brokenListed = false;
  for (const auto& n : doc["not_inspected"])
    if (n["path"] == broken) brokenListed = n["reason"].get<std::string>().find("byte") != std::string::npos;
  EXPECT_TRUE(brokenListed) << doc["not_inspected"].dump(1);
  // legacy_hip (kind hip) has nothing to build and is not listed.
  for (const auto& r : reasons) EXPECT_EQ(r.find("legacy_hip"), std::string::npos) << r;
  // scale_then_reduce's second launch (reduce, n 1024, 2 segments) is its own reduce variant,
  // named after its place in the UKD, with two kernels.
  const auto* reduce = repo.family(doc, "kernels/gfx950/reduce.py");
  ASSERT_NE(reduce, nullptr);
  bool found = false;
  for (const auto& v : (*reduce)["variants"])
    if (v["name"] == "scale_then_reduce/1") {
      found = true;
      ASSERT_EQ(v["head"]["kernels"].size(), 2u) << v.dump(1);
      EXPECT_EQ(v["head"]["kernels"][0]["name"], "reduce_segment_n1024");
      EXPECT_EQ(v["head"]["kernels"][1]["args"].size(), 2u);
    }
  EXPECT_TRUE(found) << reduce->dump(1);
}

TEST(EmitDocument, AFamilyOfManyVariantsIsBuiltInChunksAndComparedWhole) {
  E repo;
  repo.git("checkout -q main");
  for (int k = 1; k <= 40; ++k)
    repo.addUkd("scale_tile_" + std::to_string(k),
                R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", "builder": "build_scale", "spec": {"n": )" +
                    std::to_string(64 * k) + R"(, "block": 64}})");
  repo.commit("ship 40 more scale variants");
  repo.git("checkout -q -B feature");
  repo.refactorScale();
  repo.commit("refactor");
  RunResult e = repo.emit("--jobs 2");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  // 42 scale variants at each revision: two calls each (32 + 10); softmax and reduce once, shared.
  EXPECT_NE(e.err.find("6 family builds ran"), std::string::npos) << e.err;
  auto doc = repo.doc();
  const auto* scale = repo.family(doc, "kernels/gfx950/scale.py");
  ASSERT_NE(scale, nullptr);
  ASSERT_EQ((*scale)["variants"].size(), 42u);
  for (const auto& v : (*scale)["variants"]) {
    ASSERT_FALSE(v["head"]["kernels"].empty()) << v.dump();
    EXPECT_EQ(v["head"]["kernels"][0]["ir_sha256"], v["base"]["kernels"][0]["ir_sha256"]) << v["name"];
  }
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernel-code", E::kScale, "equal for all 42 shipped variants"}).size(), 1u) << r.out;
}

}  // namespace
}  // namespace impact::testing
