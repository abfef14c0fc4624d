// impactd never dies on bad input (issue 4): each case on its own, and each time the server
// answers a normal request afterwards.
#include <gtest/gtest.h>

#include <filesystem>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

// A started server on the example monorepo, initialized.
struct Started {
  M repo;
  LspClient c;
  Started() { c.initialize(repo.dir(), kTargetMain); }
  ~Started() {
    expectAnswers(c, repo);
    c.shutdownAndExit();
    EXPECT_EQ(c.waitExit(), 0) << c.stderrText();
  }
};

// The error response with a null id (the server could not read the request's id).
std::optional<Json> nullIdError(LspClient& c, size_t* from) {
  return c.waitFor([](const Json& m) { return m.contains("error") && m["id"].is_null(); }, from, 3000ms);
}

TEST(LspBadInput, AnEmptyArray) {
  Started s;
  size_t from = s.c.mark();
  s.c.sendBody("[]");
  auto e = nullIdError(s.c, &from);
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["error"]["code"], -32600) << e->dump();
}

TEST(LspBadInput, AnIdAlone) {
  Started s;
  s.c.sendBody(R"({"id":1})");
}

TEST(LspBadInput, ARequestWithoutJsonrpc) {
  Started s;
  s.c.sendBody(R"({"id":77,"method":"shutdown"})");
  auto r = s.c.response(77);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32600) << r->dump();
  // It did not shut the server down: the destructor's shutdown gets a result.
}

TEST(LspBadInput, ABodyThatIsNotJson) {
  Started s;
  size_t from = s.c.mark();
  s.c.sendBody("\x01\x02not json at all {{{");
  auto e = nullIdError(s.c, &from);
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["error"]["code"], -32700) << e->dump();
}

TEST(LspBadInput, GarbageBytesOutsideAnyFrame) {
  Started s;
  static const char kGarbage[] = "\xff\xfe garbage\r\nmore garbage\n\r\n\0\0\r\n";
  s.c.sendRaw(std::string(kGarbage, sizeof kGarbage - 1));  // NULs included, the terminator not
  s.c.sendRaw("Content-Length: nonsense\r\n\r\n");
}

// A million '[' would overflow the JSON parser's stack: refused as a parse error.
TEST(LspBadInput, DeeplyNestedJson) {
  Started s;
  size_t from = s.c.mark();
  s.c.sendBody(std::string(1000000, '['));
  auto e = nullIdError(s.c, &from);
  ASSERT_TRUE(e) << s.c.stderrText();
  EXPECT_EQ((*e)["error"]["code"], -32700) << e->dump();
  // Closed and inside strings, nesting is fine as long as it is shallow enough.
  s.c.sendBody(R"({"jsonrpc":"2.0","method":"$/x","params":{"a":[[[["[[[[[[[[[[[[[[[[[["]]]]}})");
}

TEST(LspBadInput, AMethodThatIsNotAString) {
  Started s;
  s.c.sendBody(R"({"jsonrpc":"2.0","id":31,"method":5})");
  auto r = s.c.response(31);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32600) << r->dump();
  s.c.sendBody(R"({"jsonrpc":"2.0","method":null})");
}

TEST(LspBadInput, ARequestBeforeInitialize) {
  M repo;
  LspClient c;
  int id = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), 0, 0));
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32002) << r->dump();
  // Notifications before initialize are dropped; then initialize works.
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", uriIn(repo, M::kAttention)}, {"languageId", "python"},
                                                      {"version", 1}, {"text", "x"}}}});
  Json init = c.initialize(repo.dir(), kTargetMain);
  ASSERT_TRUE(init.contains("result")) << init.dump();
  expectAnswers(c, repo);
  // A second initialize is refused.
  id = c.request("initialize", {{"rootUri", fileUri(repo.dir())}, {"capabilities", Json::object()}});
  r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("error")) << r->dump();
  expectAnswers(c, repo);
}

TEST(LspBadInput, AnUnknownMethod) {
  Started s;
  int id = s.c.request("textDocument/noSuchThing", Json::object());
  auto r = s.c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32601) << r->dump();
  s.c.notify("$/noSuchNotification", {{"x", 1}});
  s.c.notify("noSuchNotification", nullptr);
}

TEST(LspBadInput, BadParams) {
  Started s;
  for (const Json& params : {Json{{"textDocument", 5}}, Json::array(), Json("text"), Json(nullptr),
                             Json{{"textDocument", {{"uri", "file:///x.py"}}}, {"position", {{"line", "one"}}}}}) {
    int id = s.c.request("textDocument/hover", params);
    auto r = s.c.response(id);
    ASSERT_TRUE(r);
    EXPECT_EQ((*r)["error"]["code"], -32602) << params.dump() << " -> " << r->dump();
  }
  for (const char* method : {"textDocument/definition", "textDocument/references", "textDocument/codeAction",
                             "workspace/executeCommand"}) {
    int id = s.c.request(method, {{"bogus", true}});
    auto r = s.c.response(id);
    ASSERT_TRUE(r);
    EXPECT_EQ((*r)["error"]["code"], -32602) << method << " -> " << r->dump();
  }
  int id = s.c.request("workspace/executeCommand", {{"command", "impact.noSuchCommand"}});
  auto r = s.c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602) << r->dump();
  // Notifications with bad params are dropped.
  s.c.notify("textDocument/didOpen", {{"textDocument", 1}});
  s.c.notify("textDocument/didChange", {{"textDocument", {{"uri", uriIn(s.repo, M::kAttention)}}}, {"contentChanges", 3}});
  s.c.notify("textDocument/didClose", Json::array());
  s.c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", "not a uri"}, {"type", 2}}}}});
  s.c.notify("$/cancelRequest", {{"id", Json::array()}});
}

TEST(LspBadInput, AHugeContentLengthThenAValidMessage) {
  Started s;
  s.c.sendRaw("Content-Length: 99999999999\r\n\r\n");
  int id = s.c.request("workspace/executeCommand", {{"command", "impact.noSuchCommand"}});
  auto r = s.c.response(id);
  ASSERT_TRUE(r) << s.c.stderrText();
  EXPECT_EQ((*r)["error"]["code"], -32602) << r->dump();
  // A negative one, and one that overflows.
  s.c.sendRaw("Content-Length: -5\r\n\r\n");
  s.c.sendRaw("Content-Length: 999999999999999999999999999\r\n\r\n");
}

TEST(LspBadInput, ATruncatedBodyAtTheEndOfInput) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  expectAnswers(c, repo);
  c.sendRaw("Content-Length: 200\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"shutd");
  c.closeInput();
  auto code = c.waitExit();
  ASSERT_TRUE(code) << "the server did not exit";
  EXPECT_EQ(*code, 1) << c.stderrText();  // no exit notification: 1, and no crash (a signal)
}

TEST(LspBadInput, InvalidUtf8InADocument) {
  Started s;
  // The builder gains an argument (so the pin breaks) and a comment with bytes that are not
  // UTF-8. The body is written by hand: a JSON library would refuse to produce it.
  std::string text = s.repo.read(M::kAttention);
  const std::string anchor = "    b.param(\"seqlen_kv\", I32)\n";
  text.replace(text.find(anchor), anchor.size(), anchor + "    b.param(\"window_left\", I32)  # \xff\xfe\xc3(\n");
  Json msg = {{"jsonrpc", "2.0"},
              {"method", "textDocument/didOpen"},
              {"params",
               {{"textDocument",
                 {{"uri", uriIn(s.repo, M::kAttention)}, {"languageId", "python"}, {"version", 1}, {"text", "@TEXT@"}}}}}};
  std::string body = msg.dump();
  std::string quoted;
  for (char ch : text) {
    if (ch == '\n') quoted += "\\n";
    else if (ch == '"') quoted += "\\\"";
    else if (ch == '\\') quoted += "\\\\";
    else quoted += ch;
  }
  body.replace(body.find("@TEXT@"), 6, quoted);
  size_t from = s.c.mark();
  s.c.sendBody(body);
  // Either the document is read (with replacement characters) and the pin breaks, or it is
  // refused; the server must survive either way. impactd reads it.
  auto pin = waitDiags(s.c, uriIn(s.repo, M::kAttentionPin), &from, [](const Json& d) { return hasSeverity(d, 1); });
  EXPECT_TRUE(pin) << s.c.stderrText();
  // Edits after it still apply (the document is open on the server).
  int l = line0(s.repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
  s.c.notify("textDocument/didChange", {{"textDocument", {{"uri", uriIn(s.repo, M::kAttention)}, {"version", 2}}},
                                        {"contentChanges", {{{"range", range(l, 0, l + 1, 0)}, {"text", ""}}}}});
  EXPECT_TRUE(waitDiags(s.c, uriIn(s.repo, M::kAttentionPin), &from, [](const Json& d) { return d.empty(); }));
}

TEST(LspBadInput, ARangeOutsideTheDocument) {
  Started s;
  const std::string uri = uriIn(s.repo, M::kAttention);
  s.c.notify("textDocument/didOpen",
             {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", s.repo.read(M::kAttention)}}}});
  s.c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                        {"contentChanges", {{{"range", range(5000, 3, 4000, 0)}, {"text", "x"}}}}});
  s.c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 3}}},
                                        {"contentChanges", {{{"range", range(-1, -7, 2, 99999)}, {"text", "x"}}}}});
  s.c.notify("textDocument/didChange", {{"textDocument", {{"uri", uriIn(s.repo, "never/opened.py")}, {"version", 3}}},
                                        {"contentChanges", {{{"text", "x"}}}}});
  s.c.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  s.c.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  // Outside the workspace, and not a file.
  s.c.notify("textDocument/didOpen",
             {{"textDocument", {{"uri", "file:///elsewhere/x.py"}, {"languageId", "python"}, {"version", 1}, {"text", "b"}}}});
  s.c.notify("textDocument/didOpen",
             {{"textDocument", {{"uri", "untitled:Untitled-1"}, {"languageId", "python"}, {"version", 1}, {"text", "b"}}}});
  int id = s.c.request("textDocument/hover", at("untitled:Untitled-1", 0, 0));
  auto r = s.c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result") || r->contains("error")) << r->dump();
}

TEST(LspBadInput, ARepositoryWithoutAMergeBase) {
  M repo;
  // An orphan branch: no history shared with main. The pin is stale in it.
  repo.git("checkout -q --orphan lonely");
  addSlidingWindow(repo);
  repo.commit("unrelated history");
  LspClient c({"--git-poll-ms=100"});
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  auto msg = c.waitMethod("window/showMessage", &from);
  ASSERT_TRUE(msg) << c.stderrText();
  EXPECT_NE((*msg)["params"]["message"].get<std::string>().find("merge base"), std::string::npos) << msg->dump();
  // Diagnostics still for what can be judged: every copy against the builder.
  size_t d = 0;
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &d, [](const Json& x) { return hasSeverity(x, 1); }));
  // Git moves (a new commit) re-resolve; the message is not repeated.
  repo.commit("another");
  repo.replace(M::kRmsNormPin, "{", "{ ");
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", uriIn(repo, M::kRmsNormPin)}, {"type", 2}}}}});
  std::this_thread::sleep_for(500ms);
  expectAnswers(c, repo);
  int n = 0;
  for (const auto& m : c.messages()) n += m.value("method", "") == "window/showMessage";
  EXPECT_EQ(n, 1) << transcript(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspBadInput, ARootThatIsNotAGitRepository) {
  char tmpl[] = "/tmp/impact-nogit-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  LspClient c;
  Json init = c.initialize(dir, kTargetMain);
  ASSERT_TRUE(init.contains("result")) << init.dump();
  size_t from = 0;
  auto msg = c.waitMethod("window/showMessage", &from);
  ASSERT_TRUE(msg);
  EXPECT_EQ((*msg)["params"]["type"], 1) << msg->dump();
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", fileUri(dir + "/a.py")}, {"languageId", "python"}, {"version", 1}, {"text", "x = 1\n"}}}});
  for (const char* method : {"textDocument/hover", "textDocument/definition", "textDocument/references"}) {
    int id = c.request(method, at(fileUri(dir + "/a.py"), 0, 0));
    auto r = c.response(id);
    ASSERT_TRUE(r) << method;
    EXPECT_TRUE(r->contains("result")) << r->dump();
  }
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32803) << r->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
  std::filesystem::remove_all(dir);
}

TEST(LspBadInput, NoRootAtAll) {
  LspClient c;
  int id = c.request("initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", Json::object()}});
  auto r = c.response(id);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout");
  c.notify("initialized");
  size_t from = 0;
  EXPECT_TRUE(c.waitMethod("window/showMessage", &from));
  id = c.request("textDocument/hover", at("file:///tmp/x.py", 0, 0));
  r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result")) << r->dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
