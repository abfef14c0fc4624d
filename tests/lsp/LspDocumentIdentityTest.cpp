// One document per real file however many URIs name it (issue 37, item 3): a workspace reached
// through a symlinked folder and its real path are two names of each file. Each name's open and
// close is counted, edits through either apply to the one text, and diagnostics go to every name
// the client has open, each with its own version.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "lsp/LspProbe.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

// The repository and a symlink to it beside it (a symlinked home or project folder).
struct TwoNames {
  M repo;
  std::string link = repo.dir() + "-link";
  TwoNames() { std::filesystem::create_directory_symlink(repo.dir(), link); }
  ~TwoNames() { std::filesystem::remove(link); }
  std::string viaLink(const std::string& path) const { return fileUri(link + "/" + path); }
};

void open(LspClient& c, const std::string& uri, const std::string& text, int version) {
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", version}, {"text", text}}}});
}
void addWindowLeft(LspClient& c, const M& repo, const std::string& uri, int version) {
  int l = line0(repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                      {"contentChanges", {{{"range", range(l, 0, l, 0)}, {"text", "    b.param(\"window_left\", I32)\n"}}}}});
}
void removeWindowLeft(LspClient& c, const M& repo, const std::string& uri, int version) {
  int l = line0(repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                      {"contentChanges", {{{"range", range(l, 0, l + 1, 0)}, {"text", ""}}}}});
}

TEST(LspDocumentIdentity, ClosingOneNameKeepsTheDocumentOpenUnderTheOther) {
  TwoNames t;
  LspClient c;
  c.initialize(t.repo.dir(), kTargetMain);
  const std::string real = uriIn(t.repo, M::kAttention), linked = t.viaLink(M::kAttention);
  const std::string pin = uriIn(t.repo, M::kAttentionPin);
  const std::string text = t.repo.read(M::kAttention);
  open(c, linked, text, 1);
  open(c, real, text, 7);
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", linked}}}});
  // The edit through the name still open applies: the pin breaks, the builder's error is
  // published to the real name with its version.
  size_t from = c.mark(), from2 = from;
  addWindowLeft(c, t.repo, real, 8);
  ASSERT_TRUE(waitDiags(c, pin, &from, [](const Json& d) { return hasSeverity(d, 1); })) << transcript(c);
  auto b = waitDiags(c, real, &from2, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(b) << transcript(c);
  EXPECT_EQ((*b)["version"], 8);
  // Nothing more for the closed name after its close was handled.
  for (size_t i = from2; i < c.messages().size(); ++i)
    EXPECT_NE(c.messages()[i].value("params", Json::object()).value("uri", ""), linked) << c.messages()[i].dump();
  Probe probe(c, t.repo);
  probe.version = 8;
  removeWindowLeft(c, t.repo, real, ++probe.version);
  ASSERT_TRUE(waitDiags(c, pin, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
  probe.run("a close through one of two names");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0);
}

TEST(LspDocumentIdentity, EditsThroughEitherNameApplyAndBothNamesGetDiagnostics) {
  TwoNames t;
  LspClient c;
  c.initialize(t.repo.dir(), kTargetMain);
  const std::string real = uriIn(t.repo, M::kAttention), linked = t.viaLink(M::kAttention);
  const std::string pin = uriIn(t.repo, M::kAttentionPin);
  const std::string text = t.repo.read(M::kAttention);
  open(c, real, text, 1);
  open(c, linked, text, 1);
  size_t fromPin = c.mark(), fromReal = fromPin, fromLink = fromPin;
  addWindowLeft(c, t.repo, linked, 2);  // through the link
  ASSERT_TRUE(waitDiags(c, pin, &fromPin, [](const Json& d) { return hasSeverity(d, 1); })) << transcript(c);
  auto viaLink = waitDiags(c, linked, &fromLink, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(viaLink) << transcript(c);
  EXPECT_EQ((*viaLink)["version"], 2);
  auto viaReal = waitDiags(c, real, &fromReal, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(viaReal) << transcript(c);
  EXPECT_EQ((*viaReal)["version"], 1);  // the real name's own version: no edit came through it
  // Undone through the real name: the one text is the original again.
  removeWindowLeft(c, t.repo, real, 2);
  ASSERT_TRUE(waitDiags(c, pin, &fromPin, [](const Json& d) { return d.empty(); })) << transcript(c);
  auto clearedLink = waitDiags(c, linked, &fromLink, [](const Json& d) { return d.empty(); });
  ASSERT_TRUE(clearedLink) << transcript(c);
  EXPECT_EQ((*clearedLink)["version"], 2);
  // Closing both: the file is the disk's again (the probe opens it afresh).
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", linked}}}});
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", real}}}});
  Probe probe(c, t.repo);
  probe.run("two names closed");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0);
}

// Initialized through the link: a file opened under its real path is the same document as under
// the link, and the not-open pin is published under the name the client gave the workspace.
TEST(LspDocumentIdentity, AWorkspaceOpenedThroughASymlink) {
  TwoNames t;
  LspClient c;
  c.initialize(t.link, kTargetMain);
  const std::string real = uriIn(t.repo, M::kAttention), pinViaLink = t.viaLink(M::kAttentionPin);
  open(c, real, t.repo.read(M::kAttention), 1);
  size_t from = c.mark(), from2 = from;
  addWindowLeft(c, t.repo, real, 2);
  ASSERT_TRUE(waitDiags(c, pinViaLink, &from, [](const Json& d) { return hasSeverity(d, 1); })) << transcript(c);
  auto b = waitDiags(c, real, &from2, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(b) << transcript(c);
  EXPECT_EQ((*b)["version"], 2);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0);
}

}  // namespace
}  // namespace impact::testing
