// impactd's inlay hints (issue 38) over LSP: on the REAL gfx950 tiled pack's launch (the real
// files committed into a fixture repository at test time), one hint per positional value naming
// the builder argument it binds, in the builder's order; a value that disagrees after an edit of
// the builder is marked, its tooltip says what the builder has; the server asks the client to
// refresh its hints when the builder changes; on the Python side each b.param says how many copies
// state it; a KernelArgument list's hints give the offset the builder implies.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

using RC = RealCorpusFixture;
const Json kTargetMain = {{"target", "main"}};

Json clientCaps() {
  return {{"textDocument", {{"hover", {{"contentFormat", {"plaintext"}}}}, {"inlayHint", {{"dynamicRegistration", false}}}}},
          {"workspace", {{"inlayHint", {{"refreshSupport", true}}}, {"codeLens", {{"refreshSupport", true}}}}},
          {"window", {{"workDoneProgress", true}, {"showDocument", {{"support", true}}}}}};
}

bool waitReady(LspClient& c, size_t* from) {
  return c.waitMethod("impactd/status", from, [](const Json& p) { return p.value("state", "") == "ready"; }, 30000ms)
      .has_value();
}

Json hints(LspClient& c, const std::string& uri, int first, int last) {
  int id = c.request("textDocument/inlayHint", {{"textDocument", {{"uri", uri}}}, {"range", range(first, 0, last, 0)}});
  auto r = c.response(id, 20000ms);
  if (!r || !(*r)["result"].is_array()) {
    ADD_FAILURE() << (r ? r->dump() : "no answer");
    return Json::array();
  }
  return (*r)["result"];
}

// The builder's argument names in its order, read from the file: each b.param's first literal.
std::vector<std::string> paramNames(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = text.find("b.param("); at != std::string::npos; at = text.find("b.param(", at + 1)) {
    size_t q = text.find('"', at), e = text.find('"', q + 1);
    out.push_back(text.substr(q + 1, e - q - 1));
  }
  return out;
}

TEST(LspInlayHints, EighteenHintsOnTheRealTiledLaunchInTheBuildersOrder) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RC repo;
  LspClient c;
  size_t from = 0;
  auto init = c.initialize(repo.dir(), kTargetMain, clientCaps());
  EXPECT_TRUE(init["result"]["capabilities"]["inlayHintProvider"]["resolveProvider"].get<bool>()) << init.dump();
  ASSERT_TRUE(waitReady(c, &from)) << transcript(c);
  const std::string pack = uriIn(repo, RC::kTiledPack);
  const int launch = line0(repo, RC::kTiledPack, "preparedTiled.kernel().launch(");
  const int end = line0(repo, RC::kTiledPack, "static_cast<int32_t>(0));", "preparedTiled.kernel().launch(");
  Json hs = hints(c, pack, launch, end + 1);
  std::vector<std::string> names = paramNames(repo.read(RC::kTiledBuilder));
  ASSERT_EQ(names.size(), 18u);
  std::vector<std::string> labels;
  for (const auto& h : hs)
    if (h["position"]["line"].get<int>() >= launch && h["position"]["line"].get<int>() <= end) labels.push_back(h["label"]);
  ASSERT_EQ(labels.size(), 18u) << hs.dump(1);
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(labels[i], names[i] + ":") << i;
  // Each hint sits at its value: the first at `o.ptr`, the 12th at `1.0F`.
  const int o = line0(repo, RC::kTiledPack, "o.ptr,", "preparedTiled.kernel().launch(");
  EXPECT_EQ(hs[0]["position"], pos(o, col0(repo, RC::kTiledPack, o, "o.ptr"))) << hs[0].dump();
  for (const auto& h : hs) EXPECT_FALSE(h["data"]["marked"].get<bool>()) << h.dump();

  // The builder widens num_seqs in the editor: the server asks for the hints again, and the
  // launch's value is marked with what the builder has there.
  const std::string builder = uriIn(repo, RC::kTiledBuilder);
  std::string text = repo.read(RC::kTiledBuilder);
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", builder}, {"languageId", "python"}, {"version", 1}, {"text", text}}}});
  size_t mark = c.mark();
  int nl = line0(repo, RC::kTiledBuilder, "b.param(\"num_seqs\", I32)");
  int nc = col0(repo, RC::kTiledBuilder, nl, "I32");
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", builder}, {"version", 2}}},
                                      {"contentChanges", {{{"range", range(nl, nc, nl, nc + 3)}, {"text", "I64"}}}}});
  ASSERT_TRUE(c.waitMethod("workspace/inlayHint/refresh", &mark, nullptr, 20000ms)) << transcript(c);
  hs = hints(c, pack, launch, end + 1);
  const int ns = line0(repo, RC::kTiledPack, "static_cast<int32_t>(binding.numSeqs)", "preparedTiled.kernel().launch(");
  const Json* marked = nullptr;
  int markedCount = 0;
  for (const auto& h : hs)
    if (h["data"]["marked"].get<bool>()) {
      ++markedCount;
      marked = &h;
    }
  ASSERT_EQ(markedCount, 1) << hs.dump(1);
  EXPECT_EQ((*marked)["position"]["line"], ns);
  EXPECT_EQ((*marked)["label"], "≠ num_seqs:");
  std::string tip = (*marked)["tooltip"].get<std::string>();
  EXPECT_NE(tip.find("The builder has num_seqs by_value/8 at #15"), std::string::npos) << tip;
  EXPECT_NE(tip.find("differs: by_value/4"), std::string::npos) << tip;

  // Resolve adds the table of every copy of the argument.
  int rid = c.request("inlayHint/resolve", *marked);
  auto resolved = c.response(rid, 20000ms);
  ASSERT_TRUE(resolved && (*resolved)["result"].is_object()) << (resolved ? resolved->dump() : "no answer");
  std::string full = (*resolved)["result"]["tooltip"].get<std::string>();
  EXPECT_NE(full.find("Gfx950AttentionTiledNative.cpp"), std::string::npos) << full;
  EXPECT_NE(full.find("argument #15 of build_"), std::string::npos) << full;

  // The Python side: the b.param of num_seqs says how many copies state it and that one differs.
  Json ph = hints(c, builder, nl, nl + 1);
  ASSERT_EQ(ph.size(), 1u) << ph.dump(1);
  std::string pl = ph[0]["label"];
  EXPECT_NE(pl.find(" cop"), std::string::npos) << pl;
  EXPECT_NE(pl.find("≠"), std::string::npos) << pl;
  EXPECT_EQ(ph[0]["position"]["line"], nl);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// A KernelArgument list's elements: the builder's name and the offset it implies (8-byte
// pointers, then 4-byte scalars); a conditional b.param says which shipped variants turn it on.
TEST(LspInlayHints, AKernelArgumentListGetsNamesAndImpliedOffsetsAndAConditionalItsVariants) {
  M repo;
  LspClient c;
  size_t from = 0;
  c.initialize(repo.dir(), kTargetMain, clientCaps());
  ASSERT_TRUE(waitReady(c, &from)) << transcript(c);
  const int first = line0(repo, M::kAttentionPin, "KernelArgument{\"global_buffer\", 8, 0, \"\"}");
  Json hs = hints(c, uriIn(repo, M::kAttentionPin), first, first + 8);
  std::vector<std::string> labels;
  for (const auto& h : hs)
    if (h["position"]["line"].get<int>() < first + 8) labels.push_back(h["label"]);
  EXPECT_EQ(labels, (std::vector<std::string>{"q_ptr @0:", "k_ptr @8:", "v_ptr @16:", "o_ptr @24:", "scale @32:",
                                              "batch @36:", "seqlen_q @40:", "seqlen_kv @44:"}))
      << hs.dump(1);
  const int sink = line0(repo, M::kAttention, "b.param(\"sink_ptr\"");
  Json ph = hints(c, uriIn(repo, M::kAttention), sink, sink + 1);
  ASSERT_EQ(ph.size(), 1u) << ph.dump(1);
  std::string label = ph[0]["label"];
  EXPECT_NE(label.find("on for 0 of "), std::string::npos) << label;  // every shipped spec has use_sinks false
  EXPECT_NE(label.find("shipped variants"), std::string::npos) << label;
  // The persistent arm's b.param, in the helper build_attention_dense returns to early: its copy
  // (the pin's expectedPersistentSignature) pairs through build_attention_dense, and is counted.
  const int wi = line0(repo, M::kAttention, "b.param(\"work_items\", I32)");
  Json wh = hints(c, uriIn(repo, M::kAttention), wi, wi + 1);
  ASSERT_EQ(wh.size(), 1u) << wh.dump(1);
  EXPECT_EQ(wh[0]["label"], "1 copy") << wh.dump(1);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
