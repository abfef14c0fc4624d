// JSON-RPC 2.0 and LSP to the letter (issue 37, item 4): positions and lengths are uintegers
// (past 2^31-1: Invalid Params, never wrapped to another line), ids are numbers or strings (else
// Invalid Request with id null), every early end of the input is said on stderr, and a charset
// other than UTF-8 is refused. Each attack is followed by the probe: a real edit, the right
// diagnostics at the right version, the resident set checked.
#include <gtest/gtest.h>

#include <thread>

#include "lsp/LspProbe.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

struct Session {
  M repo;
  LspClient c;
  Probe probe{c, repo};
  Session() { c.initialize(repo.dir(), kTargetMain); }
  ~Session() {
    c.shutdownAndExit();
    EXPECT_EQ(c.waitExit(5000ms), 0) << c.stderrText();
  }
};

bool stderrHas(LspClient& c, const std::string& line) {
  for (int i = 0; i < 300; ++i) {
    if (c.stderrText().find(line + "\n") != std::string::npos) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

std::optional<Json> nullIdError(LspClient& c, size_t* from) {
  return c.waitFor([](const Json& m) { return m.contains("error") && m.contains("id") && m["id"].is_null(); }, from, 3000ms);
}

// A hover at a raw position (any JSON numbers, written by hand).
int hoverAt(LspClient& c, const std::string& uri, const std::string& line, const std::string& character, int id) {
  c.sendBody(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"textDocument/hover","params":{"textDocument":{"uri":")" +
             uri + R"("},"position":{"line":)" + line + R"(,"character":)" + character + "}}}");
  return id;
}

TEST(LspProtocolLetter, PositionsPastTheUintegerRangeAreInvalidParams) {
  Session s;
  s.probe.run("start");
  const std::string uri = uriIn(s.repo, M::kAttention);
  struct Case {
    const char *line, *character, *message;
  } cases[] = {
      {"4294967359", "8", "position.line: 4294967359 is not a uinteger (0 to 2147483647)"},
      {"2147483648", "0", "position.line: 2147483648 is not a uinteger (0 to 2147483647)"},
      {"3", "4294967296", "position.character: 4294967296 is not a uinteger (0 to 2147483647)"},
      {"-1", "0", "position.line: -1 is not a uinteger (0 to 2147483647)"},
      {"18446744073709551615", "0", "position.line: 18446744073709551615 is not a uinteger (0 to 2147483647)"},
  };
  int id = 500;
  for (const auto& k : cases) {
    auto r = s.c.response(hoverAt(s.c, uri, k.line, k.character, ++id));
    ASSERT_TRUE(r) << k.line;
    EXPECT_EQ((*r)["error"]["code"], -32602) << r->dump();
    EXPECT_EQ((*r)["error"]["message"], std::string("invalid textDocument/hover params: ") + k.message) << r->dump();
  }
  // The largest uinteger is a position (past the end of the file: no hover, no error).
  auto r = s.c.response(hoverAt(s.c, uri, "2147483647", "2147483647", ++id));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result")) << r->dump();
  s.probe.run("positions past 2^31");
}

TEST(LspProtocolLetter, AnEditAtAWrappedLineIsRefusedNotAppliedElsewhere) {
  Session s;
  s.probe.run("start");
  // line 4294967359 would narrow to line 63: the edit is refused, the document unchanged.
  s.c.sendBody(R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" + s.probe.builder +
               R"(","version":99},"contentChanges":[{"range":{"start":{"line":4294967359,"character":0},"end":{"line":4294967359,"character":0}},"text":"garbage(\n"}]}})");
  EXPECT_TRUE(stderrHas(s.c, "impactd: invalid textDocument/didChange params: contentChanges[0].range.start.line: "
                             "4294967359 is not a uinteger (0 to 2147483647)"))
      << s.c.stderrText();
  s.c.sendBody(R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" + s.probe.builder +
               R"(","version":99},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"rangeLength":4294967296,"text":"garbage(\n"}]}})");
  EXPECT_TRUE(stderrHas(s.c, "impactd: invalid textDocument/didChange params: contentChanges[0].rangeLength: "
                             "4294967296 is not a uinteger (0 to 2147483647)"))
      << s.c.stderrText();
  s.probe.run("an edit at a wrapped line");  // its diagnostics name its own line: nothing moved
}

TEST(LspProtocolLetter, IdsThatAreNotNumbersOrStringsAreInvalidRequests) {
  Session s;
  for (const char* id : {"{\"a\":1}", "[1]", "true", "null"}) {
    size_t from = s.c.mark();
    // A shutdown that must not happen, and a hover: neither is processed.
    s.c.sendBody(std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"shutdown"})");
    auto e = nullIdError(s.c, &from);
    ASSERT_TRUE(e) << id << "\n" << transcript(s.c);
    EXPECT_EQ((*e)["error"]["code"], -32600) << e->dump();
    EXPECT_EQ((*e)["error"]["message"], "\"id\" must be a number or a string") << e->dump();
  }
  EXPECT_TRUE(stderrHas(s.c, "impactd: a message whose id is not a number or a string was refused")) << s.c.stderrText();
  // A string id and a number id are answered with themselves.
  s.c.sendBody(R"({"jsonrpc":"2.0","id":"s-1","method":"workspace/executeCommand","params":{"command":"nope"}})");
  auto r = s.c.waitFor([](const Json& m) { return m.value("id", Json()) == "s-1"; }, nullptr, 3000ms);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["message"], "unknown command: nope");
  s.probe.run("ids of every JSON type");  // and not shut down
}

// A server of its own for each way the input can end early: the line it writes, exit code 1.
void endsWith(const std::string& bytes, const std::string& line) {
  M repo;
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  Probe probe(c, repo);
  probe.run("start");
  c.sendRaw(bytes);
  c.closeInput();
  auto code = c.waitExit(5000ms);
  ASSERT_TRUE(code) << "no exit";
  EXPECT_EQ(*code, 1);
  EXPECT_TRUE(stderrHas(c, line)) << c.stderrText();
}

TEST(LspProtocolLetter, InputEndingInsideABodySaysHowMuchWasRead) {
  endsWith("Content-Length: 90\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9", "impactd: Input was aborted. Read only 23 bytes of expected 90.");
}

TEST(LspProtocolLetter, InputEndingAfterTheHeaders) {
  endsWith("Content-Length: 40\r\n\r\n", "impactd: Input was aborted. Read only 0 bytes of expected 40.");
}

TEST(LspProtocolLetter, InputEndingInsideTheHeaders) {
  endsWith("Content-Length: 40\r\nContent-Ty", "impactd: Input was aborted in the headers of a message (30 bytes read, no blank line ended them).");
}

TEST(LspProtocolLetter, InputEndingBetweenMessagesWithoutExit) {
  endsWith("", "impactd: the input ended without an exit notification");
}

TEST(LspProtocolLetter, ACharsetOtherThanUtf8IsRefused) {
  Session s;
  std::string body = R"({"jsonrpc":"2.0","id":91,"method":"workspace/executeCommand","params":{"command":"latin"}})";
  s.c.sendRaw("Content-Length: " + std::to_string(body.size()) +
              "\r\nContent-Type: application/vscode-jsonrpc; charset=latin1\r\n\r\n" + body);
  auto r = s.c.response(91);
  ASSERT_TRUE(r) << s.c.stderrText();
  EXPECT_EQ((*r)["error"]["code"], -32600) << r->dump();
  EXPECT_EQ((*r)["error"]["message"], "a message in charset 'latin1' was refused: only utf-8 is supported") << r->dump();
  // A notification in UTF-16 (unparsable as UTF-8 JSON): refused, answered with id null.
  size_t from = s.c.mark();
  s.c.sendRaw("Content-Length: 4\r\nContent-Type: application/vscode-jsonrpc; charset=utf-16\r\n\r\n" +
              std::string("{\0}\0", 4));
  auto e = nullIdError(s.c, &from);
  ASSERT_TRUE(e) << transcript(s.c);
  EXPECT_EQ((*e)["error"]["message"], "a message in charset 'utf-16' was refused: only utf-8 is supported");
  // utf-8, "utf-8" quoted and the old spelling utf8 are read.
  int id = 92;
  for (const char* cs : {"utf-8", "\"utf-8\"", "utf8", "UTF-8"}) {
    body = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"workspace/executeCommand","params":{"command":"ok"}})";
    s.c.sendRaw("Content-Length: " + std::to_string(body.size()) + "\r\nContent-Type: application/vscode-jsonrpc; charset=" +
                cs + "\r\n\r\n" + body);
    auto ok = s.c.response(id++);
    ASSERT_TRUE(ok) << cs;
    EXPECT_EQ((*ok)["error"]["message"], "unknown command: ok") << cs;
  }
  s.probe.run("charsets");
}

}  // namespace
}  // namespace impact::testing
