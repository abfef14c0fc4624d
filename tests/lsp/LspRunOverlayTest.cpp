// impact.run reads the head as the diagnostics do (SPEC R1.1): the working tree with the open
// editor buffers overlaid, unsaved edits included.
#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

std::string runText(LspClient& c) {
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  auto r = c.response(id, 20000ms);
  EXPECT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout: " + c.stderrText());
  return r && r->contains("result") ? (*r)["result"]["text"].get<std::string>() : "";
}

TEST(LspRunOverlay, ImpactRunSeesAnUnsavedQuickFix) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); })) << transcript(c);
  const std::string original = repo.read(M::kAttentionPin);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", pinUri}, {"languageId", "cpp"}, {"version", 1}, {"text", original}}}});
  EXPECT_NE(runText(c).find("Runtime impact: BREAKS"), std::string::npos);

  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"}", "expectedSignature()");
  int id = c.request("textDocument/codeAction", {{"textDocument", {{"uri", pinUri}}},
                                                 {"range", range(l, 0, l, 0)},
                                                 {"context", {{"diagnostics", Json::array()}}}});
  auto actions = c.response(id);
  ASSERT_TRUE(actions && (*actions)["result"].is_array());
  const Json* fix = nullptr;
  for (const auto& a : (*actions)["result"])
    if (a.value("kind", "") == "quickfix") fix = &a;
  ASSERT_TRUE(fix) << actions->dump(2);
  const Json& edits = (*fix)["edit"]["changes"][pinUri];
  from = c.mark();
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", pinUri}, {"version", 2}}},
                                      {"contentChanges", {{{"range", edits[0]["range"]}, {"text", edits[0]["newText"]}}}}});
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return !hasSeverity(d, 1); })) << transcript(c);
  // Not saved: the file on disk still has the stale list, the report reads the buffer.
  EXPECT_EQ(repo.read(M::kAttentionPin), original);
  std::string text = runText(c);
  EXPECT_EQ(text.find("Runtime impact: BREAKS"), std::string::npos) << text;
  EXPECT_NE(text.find("Runtime impact: "), std::string::npos) << text;
}

}  // namespace
}  // namespace impact::testing
