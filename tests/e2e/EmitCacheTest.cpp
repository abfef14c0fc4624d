// The emitter's per-family cache: a second run after a one-file edit rebuilds only the families
// whose module closure holds that file.
#include <gtest/gtest.h>

#include <set>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

// "source (base|head)" of every family side the run built rather than took from the cache.
std::set<std::string> built(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["families"])
    for (const char* side : {"base", "head"})
      if (f[side]["built"].get<bool>()) out.insert(f["source"].get<std::string>() + " " + side);
  return out;
}

TEST(EmitCache, ASecondRunRebuildsOnlyTheFamiliesImportingTheEditedFile) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  RunResult first = repo.emit();
  ASSERT_EQ(first.exitCode, 0) << first.err;
  // scale changed: built at both; softmax and reduce did not: built once, the head shares it.
  EXPECT_EQ(built(repo.doc()), (std::set<std::string>{"kernels/gfx950/scale.py base", "kernels/gfx950/scale.py head",
                                                      "kernels/gfx950/softmax.py base", "kernels/gfx950/reduce.py base"}));
  EXPECT_NE(first.err.find("4 family builds ran, 0 from the cache, 2 shared between base and head"), std::string::npos) << first.err;

  RunResult again = repo.emit();
  ASSERT_EQ(again.exitCode, 0);
  EXPECT_TRUE(built(repo.doc()).empty());
  EXPECT_NE(again.err.find("0 family builds ran, 4 from the cache, 2 shared between base and head"), std::string::npos) << again.err;

  // softmax.py: only the softmax family imports it.
  repo.replace(std::string(E::kLib) + "kernels/gfx950/softmax.py", "    b.store(y, 0, b.op(\"exp\", m))\n",
               "    e = b.op(\"exp\", m)\n    b.store(y, 0, e)\n");
  repo.commit("softmax refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  EXPECT_EQ(built(repo.doc()), (std::set<std::string>{"kernels/gfx950/softmax.py head"}));

  // rocke/helpers/tiling.py: scale and softmax import it, reduce does not.
  repo.replace(std::string(E::kPlatform) + "helpers/tiling.py", "    return (n + block - 1) // block\n",
               "    return -(-n // block)\n");
  repo.commit("tiles by negation");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  EXPECT_EQ(built(doc), (std::set<std::string>{"kernels/gfx950/scale.py head", "kernels/gfx950/softmax.py head"}));
  for (const auto& f : doc["families"]) EXPECT_EQ(f["head"]["status"], "ok") << f.dump();
}

TEST(EmitCache, ResultsFromTheCacheFoldLikeFreshOnes) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  ASSERT_EQ(repo.emit().exitCode, 0);
  ASSERT_TRUE(built(repo.doc()).empty());
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("Runtime impact: NONE"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace impact::testing
