// More chaos for impactd (issue 37, item 4): forty-odd hostile messages a broken or malicious
// client can send, each with the answer or the stderr line it must get, each followed by the
// probe (a real edit of the builder, the right diagnostics at the right version, the resident set
// checked). Grouped by kind, several attacks to a server, so that the suite stays quick.
#include <gtest/gtest.h>

#include <thread>

#include "lsp/LspProbe.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

// What an attack must get: an answer to `id` with this error code (0: a result) whose message
// contains `says`, or (id 0) this line on stderr ("" for nothing: only the probe after it).
struct Attack {
  const char* name;
  std::string bytes;  // framed by hand or not (a "raw" attack carries its own headers)
  bool raw = false;
  int id = 0;
  int code = 0;
  std::string says;
};

std::string framed(const std::string& body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body; }

bool stderrHas(LspClient& c, const std::string& text) {
  for (int i = 0; i < 300; ++i) {
    if (c.stderrText().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

void runAttacks(const std::vector<Attack>& attacks, const std::string& uriPlaceholder = "@URI@") {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  const std::string uri = uriIn(repo, M::kAttention);
  for (const auto& a : attacks) {
    SCOPED_TRACE(a.name);
    std::string bytes = a.bytes;
    for (size_t at; (at = bytes.find(uriPlaceholder)) != std::string::npos;) bytes.replace(at, uriPlaceholder.size(), uri);
    size_t errBefore = c.stderrText().size();
    c.sendRaw(a.raw ? bytes : framed(bytes));
    if (a.id) {
      auto r = c.response(a.id, 8000ms);
      ASSERT_TRUE(r) << "no answer\n" << c.stderrText();
      if (a.code) {
        EXPECT_EQ((*r)["error"]["code"], a.code) << r->dump();
        EXPECT_NE((*r)["error"].value("message", "").find(a.says), std::string::npos) << r->dump();
      } else {
        EXPECT_TRUE(r->contains("result")) << r->dump();
      }
    } else if (!a.says.empty()) {
      EXPECT_TRUE(stderrHas(c, a.says)) << c.stderrText().substr(errBefore);
    }
    probe.run(a.name);
    if (::testing::Test::HasFatalFailure()) return;
  }
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0) << c.stderrText();
}

const std::string kHover = R"("method":"textDocument/hover","params":{"textDocument":{"uri":"@URI@"},"position":{"line":3,"character":1}})";

TEST(LspChaosAttacks, MalformedEnvelopes) {
  runAttacks({
      {"an id that is a fraction", R"({"jsonrpc":"2.0","id":1.5,)" + kHover + "}", false, 0, 0, ""},
      {"a method that is a number", R"({"jsonrpc":"2.0","id":601,"method":7})", false, 601, -32600, "\"method\" must be a string"},
      {"a method that is an object", R"({"jsonrpc":"2.0","id":602,"method":{}})", false, 602, -32600, "\"method\" must be a string"},
      {"jsonrpc 2", R"({"jsonrpc":2,"id":603,"method":"shutdown"})", false, 603, -32600, "\"jsonrpc\" must be \"2.0\""},
      {"an empty object", "{}", false, 0, 0, "impactd: a message with neither method nor id was ignored"},
      {"trailing garbage after the JSON", R"({"jsonrpc":"2.0","id":604,"method":"shutdown"}xyz)", false, 0, 0, "impactd: JSON parse error"},
      {"a byte order mark", "\xEF\xBB\xBF" R"({"jsonrpc":"2.0","id":605,"method":"shutdown"})", false, 0, 0, "impactd: JSON parse error"},
      {"NaN", R"({"jsonrpc":"2.0","id":NaN,"method":"shutdown"})", false, 0, 0, "impactd: JSON parse error"},
      {"an empty body", "Content-Length: 0\r\n\r\n", true, 0, 0, "impactd: JSON parse error"},
      {"duplicate keys, the last a shutdown id", R"({"jsonrpc":"2.0","id":606,"id":607,"method":"workspace/executeCommand","params":{"command":"dup"}})", false, 0, 0, ""},
      {"a method a megabyte long", R"({"jsonrpc":"2.0","id":608,"method":")" + std::string(1 << 20, 'm') + "\"}", false, 608, -32601, "method not found"},
      {"a header line a megabyte long", std::string(1 << 20, 'H') + "\r\n" + framed(R"({"jsonrpc":"2.0","id":609,"method":"workspace/executeCommand","params":{"command":"after"}})"), true, 609, -32602, "unknown command: after"},
      {"two messages in one write", framed(R"({"jsonrpc":"2.0","id":610,"method":"workspace/executeCommand","params":{"command":"a"}})") + framed(R"({"jsonrpc":"2.0","id":611,"method":"workspace/executeCommand","params":{"command":"b"}})"), true, 611, -32602, "unknown command: b"},
      {"leading zeros in the length", "Content-Length: 00000" + std::to_string(std::string(R"({"jsonrpc":"2.0","id":612,"method":"workspace/executeCommand","params":{"command":"z"}})").size()) + "\r\n\r\n" + R"({"jsonrpc":"2.0","id":612,"method":"workspace/executeCommand","params":{"command":"z"}})", true, 612, -32602, "unknown command: z"},
  });
}

TEST(LspChaosAttacks, BadParams) {
  runAttacks({
      {"hover params an array", R"({"jsonrpc":"2.0","id":701,"method":"textDocument/hover","params":[1,2]})", false, 701, -32602, "invalid hover params"},
      {"hover params a string", R"({"jsonrpc":"2.0","id":702,"method":"textDocument/hover","params":"x"})", false, 702, -32602, "invalid hover params"},
      {"hover without params", R"({"jsonrpc":"2.0","id":703,"method":"textDocument/hover"})", false, 703, -32602, "invalid hover params"},
      {"hover without textDocument", R"({"jsonrpc":"2.0","id":704,"method":"textDocument/hover","params":{"position":{"line":1,"character":1}}})", false, 704, -32602, "invalid hover params"},
      {"a character that is a fraction", R"({"jsonrpc":"2.0","id":705,"method":"textDocument/hover","params":{"textDocument":{"uri":"@URI@"},"position":{"line":1,"character":1.5}}})", false, 705, -32602, "expected integer"},
      {"an http uri", R"({"jsonrpc":"2.0","id":706,"method":"textDocument/hover","params":{"textDocument":{"uri":"http://example.com/x.py"},"position":{"line":1,"character":1}}})", false, 706, -32602, "invalid hover params"},
      {"a uri with bad percent escapes", R"({"jsonrpc":"2.0","id":707,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///%ZZ/x.py"},"position":{"line":1,"character":1}}})", false, 707, 0, ""},
      {"a file outside the workspace", R"({"jsonrpc":"2.0","id":708,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///etc/passwd"},"position":{"line":0,"character":0}}})", false, 708, 0, ""},
      {"references past the end", R"({"jsonrpc":"2.0","id":709,"method":"textDocument/references","params":{"textDocument":{"uri":"@URI@"},"position":{"line":2147483647,"character":0},"context":{"includeDeclaration":true}}})", false, 709, 0, ""},
      {"a code action range inverted", R"({"jsonrpc":"2.0","id":710,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"@URI@"},"range":{"start":{"line":40,"character":0},"end":{"line":2,"character":0}},"context":{"diagnostics":[]}}})", false, 710, 0, ""},
      {"a code action range past 2^31", R"({"jsonrpc":"2.0","id":711,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"@URI@"},"range":{"start":{"line":0,"character":0},"end":{"line":3000000000,"character":0}},"context":{"diagnostics":[]}}})", false, 711, -32602, "range.end.line: 3000000000 is not a uinteger"},
      {"executeCommand arguments an object (ignored)", R"({"jsonrpc":"2.0","id":712,"method":"workspace/executeCommand","params":{"command":"impact.refs","arguments":{"a":1}}})", false, 712, 0, ""},
      {"showMirror with a range past 2^31", R"({"jsonrpc":"2.0","id":713,"method":"workspace/executeCommand","params":{"command":"impact.showMirror","arguments":[{"uri":"@URI@","range":{"start":{"line":4294967296,"character":0},"end":{"line":0,"character":0}}}]}})", false, 713, -32602, "is not a uinteger"},
      {"impact.run with an unknown base", R"({"jsonrpc":"2.0","id":714,"method":"workspace/executeCommand","params":{"command":"impact.run","arguments":[{"base":"no-such-branch"}]}})", false, 714, -32803, "impact.run"},
      {"impact.run with a head of 10 KB", R"({"jsonrpc":"2.0","id":715,"method":"workspace/executeCommand","params":{"command":"impact.run","arguments":[{"head":")" + std::string(10000, 'h') + R"("}]}})", false, 715, -32803, "impact.run"},
  });
}

TEST(LspChaosAttacks, HostileNotifications) {
  runAttacks({
      {"didChange of a document never opened", R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere/x.py","version":2},"contentChanges":[{"text":"x"}]}})", false, 0, 0, ""},
      {"didClose of a document never opened", R"({"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///nowhere/x.py"}}})", false, 0, 0, ""},
      {"didChange without contentChanges", R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"@URI@","version":3}}})", false, 0, 0, "impactd: invalid textDocument/didChange params"},
      {"didChange with a rangeLength past 2^31", R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"@URI@","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"rangeLength":2147483648,"text":"x"}]}})", false, 0, 0, "rangeLength: 2147483648 is not a uinteger"},
      {"didChange with a negative character", R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"@URI@","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":-5},"end":{"line":0,"character":0}},"text":"x"}]}})", false, 0, 0, "character: -5 is not a uinteger"},
      {"didOpen of a file outside the workspace", R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///etc/passwd","languageId":"python","version":1,"text":"x"}}})", false, 0, 0, ""},
      {"watched files: a file outside the workspace", R"({"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file:///etc/shadow","type":2}]}})", false, 0, 0, ""},
      {"watched files: a type that is no type", R"({"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"@URI@","type":99}]}})", false, 0, 0, ""},
      {"watched files: changes not an array", R"({"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":7}})", false, 0, 0, "impactd: invalid workspace/didChangeWatchedFiles params"},
      {"configuration: settings null", R"({"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":null}})", false, 0, 0, ""},
      {"configuration: a target that is a number", R"({"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"impactd":{"target":7}}}})", false, 0, 0, ""},
      {"a cancel whose id is an object", R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"x":1}}})", false, 0, 0, ""},
      {"an unknown notification", R"({"jsonrpc":"2.0","method":"$/somethingElse","params":{}})", false, 0, 0, ""},
      {"an unknown $/ request", R"({"jsonrpc":"2.0","id":801,"method":"$/somethingElse","params":{}})", false, 801, -32601, "method not found"},
      {"a second initialize", R"({"jsonrpc":"2.0","id":802,"method":"initialize","params":{"capabilities":{}}})", false, 802, -32600, "initialize was already sent"},
      {"progress cancel for a token never made", R"({"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":"nope"}})", false, 0, 0, ""},
  });
}

// The ten thousand watched files of the table above, sent as one notification.
TEST(LspChaosAttacks, TenThousandWatchedFilesThatDoNotExist) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  Json changes = Json::array();
  for (int i = 0; i < 10000; ++i)
    changes.push_back({{"uri", uriIn(repo, "dnn-providers/x/nothing" + std::to_string(i) + ".py")}, {"type", 1 + i % 3}});
  c.notify("workspace/didChangeWatchedFiles", {{"changes", changes}});
  probe.run("ten thousand watched files");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(5000ms), 0) << c.stderrText();
}

// exit before shutdown: code 1, at once.
TEST(LspChaosAttacks, ExitBeforeShutdown) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  c.notify("exit");
  EXPECT_EQ(c.waitExit(5000ms), 1) << c.stderrText();
}

}  // namespace
}  // namespace impact::testing
