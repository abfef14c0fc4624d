// impactd end to end: where the diagnostic of a launch call (on the REAL gfx950 tiled pack) and
// of a real-format AOT catalog entry lands. The real files are committed into a fixture
// repository at test time; the real-corpus test skips, saying so, when they are absent.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/ConvRewrite.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

const Json* firstError(const Json& params) {
  for (const auto& d : params["diagnostics"])
    if (d["severity"] == 1) return &d;
  return nullptr;
}

// The tiled builder widens num_seqs to I64: the error sits on the launch call's argument that
// packs it, `static_cast<int32_t>(binding.numSeqs)`, in Gfx950AttentionTiledDispatchHandler::launch.
TEST(LspLaunchAndCatalog, TheLaunchDiagnosticLandsOnTheArgumentOnTheRealTiledPack) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RealCorpusFixture repo;
  repo.replace(RealCorpusFixture::kTiledBuilder, "b.param(\"num_seqs\", I32)", "b.param(\"num_seqs\", I64)");
  repo.commit("num_seqs widened");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  const std::string pack = uriIn(repo, RealCorpusFixture::kTiledPack);
  auto diags = waitDiags(c, pack, &from, [](const Json& d) { return hasSeverity(d, 1); }, 20000ms);
  ASSERT_TRUE(diags) << c.stderrText() << transcript(c);
  const Json* err = firstError(*diags);
  ASSERT_TRUE(err);
  const std::string arg = "static_cast<int32_t>(binding.numSeqs)";
  int l = line0(repo, RealCorpusFixture::kTiledPack, arg, "preparedTiled.kernel().launch(");
  int col = col0(repo, RealCorpusFixture::kTiledPack, l, arg);
  EXPECT_EQ((*err)["range"], range(l, col, l, col + int(arg.size()))) << err->dump();
  EXPECT_EQ((*err)["code"], "kernargs");
  EXPECT_NE((*err)["message"].get<std::string>().find("#15 num_seqs: copy by_value/4, builder by_value/8"),
            std::string::npos)
      << err->dump();
  // The builder's side: the b.param that changed.
  ASSERT_EQ((*err)["relatedInformation"].size(), 1u) << err->dump();
  int pl = line0(repo, RealCorpusFixture::kTiledBuilder, "b.param(\"num_seqs\", I64)");
  EXPECT_EQ((*err)["relatedInformation"][0]["location"]["range"]["start"]["line"], pl);
  // Hover on that b.param lists the launch call as a copy whose kind differs.
  int pc = col0(repo, RealCorpusFixture::kTiledBuilder, pl, "b.param");
  int id = c.request("textDocument/hover", at(uriIn(repo, RealCorpusFixture::kTiledBuilder), pl, pc + 3));
  auto h = c.response(id);
  ASSERT_TRUE(h && (*h)["result"].is_object()) << (h ? h->dump() : "timeout");
  std::string v = (*h)["result"]["contents"]["value"];
  EXPECT_NE(v.find("Gfx950AttentionTiledNative.cpp"), std::string::npos) << v;
  EXPECT_NE(v.find("differs: by_value/4"), std::string::npos) << v;
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// The builder gains an argument after qq_bias_stride_0: the launch lacks it; the error sits on
// the launch's last argument, where the missing one belongs.
TEST(LspLaunchAndCatalog, AMissingLaunchArgumentLandsOnTheLastArgument) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RealCorpusFixture repo;
  repo.replace(RealCorpusFixture::kTiledBuilder, "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n",
               "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n"
               "    extra_flag_p = b.param(\"extra_flag\", I32)\n");
  repo.commit("builder gains extra_flag");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  auto diags = waitDiags(c, uriIn(repo, RealCorpusFixture::kTiledPack), &from,
                         [](const Json& d) { return hasSeverity(d, 1); }, 20000ms);
  ASSERT_TRUE(diags) << c.stderrText() << transcript(c);
  const Json* err = firstError(*diags);
  ASSERT_TRUE(err);
  const std::string arg = "static_cast<int32_t>(0)";
  int l = line0(repo, RealCorpusFixture::kTiledPack, arg, "preparedTiled.kernel().launch(");
  int col = col0(repo, RealCorpusFixture::kTiledPack, l, arg);
  EXPECT_EQ((*err)["range"], range(l, col, l, col + int(arg.size()))) << err->dump();
  EXPECT_NE((*err)["message"].get<std::string>().find("missing extra_flag (by_value/4) at #18"), std::string::npos)
      << err->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// The real conv pack reads its list through an X-macro of a header of the tree beside it (issue 36):
// editing that header in the editor (its buffer, not saved) re-reads the pack from the buffer, and
// the pack's copy gets its diagnostic; the edit undone, it goes away. The pack's launch, which reads
// nothing of the header, gets none either way.
TEST(LspLaunchAndCatalog, EditingAHeaderThePackReadsRejudgesThePack) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  repo.throughHeaderXMacro();
  repo.commit("conv signature through an X-macro of a header");
  repo.git("branch -f main HEAD");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pack = uriIn(repo, kConvPack), header = uriIn(repo, kConvHeader);
  size_t from = 0;
  std::string text = repo.read(kConvHeader);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", header}, {"languageId", "cpp"}, {"version", 1}, {"text", text}}}});
  const std::string was = "X(\"by_value\", I32_BYTES, \"B_bytes\")", now = "X(\"by_value\", POINTER_BYTES, \"B_bytes\")";
  int l = line0(repo, kConvHeader, was);
  int col = col0(repo, kConvHeader, l, was);
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", header}, {"version", 2}}},
            {"contentChanges", {{{"range", range(l, col, l, col + int(was.size()))}, {"text", now}}}}});
  auto broken = waitDiags(c, pack, &from, [](const Json& d) { return hasSeverity(d, 1); }, 20000ms);
  ASSERT_TRUE(broken) << c.stderrText() << transcript(c);
  int errors = 0;
  for (const auto& d : (*broken)["diagnostics"]) {
    if (d.value("severity", 0) != 1) continue;
    ++errors;
    const std::string msg = d["message"];
    EXPECT_NE(msg.find("B_bytes: copy by_value/8, builder by_value/4"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("launch call"), std::string::npos) << msg;
  }
  EXPECT_EQ(errors, 1) << broken->dump(1);
  // Undone in the buffer: the pack reads as before, its error gone.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", header}, {"version", 3}}},
            {"contentChanges", {{{"range", range(l, col, l, col + int(now.size()))}, {"text", was}}}}});
  auto fixed = waitDiags(c, pack, &from, [](const Json& d) { return !hasSeverity(d, 1); }, 20000ms);
  ASSERT_TRUE(fixed) << c.stderrText() << transcript(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// A catalog entry (real format) left at the old five-argument ABI: the error sits on that
// entry's args_signature, not on its persistent sibling, which agrees.
TEST(LspLaunchAndCatalog, TheCatalogDiagnosticLandsOnTheEntry) {
  M repo;
  const std::string path = "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/attention_dense_prefill/family.json";
  repo.write(path, R"({
  "family": "attention_dense_prefill_gfx950",
  "op_kind": "attention_prefill",
  "arch": "gfx950",
  "kernels": [
    {
      "symbol": "rocke_attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal_persist256",
      "grid": {"x": 256, "y": 1, "z": 1},
      "block": [512, 1, 1],
      "args_signature": [
        {"name": "Q", "type": "ptr"}, {"name": "K", "type": "ptr"}, {"name": "V", "type": "ptr"},
        {"name": "O", "type": "ptr"}, {"name": "work_items", "type": "i32"}
      ]
    },
    {
      "symbol": "rocke_attention_dense_d128_hq8_kv8_bm256_bn64_bf16_causal",
      "grid": {"x": {"ceil_div": ["S_q", 256]}, "y": "H", "z": "B"},
      "block": [512, 1, 1],
      "args_signature": [
        {"name": "Q", "type": "ptr"},
        {"name": "K", "type": "ptr"},
        {"name": "V", "type": "ptr"},
        {"name": "O", "type": "ptr"},
        {"name": "scale_raw", "type": "f32"}
      ]
    }
  ]
}
)");
  repo.commit("catalog at the old ABI");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  auto diags = waitDiags(c, uriIn(repo, path), &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(diags) << c.stderrText() << transcript(c);
  int errors = 0;
  for (const auto& d : (*diags)["diagnostics"]) errors += d["severity"] == 1 ? 1 : 0;
  EXPECT_EQ(errors, 1) << diags->dump();
  const Json* err = firstError(*diags);
  ASSERT_TRUE(err);
  // The last element of the stale entry's list, where the missing arguments belong.
  int l = line0(repo, path, "{\"name\": \"scale_raw\"", "causal\",");
  EXPECT_EQ((*err)["range"]["start"]["line"], l) << err->dump();
  EXPECT_NE((*err)["message"].get<std::string>().find("copy has 5 arguments, builder has 8"), std::string::npos)
      << err->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
