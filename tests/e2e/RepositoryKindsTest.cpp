// `impact report` on every kind of repository a user meets (issue 11): shallow, detached HEAD,
// bare, with submodules, a linked worktree, sparse checkout, packed refs only, a corrupted
// object, no merge base, an unborn branch, a path with spaces and non-ASCII characters. Where
// the analysis can run it gives the same rows as on a plain clone; where it cannot, the CLI
// exits 3 and names the cause.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using M = MonorepoFixture;

// The example monorepo with the sliding-window change committed on `feature` (the pins break).
struct Breaking : M {
  Breaking() {
    addSlidingWindowToBuilder();
    addSlidingWindowToPack();
    commit("sliding window");
  }
};

RunResult reportAt(const std::string& dir, const std::string& extra = "") {
  return impact("report --repo " + shellQuote(dir) + " --base main " + extra);
}

// A folder beside the fixtures, removed on destruction.
struct TempDir {
  std::string path;
  explicit TempDir(const std::string& prefix = "/tmp/impact-kinds-XXXXXX") {
    std::string t = prefix;
    path = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(RepositoryKinds, DetachedHeadReadsTheCheckedOutCommit) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  repo.git("checkout -q --detach");
  RunResult r = reportAt(repo.dir());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS");
}

TEST(RepositoryKinds, ShallowCloneWithoutTheMergeBaseExits3AndSaysUnshallow) {
  Breaking repo;
  repo.git("checkout -q main");
  repo.write("README.md", "main moved on\n");
  repo.commit("main moves");
  TempDir t;
  std::string clone = t.path + "/shallow";
  ASSERT_EQ(run("git clone -q --depth 1 --no-single-branch -b feature " + shellQuote("file://" + repo.dir()) + " " +
                shellQuote(clone)).exitCode, 0);
  RunResult r = impact("report --repo " + shellQuote(clone) + " --base origin/main");
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_NE(r.err.find("shallow"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("git fetch --unshallow"), std::string::npos) << r.err;
}

TEST(RepositoryKinds, BareRepositoryNeedsHeadAndSaysWhy) {
  Breaking repo;
  TempDir t;
  std::string bare = t.path + "/bare.git";
  ASSERT_EQ(run("git clone -q --bare " + shellQuote(repo.dir()) + " " + shellQuote(bare)).exitCode, 0);
  RunResult r = reportAt(bare);
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_EQ(r.err, "impact: the repository is bare: there is no working tree to compare; name a head commit (--head REV)\n");
  // With a commit to compare it works, and says what a clone says.
  RunResult withHead = reportAt(bare, "--head feature");
  ASSERT_EQ(withHead.exitCode, 0) << withHead.err;
  EXPECT_EQ(withHead.out, reportAt(repo.dir(), "--head feature").out);
}

TEST(RepositoryKinds, SubmodulesAreLeftAlone) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  FixtureRepo sub;
  sub.write("lib.py", "def helper():\n    return 1\n");
  sub.commit("sub");
  repo.git("-c protocol.file.allow=always submodule add -q " + shellQuote(sub.dir()) + " third_party/sub");
  repo.commit("a submodule");
  sub.write("lib.py", "def helper():\n    return 2\n");  // not this repository's business
  RunResult r = reportAt(repo.dir());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
  // A submodule with uncommitted changes in its working tree.
  fs::path inner = fs::path(repo.dir()) / "third_party/sub/lib.py";
  std::ofstream(inner) << "def helper():\n    return 3\n";
  r = reportAt(repo.dir());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
}

TEST(RepositoryKinds, LinkedWorktreeReadsItsOwnHead) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  repo.git("checkout -q main");
  TempDir t;
  std::string wt = t.path + "/linked";
  repo.git("worktree add -q " + shellQuote(wt) + " feature");
  RunResult r = reportAt(wt);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(r.out, plain);
  // The main worktree (on main) has nothing to report.
  RunResult m = reportAt(repo.dir());
  ASSERT_EQ(m.exitCode, 0) << m.err;
  EXPECT_EQ(lastLine(m.out), "Runtime impact: N/A") << m.out;
}

TEST(RepositoryKinds, SparseCheckoutDoesNotReadMissingFilesAsDeleted) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  repo.git("sparse-checkout set --no-cone dnn-providers/hip-kernel-provider/rocke/");
  ASSERT_FALSE(fs::exists(fs::path(repo.dir()) / M::kAttentionPin));
  RunResult r = reportAt(repo.dir());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
}

TEST(RepositoryKinds, PackedRefsOnly) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  repo.git("pack-refs --all --prune");
  ASSERT_FALSE(fs::exists(fs::path(repo.dir()) / ".git/refs/heads/main"));
  RunResult r = reportAt(repo.dir());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
}

TEST(RepositoryKinds, ACorruptedObjectExits3AndNamesIt) {
  Breaking repo;
  // The pin's blob at the merge base, as a loose object, overwritten with garbage.
  std::string id = repo.git("rev-parse main:" + std::string(M::kAttentionPin));
  id.erase(id.find_last_not_of("\n") + 1);
  fs::path obj = fs::path(repo.dir()) / ".git/objects" / id.substr(0, 2) / id.substr(2);
  ASSERT_TRUE(fs::exists(obj)) << obj;
  fs::permissions(obj, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(obj, std::ios::binary | std::ios::trunc) << "not a zlib stream";
  // Without the facts cache: a cached blob id is served without reading the object again.
  RunResult r = reportAt(repo.dir(), "--no-cache");
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_EQ(r.err, "impact: " + std::string(M::kAttentionPin) + ": unreadable object " + id +
                       ": failed to inflate loose object: the repository is damaged; `git fsck` says more\n");
}

TEST(RepositoryKinds, NoMergeBaseExits3AndSaysSo) {
  M repo;
  repo.git("checkout -q --orphan lonely");
  repo.commit("unrelated history");
  RunResult r = reportAt(repo.dir());
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_NE(r.err.find("merge base"), std::string::npos) << r.err;
}

TEST(RepositoryKinds, AnUnbornBranchExits3AndSaysSo) {
  M repo;
  repo.git("checkout -q --orphan unborn");
  RunResult r = reportAt(repo.dir());
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_EQ(r.err, "impact: HEAD is on the unborn branch 'unborn' (no commit yet): commit first\n");
  // A repository with no commit at all: the base does not exist.
  FixtureRepo empty;
  r = reportAt(empty.dir());
  EXPECT_EQ(r.exitCode, 3) << r.out;
  EXPECT_NE(r.err.find("main"), std::string::npos) << r.err;
}

TEST(RepositoryKinds, APathWithSpacesAndNonAscii) {
  Breaking repo;
  std::string plain = reportAt(repo.dir()).out;
  TempDir t("/tmp/impact kinds \xc3\xbc\xe2\x82\xac-XXXXXX");
  std::string moved = t.path + "/r\xc3\xa9po with spaces";
  fs::copy(repo.dir(), moved, fs::copy_options::recursive);
  RunResult r = reportAt(moved);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
  // And from inside it, without --repo.
  r = impact("report --base main", moved + "/dnn-providers");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, plain);
}

}  // namespace
}  // namespace impact::testing
