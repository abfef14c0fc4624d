// The emitter in the background of the real impactd (SPEC R6.6) over the emitter's fixture
// (examples/rocke-platform, `feature` checked out, base main): when it runs (trusted "auto" after
// a save, "manual" on impact.emit, never when "off"), what its verdicts do to the diagnostics,
// cancellation by a newer save and by the client, a hanging builder.
// Every child the emitter starts is recorded by a watcher that reads /proc every few milliseconds
// for processes running the driver from the fixture's emitter cache (its pid = its process group:
// the child runs under setsid). A wrapper script cannot record them: the child is confined before
// exec (Landlock: it may write only its scratch folder, docs/emitter.md).
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <mutex>
#include <thread>
#include <vector>

#include "lsp/LspTestSupport.h"
#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using E = EmitFixture;

class LspEmitter : public ::testing::Test {
 protected:
  void SetUp() override {
    marker_ = repo.cacheDir() + "/driver/";
    watcher_ = std::thread([this] {
      while (!stop_) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator("/proc", ec)) {
          std::string name = e.path().filename().string();
          if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
          std::ifstream in(e.path() / "cmdline", std::ios::binary);
          std::stringstream ss;
          ss << in.rdbuf();
          if (ss.str().find(marker_) == std::string::npos) continue;
          std::lock_guard<std::mutex> lock(mu_);
          int pid = std::stoi(name);
          if (std::find(seen_.begin(), seen_.end(), pid) == seen_.end()) seen_.push_back(pid);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      }
    });
  }
  void TearDown() override {
    stop_ = true;
    if (watcher_.joinable()) watcher_.join();
  }

  // The pids (process groups) of every child seen so far.
  std::vector<int> children() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_;
  }

  Json options(const std::string& mode, int debounceMs = 100) const {
    return {{"target", "main"},
            {"emitter", mode},
            {"emitterDebounceMs", debounceMs},
            {"emitterCache", repo.cacheDir()},
            {"emitterFamilyTimeoutS", 30}};
  }

  void save(LspClient& c, const std::string& path) {
    c.notify("textDocument/didSave", {{"textDocument", {{"uri", uriIn(repo, path)}}}});
  }

  E repo;
  std::string marker_;
  std::thread watcher_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<int> seen_;
};

bool hasWarningWith(const Json& diags, const std::string& text) {
  for (const auto& d : diags)
    if (d.value("severity", 0) == 2 && d.value("message", "").find(text) != std::string::npos) return true;
  return false;
}

// A hover gets an answer (the server is not blocked by the emitter).
void expectHoverAnswers(LspClient& c, const std::string& uri) {
  int id = c.request("textDocument/hover", at(uri, 25, 10));
  auto r = c.response(id, 5000ms);
  ASSERT_TRUE(r) << "no answer to a hover; stderr:\n" << c.stderrText();
  EXPECT_TRUE(r->contains("result")) << r->dump();
}

const auto kWarn = [](const Json& d) { return hasSeverity(d, 2); };
const auto kNoWarn = [](const Json& d) { return !hasSeverity(d, 2); };

TEST_F(LspEmitter, AutoRefactorSaveFoldsTheWarningsAway) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  // The emitter runs (progress begin ... end), then the changed row folds: no warning left.
  auto begin = c.waitMethod("$/progress", &from, [](const Json& p) { return p["value"]["kind"] == "begin"; }, 20000ms);
  ASSERT_TRUE(begin) << transcript(c);
  EXPECT_EQ((*begin)["params"]["value"]["cancellable"], true);
  ASSERT_TRUE(waitDiags(c, uri, &from, kNoWarn, 60000ms)) << transcript(c) << c.stderrText();
  EXPECT_FALSE(children().empty());
  // impactd/status said it was emitting, then stopped saying it.
  size_t s = 0;
  ASSERT_TRUE(c.waitMethod("impactd/status", &s, [](const Json& p) { return p.contains("emitting"); })) << transcript(c);
  EXPECT_TRUE(c.waitMethod("impactd/status", &s, [](const Json& p) { return !p.contains("emitting"); })) << transcript(c);
  // impact.run includes the emit result for these trees: the verdict is NONE.
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  auto r = c.response(id, 30000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout");
  std::string text = (*r)["result"]["text"];
  EXPECT_NE(text.find("Runtime impact: NONE"), std::string::npos) << text;
  // The result holds for the trees it was made for: an unsaved edit brings the warning back,
  // undoing it takes it away again (no new run: the same tree).
  size_t runs = children().size();
  const std::string saved = repo.read(E::kScale);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", saved}}}});
  from = c.mark();
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                      {"contentChanges", {{{"text", saved + "\nEXTRA = tiles(1, 1)\n"}}}}});
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", uri}, {"version", 3}}}, {"contentChanges", {{{"text", saved}}}}});
  ASSERT_TRUE(waitDiags(c, uri, &from, kNoWarn)) << transcript(c);
  EXPECT_EQ(children().size(), runs);
}

TEST_F(LspEmitter, AutoWithHintsTurnsFoldedRowsIntoHints) {
  LspClient c;
  Json o = options("auto");
  o["emitterHints"] = true;
  c.initialize(repo.dir(), o);
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  auto hinted = waitDiags(c, uri, &from, [](const Json& d) { return !hasSeverity(d, 2) && hasSeverity(d, 4); }, 60000ms);
  ASSERT_TRUE(hinted) << transcript(c);
  bool said = false;
  for (const auto& d : (*hinted)["diagnostics"])
    said = said || d.value("message", "").find("IR and compile inputs equal for all 2 shipped variants") != std::string::npos;
  EXPECT_TRUE(said) << hinted->dump(2);
}

TEST_F(LspEmitter, AutoSemanticSaveKeepsTheWarnings) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.replace(E::kScale, "        b.store(out, t * spec.block, value)\n",
               "        b.store(out, t * spec.block, b.op(\"fmax\", value, alpha))\n");
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  auto end = c.waitMethod("$/progress", &from, [](const Json& p) { return p["value"]["kind"] == "end"; }, 60000ms);
  ASSERT_TRUE(end) << transcript(c);
  EXPECT_FALSE(children().empty());
  // After the run the warning is still there (the last publish for the file has it).
  c.request("textDocument/hover", at(uri, 0, 0));
  std::this_thread::sleep_for(300ms);
  auto all = allDiags(c, uri);
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(hasSeverity(all.back()["diagnostics"], 2)) << transcript(c);
}

TEST_F(LspEmitter, OffNeverStartsAChild) {
  LspClient c;
  Json o = options("off");
  c.initialize(repo.dir(), o);
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  // impact.emit is refused while off.
  int id = c.request("workspace/executeCommand", {{"command", "impact.emit"}, {"arguments", Json::array()}});
  auto r = c.response(id);
  ASSERT_TRUE(r && r->contains("error")) << (r ? r->dump() : "timeout");
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("the emitter is off"), std::string::npos) << r->dump();
  std::this_thread::sleep_for(1000ms);  // ten debounces
  EXPECT_TRUE(children().empty());
  EXPECT_FALSE(fs::exists(repo.cacheDir()));
  for (const auto& m : c.messages()) EXPECT_NE(m.value("method", ""), "$/progress") << m.dump();
}

TEST_F(LspEmitter, AbsentOptionMeansOff) {
  LspClient c;
  c.initialize(repo.dir(), {{"target", "main"}});
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  std::this_thread::sleep_for(3500ms);  // past the default debounce
  EXPECT_TRUE(children().empty());
}

TEST_F(LspEmitter, ManualRunsOnlyOnImpactEmitWithProgress) {
  LspClient c;
  c.initialize(repo.dir(), options("manual"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  std::this_thread::sleep_for(600ms);
  EXPECT_TRUE(children().empty()) << "manual: a save starts nothing";
  int id = c.request("workspace/executeCommand", {{"command", "impact.emit"}, {"arguments", Json::array()}});
  auto r = c.response(id, 60000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout") << c.stderrText();
  EXPECT_NE((*r)["result"]["summary"].get<std::string>().find("families"), std::string::npos) << r->dump();
  EXPECT_FALSE(children().empty());
  size_t p = 0;
  auto create = c.waitMethod("window/workDoneProgress/create", &p);
  ASSERT_TRUE(create) << transcript(c);
  Json token = (*create)["params"]["token"];
  EXPECT_TRUE(c.waitMethod("$/progress", &p, [&](const Json& v) { return v["token"] == token && v["value"]["kind"] == "report"; }))
      << transcript(c);
  EXPECT_TRUE(c.waitMethod("$/progress", &p, [&](const Json& v) { return v["token"] == token && v["value"]["kind"] == "end"; }))
      << transcript(c);
  ASSERT_TRUE(waitDiags(c, uri, &from, kNoWarn)) << transcript(c);
}

// A relative emitterCache is the workspace's: resolved against the workspace root, not against
// impactd's working directory nor the emitter child's home (issue 27).
TEST_F(LspEmitter, ARelativeEmitterCacheIsTheWorkspaces) {
  std::string relative = fs::relative(repo.cacheDir(), repo.dir()).string();
  ASSERT_EQ(relative.rfind("../", 0), 0u) << relative;  // a path that means something only from the root
  LspClient c;
  Json o = options("manual");
  o["emitterCache"] = relative;
  c.initialize(repo.dir(), o);
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  int id = c.request("workspace/executeCommand", {{"command", "impact.emit"}, {"arguments", Json::array()}});
  auto r = c.response(id, 60000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout") << c.stderrText();
  const std::string summary = (*r)["result"]["summary"].get<std::string>();
  EXPECT_NE(summary.find("3 families"), std::string::npos) << summary;
  EXPECT_FALSE(children().empty()) << "the children ran the driver from the fixture's cache";
  EXPECT_TRUE(fs::is_directory(repo.cacheDir() + "/driver")) << repo.cacheDir();
  // Every variant built at both revisions: the refactor's warnings fold away.
  ASSERT_TRUE(waitDiags(c, uri, &from, kNoWarn)) << transcript(c);
}

// A builder that sleeps far past any budget: the client cancels the run from its progress.
TEST_F(LspEmitter, ManualRunIsCancelledByTheClient) {
  LspClient c;
  c.initialize(repo.dir(), options("manual"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    import time\n    time.sleep(120)\n");
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kWarn)) << transcript(c);
  int id = c.request("workspace/executeCommand", {{"command", "impact.emit"}, {"arguments", Json::array()}});
  auto create = c.waitMethod("window/workDoneProgress/create", &from);
  ASSERT_TRUE(create) << transcript(c);
  Json token = (*create)["params"]["token"];
  // Wait for a child to be running, then cancel.
  auto t0 = std::chrono::steady_clock::now();
  while (children().empty() && std::chrono::steady_clock::now() - t0 < 20s) std::this_thread::sleep_for(50ms);
  ASSERT_FALSE(children().empty());
  std::this_thread::sleep_for(300ms);
  c.notify("window/workDoneProgress/cancel", {{"token", token}});
  auto r = c.response(id, 15000ms);
  ASSERT_TRUE(r && r->contains("error")) << (r ? r->dump() : "timeout") << "\n" << transcript(c) << c.stderrText();
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("cancelled"), std::string::npos) << r->dump();
  for (int pid : children()) EXPECT_NE(::kill(-pid, 0), 0) << "child group " << pid << " still alive";
  expectHoverAnswers(c, uri);
}

TEST_F(LspEmitter, ANewerSaveCancelsTheRunningRun) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  const std::string original = repo.read(E::kScale);
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    import time\n    time.sleep(120)\n");
  save(c, E::kScale);
  auto t0 = std::chrono::steady_clock::now();
  while (children().empty() && std::chrono::steady_clock::now() - t0 < 20s) std::this_thread::sleep_for(50ms);
  auto first = children();
  ASSERT_FALSE(first.empty()) << transcript(c);
  std::this_thread::sleep_for(500ms);  // the sleeping builder is running now
  first = children();
  // The second save: the IR-preserving refactor.
  repo.write(E::kScale, original);
  repo.refactorScale();
  size_t second = c.mark();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &second, kNoWarn, 60000ms)) << transcript(c) << c.stderrText();
  for (int pid : first) EXPECT_NE(::kill(-pid, 0), 0) << "first run's child group " << pid << " still alive";
  // No timed-out warning from the first run ever reached the file.
  for (const auto& p : allDiags(c, uri)) EXPECT_FALSE(hasWarningWith(p["diagnostics"], "timed out")) << p.dump();
}

TEST_F(LspEmitter, AHangingBuilderTimesOutAndTheServerKeepsAnswering) {
  LspClient c;
  Json o = options("auto");
  o["emitterFamilyTimeoutS"] = 2;
  c.initialize(repo.dir(), o);
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    while True:\n        pass\n");
  save(c, E::kScale);
  expectHoverAnswers(c, uri);
  auto timedOut = waitDiags(c, uri, &from, [](const Json& d) { return hasWarningWith(d, "build_scale timed out"); }, 60000ms);
  ASSERT_TRUE(timedOut) << transcript(c);
  expectHoverAnswers(c, uri);
  for (int pid : children()) EXPECT_NE(::kill(-pid, 0), 0) << "child group " << pid << " still alive";
}

// A child that dies (exit 3 in the builder, no answer on stdout) is one Warning on its builder
// with the reason; the server keeps answering, and the next save tries again.
TEST_F(LspEmitter, AChildThatDiesIsAWarningOnItsBuilderAndTheNextSaveTriesAgain) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  const std::string uri = uriIn(repo, E::kScale);
  size_t from = c.mark();
  const std::string original = repo.read(E::kScale);
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n",
               "    b.param(\"n\", I32)\n    import os, sys\n    sys.stdout.write('garbage')\n    sys.stdout.flush()\n"
               "    os._exit(3)\n");
  save(c, E::kScale);
  auto died = waitDiags(c, uri, &from, [](const Json& d) { return hasWarningWith(d, "emitter: build_scale failed at the head"); },
                        60000ms);
  ASSERT_TRUE(died) << transcript(c);
  int builderLine = line0(repo, E::kScale, "def build_scale");
  for (const auto& d : (*died)["diagnostics"])
    if (d.value("code", "") == "emitter") EXPECT_EQ(d["range"]["start"]["line"], builderLine) << d.dump();
  expectHoverAnswers(c, uri);
  repo.write(E::kScale, original);
  repo.refactorScale();
  save(c, E::kScale);
  ASSERT_TRUE(waitDiags(c, uri, &from, kNoWarn, 60000ms)) << transcript(c);
}

// Pack-time findings (R5) are Warnings on the predicate, naming the spec that exposes them; the
// shipped variants still fold.
TEST_F(LspEmitter, PackTimeFindingIsAWarningOnThePredicate) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  const std::string softmax = std::string(E::kLib) + "kernels/gfx950/softmax.py";
  const std::string uri = uriIn(repo, softmax);
  size_t from = c.mark();
  repo.replace(softmax, "    b = IRBuilder(f\"softmax_r{spec.rows}_c{spec.cols}\")\n",
               "    if spec.rows > 128:\n        raise ValueError(\"rows above 128 need the persistent softmax\")\n"
               "    b = IRBuilder(f\"softmax_r{spec.rows}_c{spec.cols}\")\n");
  save(c, softmax);
  auto found = waitDiags(c, uri, &from, [](const Json& d) { return hasWarningWith(d, "pack-time new: supports_softmax accepts"); },
                         60000ms);
  ASSERT_TRUE(found) << transcript(c);
  int predicateLine = line0(repo, softmax, "def supports_softmax");
  bool seen = false;
  for (const auto& d : (*found)["diagnostics"]) {
    if (d.value("code", "") != "pack-time") continue;
    EXPECT_EQ(d["range"]["start"]["line"], predicateLine) << d.dump();
    // A finding the base has too is Information; the new one a Warning.
    bool fresh = d["message"].get<std::string>().starts_with("pack-time new: ");
    EXPECT_EQ(d["severity"], fresh ? 2 : 3) << d.dump();
    if (!fresh) continue;
    seen = true;
    EXPECT_EQ(d["range"]["start"]["line"], predicateLine) << d.dump();
    EXPECT_NE(d["message"].get<std::string>().find("with rows=256 and the builder raises: ValueError: rows above 128"),
              std::string::npos)
        << d.dump();
  }
  EXPECT_TRUE(seen);
  // The kernel-code row itself folded: the only warning left is the finding.
  for (const auto& d : (*found)["diagnostics"])
    if (d.value("severity", 0) == 2) EXPECT_EQ(d.value("code", ""), "pack-time") << d.dump();
}

// Shutdown kills a running run's children: nothing the emitter started outlives the server.
TEST_F(LspEmitter, ShutdownKillsTheRunningChildGroups) {
  LspClient c;
  c.initialize(repo.dir(), options("auto"));
  repo.replace(E::kScale, "    b.param(\"n\", I32)\n", "    b.param(\"n\", I32)\n    import time\n    time.sleep(120)\n");
  save(c, E::kScale);
  auto t0 = std::chrono::steady_clock::now();
  while (children().empty() && std::chrono::steady_clock::now() - t0 < 20s) std::this_thread::sleep_for(50ms);
  ASSERT_FALSE(children().empty()) << transcript(c);
  std::this_thread::sleep_for(300ms);
  auto running = children();
  c.shutdownAndExit();
  auto code = c.waitExit(10000ms);
  ASSERT_TRUE(code) << "impactd did not exit";
  EXPECT_EQ(*code, 0);
  // Killed groups are reaped by whoever inherits them, a moment later on a loaded machine: a
  // group still there after 5 s outlived the server.
  for (int pid : running) {
    auto until = std::chrono::steady_clock::now() + 5s;
    while (::kill(-pid, 0) == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
    EXPECT_NE(::kill(-pid, 0), 0) << "child group " << pid << " outlived the server";
  }
}

}  // namespace
}  // namespace impact::testing
