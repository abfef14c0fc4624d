// Load (issue 11): 1,000 rapid didChange across 50 open files of a generated monorepo (25
// builders and their 25 pins). The final diagnostics equal a cold `impact report` of the same
// contents, row by row; a file's published versions never go backwards; no file is left
// showing a result its final contents do not give.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "bench/MonorepoGenerator.h"
#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

// 0-based line of the first line starting with `prefix`, or -1.
int lineStarting(const std::string& text, const std::string& prefix) {
  int n = 0;
  for (size_t at = 0; at < text.size(); ++n) {
    if (text.compare(at, prefix.size(), prefix) == 0) return n;
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return -1;
}

// Inserts `line` before line `at` (0-based) or removes line `at`: the LSP change and the new text.
Json insertLine(std::string& text, int at, const std::string& line) {
  size_t off = offsetOf(text, pos(at, 0));
  text.insert(off, line);
  return {{"range", range(at, 0, at, 0)}, {"text", line}};
}
Json removeLine(std::string& text, int at) {
  size_t off = offsetOf(text, pos(at, 0)), end = text.find('\n', off) + 1;
  text.erase(off, end - off);
  return {{"range", range(at, 0, at + 1, 0)}, {"text", ""}};
}

TEST(LspLoad, ThousandRapidEditsAcrossFiftyFilesEndAsAColdReport) {
  char tmpl[] = "/tmp/impactd-load-XXXXXX";
  std::string dir = std::string(mkdtemp(tmpl)) + "/repo";
  bench::GeneratorSize size;
  size.kernelModules = 25;
  size.ukds = 25;
  size.cppFiles = 75;
  size.unrelatedFiles = 0;
  bench::generateMonorepo(dir, size);

  std::vector<std::string> paths;
  for (int i = 0; i < 25; ++i) paths.push_back(bench::builderModule(i)), paths.push_back(bench::pinFile(i));
  std::map<std::string, std::string> text;
  std::map<std::string, int> version;
  LspClient c;
  c.initialize(dir, {{"target", "main"}});
  for (const auto& p : paths) {
    std::ifstream in(dir + "/" + p);
    text[p] = std::string(std::istreambuf_iterator<char>(in), {});
    version[p] = 1;
    c.notify("textDocument/didOpen", {{"textDocument", {{"uri", fileUri(dir + "/" + p)}, {"languageId", p.ends_with(".py") ? "python" : "cpp"},
                                                        {"version", 1}, {"text", text[p]}}}});
  }
  // Each edit adds or removes an argument: in a builder before `if spec.use_bias:`, in a pin
  // before the list's end. Random files, no pause between edits.
  std::mt19937 rng(11);
  for (int e = 0; e < 1000; ++e) {
    const std::string& p = paths[rng() % paths.size()];
    std::string& t = text[p];
    bool builder = p.ends_with(".py");
    const std::string added = builder ? "    b.param(\"window_left\", I32)\n" : "        KernelArgument{\"by_value\", 4, 99, \"\"},\n";
    int at = lineStarting(t, added);
    Json change = at >= 0 ? removeLine(t, at) : insertLine(t, lineStarting(t, builder ? "    if spec.use_bias:" : "    };"), added);
    c.notify("textDocument/didChange", {{"textDocument", {{"uri", fileUri(dir + "/" + p)}, {"version", ++version[p]}}},
                                        {"contentChanges", {change}}});
  }
  // Settled: a request answered after every edit, then no message for 1.5 s (debounce <= 0.5 s).
  int id = c.request("textDocument/hover", at(fileUri(dir + "/" + paths[0]), 0, 0));
  ASSERT_TRUE(c.response(id, 30000ms)) << c.stderrText();
  for (size_t n = c.mark();;) {
    std::this_thread::sleep_for(1500ms);
    if (c.mark() == n) break;
    n = c.mark();
  }

  // Versions never go backwards; the last publish of each file is its final diagnostics.
  std::map<std::string, Json> last;
  std::map<std::string, int> lastVersion;
  for (const auto& m : c.messages()) {
    if (m.value("method", "") != "textDocument/publishDiagnostics") continue;
    std::string uri = m["params"]["uri"];
    int v = m["params"].value("version", 0);
    EXPECT_GE(v, lastVersion[uri]) << uri;
    lastVersion[uri] = v;
    last[uri] = m["params"]["diagnostics"];
  }

  // The cold report of the final contents (written to the working tree).
  for (const auto& p : paths) std::ofstream(dir + "/" + p, std::ios::binary | std::ios::trunc) << text[p];
  RunResult r = impact("report --repo " + shellQuote(dir) + " --base main --format json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  Json report = Json::parse(r.out);
  // Expected per file: (status, message) of every row side the editor shows.
  std::map<std::string, std::multiset<std::pair<std::string, std::string>>> want, got;
  size_t mismatches = 0;
  for (const auto& row : report["rows"]) {
    std::string status = row["status"];
    if (status != "mismatch" && status != "changed") continue;
    if (row.value("preexisting", false)) status = "preexisting";
    mismatches += status == "mismatch";
    for (const char* side : {"python", "mirror"})
      if (row[side].is_object()) want[fileUri(dir + "/" + row[side]["path"].get<std::string>())].insert({status, row["message"]});
  }
  for (const auto& [uri, diags] : last)
    for (const auto& d : diags) {
      // The row's message is in the diagnostic's (after "copy X in F: " on the builder's side).
      std::string msg = d["message"], status = d["data"]["status"];
      std::string matched;
      for (const auto& [s, m] : want[uri])
        if (s == status && msg.find(m) != std::string::npos) matched = m;
      got[uri].insert({status, matched.empty() ? msg : matched});
    }
  for (auto it = want.begin(); it != want.end();)
    it = it->second.empty() ? want.erase(it) : std::next(it);
  for (auto it = got.begin(); it != got.end();)
    it = it->second.empty() ? got.erase(it) : std::next(it);
  EXPECT_GT(mismatches, 0u) << "the edits should leave some pins broken";
  EXPECT_EQ(got, want);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
  fs::remove_all(fs::path(dir).parent_path());
}

}  // namespace
}  // namespace impact::testing
