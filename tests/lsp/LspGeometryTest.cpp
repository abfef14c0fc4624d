// The geometry differential in the background of the real impactd (issue 17): on the real gfx942
// dense family (tests/support/GeometryTrees.h, `feature` checked out, base main), a save of the
// family's Python module in a trusted "auto" workspace runs it, and its verdict reaches the
// diagnostics: the Python grid axes swapped is a mismatch (an Error naming the axes and the
// variants), swapped back the mismatch is gone; the header's persistent branch removed is a
// mismatch on the persistent variants; the run's progress goes out as the emitter's and the
// client can cancel it; a run that cannot start is said once; with the emitter "off" (an untrusted workspace) it never runs.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lsp/LspTestSupport.h"
#include "support/GeometryTrees.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

bool hasErrorWith(const Json& diags, const std::string& text) {
  for (const auto& d : diags)
    if (d.value("severity", 0) == 1 && d.value("message", "").find(text) != std::string::npos) return true;
  return false;
}

// The server's log (its stderr) says `text` within the timeout.
bool logSays(LspClient& c, const std::string& text, std::chrono::milliseconds timeout = 120000ms) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (c.stderrText().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

class LspGeometry : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = realGfx942Missing(); !why.empty()) GTEST_SKIP() << why;
    if (std::system("command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "no C++ compiler on PATH: the geometry harness cannot be built";
    writeRealGfx942Family(repo_);
    repo_.commit("the real gfx942 dense family, shipped");
    repo_.git("checkout -q -b feature");
    char tmpl[] = "/tmp/impact-lsp-geometry-XXXXXX";
    cache_ = ::mkdtemp(tmpl);
  }
  void TearDown() override {
    std::error_code ec;
    if (!cache_.empty()) fs::remove_all(cache_, ec);
  }
  Json options(const std::string& mode) const {
    return {{"target", "main"}, {"emitter", mode}, {"emitterDebounceMs", 100}, {"emitterCache", cache_},
            {"emitterFamilyTimeoutS", 60}};
  }
  void save(LspClient& c, const std::string& path) {
    c.notify("textDocument/didSave", {{"textDocument", {{"uri", uriIn(repo_, path)}}}});
  }
  void swapGridAxes(bool swapped) {
    std::string plain = "    return (nqb, spec.num_query_heads, spec.batch)\n";
    std::string swap = "    return (spec.num_query_heads, nqb, spec.batch)\n";
    repo_.replace(gfx942::kModule, swapped ? plain : swap, swapped ? swap : plain);
  }

  FixtureRepo repo_;
  std::string cache_;
};

TEST_F(LspGeometry, ASavedPythonGridSwapIsAMismatchAndSwappingBackClearsIt) {
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), options("auto"));
  const std::string uri = uriIn(repo_, gfx942::kModule);
  size_t from = c.mark();
  swapGridAxes(true);
  save(c, gfx942::kModule);
  auto m = waitDiags(c, uri, &from, [](const Json& d) { return hasErrorWith(d, "grid axis x, y differs on 4 shipped variants of 6"); },
                     120000ms);
  ASSERT_TRUE(m) << transcript(c) << c.stderrText();
  // The argument plan: in the message, and as related information at the pack whose launch it is.
  bool named = false, related = false;
  for (const auto& d : (*m)["diagnostics"]) {
    named = named || d.value("message", "").find("blockM <- metadata block_m") != std::string::npos;
    for (const auto& r : d.value("relatedInformation", Json::array()))
      related = related || (r["message"].get<std::string>().find("the launch's arguments: ") == 0 &&
                            r["message"].get<std::string>().find("blockM <- metadata block_m") != std::string::npos &&
                            r["location"]["uri"] == uriIn(repo_, gfx942::kPack) &&
                            r["location"]["range"]["start"]["line"] == line0(repo_, gfx942::kPack, "= attentionDenseGeometry("));
  }
  EXPECT_TRUE(named) << m->dump();
  EXPECT_TRUE(related) << m->dump();

  // impact.run on the same head folds the background result: the report breaks, naming the axes.
  int id = c.request("workspace/executeCommand", {{"command", "impact.run"}, {"arguments", {Json::object()}}});
  auto r = c.response(id, 60000ms);
  ASSERT_TRUE(r && r->contains("result")) << (r ? r->dump() : "timeout");
  std::string text = (*r)["result"]["text"];
  EXPECT_NE(text.find("grid axis x, y differs on 4 shipped variants of 6"), std::string::npos) << text;
  EXPECT_NE(text.find("Runtime impact: BREAKS"), std::string::npos) << text;

  // An unsaved edit undoing the swap: the document was made for another head, it is not applied.
  std::string swappedText = repo_.read(gfx942::kModule);
  std::string plain = swappedText;
  plain.replace(plain.find("    return (spec.num_query_heads, nqb, spec.batch)\n"), 51,
                "    return (nqb, spec.num_query_heads, spec.batch)\n");
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", swappedText}}}});
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", {{{"text", plain}}}}});
  ASSERT_TRUE(waitDiags(c, uri, &from, [](const Json& d) { return !hasErrorWith(d, "differs"); })) << transcript(c);
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});

  // Saved back: the next run agrees, and what is published for the module holds no mismatch.
  swapGridAxes(false);
  save(c, gfx942::kModule);
  ASSERT_TRUE(logSays(c, "geometry: run 2: 1 families")) << transcript(c) << c.stderrText();
  std::this_thread::sleep_for(300ms);
  auto published = allDiags(c, uri);
  ASSERT_FALSE(published.empty());
  EXPECT_FALSE(hasErrorWith(published.back()["diagnostics"], "differs")) << transcript(c);
}

TEST_F(LspGeometry, ASavedHeaderEditIsJudgedOnThePersistentVariants) {
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), options("auto"));
  const std::string uri = uriIn(repo_, gfx942::kHeader);
  size_t from = c.mark();
  repo_.replace(gfx942::kHeader, "    if(persistent != 0)\n    {\n        geometry.gridX = static_cast<unsigned>(numPersistent);\n"
                                 "        geometry.gridY = 1;\n        geometry.gridZ = 1;\n    }\n    else\n    {\n",
                "    {\n");
  save(c, gfx942::kHeader);
  ASSERT_TRUE(waitDiags(c, uri, &from, [](const Json& d) { return hasErrorWith(d, "differs on 2 shipped variants of 6"); },
                        120000ms))
      << transcript(c) << c.stderrText();
}

// Its progress as the emitter's: a work-done progress of its own (begin, the families, end with
// the run's summary) and impactd/status saying "geometry" while it runs.
TEST_F(LspGeometry, TheRunReportsItsProgressAsTheEmitterDoes) {
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), options("auto"));
  size_t from = c.mark();
  swapGridAxes(true);
  save(c, gfx942::kModule);
  size_t p = from;
  // (The emitter may run too, after the same save: its token is impact.emit-N.)
  auto create = c.waitMethod(
      "window/workDoneProgress/create", &p, [](const Json& v) { return v["token"] == "impact.geometry-1"; }, 60000ms);
  ASSERT_TRUE(create) << transcript(c) << c.stderrText();
  Json token = (*create)["params"]["token"];
  auto begin = c.waitMethod("$/progress", &p, [&](const Json& v) { return v["token"] == token && v["value"]["kind"] == "begin"; });
  ASSERT_TRUE(begin) << transcript(c);
  EXPECT_EQ((*begin)["params"]["value"]["title"], "impactd geometry");
  EXPECT_EQ((*begin)["params"]["value"]["cancellable"], true);
  EXPECT_TRUE(c.waitMethod("$/progress", &p, [&](const Json& v) {
    return v["token"] == token && v["value"]["kind"] == "report" &&
           v["value"]["message"].get<std::string>().find("attention_dense.py") != std::string::npos;
  }, 120000ms)) << transcript(c);  // after the harness's compile: slow under TSan beside another test
  auto end = c.waitMethod("$/progress", &p, [&](const Json& v) { return v["token"] == token && v["value"]["kind"] == "end"; },
                          120000ms);
  ASSERT_TRUE(end) << transcript(c) << c.stderrText();
  EXPECT_NE((*end)["params"]["value"]["message"].get<std::string>().find("1 families, 6 variants"), std::string::npos)
      << end->dump();
  size_t s = from;
  ASSERT_TRUE(c.waitMethod("impactd/status", &s, [](const Json& v) { return v.contains("geometry"); })) << transcript(c);
  EXPECT_TRUE(c.waitMethod("impactd/status", &s, [](const Json& v) { return !v.contains("geometry"); })) << transcript(c);
}

// The client cancels the run from its progress (cold: the harness is still compiling): it ends
// "cancelled", nothing is said as a failure, and no verdict of it is published.
TEST_F(LspGeometry, TheClientCancelsTheRunFromItsProgress) {
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), options("auto"));
  const std::string uri = uriIn(repo_, gfx942::kModule);
  size_t from = c.mark();
  swapGridAxes(true);
  save(c, gfx942::kModule);
  size_t p = from;
  auto create = c.waitMethod(
      "window/workDoneProgress/create", &p, [](const Json& v) { return v["token"] == "impact.geometry-1"; }, 60000ms);
  ASSERT_TRUE(create) << transcript(c) << c.stderrText();
  c.notify("window/workDoneProgress/cancel", {{"token", "impact.geometry-1"}});
  auto end = c.waitMethod("$/progress", &p,
                          [](const Json& v) { return v["token"] == "impact.geometry-1" && v["value"]["kind"] == "end"; },
                          120000ms);
  ASSERT_TRUE(end) << transcript(c) << c.stderrText();
  EXPECT_NE((*end)["params"]["value"]["message"].get<std::string>().find("cancelled"), std::string::npos) << end->dump();
  std::this_thread::sleep_for(500ms);
  for (const auto& m : c.messages())
    if (m.value("method", "") == "window/showMessage")
      EXPECT_EQ(m["params"]["message"].get<std::string>().find("geometry"), std::string::npos) << m.dump();
  for (const auto& d : allDiags(c, uri)) EXPECT_FALSE(hasErrorWith(d["diagnostics"], "differs")) << d.dump();
}

// A run that cannot start (here its cache folder cannot be made) is said once, not on every save;
// the rows stay as the analysis judged them.
TEST_F(LspGeometry, ARunThatCannotStartIsSaidOnce) {
  std::string blocked = cache_ + "/not-a-folder";
  { std::ofstream(blocked) << "a file where the cache folder would be\n"; }
  Json o = options("auto");
  o["emitterCache"] = blocked;
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), o);
  for (int i = 1; i <= 2; ++i) {
    repo_.write(gfx942::kHeader, repo_.read(gfx942::kHeader) + "// saved " + std::to_string(i) + "\n");
    save(c, gfx942::kHeader);
    ASSERT_TRUE(logSays(c, "geometry: run " + std::to_string(i) + " ended: cannot create the emitter cache"))
        << transcript(c) << c.stderrText();
  }
  std::this_thread::sleep_for(300ms);
  int said = 0;
  for (const auto& m : c.messages())
    if (m.value("method", "") == "window/showMessage" &&
        m["params"]["message"].get<std::string>().find("the geometry differential could not run: cannot create") !=
            std::string::npos)
      ++said;
  EXPECT_EQ(said, 1) << transcript(c);
}

// The emitter "off" (what a client sends for an untrusted workspace): the tree's code is never
// compiled or run, the log says why; the grid row stays a device-run warning.
TEST_F(LspGeometry, OffNeverRunsIt) {
  LspClient c({"--log=info"});
  c.initialize(repo_.dir(), options("off"));
  const std::string uri = uriIn(repo_, gfx942::kModule);
  size_t from = c.mark();
  swapGridAxes(true);
  save(c, gfx942::kModule);
  ASSERT_TRUE(waitDiags(c, uri, &from, [](const Json& d) { return hasSeverity(d, 2); })) << transcript(c);
  std::this_thread::sleep_for(1500ms);
  for (const auto& p : allDiags(c, uri)) EXPECT_FALSE(hasErrorWith(p["diagnostics"], "differs")) << p.dump();
  EXPECT_EQ(c.stderrText().find("geometry: run"), std::string::npos) << c.stderrText();
  EXPECT_NE(c.stderrText().find("attention_dense.py saved; not run: the emitter is \"off\""), std::string::npos)
      << c.stderrText();
  EXPECT_FALSE(fs::exists(fs::path(cache_) / "geometry")) << "a harness was built in an untrusted workspace";
  for (const auto& m : c.messages())
    EXPECT_NE(m.value("method", ""), "window/workDoneProgress/create") << m.dump();
}

}  // namespace
}  // namespace impact::testing
