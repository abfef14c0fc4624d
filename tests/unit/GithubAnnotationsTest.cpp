// GitHub workflow commands: the escaping GitHub's runner undoes, and one command per finding.
#include <gtest/gtest.h>

#include "report/GithubAnnotations.h"

namespace impact {
namespace {

TEST(GithubAnnotations, EscapesDataAndPropertiesAsTheRunnerExpects) {
  EXPECT_EQ(githubEscapeData("50% of a\r\nb: c, d"), "50%25 of a%0D%0Ab: c, d");
  EXPECT_EQ(githubEscapeProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
  // %25 first: an already-escaped sequence is not taken for an escape.
  EXPECT_EQ(githubEscapeData("%0A"), "%250A");
}

Row row(Status s, const std::string& copyPath, uint32_t line, const std::string& message) {
  Row r;
  r.contract = "kernargs";
  r.status = s;
  r.mirror = {copyPath, line, "expectedSignature", {}, {}};
  r.python = {"kernels/a.py", 7, "build_a", {}, {}};
  r.message = message;
  return r;
}

TEST(GithubAnnotations, OneCommandPerFindingThenTheVerdict) {
  Report rep;
  rep.rows.push_back(row(Status::Mismatch, "src/odd,name:x.cpp", 20, "copy has 8 arguments, builder has 11\n100%"));
  Row changed = row(Status::Changed, "src/Pack.cpp", 30, "builder changed in code");
  changed.archs = {"gfx942", "gfx950"};
  rep.rows.push_back(changed);
  Row pre = row(Status::Mismatch, "src/Pin.cpp", 0, "already drifted");
  pre.preexisting = true;
  rep.rows.push_back(pre);
  rep.rows.push_back(row(Status::Inert, "src/Inert.cpp", 3, "comments only"));
  rep.rollup = rollUp(rep.rows);
  std::string out = renderGithub(rep);

  std::vector<std::string> lines;
  for (size_t p = 0, q; (q = out.find('\n', p)) != std::string::npos; p = q + 1) lines.push_back(out.substr(p, q - p));
  ASSERT_EQ(lines.size(), 5u) << out;
  EXPECT_EQ(lines[0],
            "::error file=src/odd%2Cname%3Ax.cpp,line=20,title=impact kernargs mismatch::copy has 8 arguments, builder "
            "has 11%0A100%25%0Abuilder: kernels/a.py:7 build_a");
  EXPECT_EQ(lines[1],
            "::warning file=src/Pack.cpp,line=30,title=impact kernargs changed::builder changed in code%0Abuilder: "
            "kernels/a.py:7 build_a%0Arun on a device: gfx942, gfx950");
  // No line known: no line property; a pre-existing mismatch is a notice.
  EXPECT_EQ(lines[2],
            "::notice file=src/Pin.cpp,title=impact kernargs mismatch (pre-existing)::already drifted%0Abuilder: "
            "kernels/a.py:7 build_a");
  EXPECT_EQ(lines[3], "::error title=impact verdict::Runtime impact: BREAKS");
  EXPECT_EQ(lines[4], "Runtime impact: BREAKS");
  EXPECT_EQ(out.find("Inert.cpp"), std::string::npos) << out;
}

}  // namespace
}  // namespace impact
