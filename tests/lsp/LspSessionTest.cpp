// impactd end to end: the real binary over framed stdio on the example monorepo (branch
// `feature` against target `main`): initialize, diagnostics, edits, hover, code actions,
// definition/references, commands, lifecycle.
#include <gtest/gtest.h>

#include <set>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

TEST(LspSession, InitializeAnswersCapabilities) {
  M repo;
  LspClient c;
  Json r = c.initialize(repo.dir(), kTargetMain);
  ASSERT_TRUE(r.contains("result")) << r.dump();
  const Json& caps = r["result"]["capabilities"];
  EXPECT_EQ(caps["textDocumentSync"]["change"], 2);
  EXPECT_EQ(caps["textDocumentSync"]["openClose"], true);
  EXPECT_EQ(caps["hoverProvider"], true);
  EXPECT_EQ(caps["definitionProvider"], true);
  EXPECT_EQ(caps["referencesProvider"], true);
  EXPECT_TRUE(caps.contains("codeActionProvider"));
  std::set<std::string> commands(caps["executeCommandProvider"]["commands"].begin(),
                                 caps["executeCommandProvider"]["commands"].end());
  EXPECT_TRUE(commands.count("impact.run"));
  EXPECT_TRUE(commands.count("impact.showMirror"));
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "impactd");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspSession, FirstDiagnosticsOnABranchThatBreaksThePin) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  // The pin is not open: it gets its diagnostics all the same.
  auto pin = waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(pin) << c.stderrText();
  const Json* err = nullptr;
  for (const auto& d : (*pin)["diagnostics"])
    if (d["severity"] == 1) err = &d;
  ASSERT_TRUE(err);
  // On the exact element: the last one of expectedSignature, where the missing ones belong.
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"}", "expectedSignature()");
  int col = col0(repo, M::kAttentionPin, l, "KernelArgument");
  EXPECT_EQ((*err)["range"], range(l, col, l, col + int(std::string("KernelArgument{\"by_value\", 4, 44, \"\"}").size())))
      << err->dump();
  EXPECT_EQ((*err)["code"], "kernargs");
  EXPECT_EQ((*err)["source"], "impactd");
  EXPECT_NE((*err)["message"].get<std::string>().find("window_left"), std::string::npos) << err->dump();
  // The message names the builder by symbol and file name; the related information links the path.
  EXPECT_NE((*err)["message"].get<std::string>().find("(build_attention_dense in attention_dense.py:"), std::string::npos)
      << err->dump();
  EXPECT_EQ((*err)["message"].get<std::string>().find("dnn-providers/"), std::string::npos) << err->dump();
  ASSERT_TRUE(err->contains("data")) << err->dump();
  EXPECT_EQ((*err)["data"]["status"], "mismatch");
  EXPECT_TRUE((*err)["data"]["row"].get<std::string>().starts_with("kernargs|")) << err->dump();
  // relatedInformation: the builder's first argument the pin lacks.
  ASSERT_EQ((*err)["relatedInformation"].size(), 1u) << err->dump();
  const Json& rel = (*err)["relatedInformation"][0];
  EXPECT_EQ(rel["location"]["uri"], uriIn(repo, M::kAttention));
  EXPECT_EQ(rel["location"]["range"]["start"]["line"], line0(repo, M::kAttention, "b.param(\"window_left\""));
  EXPECT_NE(rel["message"].get<std::string>().find("build_attention_dense"), std::string::npos);

  // The pack followed the builder: its rows are changed, a Warning naming the arch to run.
  size_t from2 = 0;
  auto pack = waitDiags(c, uriIn(repo, M::kAttentionPack), &from2, [](const Json& d) { return !d.empty(); });
  ASSERT_TRUE(pack);
  for (const auto& d : (*pack)["diagnostics"]) {
    EXPECT_EQ(d["severity"], 2) << d.dump();
    EXPECT_EQ(d["code"], "kernargs");
    EXPECT_EQ(d["data"]["status"], "changed");
    EXPECT_NE(d["message"].get<std::string>().find("gfx950"), std::string::npos) << d.dump();
  }
  // The builder carries the other side of each.
  size_t from3 = 0;
  auto builder = waitDiags(c, uriIn(repo, M::kAttention), &from3, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(builder);
  // Its error names the copy by symbol and file name.
  bool namesThePin = false;
  for (const auto& d : (*builder)["diagnostics"])
    if (d["severity"] == 1) {
      std::string m = d["message"];
      namesThePin = namesThePin || m.starts_with("kernargs: copy expectedSignature in TestGfx950AttentionDenseSignature.cpp:");
      EXPECT_EQ(m.find("dnn-providers/"), std::string::npos) << m;
    }
  EXPECT_TRUE(namesThePin) << builder->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// Inserting one b.param at the end of the builder's list, then removing it: the pin (not
// open) and the builder follow; the builder's diagnostics carry its versions in order.
TEST(LspSession, IncrementalEditsBreakThenFixAndDiagnosticsFollow) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string builder = uriIn(repo, M::kAttention), pinUri = uriIn(repo, M::kAttentionPin);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", builder}, {"languageId", "python"}, {"version", 1}, {"text", repo.read(M::kAttention)}}}});
  int l = line0(repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
  size_t from = 0;
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", builder}, {"version", 2}}},
            {"contentChanges", {{{"range", range(l, 0, l, 0)}, {"text", "    b.param(\"window_left\", I32)\n"}}}}});
  auto pin = waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(pin) << c.stderrText();
  from = 0;
  auto b = waitDiags(c, builder, &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)["version"], 2);
  EXPECT_EQ((*b)["diagnostics"][0]["range"]["start"]["line"], l);

  from = c.mark();
  size_t from2 = from;
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", builder}, {"version", 3}}},
                                      {"contentChanges", {{{"range", range(l, 0, l + 1, 0)}, {"text", ""}}}}});
  auto pinFixed = waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); });
  ASSERT_TRUE(pinFixed) << transcript(c);
  auto bFixed = waitDiags(c, builder, &from2, [](const Json& d) { return d.empty(); });
  ASSERT_TRUE(bFixed) << transcript(c);
  EXPECT_EQ((*bFixed)["version"], 3);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// A burst of edits, each renaming the one argument added to the builder (x2, x3, ...):
// whatever the debounce lets through, every publish for the builder names the argument of its
// own version, versions only grow, and the last version is published.
TEST(LspSession, DiagnosticsAreNeverPublishedOutOfOrder) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string builder = uriIn(repo, M::kAttention);
  const std::string original = repo.read(M::kAttention);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", builder}, {"languageId", "python"}, {"version", 1}, {"text", original}}}});
  int l = line0(repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
  const int last = 31;
  for (int v = 2; v <= last; ++v) {
    Json r = v == 2 ? range(l, 0, l, 0) : range(l, 0, l + 1, 0);
    c.notify("textDocument/didChange",
             {{"textDocument", {{"uri", builder}, {"version", v}}},
              {"contentChanges", {{{"range", r}, {"text", "    b.param(\"x" + std::to_string(v) + "\", I32)\n"}}}}});
  }
  size_t from = 0;
  auto final = c.waitMethod("textDocument/publishDiagnostics", &from,
                            [&](const Json& p) { return p["uri"] == builder && p.value("version", 0) == last; });
  ASSERT_TRUE(final) << transcript(c) << c.stderrText();
  int prev = 0;
  for (const auto& p : allDiags(c, builder)) {
    int v = p.value("version", -1);
    EXPECT_GT(v, prev) << "published out of order: " << p.dump();
    prev = v;
    ASSERT_FALSE(p["diagnostics"].empty());
    std::string want = "missing x" + std::to_string(v) + " ";
    bool named = false;
    for (const auto& d : p["diagnostics"]) named = named || d["message"].get<std::string>().find(want) != std::string::npos;
    EXPECT_TRUE(named) << "version " << v << " does not name x" << v << ": " << p.dump();
  }
  // A whole-text change back to the original clears it.
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", builder}, {"version", last + 1}}},
                                      {"contentChanges", {{{"text", original}}}}});
  auto cleared = waitDiags(c, builder, &from, [](const Json& d) { return d.empty(); });
  ASSERT_TRUE(cleared) << transcript(c);
  EXPECT_EQ((*cleared)["version"], last + 1);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspSession, HoverOnABuilderArgumentIsMarkdownWhenTheClientAsks) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int l = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  int id = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), l, 10));
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  const Json& contents = (*r)["result"]["contents"];
  EXPECT_EQ(contents["kind"], "markdown");
  std::string v = contents["value"];
  EXPECT_NE(v.find("**k_ptr**"), std::string::npos) << v;
  EXPECT_NE(v.find("| copy |"), std::string::npos) << v;
  EXPECT_NE(v.find("Gfx950AttentionDenseNative.cpp"), std::string::npos) << v;
  EXPECT_NE(v.find("TestGfx950AttentionDenseSignature.cpp"), std::string::npos) << v;
  EXPECT_NE(v.find("agrees"), std::string::npos) << v;
  EXPECT_EQ((*r)["result"]["range"]["start"]["line"], l);
  // Not on an argument: null.
  id = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), 0, 0));
  r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_null()) << r->dump();
}

TEST(LspSession, HoverOnACppElementIsPlaintextForAPlaintextClient) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain, {{"textDocument", {{"hover", {{"contentFormat", {"plaintext"}}}}}}});
  int l = line0(repo, M::kAttentionPack, "{\"global_buffer\", PTR, 8, \"k_ptr\"}");
  int col = col0(repo, M::kAttentionPack, l, "PTR");
  int id = c.request("textDocument/hover", at(uriIn(repo, M::kAttentionPack), l, col));
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  const Json& contents = (*r)["result"]["contents"];
  EXPECT_EQ(contents["kind"], "plaintext");
  std::string v = contents["value"];
  EXPECT_NE(v.find("k_ptr"), std::string::npos) << v;
  EXPECT_NE(v.find("attention_dense.py"), std::string::npos) << v;
  EXPECT_NE(v.find("TestGfx950AttentionDenseSignature.cpp"), std::string::npos) << v;
  EXPECT_EQ(v.find("**"), std::string::npos) << v;
  EXPECT_EQ((*r)["result"]["range"]["start"]["line"], l);
}

Json codeActions(LspClient& c, const std::string& uri, int line) {
  int id = c.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                 {"range", range(line, 0, line, 0)},
                                                 {"context", {{"diagnostics", Json::array()}}}});
  auto r = c.response(id);
  EXPECT_TRUE(r && (*r)["result"].is_array()) << (r ? r->dump() : "timeout");
  return r ? (*r)["result"] : Json::array();
}

TEST(LspSession, CodeActionsGoToMirrorAndAQuickFixThatClearsTheMismatch) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); }));
  const std::string original = repo.read(M::kAttentionPin);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", pinUri}, {"languageId", "cpp"}, {"version", 1}, {"text", original}}}});
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"}", "expectedSignature()");
  Json actions = codeActions(c, pinUri, l);

  const Json* fix = nullptr;
  std::vector<const Json*> mirrors;
  for (const auto& a : actions) {
    if (a.value("kind", "") == "quickfix") fix = &a;
    if (a["title"].get<std::string>().starts_with("Go to mirror: ")) mirrors.push_back(&a);
  }
  // Go to mirror: the builder, the pack's two copies, the persistent pin.
  bool toBuilder = false;
  for (const Json* m : mirrors) {
    ASSERT_TRUE(m->contains("command")) << m->dump();
    EXPECT_EQ((*m)["command"]["command"], "impact.showMirror");
    const Json& arg = (*m)["command"]["arguments"][0];
    EXPECT_TRUE(arg.contains("range")) << m->dump();
    if (arg["uri"] == uriIn(repo, M::kAttention)) {
      toBuilder = true;
      EXPECT_NE((*m)["title"].get<std::string>().find("attention_dense.py:"), std::string::npos) << m->dump();
    }
  }
  EXPECT_TRUE(toBuilder) << actions.dump(2);
  EXPECT_GE(mirrors.size(), 3u) << actions.dump(2);

  ASSERT_TRUE(fix) << actions.dump(2);
  EXPECT_EQ((*fix)["title"], "Update expectedSignature to match build_attention_dense");
  EXPECT_EQ((*fix)["isPreferred"], true);
  ASSERT_FALSE((*fix)["diagnostics"].empty()) << fix->dump();
  EXPECT_EQ((*fix)["diagnostics"][0]["severity"], 1);
  const Json& edits = (*fix)["edit"]["changes"][pinUri];
  ASSERT_EQ(edits.size(), 1u) << fix->dump();
  std::string fixed = applyEdits(original, edits);
  // In the file's own style: KernelArgument{...}, sizes as numbers, offsets, one per line.
  const char* want =
      "    return {\n"
      "        KernelArgument{\"global_buffer\", 8, 0, \"\"},\n"
      "        KernelArgument{\"global_buffer\", 8, 8, \"\"},\n"
      "        KernelArgument{\"global_buffer\", 8, 16, \"\"},\n"
      "        KernelArgument{\"global_buffer\", 8, 24, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 32, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 36, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 40, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 44, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 48, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 52, \"\"},\n"
      "        KernelArgument{\"by_value\", 4, 56, \"\"},\n"
      "    };\n"
      "}\n"
      "\n"
      "// The persistent arm";
  EXPECT_NE(fixed.find(want), std::string::npos) << fixed;
  // Everything else untouched.
  EXPECT_EQ(fixed.substr(0, fixed.find("std::vector<KernelArgument> expectedSignature()")),
            original.substr(0, original.find("std::vector<KernelArgument> expectedSignature()")));

  // The client applies the edit as a didChange: the mismatch goes away.
  from = c.mark();
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", pinUri}, {"version", 2}}},
                                      {"contentChanges", {{{"range", edits[0]["range"]}, {"text", edits[0]["newText"]}}}}});
  auto after = waitDiags(c, pinUri, &from, [](const Json& d) { return !hasSeverity(d, 1); });
  ASSERT_TRUE(after) << c.stderrText();
  EXPECT_EQ((*after)["version"], 2);
  // No quick fix any more.
  for (const auto& a : codeActions(c, pinUri, l)) EXPECT_NE(a.value("kind", ""), "quickfix") << a.dump();
}

// The pack's list names its arguments and writes sizes as constants (PTR, I32, F32): the quick
// fix keeps that style, each new argument with the constant of its own type.
TEST(LspSession, QuickFixKeepsTheListsStyle) {
  M repo;
  repo.replace(M::kAttention, "    b.param(\"seqlen_kv\", I32)\n",
               "    b.param(\"seqlen_kv\", I32)\n    b.param(\"window_left\", I32)\n"
               "    b.param(\"window_right\", I32)\n    b.param(\"softcap\", F32)\n");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string packUri = uriIn(repo, M::kAttentionPack);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, packUri, &from, [](const Json& d) { return hasSeverity(d, 1); })) << transcript(c);
  const std::string original = repo.read(M::kAttentionPack);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", packUri}, {"languageId", "cpp"}, {"version", 1}, {"text", original}}}});
  int l = line0(repo, M::kAttentionPack, "{\"by_value\", I32, 44, \"seqlen_kv\"},");
  const Json* fix = nullptr;
  Json actions = codeActions(c, packUri, l);
  for (const auto& a : actions)
    if (a.value("kind", "") == "quickfix") fix = &a;
  ASSERT_TRUE(fix) << actions.dump(2);
  EXPECT_EQ((*fix)["title"], "Update attentionDenseKernelSignature to match build_attention_dense");
  const Json& edits = (*fix)["edit"]["changes"][packUri];
  ASSERT_EQ(edits.size(), 1u) << fix->dump();
  std::string fixed = applyEdits(original, edits);
  const char* want =
      "    return {\n"
      "        {\"global_buffer\", PTR, 0, \"q_ptr\"},\n"
      "        {\"global_buffer\", PTR, 8, \"k_ptr\"},\n"
      "        {\"global_buffer\", PTR, 16, \"v_ptr\"},\n"
      "        {\"global_buffer\", PTR, 24, \"o_ptr\"},\n"
      "        {\"by_value\", F32, 32, \"scale\"},\n"
      "        {\"by_value\", I32, 36, \"batch\"},\n"
      "        {\"by_value\", I32, 40, \"seqlen_q\"},\n"
      "        {\"by_value\", I32, 44, \"seqlen_kv\"},\n"
      "        {\"by_value\", I32, 48, \"window_left\"},\n"
      "        {\"by_value\", I32, 52, \"window_right\"},\n"
      "        {\"by_value\", F32, 56, \"softcap\"},\n"
      "    };\n";
  EXPECT_NE(fixed.find(want), std::string::npos) << fixed;
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", packUri}, {"version", 2}}},
                                      {"contentChanges", {{{"range", edits[0]["range"]}, {"text", edits[0]["newText"]}}}}});
  // The static list agrees now; only the launch call (no quick fix) is still an Error.
  auto after = waitDiags(c, packUri, &from, [](const Json& d) {
    for (const auto& x : d)
      if (x["severity"] == 1 && x["data"]["row"].get<std::string>().find("|static|") != std::string::npos) return false;
    return true;
  });
  ASSERT_TRUE(after) << transcript(c);
  EXPECT_EQ((*after)["version"], 2);
}

TEST(LspSession, ShowMirrorMakesTheServerSendShowDocument) {
  M repo;
  addSlidingWindow(repo);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"}", "expectedSignature()");
  Json actions = codeActions(c, pinUri, l);
  const Json* toBuilder = nullptr;
  for (const auto& a : actions)
    if (a.contains("command") && a["command"]["arguments"][0]["uri"] == uriIn(repo, M::kAttention)) toBuilder = &a;
  ASSERT_TRUE(toBuilder) << actions.dump(2);
  size_t from = c.mark();
  int id = c.request("workspace/executeCommand", {{"command", (*toBuilder)["command"]["command"]},
                                                  {"arguments", (*toBuilder)["command"]["arguments"]}});
  auto show = c.waitMethod("window/showDocument", &from);
  ASSERT_TRUE(show);
  EXPECT_TRUE(show->contains("id")) << "showDocument is a request: " << show->dump();
  EXPECT_EQ((*show)["params"]["uri"], uriIn(repo, M::kAttention));
  EXPECT_EQ((*show)["params"]["selection"], (*toBuilder)["command"]["arguments"][0]["range"]);
  EXPECT_EQ((*show)["params"]["takeFocus"], true);
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result")) << r->dump();
  // Bad arguments: -32602.
  id = c.request("workspace/executeCommand", {{"command", "impact.showMirror"}, {"arguments", {{{"uri", 3}}}}});
  r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602) << r->dump();
}

TEST(LspSession, DefinitionFromACopyGoesToTheBuilderArgument) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"global_buffer\", 8, 8, \"\"}", "expectedSignature()");
  int id = c.request("textDocument/definition", at(uriIn(repo, M::kAttentionPin), l, 20));
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_array()) << (r ? r->dump() : "timeout");
  ASSERT_EQ((*r)["result"].size(), 1u) << r->dump();
  const Json& loc = (*r)["result"][0];
  EXPECT_EQ(loc["uri"], uriIn(repo, M::kAttention));
  int b = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  EXPECT_EQ(loc["range"]["start"]["line"], b) << loc.dump();
  EXPECT_EQ(loc["range"]["start"]["character"], 4) << loc.dump();
}

TEST(LspSession, ReferencesListEveryCopy) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int b = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  int id = c.request("textDocument/references",
                     {{"textDocument", {{"uri", uriIn(repo, M::kAttention)}}},
                      {"position", pos(b, 6)},
                      {"context", {{"includeDeclaration", true}}}});
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_array()) << (r ? r->dump() : "timeout");
  std::set<std::pair<std::string, int>> got;
  for (const auto& loc : (*r)["result"])
    got.insert({loc["uri"].get<std::string>(), loc["range"]["start"]["line"].get<int>()});
  EXPECT_TRUE(got.count({uriIn(repo, M::kAttention), b})) << r->dump(2);
  EXPECT_TRUE(got.count({uriIn(repo, M::kAttentionPack), line0(repo, M::kAttentionPack, "\"k_ptr\"")})) << r->dump(2);
  EXPECT_TRUE(got.count({uriIn(repo, M::kAttentionPack), line0(repo, M::kAttentionPack, "k.ptr,")})) << r->dump(2);
  EXPECT_TRUE(got.count({uriIn(repo, M::kAttentionPin),
                         line0(repo, M::kAttentionPin, "KernelArgument{\"global_buffer\", 8, 8, \"\"}", "expectedSignature()")}))
      << r->dump(2);
}

TEST(LspSession, ImpactRunReturnsTheReportWithProgress) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = c.mark();
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  auto r = c.response(id, 20000ms);
  ASSERT_TRUE(r) << c.stderrText();
  ASSERT_TRUE(r->contains("result")) << r->dump();
  std::string text = (*r)["result"]["text"];
  EXPECT_NE(text.find("Runtime impact: BREAKS"), std::string::npos) << text;
  EXPECT_TRUE((*r)["result"]["report"].is_object()) << r->dump();
  // window/workDoneProgress/create, then $/progress begin ... end with that token.
  auto create = c.waitMethod("window/workDoneProgress/create", &from);
  ASSERT_TRUE(create);
  Json token = (*create)["params"]["token"];
  auto begin = c.waitMethod("$/progress", &from, [&](const Json& p) { return p["token"] == token; });
  ASSERT_TRUE(begin);
  EXPECT_EQ((*begin)["params"]["value"]["kind"], "begin");
  auto end = c.waitMethod("$/progress", &from,
                          [&](const Json& p) { return p["token"] == token && p["value"]["kind"] == "end"; });
  ASSERT_TRUE(end);
}

// $/cancelRequest for requests queued behind a held worker (impactd --test-hooks: the request
// impactd/test/hold keeps the worker busy until the notification impactd/test/release), so the
// cancel is certain to arrive before the work starts.
TEST(LspSession, CancelledRequestsAreAnswered32800) {
  M repo;
  LspClient c({"--test-hooks"});
  c.initialize(repo.dir(), kTargetMain);
  int hold = c.request("impactd/test/hold", nullptr);
  ASSERT_TRUE(c.response(hold));
  int l = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  int hover = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), l, 8));
  int run = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  int kept = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), l, 8));
  c.notify("$/cancelRequest", {{"id", hover}});
  c.notify("$/cancelRequest", {{"id", run}});
  c.notify("impactd/test/release", nullptr);
  for (int id : {hover, run}) {
    auto r = c.response(id, 20000ms);
    ASSERT_TRUE(r) << c.stderrText();
    ASSERT_TRUE(r->contains("error")) << r->dump();
    EXPECT_EQ((*r)["error"]["code"], -32800) << r->dump();
  }
  auto r = c.response(kept);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  // A cancel for an id that is not in flight is ignored.
  c.notify("$/cancelRequest", {{"id", 424242}});
  expectAnswers(c, repo);
}

// Without hooks: a cancel right behind impact.run gets -32800, or the result if it raced.
TEST(LspSession, CancelRightBehindImpactRun) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int run = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  c.notify("$/cancelRequest", {{"id", run}});
  auto r = c.response(run, 20000ms);
  ASSERT_TRUE(r);
  if (r->contains("error")) EXPECT_EQ((*r)["error"]["code"], -32800) << r->dump();
  else EXPECT_TRUE((*r)["result"].contains("text")) << r->dump();
  expectAnswers(c, repo);
}

TEST(LspSession, DidChangeWatchedFilesRereadsAChangedFile) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain,
               {{"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}});
  size_t from = 0;
  auto reg = c.waitMethod("client/registerCapability", &from);
  ASSERT_TRUE(reg);
  EXPECT_EQ((*reg)["params"]["registrations"][0]["method"], "workspace/didChangeWatchedFiles");
  expectAnswers(c, repo);  // the first analysis is done
  // The pin widens a scalar on disk; only the watched-file event tells the server.
  repo.replace(M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"},", "KernelArgument{\"by_value\", 8, 44, \"\"},");
  from = c.mark();
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", uriIn(repo, M::kAttentionPin)}, {"type", 2}}}}});
  auto d = waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(d) << c.stderrText();
  // Deleted: its diagnostics go.
  repo.remove(M::kAttentionPin);
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", uriIn(repo, M::kAttentionPin)}, {"type", 3}}}}});
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return d.empty(); }))
      << transcript(c);
}

// The server polls .git (every 100 ms here). A commit moves the merge base: main takes the
// feature (fast-forward), nothing differs from the base any more, the diagnostics go. A new
// branch with a commit that widens a scalar in the pin: the pin was stale at the merge base
// already, so Information. Switching back to feature: gone.
TEST(LspSession, CommitsAndBranchSwitchesMoveTheMergeBase) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c({"--git-poll-ms=100"});
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); }));
  repo.git("checkout -q main");
  repo.git("merge -q --ff-only feature");
  repo.git("checkout -q feature");
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
  repo.git("checkout -q -b widen");
  repo.replace(M::kAttentionPin, "KernelArgument{\"by_value\", 4, 40, \"\"},", "KernelArgument{\"by_value\", 8, 40, \"\"},");
  repo.commit("widen seqlen_q in the pin");
  // The list was already stale at the (new) merge base: Information, and it says so.
  auto widened = waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 3); });
  ASSERT_TRUE(widened) << transcript(c);
  EXPECT_FALSE(hasSeverity((*widened)["diagnostics"], 1)) << widened->dump();
  EXPECT_TRUE((*widened)["diagnostics"][0]["message"].get<std::string>().starts_with("pre-existing")) << widened->dump();
  repo.git("checkout -q feature");
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
}

TEST(LspSession, DidChangeConfigurationChangesTheTarget) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  repo.git("branch released");  // a branch at feature's tip
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); }));
  // Against a branch at the head's own commit nothing has changed: no diagnostics.
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"impactd", {{"target", "released"}}}}}});
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"impactd", {{"target", "main"}}}}}});
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); }));
  // Settings without ours, or not an object: ignored.
  c.notify("workspace/didChangeConfiguration", {{"settings", nullptr}});
  c.notify("workspace/didChangeConfiguration", Json::array());
  expectAnswers(c, repo);
}

TEST(LspSession, ShutdownThenExitIsZero) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int id = c.request("shutdown", nullptr);
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result") && (*r)["result"].is_null()) << r->dump();
  // After shutdown, requests are refused.
  id = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), 0, 0));
  r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32600) << r->dump();
  c.notify("exit");
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspSession, ExitWithoutShutdownIsOne) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  c.notify("exit");
  EXPECT_EQ(c.waitExit(), 1);
}

TEST(LspSession, EndOfInputWithoutExitIsOne) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  c.closeInput();
  EXPECT_EQ(c.waitExit(), 1);
}

}  // namespace
}  // namespace impact::testing
