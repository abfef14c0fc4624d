// impactd edge cases: workspace roots reached through symlinks or below the work tree, UTF-16
// positions, closing an edited buffer, stale requests, an unknown target.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
const Json kTargetMain = {{"target", "main"}};

// A symlink to the fixture, removed on destruction.
struct Link {
  std::string path;
  explicit Link(const std::string& target) {
    char tmpl[] = "/tmp/impact-link-XXXXXX";
    path = mkdtemp(tmpl);
    fs::remove(path);
    fs::create_directory_symlink(target, path);
  }
  ~Link() { fs::remove(path); }
};

// The editor opened the workspace through a symlink: diagnostics come under the client's
// names, and requests with them are answered.
TEST(LspEdges, ARootReachedThroughASymlink) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  Link link(repo.dir());
  LspClient c;
  c.initialize(link.path, kTargetMain);
  const std::string pinUri = fileUri(link.path + "/" + M::kAttentionPin);
  size_t from = 0;
  auto pin = waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(pin) << transcript(c);
  EXPECT_EQ((*pin)["diagnostics"][0]["relatedInformation"][0]["location"]["uri"],
            fileUri(link.path + "/" + M::kAttention));
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"global_buffer\", 8, 8, \"\"}", "expectedSignature()");
  int id = c.request("textDocument/hover", at(pinUri, l, 20));
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  // The real path works too (a client that resolved it).
  id = c.request("textDocument/hover", at(uriIn(repo, M::kAttentionPin), l, 20));
  r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  // An edit through the link's name reaches the analysis.
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", pinUri}, {"languageId", "cpp"}, {"version", 1},
                                                      {"text", repo.read(M::kAttentionPin)}}}});
  id = c.request("textDocument/definition", at(pinUri, l, 20));
  r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_array() && !(*r)["result"].empty()) << (r ? r->dump() : "timeout");
  EXPECT_EQ((*r)["result"][0]["uri"], fileUri(link.path + "/" + M::kAttention));
}

// The workspace folder is a directory inside the repository.
TEST(LspEdges, ARootBelowTheWorkTree) {
  M repo;
  addSlidingWindow(repo);
  LspClient c;
  c.initialize(repo.dir() + "/dnn-providers/hip-kernel-provider", kTargetMain);
  size_t from = 0;
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return hasSeverity(d, 1); }))
      << transcript(c);
}

// Positions are UTF-16 code units: a comment with a 2-byte and a 4-byte character before the
// element moves the range by 1 + 2 units (not 2 + 4 bytes).
TEST(LspEdges, PositionsCountUtf16CodeUnits) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  const std::string element = "KernelArgument{\"by_value\", 4, 44, \"\"}";
  std::string text = repo.read(M::kAttentionPin);
  text.replace(text.find("        " + element), 8, "        /*\xc3\xb6\xf0\x9f\x98\x80*/ ");  // /*ö😀*/
  int l = line0(repo, M::kAttentionPin, element, "expectedSignature()");
  size_t from = c.mark();
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", pinUri}, {"languageId", "cpp"}, {"version", 1}, {"text", text}}}});
  auto pin = waitDiags(c, pinUri, &from, [](const Json& d) {
    for (const auto& x : d)
      if (x["severity"] == 1 && x["range"]["start"]["character"] != 8) return true;
    return false;
  });
  ASSERT_TRUE(pin) << transcript(c);
  const int start = 8 + 2 + 1 + 2 + 2 + 1;  // "/*" ö 😀 "*/" " "
  for (const auto& d : (*pin)["diagnostics"])
    if (d["severity"] == 1)
      EXPECT_EQ(d["range"], range(l, start, l, start + int(element.size()))) << d.dump();
  // Hover at a UTF-16 column inside the element.
  int id = c.request("textDocument/hover", at(pinUri, l, start + 3));
  auto r = c.response(id);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
  EXPECT_EQ((*r)["result"]["range"], range(l, start, l, start + int(element.size())));
  // An incremental edit after the emoji, at UTF-16 columns: widen the element's size 4 -> 8.
  int four = start + int(element.find("4,"));
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", pinUri}, {"version", 2}}},
                                      {"contentChanges", {{{"range", range(l, four, l, four + 1)}, {"text", "8"}}}}});
  auto widened = waitDiags(c, pinUri, &from, [](const Json& d) {
    for (const auto& x : d)
      if (x["severity"] == 1 && x["message"].get<std::string>().find("by_value/8") != std::string::npos) return true;
    return false;
  });
  EXPECT_TRUE(widened) << transcript(c);
}

// Closing a buffer whose unsaved edit broke the pin: the disk's content counts again.
TEST(LspEdges, ClosingAnEditedBufferFallsBackToTheDisk) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string builder = uriIn(repo, M::kAttention), pinUri = uriIn(repo, M::kAttentionPin);
  std::string text = repo.read(M::kAttention);
  const std::string anchor = "    b.param(\"seqlen_kv\", I32)\n";
  text.replace(text.find(anchor), anchor.size(), anchor + "    b.param(\"window_left\", I32)\n");
  size_t from = 0;
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", builder}, {"languageId", "python"}, {"version", 1}, {"text", text}}}});
  ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); }));
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", builder}}}});
  auto cleared = waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); });
  ASSERT_TRUE(cleared) << transcript(c);
  // The builder's own diagnostics are cleared without a version (it is closed).
  auto last = allDiags(c, builder).back();
  EXPECT_TRUE(last["diagnostics"].empty()) << last.dump();
  EXPECT_FALSE(last.contains("version")) << last.dump();
}

// staleRequestSupport: a hover on a document edited before the answer was ready is answered
// -32801 (ContentModified). Made deterministic by holding the worker (--test-hooks).
TEST(LspEdges, StaleRequestsAreAnsweredContentModified) {
  M repo;
  LspClient c({"--test-hooks"});
  c.initialize(repo.dir(), kTargetMain,
               {{"general", {{"staleRequestSupport", {{"cancel", true}, {"retryOnContentModified", Json::array()}}}}},
                {"textDocument", {{"hover", {{"contentFormat", {"markdown"}}}}}}});
  const std::string builder = uriIn(repo, M::kAttention);
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", builder}, {"languageId", "python"}, {"version", 1},
                                                      {"text", repo.read(M::kAttention)}}}});
  int l = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  int hold = c.request("impactd/test/hold", nullptr);
  ASSERT_TRUE(c.response(hold));
  int stale = c.request("textDocument/hover", at(builder, l, 8));
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", builder}, {"version", 2}}},
                                      {"contentChanges", {{{"range", range(0, 0, 0, 0)}, {"text", "# edited\n"}}}}});
  int fresh = c.request("textDocument/hover", at(builder, l + 1, 8));
  c.notify("impactd/test/release", nullptr);
  auto r = c.response(stale);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32801) << r->dump();
  r = c.response(fresh);
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "timeout");
}

// The hooks are off by default.
TEST(LspEdges, TestHooksAreOffByDefault) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int id = c.request("impactd/test/hold", nullptr);
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32601) << r->dump();
}

// A target that does not resolve: one message; the mismatches are still shown (against an empty
// base), and a good target brings the merge base back.
TEST(LspEdges, AnUnknownTarget) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), {{"target", "no/such/branch"}});
  size_t from = 0;
  auto msg = c.waitMethod("window/showMessage", &from);
  ASSERT_TRUE(msg);
  EXPECT_NE((*msg)["params"]["message"].get<std::string>().find("no/such/branch"), std::string::npos) << msg->dump();
  size_t d = 0;
  auto pin = waitDiags(c, uriIn(repo, M::kAttentionPin), &d, [](const Json& x) { return hasSeverity(x, 1); });
  ASSERT_TRUE(pin) << transcript(c);
  // Without a base nothing can be "changed": only the mismatch.
  for (const auto& x : (*pin)["diagnostics"]) EXPECT_EQ(x["severity"], 1) << x.dump();
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"impactd", {{"target", "main"}}}}}});
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &d, [](const Json& x) { return hasSeverity(x, 2); }))
      << transcript(c);
}

}  // namespace
}  // namespace impact::testing
