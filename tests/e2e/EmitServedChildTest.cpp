// One driver child per job and tree (issue 27 item 2, docs/emitter.md "One child per job"): the
// chunks of one revision are served by at most --jobs children (counted by the summary line's
// "python children", never by timing), a child killed mid-stream costs only the chunk it was
// building, and the document is byte-identical to the one of a child per chunk.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;
using nlohmann::json;

// A number the summary line states before `what` ("12 family builds ran"); -1 when absent.
long counted(const std::string& err, const std::string& what) {
  std::smatch m;
  if (!std::regex_search(err, m, std::regex("([0-9]+) " + what))) return -1;
  return std::stol(m[1]);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `count` more variants of build_scale (four chunks of 32 with the fixture's own), committed on
// main; feature is main again, so base and head are one tree and each chunk is built once.
void manyScaleVariantsOnMain(E& repo, int count) {
  repo.git("checkout -q main");
  for (int i = 0; i < count; ++i)
    repo.addUkd("scale_many" + std::to_string(i), R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", )"
                                                  R"("builder": "build_scale", "spec": {"n": )" +
                                                      std::to_string(256 * (i + 1)) + R"(, "block": 256}})");
  repo.commit(std::to_string(count) + " scale variants");
  repo.git("checkout -q -B feature");
  std::filesystem::create_directories(repo.cacheDir());  // the document goes beside it, whichever --cache a run takes
}

TEST(EmitServedChild, TheChunksOfOneRevisionAreServedByAtMostJobsChildren) {
  E repo;
  manyScaleVariantsOnMain(repo, 100);
  for (int jobs : {1, 2}) {
    RunResult r = repo.emit("--no-probe --jobs " + std::to_string(jobs) + " --cache " +
                            shellQuote(repo.cacheDir() + std::to_string(jobs)));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // scale's 100+ variants are 4 chunks, beside the fixture's other families: one tree's builds.
    EXPECT_GE(counted(r.err, "family builds ran"), 6) << r.err;
    EXPECT_EQ(counted(r.err, "shared between base and head"), counted(r.err, "family builds ran")) << r.err;
    long children = counted(r.err, "python children");
    EXPECT_GE(children, 1) << r.err;
    EXPECT_LE(children, jobs) << r.err;
    json doc = repo.doc();
    const json* scale = repo.family(doc, "kernels/gfx950/scale.py");
    ASSERT_NE(scale, nullptr);
    EXPECT_EQ((*scale)["head"]["status"], "ok") << (*scale)["head"].dump();
    EXPECT_GT((*scale)["variants"].size(), 100u);
    for (const auto& v : (*scale)["variants"]) EXPECT_FALSE(v["head"]["kernels"].empty()) << v.dump();
  }
  // One child per chunk, as before: a child for each family build.
  RunResult r = repo.emit("--no-probe --jobs 2 --child-per-chunk --cache " + shellQuote(repo.cacheDir() + "x"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(counted(r.err, "python children"), counted(r.err, "family builds ran")) << r.err;
}

TEST(EmitServedChild, TwoRevisionsAreTwoChildrenForOneJob) {
  E repo;
  manyScaleVariantsOnMain(repo, 40);
  repo.refactorScale();  // the head's tree differs: its own child (other import roots)
  repo.commit("refactor");
  RunResult r = repo.emit("--no-probe --jobs 1");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_GE(counted(r.err, "family builds ran"), 4) << r.err;
  EXPECT_EQ(counted(r.err, "python children"), 2) << r.err;
}

// A builder that kills its own process on one variant (n == 5000): that variant's chunk (the
// second of three) gets the named error on each of its variants, and a fresh child builds the
// chunks after it.
TEST(EmitServedChild, AChildKilledMidStreamCostsOnlyItsChunk) {
  E repo;
  repo.git("checkout -q main");
  std::string scale = repo.read(E::kScale);
  std::string crashy = scale;
  auto swap = [&](const std::string& from, const std::string& to) {
    for (size_t at = crashy.find(from); at != std::string::npos; at = crashy.find(from, at + to.size()))
      crashy.replace(at, from.size(), to);
  };
  swap("build_scale", "build_crashy");
  swap("supports_scale", "supports_crashy");
  swap("f\"scale_n", "f\"crashy_n");
  swap("    b = IRBuilder(", "    if spec.n == 5000:\n        import os, signal\n        os.kill(os.getpid(), signal.SIGKILL)\n"
                           "    b = IRBuilder(");
  ASSERT_NE(crashy.find("SIGKILL"), std::string::npos);
  repo.write(std::string(E::kLib) + "kernels/gfx950/crashy.py", crashy);
  for (int i = 0; i < 70; ++i)
    repo.addUkd("crashy_" + std::to_string(i), R"({"kind": "rocke", "source": "kernels/gfx950/crashy.py", )"
                                              R"("builder": "build_crashy", "spec": {"n": )" +
                                                  std::to_string(i == 40 ? 5000 : 256 * (i + 1)) + R"(, "block": 256}})");
  repo.commit("a builder that kills itself on one variant");
  repo.git("checkout -q -B feature");
  RunResult r = repo.emit("--no-probe --jobs 1");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // One child until the kill, a fresh one for what came after.
  EXPECT_EQ(counted(r.err, "python children"), 2) << r.err;
  json doc = repo.doc();
  const json* f = repo.family(doc, "kernels/gfx950/crashy.py");
  ASSERT_NE(f, nullptr) << doc.dump(1);
  EXPECT_EQ((*f)["head"]["status"], "failed") << (*f)["head"].dump();
  EXPECT_NE((*f)["head"].value("error", "").find("killed by signal 9"), std::string::npos) << (*f)["head"].dump();
  const json& vs = (*f)["variants"];
  ASSERT_EQ(vs.size(), 70u);
  for (size_t i = 0; i < vs.size(); ++i) {
    const json& head = vs[i]["head"];
    if (i >= 32 && i < 64) {
      EXPECT_NE(head.value("error", "").find("the driver was killed by signal 9 without an answer"), std::string::npos)
          << i << " " << head.dump();
      EXPECT_TRUE(head.value("kernels", json::array()).empty()) << i;
    } else {
      EXPECT_FALSE(head.contains("error")) << i << " " << head.dump();
      ASSERT_EQ(head["kernels"].size(), 1u) << i << " " << head.dump();
      EXPECT_EQ(head["kernels"][0]["name"], "crashy_n" + std::to_string(256 * (i + 1)) + "_b256") << i;
    }
  }
  for (const char* ok : {"kernels/gfx950/scale.py", "kernels/gfx950/softmax.py", "kernels/gfx950/reduce.py"}) {
    const json* o = repo.family(doc, ok);
    ASSERT_NE(o, nullptr) << ok;
    EXPECT_EQ((*o)["head"]["status"], "ok") << ok << (*o)["head"].dump();
  }
}

// Probes on, two trees, several chunks: the served children write the document a child per
// chunk writes, byte for byte.
TEST(EmitServedChild, TheDocumentIsTheOneOfAChildPerChunk) {
  E repo;
  manyScaleVariantsOnMain(repo, 70);
  repo.refactorScale();
  repo.commit("refactor");
  std::string served = repo.docPath() + ".served", perChunk = repo.docPath() + ".chunk";
  RunResult a = repo.emit("--jobs 2 --cache " + shellQuote(repo.cacheDir() + "a"));
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(std::rename(repo.docPath().c_str(), served.c_str()), 0);
  RunResult b = repo.emit("--jobs 2 --child-per-chunk --cache " + shellQuote(repo.cacheDir() + "b"));
  ASSERT_EQ(b.exitCode, 0) << b.err;
  ASSERT_EQ(std::rename(repo.docPath().c_str(), perChunk.c_str()), 0);
  EXPECT_LT(counted(a.err, "python children"), counted(b.err, "python children")) << a.err << "\n" << b.err;
  std::string x = slurp(served), y = slurp(perChunk);
  EXPECT_GT(x.size(), 10000u);
  EXPECT_TRUE(x == y) << "the served children's document differs from a child per chunk's";
  json d = json::parse(x, nullptr, false);
  const json* scale = repo.family(d, "kernels/gfx950/scale.py");
  ASSERT_NE(scale, nullptr);
  EXPECT_GT((*scale)["variants"].size(), 70u);
  EXPECT_TRUE((*scale)["head"]["built"].get<bool>());
  EXPECT_TRUE(d["pack_time"].is_object()) << d.dump(1).substr(0, 2000);
}

}  // namespace
}  // namespace impact::testing
