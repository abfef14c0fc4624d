// impact emit's command line: the progress line (only on a terminal), usage errors, a cache
// folder inside the repository refused.
#include <gtest/gtest.h>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

std::string emitCommand(const E& repo) {
  return shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " emit --repo " + shellQuote(repo.dir()) +
         " --base main --head feature --cache " + shellQuote(repo.cacheDir()) + " --out " + shellQuote(repo.docPath());
}

TEST(EmitCli, ProgressLineOnlyWhenStderrIsATerminal) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  RunResult piped = repo.emit();
  ASSERT_EQ(piped.exitCode, 0) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find("family builds ·"), std::string::npos) << piped.err;
  // Under a pseudo-terminal (script(1)), the progress line is drawn and cleared.
  RunResult tty = run("script -qec " + shellQuote(emitCommand(repo)) + " /dev/null");
  ASSERT_EQ(tty.exitCode, 0) << tty.out << tty.err;
  EXPECT_NE(tty.out.find("\r\033[Kemit: "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("family builds · kernels/gfx950/"), std::string::npos) << tty.out;
}

TEST(EmitCli, UsageErrorsAndACacheInsideTheRepositoryAreRefused) {
  E repo;
  EXPECT_EQ(impact("emit --repo " + shellQuote(repo.dir())).exitCode, 2);
  RunResult jobs = impact("emit --repo " + shellQuote(repo.dir()) + " --base main --jobs many");
  EXPECT_EQ(jobs.exitCode, 2);
  EXPECT_NE(jobs.err.find("--jobs takes a positive whole number"), std::string::npos) << jobs.err;
  RunResult inside = impact("emit --repo " + shellQuote(repo.dir()) + " --base main --cache " +
                            shellQuote(repo.dir() + "/.cache/impactd"));
  EXPECT_EQ(inside.exitCode, 3);
  EXPECT_NE(inside.err.find("lies inside the repository; it never writes there"), std::string::npos) << inside.err;
  EXPECT_EQ(repo.git("status --porcelain --ignored"), "");
  RunResult rev = impact("emit --repo " + shellQuote(repo.dir()) + " --base nosuchbranch --cache " +
                         shellQuote(repo.cacheDir()));
  EXPECT_EQ(rev.exitCode, 3);
  EXPECT_NE(rev.err.find("unknown revision 'nosuchbranch'"), std::string::npos) << rev.err;
}

}  // namespace
}  // namespace impact::testing
