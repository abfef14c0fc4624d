// Helpers shared by the impactd transcript tests: the monorepo fixture, its URIs and lines,
// waiting for diagnostics, applying text edits.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "lsp/LspClient.h"
#include "support/FixtureRepo.h"

namespace impact::testing {

using M = MonorepoFixture;

inline std::string uriIn(const FixtureRepo& repo, const std::string& path) { return fileUri(repo.dir() + "/" + path); }

// 0-based line of the first line containing `needle` at or after the first line containing
// `anchor` (the whole file when anchor is empty); -1 when absent.
inline int line0(const FixtureRepo& repo, const std::string& path, const std::string& needle,
                 const std::string& anchor = "") {
  std::istringstream in(repo.read(path));
  std::string line;
  bool armed = anchor.empty();
  for (int n = 0; std::getline(in, line); ++n) {
    if (!armed && line.find(anchor) != std::string::npos) armed = true;
    if (armed && line.find(needle) != std::string::npos) return n;
  }
  ADD_FAILURE() << "'" << needle << "' not in " << path;
  return -1;
}

// 0-based column of `needle` on that line.
inline int col0(const FixtureRepo& repo, const std::string& path, int line, const std::string& needle) {
  std::istringstream in(repo.read(path));
  std::string s;
  for (int n = 0; std::getline(in, s); ++n)
    if (n == line) return static_cast<int>(s.find(needle));
  return -1;
}

// Byte offset of an LSP position in ASCII text (UTF-16 units = bytes).
inline size_t offsetOf(const std::string& text, const Json& p) {
  size_t off = 0;
  for (int l = 0; l < p["line"].get<int>(); ++l) {
    size_t nl = text.find('\n', off);
    if (nl == std::string::npos) return text.size();
    off = nl + 1;
  }
  return std::min(text.size(), off + p["character"].get<size_t>());
}

// Applies LSP TextEdits (non-overlapping) to a text.
inline std::string applyEdits(std::string text, Json edits) {
  std::vector<Json> es(edits.begin(), edits.end());
  std::sort(es.begin(), es.end(), [&](const Json& a, const Json& b) {
    return offsetOf(text, a["range"]["start"]) > offsetOf(text, b["range"]["start"]);
  });
  for (const auto& e : es) {
    size_t s = offsetOf(text, e["range"]["start"]), t = offsetOf(text, e["range"]["end"]);
    text.replace(s, t - s, e["newText"].get<std::string>());
  }
  return text;
}

inline bool hasSeverity(const Json& diags, int severity) {
  for (const auto& d : diags)
    if (d.value("severity", 0) == severity) return true;
  return false;
}

// The next publishDiagnostics for `uri` (at or after *from) whose diagnostics satisfy pred.
inline std::optional<Json> waitDiags(LspClient& c, const std::string& uri, size_t* from,
                                     const std::function<bool(const Json& diags)>& pred,
                                     std::chrono::milliseconds timeout = 8000ms) {
  auto m = c.waitMethod(
      "textDocument/publishDiagnostics", from,
      [&](const Json& p) { return p.value("uri", "") == uri && pred(p["diagnostics"]); }, timeout);
  if (!m) return std::nullopt;
  return (*m)["params"];
}

// A short account of what the server sent (for failure messages): one line per message.
inline std::string transcript(LspClient& c) {
  std::string out;
  for (const auto& m : c.messages()) {
    std::string method = m.value("method", "");
    if (method == "textDocument/publishDiagnostics") {
      const Json& p = m["params"];
      std::string uri = p.value("uri", "");
      out += "publish " + uri.substr(uri.rfind('/') + 1) + " v" + (p.contains("version") ? p["version"].dump() : "-") + ":";
      for (const auto& d : p["diagnostics"])
        out += " [" + d["severity"].dump() + " L" + d["range"]["start"]["line"].dump() + " " +
               d.value("message", "").substr(0, 90) + "]";
      out += "\n";
    } else {
      out += m.dump().substr(0, 300) + "\n";
    }
  }
  return out;
}

// Every publishDiagnostics for `uri` received so far, in order.
inline std::vector<Json> allDiags(LspClient& c, const std::string& uri) {
  std::vector<Json> out;
  for (const auto& m : c.messages())
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"].value("uri", "") == uri)
      out.push_back(m["params"]);
  return out;
}

// The sliding-window change of examples/sliding-window.patch on the builder and the pack (the
// pin tests are left behind: they break).
inline void addSlidingWindow(M& repo) {
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
}

// The hover request's params.
inline Json at(const std::string& uri, int line, int character) {
  return {{"textDocument", {{"uri", uri}}}, {"position", pos(line, character)}};
}

// A request that must get a normal answer: hover on the builder's k_ptr (non-null when the
// analysis works, `expectContent`), or on any file.
inline void expectAnswers(LspClient& c, const M& repo, bool expectContent = true) {
  int l = line0(repo, M::kAttention, "b.param(\"k_ptr\"", "def build_attention_dense");
  int id = c.request("textDocument/hover", at(uriIn(repo, M::kAttention), l, 8));
  auto r = c.response(id);
  ASSERT_TRUE(r) << "no answer to a hover; stderr:\n" << c.stderrText();
  ASSERT_TRUE(r->contains("result")) << r->dump();
  if (expectContent) {
    ASSERT_TRUE((*r)["result"].is_object()) << r->dump();
    EXPECT_NE((*r)["result"]["contents"]["value"].get<std::string>().find("k_ptr"), std::string::npos) << r->dump();
  }
}

}  // namespace impact::testing
