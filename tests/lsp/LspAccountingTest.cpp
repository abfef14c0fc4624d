// Accounting in the editor (issue 26 item 3): a launch call in an open file that pairs with no
// builder is an Information diagnostic "not compared: ..." on the copy; a copy that pairs gets none.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/FixtureRepo.h"
#include "support/StrayPack.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;
const Json kTargetMain = {{"target", "main"}};


bool notCompared(const Json& diags) {
  for (const auto& d : diags)
    if (d.value("severity", 0) == 3 && d.value("message", "").find("not compared") != std::string::npos) return true;
  return false;
}

TEST(LspAccounting, ALaunchThatPairsWithNothingIsInformationOnTheCopy) {
  M repo;
  repo.write(kStrayPack, kStrayText);
  repo.commit("a pack nothing declares");
  repo.git("branch -f main HEAD");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string uri = uriIn(repo, kStrayPack);
  // The example's own pack pairs: no such diagnostic there (it publishes before the stray file).
  const std::string pack = uriIn(repo, M::kAttentionPack);
  c.notify("textDocument/didOpen", {{"textDocument",
                                     {{"uri", pack}, {"languageId", "cpp"}, {"version", 1}, {"text", repo.read(M::kAttentionPack)}}}});
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "cpp"}, {"version", 1}, {"text", repo.read(kStrayPack)}}}});
  size_t from = 0;
  auto got = waitDiags(c, uri, &from, notCompared);
  ASSERT_TRUE(got) << transcript(c);
  int infos = 0;
  for (const auto& d : (*got)["diagnostics"]) {
    if (d.value("severity", 0) != 3) continue;
    ++infos;
    EXPECT_EQ(int(d["range"]["start"]["line"]), 5) << d.dump();
    EXPECT_NE(d["message"].get<std::string>().find("launch call in launchStray pairs with no builder"), std::string::npos)
        << d.dump();
  }
  EXPECT_EQ(infos, 1) << got->dump(1);
  for (const auto& m : c.messages())
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == pack)
      EXPECT_FALSE(notCompared(m["params"]["diagnostics"])) << m.dump();
}

}  // namespace
}  // namespace impact::testing
