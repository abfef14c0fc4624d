// impactd's pull diagnostics (issue 38, LSP 3.17) over LSP: with initializationOptions.diagnostics
// "both", textDocument/diagnostic and workspace/diagnostic answer the very diagnostics pushed, with
// result ids (an unchanged set answers "unchanged"); with "pull" nothing is pushed and the client
// is asked to pull again when the diagnostics move; by default nothing changes (push, no provider).
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

Json pull(LspClient& c, const std::string& uri, const std::string& previous = "") {
  Json p{{"textDocument", {{"uri", uri}}}};
  if (!previous.empty()) p["previousResultId"] = previous;
  auto r = c.response(c.request("textDocument/diagnostic", p), 20000ms);
  if (!r || !(*r)["result"].is_object()) {
    ADD_FAILURE() << (r ? r->dump() : "no answer");
    return Json::object();
  }
  return (*r)["result"];
}

TEST(LspPullDiagnostics, PulledDiagnosticsEqualThePushedOnes) {
  M repo;
  addSlidingWindow(repo);
  LspClient c;
  auto init = c.initialize(repo.dir(), {{"target", "main"}, {"diagnostics", "both"}});
  EXPECT_TRUE(init["result"]["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"].get<bool>()) << init.dump();
  const std::string pin = uriIn(repo, M::kAttentionPin), builder = uriIn(repo, M::kAttention);
  size_t from = 0;
  auto pushed = waitDiags(c, pin, &from, [](const Json& d) { return hasSeverity(d, 1); }, 20000ms);
  ASSERT_TRUE(pushed) << transcript(c);
  Json got = pull(c, pin);
  EXPECT_EQ(got["kind"], "full");
  ASSERT_TRUE(got["resultId"].is_string() && !got["resultId"].get<std::string>().empty()) << got.dump();
  // The last push of each file is what a pull gives.
  auto lastPushed = [&](const std::string& uri) { return allDiags(c, uri).back()["diagnostics"]; };
  EXPECT_EQ(got["items"], lastPushed(pin));
  EXPECT_FALSE(got["items"].empty());
  Json b = pull(c, builder);
  EXPECT_EQ(b["items"], lastPushed(builder));
  // The same set again: unchanged, same id.
  Json again = pull(c, pin, got["resultId"]);
  EXPECT_EQ(again["kind"], "unchanged") << again.dump();
  EXPECT_EQ(again["resultId"], got["resultId"]);
  EXPECT_FALSE(again.contains("items"));

  // The whole workspace: every file with diagnostics, each as pushed.
  auto w = c.response(c.request("workspace/diagnostic", {{"previousResultIds", Json::array()}}), 20000ms);
  ASSERT_TRUE(w && (*w)["result"]["items"].is_array()) << (w ? w->dump() : "no answer");
  std::map<std::string, Json> byUri;
  for (const auto& it : (*w)["result"]["items"]) byUri[it["uri"]] = it;
  ASSERT_TRUE(byUri.count(pin)) << w->dump(1);
  EXPECT_EQ(byUri[pin]["items"], lastPushed(pin));
  EXPECT_EQ(byUri[pin]["resultId"], got["resultId"]);
  for (const auto& m : c.messages())
    if (m.value("method", "") == "textDocument/publishDiagnostics" && !m["params"]["diagnostics"].empty())
      EXPECT_TRUE(byUri.count(m["params"]["uri"])) << m["params"]["uri"];
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspPullDiagnostics, PullOnlyPushesNothingAndAsksForAPullWhenTheyMove) {
  M repo;
  LspClient c;
  Json caps = {{"workspace", {{"diagnostics", {{"refreshSupport", true}}}}}};
  c.initialize(repo.dir(), {{"target", "main"}, {"diagnostics", "pull"}}, caps);
  const std::string pin = uriIn(repo, M::kAttentionPin);
  size_t from = 0;
  ASSERT_TRUE(c.waitMethod("impactd/status", &from, [](const Json& p) { return p.value("state", "") == "ready"; }, 20000ms));
  Json before = pull(c, pin);
  EXPECT_TRUE(before["items"].empty()) << before.dump();
  // The pin made stale on disk: the server asks for a pull; the pull has the mismatch.
  size_t mark = c.mark();
  repo.replace(M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"},\n    };", "};");
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", pin}, {"type", 2}}}}});
  ASSERT_TRUE(c.waitMethod("workspace/diagnostic/refresh", &mark, nullptr, 20000ms)) << transcript(c);
  Json after = pull(c, pin, before["resultId"]);
  EXPECT_EQ(after["kind"], "full");
  EXPECT_TRUE(hasSeverity(after["items"], 1)) << after.dump();
  for (const auto& m : c.messages()) EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics") << m.dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
