// The liveness-and-correctness probe of the chaos suites (issue 37): after an attack, a real edit
// of the builder (an added argument) must break its pin with the right diagnostics at the right
// version, and undoing it must clear them; the server's resident memory is checked too.
#pragma once

#include <fstream>
#include <string>

#include "lsp/LspTestSupport.h"

namespace impact::testing {

// The resident set of a process in KiB (VmRSS of /proc/PID/status); -1 when unknown.
inline long rssKiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      long v = -1;
      in >> v;
      return v;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return -1;
}

// One probe per session: opens the builder under `uri` (default: its own path) the first time.
struct Probe {
  LspClient& c;
  const M& repo;
  std::string builder;
  int version = 0;
  long maxRssKiB = 400 * 1024;  // the fixture's server stays far below; an attack that leaks does not

  Probe(LspClient& client, const M& r, std::string uri = "")
      : c(client), repo(r), builder(uri.empty() ? uriIn(r, M::kAttention) : std::move(uri)) {}

  // The edit and its undo; each must publish the right diagnostics with the right version.
  void run(const std::string& after = "") {
    SCOPED_TRACE("probe after " + after);
    const std::string pinUri = uriIn(repo, M::kAttentionPin);
    if (version == 0) {
      version = 1;
      c.notify("textDocument/didOpen", {{"textDocument",
                                         {{"uri", builder}, {"languageId", "python"}, {"version", version}, {"text", repo.read(M::kAttention)}}}});
    }
    int l = line0(repo, M::kAttention, "b.param(\"seqlen_kv\", I32)") + 1;
    size_t from = c.mark(), from2 = from;
    c.notify("textDocument/didChange",
             {{"textDocument", {{"uri", builder}, {"version", ++version}}},
              {"contentChanges", {{{"range", range(l, 0, l, 0)}, {"text", "    b.param(\"window_left\", I32)\n"}}}}});
    auto pin = waitDiags(c, pinUri, &from, [](const Json& d) { return hasSeverity(d, 1); });
    ASSERT_TRUE(pin) << "no diagnostics after an edit\n" << transcript(c) << c.stderrText();
    auto b = waitDiags(c, builder, &from2, [](const Json& d) { return hasSeverity(d, 1); });
    ASSERT_TRUE(b) << transcript(c);
    EXPECT_EQ((*b)["version"], version);
    EXPECT_EQ((*b)["diagnostics"][0]["range"]["start"]["line"], l);
    from = from2 = c.mark();
    c.notify("textDocument/didChange", {{"textDocument", {{"uri", builder}, {"version", ++version}}},
                                        {"contentChanges", {{{"range", range(l, 0, l + 1, 0)}, {"text", ""}}}}});
    ASSERT_TRUE(waitDiags(c, pinUri, &from, [](const Json& d) { return d.empty(); })) << transcript(c);
    auto cleared = waitDiags(c, builder, &from2, [](const Json& d) { return d.empty(); });
    ASSERT_TRUE(cleared) << transcript(c);
    EXPECT_EQ((*cleared)["version"], version);
    long rss = rssKiB(c.pid());
    EXPECT_GT(rss, 0);
    EXPECT_LT(rss, maxRssKiB) << "resident set after " << after;
  }
};

}  // namespace impact::testing
