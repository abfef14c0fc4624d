// What `impact` prints where: a usage error is one line and a pointer to the help; a terminal
// (a pty from util-linux `script`) gets colored status words and a summary line; a pipe, or
// NO_COLOR, gets no color codes.
#include <gtest/gtest.h>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

std::vector<std::string> linesOf(const std::string& s) {
  std::vector<std::string> out;
  for (size_t p = 0, q; p < s.size(); p = q + 1) {
    q = s.find('\n', p);
    if (q == std::string::npos) q = s.size();
    std::string line = s.substr(p, q - p);
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a pty turns \n into \r\n
    out.push_back(line);
  }
  return out;
}

TEST(TerminalOutput, AUsageErrorIsOneLineAndWhereTheHelpIs) {
  for (const char* args : {"report --base main --bogus", "report --repo .", "report --base main --format xml",
                           "frobnicate", "report --base", ""}) {
    RunResult r = impact(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    auto lines = linesOf(r.err);
    ASSERT_EQ(lines.size(), 2u) << args << ": " << r.err;
    EXPECT_TRUE(lines[0].starts_with("impact: ")) << r.err;
    EXPECT_EQ(lines[1], "try 'impact --help'") << r.err;
  }
  EXPECT_EQ(linesOf(impact("report --base main --bogus").err)[0], "impact: unknown option '--bogus'");
  // The help itself is still there, on stdout, exit 0.
  RunResult help = impact("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("Exit: 0 the analysis ran"), std::string::npos);
}

// `impact report` run on a pseudo-terminal; returns what the terminal showed.
std::string onATerminal(const FixtureRepo& repo, const std::string& env) {
  std::string cmd = std::string(IMPACT_BIN_DIR) + "/impact report --repo " + shellQuote(repo.dir()) + " --base main";
  RunResult r = run(env + " script -qec " + shellQuote(cmd) + " /dev/null");
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  return r.out;
}

TEST(TerminalOutput, ATerminalGetsColorsAndASummaryAPipeAndNoColorDoNot) {
  M repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");

  std::string tty = onATerminal(repo, "env -u NO_COLOR TERM=xterm");
  auto lines = linesOf(tty);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  ASSERT_GE(lines.size(), 2u) << tty;
  EXPECT_EQ(lines.back(), "Runtime impact: \x1b[1;31mBREAKS\x1b[0m") << tty;
  EXPECT_EQ(lines[lines.size() - 2], "summary: 1 mismatch, 3 changed, 1 inert") << tty;
  EXPECT_EQ(rowsStarting(tty, "\x1b[1;31mmismatch\x1b[0m  kernargs").size(), 1u) << tty;
  EXPECT_EQ(rowsStarting(tty, "\x1b[33mchanged\x1b[0m  kernargs").size(), 3u) << tty;

  // NO_COLOR: a terminal still gets the summary, and no escape code at all.
  std::string noColor = onATerminal(repo, "NO_COLOR=1 TERM=xterm");
  EXPECT_EQ(noColor.find('\x1b'), std::string::npos) << noColor;
  EXPECT_NE(noColor.find("summary: 1 mismatch, 3 changed, 1 inert"), std::string::npos) << noColor;
  EXPECT_EQ(rowsStarting(noColor, "mismatch  kernargs").size(), 1u) << noColor;

  // Piped: plain rows, no summary, the verdict last (what scripts and the other tests read).
  RunResult piped = report(repo);
  EXPECT_EQ(piped.out.find('\x1b'), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find("summary:"), std::string::npos) << piped.out;
  EXPECT_EQ(lastLine(piped.out), "Runtime impact: BREAKS");
}

}  // namespace
}  // namespace impact::testing
