// Repository::mergedSnapshot: the head merged into the target tip in memory (SPEC R1.1, R1.2),
// against repositories built with the git CLI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "git/Repository.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

using impact::testing::FixtureRepo;
using ::testing::HasSubstr;

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string lines(int from, int to, const std::string& tag = "") {
  std::string s;
  for (int i = from; i <= to; ++i) s += "line " + std::to_string(i) + tag + "\n";
  return s;
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Everything a merge could leave behind: refs, HEAD, the index, the working tree, the objects.
struct RepoState {
  std::string refs, head, index, status, objects;
  static RepoState of(FixtureRepo& f) {
    RepoState s;
    s.refs = f.git("for-each-ref --format='%(refname) %(objectname)'");
    s.head = f.git("symbolic-ref HEAD") + f.git("rev-parse HEAD");
    s.index = fileBytes(f.dir() + "/.git/index");
    s.status = f.git("status --porcelain --untracked-files=all");
    s.objects = f.git("count-objects -v");
    return s;
  }
};

// A base with three files, then `main` (the target tip) and `feature` (the head) diverge.
struct Diverged {
  FixtureRepo f;
  std::string fork, tip, head;
  Diverged(bool conflict) {
    f.write("a.txt", lines(1, 20));
    f.write("same.txt", "unchanged\n");
    f.write("gone.txt", "deleted on the feature\n");
    fork = f.commit("base");
    f.git("checkout -q -b feature");
    f.git("checkout -q main");
    std::string tipContent = (conflict ? lines(1, 9) + "line 10 from main\n" + lines(11, 20)
                                       : "line 1 from main\n" + lines(2, 20));
    f.write("a.txt", tipContent);
    f.write("main-only.txt", "added on main\n");
    tip = f.commit("main moves on");
    f.git("checkout -q feature");
    std::string headContent = conflict ? lines(1, 9) + "line 10 from feature\n" + lines(11, 20)
                                       : lines(1, 19) + "line 20 from feature\n";
    f.write("a.txt", headContent);
    f.write("feature-only.txt", "added on the feature\n");
    f.remove("gone.txt");
    head = f.commit("feature work");
  }
};

std::shared_ptr<Repository> openOrDie(const std::string& dir) {
  auto r = Repository::open(dir);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : nullptr;
}

TEST(MergedViewTest, CleanMergeHoldsBothSidesAndContentMerges) {
  Diverged d(/*conflict=*/false);
  auto repo = openOrDie(d.f.dir());
  ASSERT_TRUE(repo);
  RepoState before = RepoState::of(d.f);

  auto m = repo->mergedSnapshot(d.head, d.tip, d.fork);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->conflicted.empty());
  EXPECT_EQ(m->snap.files.size(), 4u);
  EXPECT_EQ(*m->snap.read("a.txt"), "line 1 from main\n" + lines(2, 19) + "line 20 from feature\n");
  EXPECT_EQ(*m->snap.read("main-only.txt"), "added on main\n");
  EXPECT_EQ(*m->snap.read("feature-only.txt"), "added on the feature\n");
  EXPECT_EQ(*m->snap.read("same.txt"), "unchanged\n");
  EXPECT_EQ(m->snap.find("gone.txt"), nullptr);
  EXPECT_EQ(m->snap.find("a.txt")->id, blobId(*m->snap.read("a.txt")));

  // Nothing written: refs, HEAD, the index, the working tree and the object store are as before,
  // and the blob of the content merge exists only in memory.
  RepoState after = RepoState::of(d.f);
  EXPECT_EQ(after.refs, before.refs);
  EXPECT_EQ(after.head, before.head);
  EXPECT_EQ(after.index, before.index);
  EXPECT_EQ(after.status, "");
  EXPECT_EQ(after.objects, before.objects);
  testing::RunResult cat =
      testing::run("git cat-file -e " + m->snap.find("a.txt")->id, d.f.dir());
  EXPECT_NE(cat.exitCode, 0) << "the merged blob was written to the repository";
}

TEST(MergedViewTest, ConflictListsThePathAndKeepsTheHeadsBlob) {
  Diverged d(/*conflict=*/true);
  auto repo = openOrDie(d.f.dir());
  ASSERT_TRUE(repo);
  RepoState before = RepoState::of(d.f);
  auto m = repo->mergedSnapshot(d.head, d.tip, d.fork);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->conflicted, std::vector<std::string>{"a.txt"});
  EXPECT_EQ(*m->snap.read("a.txt"), lines(1, 9) + "line 10 from feature\n" + lines(11, 20));
  // The files that merged cleanly are there as in a clean merge.
  EXPECT_EQ(*m->snap.read("main-only.txt"), "added on main\n");
  EXPECT_EQ(*m->snap.read("feature-only.txt"), "added on the feature\n");
  EXPECT_EQ(m->snap.find("gone.txt"), nullptr);
  RepoState after = RepoState::of(d.f);
  EXPECT_EQ(after.refs, before.refs);
  EXPECT_EQ(after.index, before.index);
  EXPECT_EQ(after.status, "");
  EXPECT_EQ(after.objects, before.objects);
}

TEST(MergedViewTest, ModifyDeleteConflictLeavesThePathOutButListed) {
  FixtureRepo f;
  f.write("x.txt", "one\n");
  f.write("y.txt", "y\n");
  std::string fork = f.commit("base");
  f.git("checkout -q -b feature");
  f.remove("x.txt");
  std::string head = f.commit("feature deletes x");
  f.git("checkout -q -");
  f.write("x.txt", "two\n");
  std::string tip = f.commit("main edits x");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto m = repo->mergedSnapshot(head, tip, fork);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->conflicted, std::vector<std::string>{"x.txt"});
  EXPECT_EQ(m->snap.find("x.txt"), nullptr);
  EXPECT_NE(m->snap.find("y.txt"), nullptr);
}

TEST(MergedViewTest, UnknownRevisionIsNamed) {
  Diverged d(false);
  auto repo = openOrDie(d.f.dir());
  ASSERT_TRUE(repo);
  auto m = repo->mergedSnapshot(d.head, "no-such-branch", d.fork);
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(std::string(m.status().message()), HasSubstr("unknown revision 'no-such-branch'"));
}

}  // namespace
}  // namespace impact
