// The geometry differential in the background of the real impactd (issue 17): on the real gfx942
// dense family (tests/support/GeometryTrees.h, `feature` checked out, base main), a save of the
// family's Python module in a trusted "auto" workspace runs it, and its verdict reaches the
// diagnostics: the Python grid axes swapped is a mismatch (an Error naming the axes and the
// variants), swapped back the mismatch is gone; the header's persistent branch removed is a
// mismatch on the persistent variants; with the emitter "off" (an untrusted workspace) it never runs.
#include <stdlib.h>

#include <filesystem>

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
  bool named = false;
  for (const auto& d : (*m)["diagnostics"])
    named = named || d.value("message", "").find("blockM <- metadata block_m") != std::string::npos;
  EXPECT_TRUE(named) << m->dump();

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

// The emitter "off" (what a client sends for an untrusted workspace): the tree's code is never
// compiled or run; the grid row stays a device-run warning.
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
  EXPECT_FALSE(fs::exists(fs::path(cache_) / "geometry")) << "a harness was built in an untrusted workspace";
}

}  // namespace
}  // namespace impact::testing
