// impactd's state as an editor shows it: the notification impactd/status (starting after the
// initialize answer, analysing, ready with the counts, error with the reason), sent only when
// it changes; and the command line a client starts impactd with (--stdio, --version, --help).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

std::vector<Json> statuses(LspClient& c) {
  std::vector<Json> out;
  for (const auto& m : c.messages())
    if (m.value("method", "") == "impactd/status") out.push_back(m["params"]);
  return out;
}

std::optional<Json> waitStatus(LspClient& c, size_t* from, const std::string& state,
                               const std::function<bool(const Json&)>& pred = nullptr) {
  auto m = c.waitMethod("impactd/status", from, [&](const Json& p) {
    return p.value("state", "") == state && (!pred || pred(p));
  });
  if (!m) return std::nullopt;
  return (*m)["params"];
}

// Distinct rows among every diagnostic published so far (the last publish of each file), by
// the status the server gives them in data.status.
std::map<std::string, std::set<std::string>> rowsPublished(LspClient& c) {
  std::map<std::string, Json> lastByUri;
  for (const auto& m : c.messages())
    if (m.value("method", "") == "textDocument/publishDiagnostics") lastByUri[m["params"]["uri"]] = m["params"];
  std::map<std::string, std::set<std::string>> out;
  for (const auto& [uri, p] : lastByUri)
    for (const auto& d : p["diagnostics"]) out[d["data"]["status"]].insert(d["data"]["row"].get<std::string>());
  return out;
}

void expectNoRepeats(LspClient& c) {
  auto all = statuses(c);
  for (size_t i = 1; i < all.size(); ++i) EXPECT_NE(all[i], all[i - 1]) << "the same status twice in a row: " << all[i].dump();
}

void expectWellFormed(const Json& s) {
  static const std::set<std::string> kStates{"starting", "analysing", "ready", "error"};
  EXPECT_TRUE(kStates.count(s.value("state", ""))) << s.dump();
  EXPECT_TRUE(s["mismatches"].is_number_integer()) << s.dump();
  EXPECT_TRUE(s["changed"].is_number_integer()) << s.dump();
  EXPECT_TRUE(s["message"].is_string()) << s.dump();
}

TEST(LspStatus, StartingAfterTheAnswerThenReadyWithTheCountsOfWhatWasPublished) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  Json init = c.initialize(repo.dir(), kTargetMain);
  ASSERT_TRUE(init.contains("result")) << init.dump();
  size_t from = 0;
  auto ready = waitStatus(c, &from, "ready", [](const Json& p) { return p["mismatches"].get<int>() > 0; });
  ASSERT_TRUE(ready) << transcript(c);
  // The first status comes after the initialize answer, and says starting.
  auto all = c.messages();
  size_t answer = all.size(), first = all.size();
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].contains("method") && all[i].contains("result") && answer == all.size()) answer = i;
    if (all[i].value("method", "") == "impactd/status" && first == all.size()) first = i;
  }
  ASSERT_LT(answer, first) << transcript(c);
  EXPECT_EQ(all[first]["params"]["state"], "starting") << transcript(c);
  // The counts are the rows published: the broken pin's rows (mismatch) and the pack's (changed).
  auto rows = rowsPublished(c);
  EXPECT_EQ((*ready)["mismatches"].get<size_t>(), rows["mismatch"].size()) << ready->dump() << "\n" << transcript(c);
  EXPECT_EQ((*ready)["changed"].get<size_t>(), rows["changed"].size()) << ready->dump() << "\n" << transcript(c);
  EXPECT_GT((*ready)["changed"].get<int>(), 0) << ready->dump();
  EXPECT_NE((*ready)["message"].get<std::string>().find("target main"), std::string::npos) << ready->dump();
  for (const auto& s : statuses(c)) expectWellFormed(s);
  expectNoRepeats(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspStatus, AnEditThatFixesThePinGoesAnalysingThenReadyWithFewerMismatches) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  size_t from = 0;
  auto before = waitStatus(c, &from, "ready", [](const Json& p) { return p["mismatches"].get<int>() > 0; });
  ASSERT_TRUE(before) << transcript(c);
  int mismatches = (*before)["mismatches"];

  const std::string pinUri = uriIn(repo, M::kAttentionPin);
  const std::string original = repo.read(M::kAttentionPin);
  size_t mark = c.mark();
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", pinUri}, {"languageId", "cpp"}, {"version", 1}, {"text", original}}}});
  int l = line0(repo, M::kAttentionPin, "KernelArgument{\"by_value\", 4, 44, \"\"}", "expectedSignature()");
  int id = c.request("textDocument/codeAction", {{"textDocument", {{"uri", pinUri}}},
                                                 {"range", range(l, 0, l, 0)},
                                                 {"context", {{"diagnostics", Json::array()}}}});
  auto r = c.response(id);
  ASSERT_TRUE(r) << transcript(c);
  const Json* fix = nullptr;
  for (const auto& a : (*r)["result"])
    if (a.value("kind", "") == "quickfix") fix = &a;
  ASSERT_TRUE(fix) << r->dump(2);
  std::string fixed = applyEdits(original, (*fix)["edit"]["changes"][pinUri]);
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", pinUri}, {"version", 2}}},
                                      {"contentChanges", Json::array({{{"text", fixed}}})}});
  auto analysing = waitStatus(c, &mark, "analysing");
  ASSERT_TRUE(analysing) << transcript(c);
  // The counts of the last publish stay while it analyses.
  EXPECT_EQ((*analysing)["mismatches"], mismatches) << analysing->dump();
  auto after = waitStatus(c, &mark, "ready", [&](const Json& p) { return p["mismatches"].get<int>() < mismatches; });
  ASSERT_TRUE(after) << transcript(c);
  EXPECT_EQ((*after)["mismatches"].get<size_t>(), rowsPublished(c)["mismatch"].size()) << transcript(c);
  expectNoRepeats(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspStatus, NoMergeBaseIsAnErrorThatSaysWhyAndStillCountsTheMismatches) {
  M repo;
  addSlidingWindow(repo);
  repo.commit("sliding window, pin left behind");
  LspClient c;
  c.initialize(repo.dir(), {{"target", "no-such-branch"}});
  size_t from = 0;
  auto err = waitStatus(c, &from, "error", [](const Json& p) { return p["mismatches"].get<int>() > 0; });
  ASSERT_TRUE(err) << transcript(c);
  std::string msg = (*err)["message"];
  EXPECT_NE(msg.find("no-such-branch"), std::string::npos) << msg;
  EXPECT_NE(msg.find("compared as if it were new"), std::string::npos) << msg;
  // Without a merge base nothing reads as changed: only mismatches are judged.
  EXPECT_EQ((*err)["changed"], 0) << err->dump();
  // Setting a target that exists clears the error.
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"impactd", {{"target", "main"}}}}}});
  auto ready = waitStatus(c, &from, "ready", [](const Json& p) { return p["changed"].get<int>() > 0; });
  ASSERT_TRUE(ready) << transcript(c);
  expectNoRepeats(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspStatus, NoRepositoryIsAnErrorAndTheServerKeepsAnswering) {
  char tmpl[] = "/tmp/impactd-norepo-XXXXXX";
  ASSERT_TRUE(mkdtemp(tmpl));
  std::string dir = tmpl;
  {
    LspClient c;
    c.initialize(dir);
    size_t from = 0;
    auto err = waitStatus(c, &from, "error");
    ASSERT_TRUE(err) << transcript(c);
    EXPECT_FALSE((*err)["message"].get<std::string>().empty()) << err->dump();
    EXPECT_EQ((*err)["mismatches"], 0);
    // A hover still gets an answer (null: nothing to judge).
    int id = c.request("textDocument/hover", at(fileUri(dir + "/a.py"), 0, 0));
    auto r = c.response(id);
    ASSERT_TRUE(r && r->contains("result")) << transcript(c);
    c.shutdownAndExit();
    EXPECT_EQ(c.waitExit(), 0);
  }
  std::filesystem::remove_all(dir);
}

TEST(LspStatus, NoWorkspaceRootIsAnError) {
  LspClient c;
  int id = c.request("initialize", {{"processId", nullptr}, {"capabilities", Json::object()}});
  ASSERT_TRUE(c.response(id));
  c.notify("initialized");
  size_t from = 0;
  auto err = waitStatus(c, &from, "error");
  ASSERT_TRUE(err) << transcript(c);
  EXPECT_NE((*err)["message"].get<std::string>().find("no workspace root"), std::string::npos) << err->dump();
  auto shown = c.waitMethod("window/showMessage", &(from = 0));
  ASSERT_TRUE(shown) << transcript(c);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

// ----- the command line -----

std::string impactd() { return shellQuote(std::string(IMPACT_BIN_DIR) + "/impactd"); }

TEST(ImpactdCommandLine, VersionAndHelpPrintAndExitZero) {
  RunResult v = run(impactd() + " --version");
  EXPECT_EQ(v.exitCode, 0) << v.err;
  EXPECT_TRUE(v.out.starts_with("impactd ")) << v.out;
  EXPECT_GT(v.out.size(), std::string("impactd \n").size()) << v.out;
  RunResult h = run(impactd() + " --help");
  EXPECT_EQ(h.exitCode, 0) << h.err;
  EXPECT_NE(h.out.find("usage: impactd"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("--stdio"), std::string::npos) << h.out;
}

TEST(ImpactdCommandLine, AnUnknownArgumentExitsTwoAndSaysWhich) {
  RunResult r = run(impactd() + " --frobnicate < /dev/null");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown argument '--frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(ImpactdCommandLine, StdioIsAcceptedAsVscodeLanguageclientSendsIt) {
  M repo;
  LspClient c({"--stdio"});
  Json r = c.initialize(repo.dir(), kTargetMain);
  ASSERT_TRUE(r.contains("result")) << r.dump() << "\n" << c.stderrText();
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "impactd");
  RunResult v = run(impactd() + " --version");
  EXPECT_EQ("impactd " + r["result"]["serverInfo"]["version"].get<std::string>() + "\n", v.out);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
