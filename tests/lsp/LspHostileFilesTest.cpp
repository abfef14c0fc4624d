// Chaos transcripts of hostile files in the workspace (issue 37, item 1): a pull request can add
// a FIFO named like a source file, a symlink to /dev/zero or to /dev/stdin, or a file of
// gigabytes. Announced by workspace/didChangeWatchedFiles, each is refused with a message that
// says why ("not read: a FIFO"); the server never blocks or grows on it, keeps publishing the
// right diagnostics at the right version (the probe), and shuts down within 5 s.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "lsp/LspProbe.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};
const std::string kKernels = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/";

void announce(LspClient& c, const M& repo, const std::string& path, int type) {
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", uriIn(repo, path)}, {"type", type}}}}});
}

std::optional<Json> messageSaying(LspClient& c, size_t* from, const std::string& text) {
  return c.waitMethod("window/showMessage", from, [&](const Json& p) { return p.value("message", "") == text; }, 8000ms);
}

// The session after the attack: a probe, a second file event, the probe again, then a shutdown
// that ends within 5 s with exit code 0.
void liveAndShutsDown(LspClient& c, const M& repo, Probe& probe, const std::string& attack) {
  probe.run(attack);
  // Announced again (the editor's watcher repeats itself): still not read, still answering.
  probe.run(attack + ", announced twice");
  auto t0 = std::chrono::steady_clock::now();
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0) << "no exit within 5 s after " << attack << "\n" << c.stderrText();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  (void)repo;
}

TEST(LspHostileFiles, ASymlinkToDevZeroIsNotRead) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  const std::string path = kKernels + "zero.py";
  ASSERT_EQ(::symlink("/dev/zero", (repo.dir() + "/" + path).c_str()), 0);
  size_t from = c.mark();
  announce(c, repo, path, 1);
  ASSERT_TRUE(messageSaying(c, &from, "impactd: " + path + ": not read: a symlink to /dev/zero, outside the workspace"))
      << transcript(c) << c.stderrText();
  announce(c, repo, path, 2);
  liveAndShutsDown(c, repo, probe, "a symlink to /dev/zero");
}

TEST(LspHostileFiles, AFifoNamedLikeASourceFileIsNotRead) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  const std::string path = kKernels + "pipe.py";
  ASSERT_EQ(::mkfifo((repo.dir() + "/" + path).c_str(), 0644), 0);
  size_t from = c.mark();
  announce(c, repo, path, 1);
  ASSERT_TRUE(messageSaying(c, &from, "impactd: " + path + ": not read: a FIFO")) << transcript(c) << c.stderrText();
  announce(c, repo, path, 2);
  liveAndShutsDown(c, repo, probe, "a FIFO");
}

TEST(LspHostileFiles, ASymlinkToDevStdinIsNotRead) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  const std::string path = kKernels + "stdin.py";
  ASSERT_EQ(::symlink("/dev/stdin", (repo.dir() + "/" + path).c_str()), 0);
  size_t from = c.mark();
  announce(c, repo, path, 1);
  // Never the server's own input: the client's next messages are still its own.
  auto m = c.waitMethod("window/showMessage", &from, [&](const Json& p) {
    return p.value("message", "").rfind("impactd: " + path + ": not read: a symlink to ", 0) == 0;
  });
  ASSERT_TRUE(m) << transcript(c) << c.stderrText();
  EXPECT_NE((*m)["params"]["message"].get<std::string>().find("/dev/stdin"), std::string::npos) << m->dump();
  liveAndShutsDown(c, repo, probe, "a symlink to /dev/stdin");
}

TEST(LspHostileFiles, AFileOfGigabytesIsNotRead) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  const std::string path = kKernels + "huge.py";
  // 3.2 GiB, sparse: no disk is used, but its size is what a read would take in.
  repo.write(path, "");
  ASSERT_EQ(::truncate((repo.dir() + "/" + path).c_str(), 3435973837LL), 0);
  size_t from = c.mark();
  announce(c, repo, path, 1);
  ASSERT_TRUE(messageSaying(c, &from, "impactd: " + path + ": not read: 3.2 GB, over the 64 MB limit"))
      << transcript(c) << c.stderrText();
  liveAndShutsDown(c, repo, probe, "a 3.2 GB file");
}

// A symlink to a regular file inside the workspace is what the editor shows: it is read.
TEST(LspHostileFiles, ASymlinkInsideTheWorkspaceIsRead) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  // The pin becomes a symlink to a copy of it with a wrong size: read through the link, it breaks.
  std::string pin = repo.read(M::kAttentionPin);
  const std::string copy = "elsewhere/pin.cpp";
  repo.write(copy, pin);
  repo.replace(copy, "KernelArgument{\"by_value\", 4, 44, \"\"},", "KernelArgument{\"by_value\", 8, 44, \"\"},");
  std::filesystem::remove(repo.dir() + "/" + M::kAttentionPin);
  ASSERT_EQ(::symlink((repo.dir() + "/" + copy).c_str(), (repo.dir() + "/" + M::kAttentionPin).c_str()), 0);
  size_t from = c.mark();
  announce(c, repo, M::kAttentionPin, 2);
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return hasSeverity(d, 1); }))
      << transcript(c);
  // Back to the file itself: the break goes.
  std::filesystem::remove(repo.dir() + "/" + M::kAttentionPin);
  repo.write(M::kAttentionPin, pin);
  announce(c, repo, M::kAttentionPin, 2);
  ASSERT_TRUE(waitDiags(c, uriIn(repo, M::kAttentionPin), &from, [](const Json& d) { return d.empty(); })) << transcript(c);
  liveAndShutsDown(c, repo, probe, "a symlink inside the workspace");
}

// The builder itself replaced by a FIFO: its row says it could not be read, and why; the file
// back, the row goes.
TEST(LspHostileFiles, ABuilderReplacedByAFifoSaysWhy) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  expectAnswers(c, repo);  // analysed
  const std::string builder = repo.dir() + "/" + M::kAttention, text = repo.read(M::kAttention);
  const std::string uri = uriIn(repo, M::kAttention);
  std::filesystem::remove(builder);
  ASSERT_EQ(::mkfifo(builder.c_str(), 0644), 0);
  size_t from = c.mark();
  announce(c, repo, M::kAttention, 2);
  auto d = waitDiags(c, uri, &from, [](const Json& d) {
    for (const auto& x : d)
      if (x.value("message", "") == "could not be read: a FIFO — needs a device run on gfx950") return true;
    return false;
  });
  ASSERT_TRUE(d) << transcript(c) << c.stderrText();
  std::filesystem::remove(builder);
  repo.write(M::kAttention, text);
  announce(c, repo, M::kAttention, 2);
  ASSERT_TRUE(waitDiags(c, uri, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
  Probe probe(c, repo);
  liveAndShutsDown(c, repo, probe, "a builder replaced by a FIFO");
}

// Present when the server starts (an untracked FIFO and a symlink to /dev/zero in the checked-out
// branch): the working tree's snapshot does not read them, and the session runs.
TEST(LspHostileFiles, HostileFilesPresentAtStart) {
  M repo;
  ASSERT_EQ(::mkfifo((repo.dir() + "/" + kKernels + "pipe.py").c_str(), 0644), 0);
  ASSERT_EQ(::symlink("/dev/zero", (repo.dir() + "/" + kKernels + "zero.py").c_str()), 0);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  liveAndShutsDown(c, repo, probe, "hostile files at start");
}

}  // namespace
}  // namespace impact::testing
