// impactd on every kind of repository (issue 11; the CLI side is tests/e2e/RepositoryKindsTest):
// where the analysis can run, the pin's mismatch is published as on a plain clone; where it
// cannot, the server says why once (window/showMessage) and keeps answering.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
const Json kTargetMain = {{"target", "main"}};

struct Breaking : M {
  Breaking() {
    addSlidingWindow(*this);
    commit("sliding window");
  }
};

struct TempDir {
  std::string path;
  explicit TempDir(const std::string& prefix = "/tmp/impactd-kinds-XXXXXX") {
    std::string t = prefix;
    path = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

// A session on `root` (a copy of the fixture or the fixture itself): the pin's Error arrives.
void expectPinBreaks(const M& repo, const std::string& root, const std::string& target = "main") {
  LspClient c({"--git-poll-ms=100"});
  c.initialize(root, {{"target", target}});
  size_t from = 0;
  auto d = waitDiags(c, fileUri(root + "/" + M::kAttentionPin), &from, [](const Json& x) { return hasSeverity(x, 1); });
  EXPECT_TRUE(d) << transcript(c) << c.stderrText();
  for (const auto& m : c.messages()) EXPECT_NE(m.value("method", ""), "window/showMessage") << m.dump();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0) << c.stderrText();
}

// A session on `root` that cannot run as asked: one showMessage with `text`, then answers.
void expectSaidOnce(const M& repo, const std::string& root, const std::string& text, const std::string& target = "main",
                    std::vector<std::string> args = {}) {
  args.push_back("--git-poll-ms=100");
  LspClient c(args);
  c.initialize(root, {{"target", target}});
  size_t from = 0;
  auto msg = c.waitMethod("window/showMessage", &from);
  ASSERT_TRUE(msg) << transcript(c) << c.stderrText();
  EXPECT_EQ((*msg)["params"]["message"], text) << msg->dump();
  // Still serving: a hover gets an answer; an edit and a git move do not repeat the message.
  int id = c.request("textDocument/hover", at(fileUri(root + "/" + M::kAttention), 0, 0));
  auto r = c.response(id);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result")) << r->dump();
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", fileUri(root + "/" + M::kAttention)}, {"languageId", "python"},
                                                      {"version", 1}, {"text", repo.read(M::kAttention) + "\n"}}}});
  std::this_thread::sleep_for(400ms);
  id = c.request("textDocument/hover", at(fileUri(root + "/" + M::kAttention), 0, 0));
  ASSERT_TRUE(c.response(id));
  int n = 0;
  for (const auto& m : c.messages()) n += m.value("method", "") == "window/showMessage";
  EXPECT_EQ(n, 1) << transcript(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0) << c.stderrText();
}

TEST(LspRepositoryKinds, DetachedHead) {
  Breaking repo;
  repo.git("checkout -q --detach");
  expectPinBreaks(repo, repo.dir());
}

TEST(LspRepositoryKinds, ShallowCloneWithoutTheMergeBase) {
  Breaking repo;
  repo.git("checkout -q main");
  repo.write("README.md", "main moved on\n");
  repo.commit("main moves");
  TempDir t;
  std::string clone = t.path + "/shallow";
  ASSERT_EQ(run("git clone -q --depth 1 --no-single-branch -b feature " + shellQuote("file://" + repo.dir()) + " " +
                shellQuote(clone)).exitCode, 0);
  LspClient c({"--git-poll-ms=100"});
  c.initialize(clone, {{"target", "origin/main"}});
  size_t from = 0;
  auto msg = c.waitMethod("window/showMessage", &from);
  ASSERT_TRUE(msg) << c.stderrText();
  std::string text = (*msg)["params"]["message"];
  EXPECT_NE(text.find("shallow"), std::string::npos) << text;
  EXPECT_NE(text.find("git fetch --unshallow"), std::string::npos) << text;
  // Every copy is still compared with the builder: the pin is stale.
  size_t d = 0;
  EXPECT_TRUE(waitDiags(c, fileUri(clone + "/" + M::kAttentionPin), &d, [](const Json& x) { return hasSeverity(x, 1); }));
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0) << c.stderrText();
}

TEST(LspRepositoryKinds, BareRepository) {
  Breaking repo;
  TempDir t;
  std::string bare = t.path + "/bare.git";
  ASSERT_EQ(run("git clone -q --bare " + shellQuote(repo.dir()) + " " + shellQuote(bare)).exitCode, 0);
  expectSaidOnce(repo, bare, "impactd: no working tree: the repository is bare");
}

TEST(LspRepositoryKinds, Submodules) {
  Breaking repo;
  FixtureRepo sub;
  sub.write("lib.py", "def helper():\n    return 1\n");
  sub.commit("sub");
  repo.git("-c protocol.file.allow=always submodule add -q " + shellQuote(sub.dir()) + " third_party/sub");
  repo.commit("a submodule");
  expectPinBreaks(repo, repo.dir());
}

TEST(LspRepositoryKinds, LinkedWorktree) {
  Breaking repo;
  repo.git("checkout -q main");
  TempDir t;
  std::string wt = t.path + "/linked";
  repo.git("worktree add -q " + shellQuote(wt) + " feature");
  expectPinBreaks(repo, wt);
}

TEST(LspRepositoryKinds, SparseCheckout) {
  Breaking repo;
  repo.git("sparse-checkout set --no-cone dnn-providers/hip-kernel-provider/rocke/ "
           "dnn-providers/hip-kernel-provider/src/tests/");
  ASSERT_FALSE(fs::exists(fs::path(repo.dir()) / M::kAttentionPack));
  expectPinBreaks(repo, repo.dir());
}

TEST(LspRepositoryKinds, PackedRefsOnly) {
  Breaking repo;
  repo.git("pack-refs --all --prune");
  expectPinBreaks(repo, repo.dir());
}

TEST(LspRepositoryKinds, ACorruptedObject) {
  Breaking repo;
  std::string id = repo.git("rev-parse main:" + std::string(M::kAttentionPin));
  id.erase(id.find_last_not_of("\n") + 1);
  fs::path obj = fs::path(repo.dir()) / ".git/objects" / id.substr(0, 2) / id.substr(2);
  fs::permissions(obj, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(obj, std::ios::binary | std::ios::trunc) << "not a zlib stream";
  expectSaidOnce(repo, repo.dir(),
                 "impactd: " + std::string(M::kAttentionPin) + ": unreadable object " + id +
                     ": failed to inflate loose object: the repository is damaged; `git fsck` says more",
                 "main", {"--no-cache"});  // a cached blob id is served without reading the object
}

TEST(LspRepositoryKinds, AnUnbornBranch) {
  M repo;
  repo.git("checkout -q --orphan unborn");
  expectSaidOnce(repo, repo.dir(),
                 "impactd: HEAD is on the unborn branch 'unborn' (no commit yet): commit first; every copy is compared "
                 "as if it were new");
}

TEST(LspRepositoryKinds, APathWithSpacesAndNonAscii) {
  Breaking repo;
  TempDir t("/tmp/impactd kinds \xc3\xbc\xe2\x82\xac-XXXXXX");
  std::string moved = t.path + "/r\xc3\xa9po with spaces";
  fs::copy(repo.dir(), moved, fs::copy_options::recursive);
  expectPinBreaks(repo, moved);
}

}  // namespace
}  // namespace impact::testing
