// The real rocKE SDPA recipe pack (../shared/real-data/rocke-cpu, copied into a fixture repository
// at test time): its descriptor symbols are registered as literals at the registration call
// (`scope.add("hipkernel.rocke_sdpa.score", &score);`), which are pack symbols like constexpr
// constants (issue 16, form 9); a label edit in its fixture descriptors is inert (form 8).
#include <gtest/gtest.h>

#include <filesystem>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace fs = std::filesystem;

namespace impact::testing {
namespace {

const std::string kHkp = "dnn-providers/hip-kernel-provider/";
const std::string kNative = kHkp + "src/engines/kernel_ingestor_engine/packs/RockeSdpaNative.cpp";
const std::string kFixture = kHkp + "src/integration_tests/kernel_ingestor_engine/fixtures/rocke_recipe/";
const std::string kUhd = kFixture + "descriptors/sdpa.uhd.json";

std::string recipeCorpusDir() {
  if (sharedDir().empty()) return "";
  fs::path p = fs::path(sharedDir()) / "real-data" / "rocke-cpu";
  std::error_code ec;
  return fs::is_directory(p, ec) ? p.string() : "";
}

#define REQUIRE_RECIPE_CORPUS()                                                              \
  do {                                                                                       \
    if (recipeCorpusDir().empty())                                                           \
      GTEST_SKIP() << "../shared/real-data/rocke-cpu is absent: the real recipe pack not checked"; \
  } while (0)

// The real files committed on main, with branch `feature` checked out at the same commit.
class RecipeRepo : public FixtureRepo {
 public:
  RecipeRepo() {
    fs::copy(recipeCorpusDir(), dir(), fs::copy_options::recursive);
    for (auto& e : fs::recursive_directory_iterator(dir())) {
      if (e.path().filename() == ".git") continue;
      std::error_code ec;
      fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add, ec);
    }
    commit("Real rocKE recipe corpus");
    git("checkout -q -b feature");
  }
  // The whole tree against an empty commit: every contract of the tree is compared.
  RunResult reportEverything() {
    std::string empty = git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty");
    empty.erase(empty.find_last_not_of("\n") + 1);
    std::string all = git("commit-tree feature^{tree} -p " + empty + " -m all");
    all.erase(all.find_last_not_of("\n") + 1);
    return impact("report --repo " + shellQuote(dir()) + " --base " + empty + " --head " + all);
  }
};

TEST(RealCorpusRecipeSymbols, SymbolsRegisteredByALiteralArePackSymbols) {
  REQUIRE_RECIPE_CORPUS();
  RecipeRepo repo;
  RunResult r = repo.reportEverything();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Every descriptor symbol (UED, UMD, UHD, UDD) equals a literal given to scope.add.
  EXPECT_TRUE(rowsWith(r.out, {"symbols"}).empty()) << r.out;
  EXPECT_EQ(r.out.find("equals no pack constant"), std::string::npos) << r.out;
}

TEST(RealCorpusRecipeSymbols, ARenamedRegistrationLiteralIsASymbolsMismatch) {
  REQUIRE_RECIPE_CORPUS();
  RecipeRepo repo;
  repo.replace(kNative, "scope.add(\"hipkernel.rocke_sdpa.score\", &score);",
               "scope.add(\"hipkernel.rocke_sdpa.rank\", &score);");
  repo.commit("register the heuristic as rank");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsStarting(r.out, "mismatch", {"symbols", kUhd});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("descriptor payload \"hipkernel.rocke_sdpa.score\" equals no pack constant"), std::string::npos)
      << rows[0];
  EXPECT_NE(rows[0].find("closest: scope.add = \"hipkernel.rocke_sdpa.rank\" in RockeSdpaNative.cpp"),
            std::string::npos)
      << rows[0];
  EXPECT_EQ(rowsStarting(r.out, "mismatch").size(), 1u) << "the other three symbols still match\n" << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;

  // The descriptor follows: no mismatch.
  repo.replace(kUhd, "\"payload\": \"hipkernel.rocke_sdpa.score\"", "\"payload\": \"hipkernel.rocke_sdpa.rank\"");
  repo.commit("the heuristic descriptor follows");
  r = report(repo);
  EXPECT_TRUE(rowsWith(r.out, {"symbols"}).empty()) << r.out;
}

TEST(RealCorpusRecipeSymbols, ANameEditInAFixtureDescriptorIsInert) {
  REQUIRE_RECIPE_CORPUS();
  RecipeRepo repo;
  repo.replace(kUhd, "\"name\": \"SDPA recipe ordering\"", "\"name\": \"SDPA recipe ranking\"");
  repo.commit("rename the heuristic");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsStarting(r.out, "inert", {"descriptor", kUhd});
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("no value a contract reads changed (its name is a label)"), std::string::npos) << rows[0];
  EXPECT_TRUE(rowsStarting(r.out, "changed").empty()) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch").empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;

  // A value a contract reads is not a label: the payload moving is read by the symbols contract.
  repo.replace(kUhd, "\"payload\": \"hipkernel.rocke_sdpa.score\"", "\"payload\": \"hipkernel.rocke_sdpa.scores\"");
  repo.commit("payload typo");
  r = report(repo);
  EXPECT_EQ(rowsStarting(r.out, "mismatch", {"symbols", kUhd}).size(), 1u) << r.out;
}

}  // namespace
}  // namespace impact::testing
