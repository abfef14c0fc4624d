// impactd's code lenses (issue 38) over LSP: above the REAL tiled builder, its copies counted
// ("N copies · 0 stale · …"), above its launch "copy of build_…: agrees"; on the example, after the
// sliding-window change leaves the test pin behind, the pin's lens counts its mismatches and its
// command jumps to the builder, and the builder's lens peeks the copies.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

using RC = RealCorpusFixture;
const Json kTargetMain = {{"target", "main"}};

bool waitReady(LspClient& c, size_t* from) {
  return c.waitMethod("impactd/status", from, [](const Json& p) { return p.value("state", "") == "ready"; }, 30000ms)
      .has_value();
}

// Every lens of the file, resolved.
std::vector<Json> lenses(LspClient& c, const std::string& uri) {
  int id = c.request("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}});
  auto r = c.response(id, 20000ms);
  std::vector<Json> out;
  if (!r || !(*r)["result"].is_array()) {
    ADD_FAILURE() << (r ? r->dump() : "no answer");
    return out;
  }
  for (const auto& l : (*r)["result"]) {
    EXPECT_FALSE(l.contains("command")) << "a lens is resolved on demand: " << l.dump();
    auto res = c.response(c.request("codeLens/resolve", l), 20000ms);
    if (!res || !(*res)["result"].is_object()) {
      ADD_FAILURE() << (res ? res->dump() : "no answer");
      continue;
    }
    out.push_back((*res)["result"]);
  }
  return out;
}

const Json* lensAt(const std::vector<Json>& ls, int line) {
  for (const auto& l : ls)
    if (l["range"]["start"]["line"] == line) return &l;
  return nullptr;
}

TEST(LspCodeLens, TheRealTiledBuilderCountsItsCopiesAndTheLaunchAgrees) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RC repo;
  LspClient c;
  size_t from = 0;
  auto init = c.initialize(repo.dir(), kTargetMain);
  EXPECT_TRUE(init["result"]["capabilities"]["codeLensProvider"]["resolveProvider"].get<bool>()) << init.dump();
  ASSERT_TRUE(waitReady(c, &from)) << transcript(c);
  auto bl = lenses(c, uriIn(repo, RC::kTiledBuilder));
  const Json* b = lensAt(bl, line0(repo, RC::kTiledBuilder, "def build_unified_attention_2d_tiled("));
  ASSERT_TRUE(b) << Json(bl).dump(1);
  std::string title = (*b)["command"]["title"];
  // "N copies · 0 stale · M shipped variants": the launch is its one copy (the pack's tests pin KMD
  // vocabulary, not the argument list), and no declaration of this tree ships the builder.
  EXPECT_EQ(title, "1 copy · 0 stale · no shipped variants") << title;
  EXPECT_EQ((*b)["command"]["command"], "impact.peekCopies");
  int n = std::stoi(title);
  EXPECT_EQ((*b)["command"]["arguments"][0]["locations"].size(), size_t(n)) << b->dump();
  bool launchListed = false;
  for (const auto& l : (*b)["command"]["arguments"][0]["locations"])
    launchListed |= l["uri"] == uriIn(repo, RC::kTiledPack);
  EXPECT_TRUE(launchListed) << b->dump();

  auto pl = lenses(c, uriIn(repo, RC::kTiledPack));
  const Json* p = lensAt(pl, line0(repo, RC::kTiledPack, "preparedTiled.kernel().launch("));
  ASSERT_TRUE(p) << Json(pl).dump(1);
  EXPECT_EQ((*p)["command"]["title"], "copy of build_unified_attention_2d_tiled: agrees");
  EXPECT_EQ((*p)["command"]["command"], "impact.showMirror");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspCodeLens, AStalePinCountsItsMismatchesAndItsLensJumpsToTheBuilder) {
  M repo;
  addSlidingWindow(repo);
  LspClient c;
  size_t from = 0;
  c.initialize(repo.dir(), kTargetMain);
  ASSERT_TRUE(waitReady(c, &from)) << transcript(c);
  auto pin = lenses(c, uriIn(repo, M::kAttentionPin));
  const Json* p = lensAt(pin, line0(repo, M::kAttentionPin, "return {", "std::vector<KernelArgument> expectedSignature()"));
  ASSERT_TRUE(p) << Json(pin).dump(1);
  EXPECT_EQ((*p)["command"]["title"], "copy of build_attention_dense: 3 mismatches") << p->dump();
  // Its command: the builder's def, through the server's impact.showMirror.
  size_t mark = c.mark();
  auto r = c.response(c.request("workspace/executeCommand", {{"command", (*p)["command"]["command"]},
                                                              {"arguments", (*p)["command"]["arguments"]}}));
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "no answer");
  auto shown = c.waitMethod("window/showDocument", &mark);
  ASSERT_TRUE(shown) << transcript(c);
  EXPECT_EQ((*shown)["params"]["uri"], uriIn(repo, M::kAttention));
  EXPECT_EQ((*shown)["params"]["selection"]["start"]["line"], line0(repo, M::kAttention, "def build_attention_dense("));

  auto bl = lenses(c, uriIn(repo, M::kAttention));
  const Json* b = lensAt(bl, line0(repo, M::kAttention, "def build_attention_dense("));
  ASSERT_TRUE(b) << Json(bl).dump(1);
  std::string title = (*b)["command"]["title"];
  EXPECT_NE(title.find(" · 1 stale · "), std::string::npos) << title;  // the pin; the pack follows the builder
  bool pinListed = false;
  for (const auto& l : (*b)["command"]["arguments"][0]["locations"]) pinListed |= l["uri"] == uriIn(repo, M::kAttentionPin);
  EXPECT_TRUE(pinListed) << b->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
