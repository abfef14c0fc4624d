// The emitter across a job matrix: `impact emit --shard K/N` on each of N caches (as N CI jobs)
// and `impact emit --merge` give the unsharded run's document; the merge refuses what does not
// belong together; the report folds the merged document like the unsharded one.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <set>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;
using nlohmann::json;

json readJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str(), nullptr, false);
}

void writeJson(const std::string& path, const json& j) { std::ofstream(path, std::ios::binary) << j.dump(2); }

std::string q(const std::string& s) { return shellQuote(s); }

// The emitter fixture with a scale refactor on `feature`, N shard documents and the unsharded
// one, each made with its own cache (as separate CI jobs would).
struct Sharded {
  E repo;
  std::string dir = repo.cacheDir() + "/..";
  std::string whole = dir + "/whole.json";
  std::string shard(int k) const { return dir + "/shard" + std::to_string(k) + ".json"; }
  std::string merged = dir + "/all.json";

  Sharded() {
    repo.refactorScale();
    repo.commit("refactor");
  }
  RunResult emitShard(int k, int n) {
    return repo.emit("--cache " + q(dir + "/cache-shard" + std::to_string(k)) + " --out " + q(shard(k)) + " --shard " +
                     std::to_string(k) + "/" + std::to_string(n));
  }
  RunResult merge(const std::vector<std::string>& files) {
    std::string cmd = "emit --merge";
    for (const auto& f : files) cmd += " " + q(f);
    return impact(cmd + " --out " + q(merged));
  }
};

TEST(EmitShard, ThreeShardsMergedEqualOneUnshardedRun) {
  Sharded s;
  ASSERT_EQ(s.repo.emit("--cache " + q(s.dir + "/cache-whole") + " --out " + q(s.whole)).exitCode, 0);
  std::set<std::string> seen, families;
  for (int k = 1; k <= 3; ++k) {
    RunResult r = s.emitShard(k, 3);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    json d = readJson(s.shard(k));
    ASSERT_TRUE(d.contains("shard")) << d.dump();
    EXPECT_EQ(d["shard"]["index"], k);
    EXPECT_EQ(d["shard"]["count"], 3);
    EXPECT_EQ(d["shard"]["families"].size(), d["families"].size());
    // Each chunk of a family in exactly one shard (a family may be split over several).
    for (const auto& c : d["shard"]["chunks"]) EXPECT_TRUE(seen.insert(c.get<std::string>()).second) << c;
    for (const auto& f : d["families"]) families.insert(f["source"].get<std::string>() + ":" + f["builder"].get<std::string>());
  }
  json whole = readJson(s.whole);
  ASSERT_FALSE(whole.contains("shard"));
  EXPECT_EQ(families.size(), whole["families"].size());
  EXPECT_GE(whole["families"].size(), 3u);
  // The shards in another order than 1..3: the merge does not depend on it.
  RunResult m = s.merge({s.shard(3), s.shard(1), s.shard(2)});
  ASSERT_EQ(m.exitCode, 0) << m.err;
  // No field legitimately differs: the document holds no timings, and each run had its own cold
  // cache, so every family side was "built" in both.
  EXPECT_EQ(readJson(s.merged), whole) << readJson(s.merged).dump(1) << "\n----\n" << whole.dump(1);

  // The same shard assignment whatever --jobs says.
  RunResult again = s.repo.emit("--cache " + q(s.dir + "/cache-again") + " --out " + q(s.dir + "/again.json") +
                                " --shard 2/3 --jobs 1");
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(readJson(s.dir + "/again.json")["shard"], readJson(s.shard(2))["shard"]);

  // The report folds the merged document into the same rows as the unsharded one.
  std::string report = "report --repo " + q(s.repo.dir()) + " --base main --head feature --format json --emit ";
  RunResult a = impact(report + q(s.merged));
  RunResult b = impact(report + q(s.whole));
  EXPECT_EQ(a.exitCode, b.exitCode);
  EXPECT_FALSE(a.out.empty());
  EXPECT_EQ(a.out, b.out);
  // A shard alone is not a run: the report refuses it.
  RunResult alone = impact(report + q(s.shard(1)));
  EXPECT_EQ(alone.exitCode, 3) << alone.out;
  EXPECT_NE(alone.err.find("it is shard 1/3 of a run; merge the shards first"), std::string::npos) << alone.err;
}

// The variant builds a shard document holds (the variant sides it built itself).
size_t builds(const json& d) {
  size_t n = 0;
  for (const auto& f : d["families"])
    for (const auto& v : f["variants"])
      for (const char* side : {"base", "head"})
        if (v[side].is_object() && !v[side].value("other_shard", false)) ++n;
  return n;
}

// One family of 24 variants at base (26 at head, its builder refactored) beside families of one
// or two: with N = 1, 2, 3 and 7 shards each shard builds its share of the big family, the
// small ones spread too (fewer variants than shards), and the merge equals the unsharded run.
TEST(EmitShard, ShardsSplitABigFamilyAndTheMergeReassemblesIt) {
  E repo;
  repo.git("checkout -q main");
  for (int i = 0; i < 22; ++i)
    repo.addUkd("scale_x" + std::to_string(i), R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", )"
                                               R"("builder": "build_scale", "spec": {"n": )" +
                                                   std::to_string(8192 * (i + 1)) + R"(, "block": 256}})");
  repo.commit("24 scale variants");
  repo.git("checkout -q -B feature main");
  repo.refactorScale();
  for (int i = 0; i < 2; ++i)
    repo.addUkd("scale_new" + std::to_string(i), R"({"kind": "rocke", "source": "kernels/gfx950/scale.py", )"
                                                 R"("builder": "build_scale", "spec": {"n": )" +
                                                     std::to_string(65536 * (i + 1)) + R"(, "block": 128}})");
  repo.commit("refactor, two new variants");
  std::string dir = repo.cacheDir() + "/..";
  std::string whole = dir + "/whole.json";
  RunResult w = repo.emit("--jobs 2 --cache " + q(dir + "/cache-whole") + " --out " + q(whole));
  ASSERT_EQ(w.exitCode, 0) << w.err;
  json wholeDoc = readJson(whole);
  const json* scale = repo.family(wholeDoc, "kernels/gfx950/scale.py");
  ASSERT_NE(scale, nullptr);
  ASSERT_EQ((*scale)["variants"].size(), 26u);
  size_t total = builds(wholeDoc);
  std::string report = "report --repo " + q(repo.dir()) + " --base main --head feature --format json --emit ";
  RunResult rowsWhole = impact(report + q(whole));
  EXPECT_FALSE(rowsWhole.out.empty());

  for (int n : {1, 2, 3, 7}) {
    SCOPED_TRACE("shards: " + std::to_string(n));
    std::vector<std::string> files;
    std::set<std::string> chunks;
    size_t sum = 0, most = 0, scaleShards = 0;
    for (int k = 1; k <= n; ++k) {
      std::string out = dir + "/s" + std::to_string(n) + "-" + std::to_string(k) + ".json";
      RunResult r = repo.emit("--jobs 2 --cache " + q(dir + "/c" + std::to_string(n) + "-" + std::to_string(k)) +
                              " --out " + q(out) + " --shard " + std::to_string(k) + "/" + std::to_string(n));
      ASSERT_EQ(r.exitCode, 0) << r.err;
      json d = readJson(out);
      for (const auto& c : d["shard"]["chunks"]) EXPECT_TRUE(chunks.insert(c.get<std::string>()).second) << c;
      if (repo.family(d, "kernels/gfx950/scale.py")) ++scaleShards;
      sum += builds(d);
      most = std::max(most, builds(d));
      files.push_back(out);
    }
    // Every variant side built exactly once over the shards, each shard about 1/n of them.
    EXPECT_EQ(sum, total);
    EXPECT_LE(most, total / n + 8) << "the largest shard builds " << most << " of " << total;
    EXPECT_GE(scaleShards, size_t(std::min(n, 6)));
    std::reverse(files.begin(), files.end());
    std::string merged = dir + "/m" + std::to_string(n) + ".json";
    std::string cmd = "emit --merge";
    for (const auto& f : files) cmd += " " + q(f);
    RunResult m = impact(cmd + " --out " + q(merged));
    ASSERT_EQ(m.exitCode, 0) << m.err;
    EXPECT_EQ(readJson(merged), wholeDoc) << readJson(merged).dump(1);
    RunResult rows = impact(report + q(merged));
    EXPECT_EQ(rows.exitCode, rowsWhole.exitCode);
    EXPECT_EQ(rows.out, rowsWhole.out);
  }
}

TEST(EmitShard, TheMergeRefusesShardsThatDoNotMakeOneRun) {
  Sharded s;
  for (int k = 1; k <= 2; ++k) ASSERT_EQ(s.emitShard(k, 2).exitCode, 0);
  auto refused = [&](const std::vector<std::string>& files, const std::string& message) {
    RunResult r = s.merge(files);
    EXPECT_EQ(r.exitCode, 3) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  refused({s.shard(1)}, "cannot merge: shard 2/2 is missing");
  refused({s.shard(1), s.shard(2), s.shard(1)}, "cannot merge: shard 1/2 is given twice");
  // Another schema: the reader refuses it, naming the file.
  json other = readJson(s.shard(2));
  other["schema"]["version"] = 1;
  writeJson(s.dir + "/old.json", other);
  refused({s.shard(1), s.dir + "/old.json"}, "refusing the shard document " + s.dir + "/old.json: schema");
  // Another driver.
  json driver = readJson(s.shard(2));
  driver["driver_version"] = "0123456789abcdef";
  writeJson(s.dir + "/driver.json", driver);
  refused({s.shard(1), s.dir + "/driver.json"}, "cannot merge: mixed driver versions");
  // An unsharded document is not a shard.
  ASSERT_EQ(s.repo.emit().exitCode, 0);
  refused({s.shard(1), s.repo.docPath()}, "cannot merge: a document to merge is a whole run, not a shard");
  // Shard 2 made for a later head: mixed trees.
  s.repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    b.param(\"m\", I32)\n");
  s.repo.commit("a later head");
  ASSERT_EQ(s.emitShard(2, 2).exitCode, 0);
  refused({s.shard(1), s.shard(2)}, "cannot merge: mixed trees");
  EXPECT_FALSE(std::ifstream(s.merged).good());
}

TEST(EmitShard, ShardUsageErrorsAreOneLine) {
  E repo;
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0", "/3"}) {
    RunResult r = repo.emit(std::string("--shard ") + bad);
    EXPECT_EQ(r.exitCode, 2) << bad;
    EXPECT_EQ(r.err, std::string("impact emit: --shard takes K/N with 1 <= K <= N (e.g. --shard 2/3), not '") + bad +
                         "'\ntry 'impact --help'\n");
  }
  RunResult both = impact("emit --merge a.json --shard 1/2");
  EXPECT_EQ(both.exitCode, 2);
}

}  // namespace
}  // namespace impact::testing
