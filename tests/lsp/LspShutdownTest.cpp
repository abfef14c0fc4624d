// Shutdown never waits for a thread that can block (issue 37, item 1): `shutdown` + `exit` end
// the real impactd within 5 s whatever is running — an impact.run blocked in a read that never
// returns (a FIFO where git keeps an object: open() waits for a writer that never comes), the
// worker blocked the same way, the emitter's run, a FIFO in the work tree. A thread still
// running at the shutdown's deadline is left (stderr says so) and the process ends with its exit
// code. Timeouts are generous (a loaded machine) but every wait asserts.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "lsp/LspProbe.h"
#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};
const std::string kLeftRunning = "still running at the shutdown's deadline";

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// A tree no ref reaches (the head's tree and one more file), written loose, then its object file
// replaced by a FIFO: whoever reads that tree blocks in open(2) forever. Returns a commit of it
// (parent HEAD).
std::string commitOfAFifoTree(FixtureRepo& repo) {
  { std::ofstream(repo.dir() + "/.git/hostile.txt") << "not read before shutdown\n"; }
  std::string blob = trimmed(repo.git("hash-object -w .git/hostile.txt"));
  std::string tree = trimmed(repo.git("ls-tree HEAD | { cat; printf '100644 blob " + blob + "\\thostile.txt\\n'; } | git mktree"));
  std::string commit = trimmed(repo.git("commit-tree " + tree + " -p HEAD -m hostile"));
  const std::string object = repo.dir() + "/.git/objects/" + tree.substr(0, 2) + "/" + tree.substr(2);
  EXPECT_TRUE(std::filesystem::exists(object)) << object;
  std::filesystem::remove(object);
  EXPECT_EQ(::mkfifo(object.c_str(), 0644), 0) << object;
  return commit;
}

// shutdown + exit; the process must be gone within 5 s, with exit code 0. Returns the seconds.
double shutdownWithinFiveSeconds(LspClient& c, const std::string& what) {
  auto t0 = std::chrono::steady_clock::now();
  c.shutdownAndExit();
  auto code = c.waitExit(5000ms);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(code) << "impactd still running 5 s after shutdown, " << what << "\n" << c.stderrText();
  if (code) EXPECT_EQ(*code, 0) << what << "\n" << c.stderrText();
  EXPECT_LT(s, 5.0) << what;
  return s;
}

// A long impact.run: its report reads a tree whose object is a FIFO and never returns. Meanwhile
// the session answers (the probe: an edit, the right diagnostics at the right version); the
// shutdown leaves the report's thread behind and the process ends within 5 s.
TEST(LspShutdown, ARunThatNeverReturnsDoesNotHoldUpShutdown) {
  M repo;
  const std::string hostile = commitOfAFifoTree(repo);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  size_t from = c.mark();
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", Json::array({{{"head", hostile}}})}});
  ASSERT_TRUE(c.waitMethod("$/progress", &from, [](const Json& p) {
    return p["value"].value("message", "") == "reading revisions and extracting facts";
  }, 20000ms)) << transcript(c) << c.stderrText();
  probe.run("an impact.run blocked in a read");
  probe.run("an impact.run blocked in a read, again");
  EXPECT_FALSE(c.response(id, 200ms)) << "the report read a FIFO and answered";
  shutdownWithinFiveSeconds(c, "with an impact.run blocked in a read");
  EXPECT_NE(c.stderrText().find(kLeftRunning), std::string::npos) << c.stderrText();
}

// The worker itself blocked: the checked-out head's tree is a FIFO, read by the first analysis.
// Requests the protocol thread answers still come; shutdown does not wait for the worker.
TEST(LspShutdown, AWorkerThatNeverReturnsDoesNotHoldUpShutdown) {
  M repo;
  const std::string hostile = commitOfAFifoTree(repo);
  repo.git("update-ref refs/heads/feature " + hostile);  // HEAD (feature) now names the FIFO's tree
  LspClient c;
  size_t from = c.mark();
  c.initialize(repo.dir(), kTargetMain);
  // The worker has begun (its first task says "starting"); it then reads the head's tree.
  ASSERT_TRUE(c.waitMethod("impactd/status", &from, [](const Json& p) { return p.value("state", "") == "starting"; },
                           20000ms))
      << transcript(c) << c.stderrText();
  shutdownWithinFiveSeconds(c, "with the worker blocked in a read");
  EXPECT_NE(c.stderrText().find(kLeftRunning), std::string::npos) << c.stderrText();
}

// A FIFO in the work tree, then impact.run: the report does not read it (guarded reads) and
// answers; the session stays right and shuts down within 5 s, leaving nothing behind.
TEST(LspShutdown, AFifoInTheTreeDuringARun) {
  M repo;
  const std::string path = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/pipe.py";
  ASSERT_EQ(::mkfifo((repo.dir() + "/" + path).c_str(), 0644), 0);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("a FIFO in the tree");
  c.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", uriIn(repo, path)}, {"type", 1}}}}});
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", Json::array()}});
  auto r = c.response(id, 60000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "no answer to impact.run\n" + c.stderrText());
  probe.run("impact.run beside a FIFO");
  shutdownWithinFiveSeconds(c, "with a FIFO in the tree");
  EXPECT_EQ(c.stderrText().find(kLeftRunning), std::string::npos) << c.stderrText();
}

// An emitter run in progress (its builder sleeps for two minutes): shutdown kills its child
// group and the process ends within 5 s.
TEST(LspShutdown, AnEmitInProgressDoesNotHoldUpShutdown) {
  EmitFixture repo;
  LspClient c;
  c.initialize(repo.dir(), {{"target", "main"},
                            {"emitter", "auto"},
                            {"emitterDebounceMs", 50},
                            {"emitterCache", repo.cacheDir()},
                            {"emitterFamilyTimeoutS", 300}});
  repo.replace(EmitFixture::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    import time\n    time.sleep(120)\n");
  size_t from = c.mark();
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", uriIn(repo, EmitFixture::kScale)}}}});
  // The run has begun and reports its first family.
  ASSERT_TRUE(c.waitMethod("$/progress", &from, [](const Json& p) {
    return p["value"].value("kind", "") == "begin" && p["token"].get<std::string>().rfind("impact.emit-", 0) == 0;
  }, 30000ms)) << transcript(c) << c.stderrText();
  shutdownWithinFiveSeconds(c, "with an emitter run in progress");
}

}  // namespace
}  // namespace impact::testing
