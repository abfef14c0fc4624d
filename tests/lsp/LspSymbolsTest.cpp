// impactd's document and workspace symbols (issue 38) over LSP: the REAL tiled builder in its
// file's outline with its 18 arguments as children, in order; the pack's outline holds its launch,
// a copy of that builder; workspace symbols find the family by builder and by the pack's function.
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

Json result(LspClient& c, const std::string& method, const Json& params) {
  auto r = c.response(c.request(method, params), 20000ms);
  if (!r || !r->contains("result")) {
    ADD_FAILURE() << method << ": " << (r ? r->dump() : "no answer");
    return Json::array();
  }
  return (*r)["result"];
}

TEST(LspSymbols, TheRealTiledBuilderIsInTheOutlineWithItsEighteenArguments) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RC repo;
  LspClient c;
  size_t from = 0;
  auto init = c.initialize(repo.dir(), kTargetMain);
  EXPECT_TRUE(init["result"]["capabilities"]["documentSymbolProvider"].get<bool>());
  EXPECT_TRUE(init["result"]["capabilities"]["workspaceSymbolProvider"].get<bool>());
  ASSERT_TRUE(waitReady(c, &from)) << transcript(c);
  Json syms = result(c, "textDocument/documentSymbol", {{"textDocument", {{"uri", uriIn(repo, RC::kTiledBuilder)}}}});
  const Json* b = nullptr;
  for (const auto& s : syms)
    if (s["name"] == "build_unified_attention_2d_tiled") b = &s;
  ASSERT_TRUE(b) << syms.dump(1);
  EXPECT_EQ((*b)["kind"], 12);
  EXPECT_EQ((*b)["selectionRange"]["start"]["line"], line0(repo, RC::kTiledBuilder, "def build_unified_attention_2d_tiled("));
  std::vector<std::string> args;
  for (const auto& a : (*b)["children"])
    if (a["kind"] == 8) args.push_back(a["name"]);
  ASSERT_EQ(args.size(), 18u) << b->dump(1);
  EXPECT_EQ(args.front(), "output_ptr");
  EXPECT_EQ(args[10], "scale");
  EXPECT_EQ(args.back(), "qq_bias_stride_0");
  // The detail gives the kind and size: num_seqs is an i32 by value.
  for (const auto& a : (*b)["children"])
    if (a["name"] == "num_seqs") EXPECT_EQ(a["detail"].get<std::string>().rfind("by_value/4", 0), 0u) << a.dump();

  Json pack = result(c, "textDocument/documentSymbol", {{"textDocument", {{"uri", uriIn(repo, RC::kTiledPack)}}}});
  const Json* launch = nullptr;
  for (const auto& s : pack)
    if (s.value("detail", "").find("launch, copy of build_unified_attention_2d_tiled") != std::string::npos) launch = &s;
  ASSERT_TRUE(launch) << pack.dump(1);
  ASSERT_EQ((*launch)["children"].size(), 18u);
  EXPECT_EQ((*launch)["children"][0]["name"], "output_ptr");
  EXPECT_EQ((*launch)["children"][0]["detail"].get<std::string>().rfind("o.ptr", 0), 0u);

  Json ws = result(c, "workspace/symbol", {{"query", "unified_attention_2d_tiled"}});
  bool builder = false, copy = false;
  for (const auto& s : ws) {
    builder |= s["name"] == "build_unified_attention_2d_tiled" && s["kind"] == 12;
    copy |= s.value("containerName", "").find("copy of build_unified_attention_2d_tiled") != std::string::npos;
  }
  EXPECT_TRUE(builder) << ws.dump(1);
  Json byPack = result(c, "workspace/symbol", {{"query", "Gfx950AttentionTiledDispatchHandler"}});
  for (const auto& s : byPack)
    copy |= s.value("containerName", "").find("copy of build_unified_attention_2d_tiled") != std::string::npos;
  EXPECT_TRUE(copy) << byPack.dump(1);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
