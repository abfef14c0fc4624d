// Repository: revisions, merge bases and snapshots over libgit2, against repositories built
// with the git CLI.
#include "git/Repository.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/FixtureRepo.h"

namespace impact {
namespace {

namespace fs = std::filesystem;
using impact::testing::FixtureRepo;
using impact::testing::shellQuote;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::shared_ptr<Repository> openOrDie(const std::string& dir) {
  auto r = Repository::open(dir);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : nullptr;
}

// A temp folder removed on destruction.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/impact-repotest-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TEST(RepositoryTest, ResolvesBranchTagRelativeAndShortSha) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  std::string first = f.commit("first");
  f.git("tag v1");
  f.git("tag -a v1-annotated -m annotated");
  f.write("a.txt", "two\n");
  std::string second = f.commit("second");
  f.git("branch feature " + first);

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  EXPECT_EQ(repo->resolve("main").value_or(""), second);
  EXPECT_EQ(repo->resolve("HEAD").value_or(""), second);
  EXPECT_EQ(repo->resolve("feature").value_or(""), first);
  EXPECT_EQ(repo->resolve("v1").value_or(""), first);
  EXPECT_EQ(repo->resolve("v1-annotated").value_or(""), first);  // peeled to the commit
  EXPECT_EQ(repo->resolve("HEAD~1").value_or(""), first);
  EXPECT_EQ(repo->resolve(first.substr(0, 8)).value_or(""), first);
  EXPECT_EQ(repo->resolve(second).value_or(""), second);
}

TEST(RepositoryTest, UnknownRevisionNamesIt) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  f.commit("first");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);

  auto r = repo->resolve("no-such-branch");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "unknown revision 'no-such-branch'");

  r = repo->resolve("");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "unknown revision ''");

  r = repo->resolve("HEAD~5");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "unknown revision 'HEAD~5'");

  // A blob is not a commit.
  r = repo->resolve("HEAD:a.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "unknown revision 'HEAD:a.txt'");
}

TEST(RepositoryTest, NotARepository) {
  TempDir t;
  auto r = Repository::open(t.path);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), StartsWith("not a git repository: " + t.path));

  std::string missing = t.path + "/does/not/exist";
  r = Repository::open(missing);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), StartsWith("not a git repository: " + missing));
}

TEST(RepositoryTest, OpensFromASubfolderAndReportsPaths) {
  FixtureRepo f;
  f.write("deep/er/x.txt", "x\n");
  f.commit("first");
  auto repo = openOrDie(f.dir() + "/deep/er");
  ASSERT_TRUE(repo);
  std::string root = fs::canonical(f.dir()).string() + "/";
  EXPECT_EQ(fs::canonical(repo->workdir()).string() + "/", root);
  EXPECT_EQ(repo->workdir().back(), '/');
  EXPECT_EQ(fs::canonical(repo->gitdir()).string(), root + ".git");
  EXPECT_FALSE(repo->isShallow());
}

// A scoped snapshot lists only the folders its scope keeps (a monorepo's other projects are never
// walked), yet a path outside is still found and read through the commit's tree, and the
// listing is in path order like an unscoped one.
TEST(RepositoryTest, ScopedSnapshotListsKeptFoldersAndFindsTheRest) {
  FixtureRepo f;
  f.write("dnn-providers/p/src/a.cpp", "int a;\n");
  f.write("dnn-providers/p/src/b.c", "int b;\n");
  f.write("dnn-providers/p.txt", "p\n");
  f.write("dnn-providers/p/src/sub/c.cpp", "int c;\n");
  f.write("projects/other/x/y.md", "y\n");
  f.write("top.txt", "top\n");
  std::string id = f.commit("tree");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto full = repo->commitSnapshot(id);
  ASSERT_TRUE(full.ok()) << full.status();
  std::vector<std::string> asked;
  auto scoped = repo->commitSnapshot(id, [&](std::string_view folder) {
    asked.emplace_back(folder);
    return std::string_view("dnn-providers/p/").starts_with(folder) || folder.starts_with("dnn-providers/p/");
  });
  ASSERT_TRUE(scoped.ok()) << scoped.status();
  EXPECT_TRUE(scoped->scoped);
  EXPECT_FALSE(full->scoped);
  std::vector<std::string> listed;
  for (const auto& [p, ref] : scoped->files) listed.push_back(p);
  EXPECT_THAT(listed, ::testing::ElementsAre("dnn-providers/p.txt", "dnn-providers/p/src/a.cpp", "dnn-providers/p/src/b.c",
                                             "dnn-providers/p/src/sub/c.cpp", "top.txt"));
  EXPECT_THAT(asked, ::testing::Not(::testing::Contains("projects/other/x/"))) << "a skipped folder is not entered";
  EXPECT_EQ(full->files.size(), 6u);
  for (const auto& [p, ref] : full->files) {
    const FileRef* g = scoped->find(p);
    ASSERT_NE(g, nullptr) << p;
    EXPECT_EQ(g->id, ref.id) << p;
  }
  EXPECT_EQ(scoped->read("projects/other/x/y.md").value_or(""), "y\n");
  EXPECT_EQ(scoped->find("projects/other/x/none.md"), nullptr);
  EXPECT_EQ(scoped->find("projects/other/x"), nullptr) << "a folder is not a file";
  Snapshot copy = *scoped;
  copy.remove("projects/other/x/y.md");
  EXPECT_EQ(copy.find("projects/other/x/y.md"), nullptr) << "a removed path is not looked up again";
  EXPECT_NE(scoped->find("projects/other/x/y.md"), nullptr) << "the original keeps it";
  copy.overlay("projects/other/x/y.md", "new\n");
  EXPECT_EQ(copy.read("projects/other/x/y.md").value_or(""), "new\n");
}

// A commit's snapshot made from another's and the diff of their trees is the one a walk makes:
// modified, added, deleted files, a file that became a folder, a symlink, an executable, with a
// scope and without.
TEST(RepositoryTest, SnapshotFromAnotherCommitEqualsAWalk) {
  FixtureRepo f;
  f.write("keep/a.py", "a\n");
  f.write("keep/b.py", "b\n");
  f.write("keep/c", "c is a file\n");
  f.write("keep/link-target.txt", "t\n");
  f.write("skip/x.md", "x\n");
  f.write("top.txt", "top\n");
  std::string base = f.commit("base");
  f.write("keep/a.py", "a changed\n");
  f.git("rm -q keep/b.py keep/c");
  f.write("keep/c/inside.py", "c is a folder now\n");
  f.write("keep/new/deep/n.py", "n\n");
  f.git("mv top.txt top2.txt");
  f.write("skip/y.md", "y\n");
  f.git("rm -q skip/x.md");
  auto ln = impact::testing::run("cd " + shellQuote(f.dir()) + " && ln -s link-target.txt keep/link && chmod +x keep/a.py");
  ASSERT_EQ(ln.exitCode, 0) << ln.err;
  std::string head = f.commit("head");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  FolderScope keepOnly = [](std::string_view folder) { return folder.starts_with("keep/"); };
  for (const FolderScope& scope : {FolderScope{}, keepOnly}) {
    auto b = repo->commitSnapshot(base, scope);
    ASSERT_TRUE(b.ok()) << b.status();
    auto walked = repo->commitSnapshot(head, scope);
    auto diffed = repo->commitSnapshotFrom(*b, head, scope);
    ASSERT_TRUE(walked.ok() && diffed.ok()) << walked.status() << diffed.status();
    std::vector<std::pair<std::string, std::string>> w, d;
    for (const auto& [p, r] : walked->files) w.emplace_back(p, r.id);
    for (const auto& [p, r] : diffed->files) d.emplace_back(p, r.id);
    EXPECT_EQ(d, w) << (scope ? "scoped" : "unscoped");
    EXPECT_EQ(diffed->treeId, walked->treeId);
    EXPECT_EQ(diffed->scoped, walked->scoped);
    EXPECT_EQ(diffed->read("keep/c/inside.py").value_or(""), "c is a folder now\n");
    EXPECT_EQ(diffed->read("skip/y.md").value_or(""), "y\n");
    EXPECT_EQ(diffed->find("skip/x.md"), nullptr);
  }
  // The paths that differ between the two trees, as git compares them, are those the two full
  // listings differ in (every folder, in or out of a scope).
  auto b = repo->commitSnapshot(base), h = repo->commitSnapshot(head);
  ASSERT_TRUE(b.ok() && h.ok());
  std::set<std::string> listed;
  for (const auto& [p, r] : b->files)
    if (const FileRef* g = h->find(p); !g || g->id != r.id) listed.insert(p);
  for (const auto& [p, r] : h->files)
    if (!b->find(p)) listed.insert(p);
  auto byGit = b->blobs->changedBetween(b->treeId, h->treeId);
  ASSERT_TRUE(byGit.ok()) << byGit.status();
  EXPECT_EQ(*byGit, listed);
  for (const char* p : {"keep/c", "keep/c/inside.py", "skip/x.md", "skip/y.md", "top.txt", "top2.txt"})
    EXPECT_EQ(listed.count(p), 1u) << p;
  auto none = b->blobs->changedBetween(b->treeId, b->treeId);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(RepositoryTest, BareRepositoryHasNoWorkdir) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  std::string id = f.commit("first");
  TempDir t;
  std::string bare = t.path + "/bare.git";
  auto rr = impact::testing::run("git clone -q --bare " + shellQuote(f.dir()) + " " + shellQuote(bare));
  ASSERT_EQ(rr.exitCode, 0) << rr.err;
  auto repo = openOrDie(bare);
  ASSERT_TRUE(repo);
  EXPECT_EQ(repo->workdir(), "");
  EXPECT_EQ(repo->resolve("main").value_or(""), id);
  EXPECT_FALSE(repo->workdirSnapshot().ok());
  auto snap = repo->commitSnapshot(id);
  ASSERT_TRUE(snap.ok()) << snap.status();
  EXPECT_EQ(snap->read("a.txt").value_or(""), "one\n");
}

TEST(RepositoryTest, MergeBaseOfMainAndFeature) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  f.commit("first");
  f.write("a.txt", "two\n");
  std::string base = f.commit("second");
  f.git("checkout -q -b feature");
  f.write("b.txt", "feature\n");
  std::string feature = f.commit("feature work");
  f.git("checkout -q main");
  f.write("c.txt", "main\n");
  std::string mainTip = f.commit("main work");

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto mb = repo->mergeBase(mainTip, feature);
  ASSERT_TRUE(mb.ok()) << mb.status();
  EXPECT_EQ(*mb, base);
  EXPECT_EQ(*mb, trim(f.git("merge-base main feature")));
  // Revisions resolve too.
  EXPECT_EQ(repo->mergeBase("main", "feature").value_or(""), base);
}

TEST(RepositoryTest, UnrelatedHistoriesHaveNoMergeBase) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  std::string mainTip = f.commit("first");
  f.git("checkout -q --orphan other");
  f.git("rm -q -rf .");
  f.write("z.txt", "other\n");
  std::string otherTip = f.commit("other root");

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto mb = repo->mergeBase(mainTip, otherTip);
  ASSERT_FALSE(mb.ok());
  std::string msg(mb.status().message());
  EXPECT_EQ(msg, "no merge base between " + mainTip.substr(0, 7) + " and " + otherTip.substr(0, 7));
  EXPECT_THAT(msg, ::testing::Not(HasSubstr("shallow")));
}

TEST(RepositoryTest, ShallowCloneSaysSo) {
  FixtureRepo f;
  f.write("a.txt", "one\n");
  f.commit("first");
  f.git("checkout -q -b feature");
  f.write("b.txt", "feature\n");
  f.commit("feature work");
  f.git("checkout -q main");
  f.write("a.txt", "two\n");
  f.commit("second");  // main's tip has a parent the clone will not have

  TempDir t;
  std::string clone = t.path + "/clone";
  auto rr = impact::testing::run("git clone -q --depth 1 --no-single-branch " +
                                 shellQuote("file://" + f.dir()) + " " + shellQuote(clone));
  ASSERT_EQ(rr.exitCode, 0) << rr.err;

  auto repo = openOrDie(clone);
  ASSERT_TRUE(repo);
  EXPECT_TRUE(repo->isShallow());
  auto a = repo->resolve("origin/main");
  auto b = repo->resolve("origin/feature");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  auto mb = repo->mergeBase(*a, *b);
  ASSERT_FALSE(mb.ok());
  std::string msg(mb.status().message());
  EXPECT_THAT(msg, StartsWith("no merge base between " + a->substr(0, 7) + " and " + b->substr(0, 7)));
  EXPECT_THAT(msg, HasSubstr("shallow"));
  EXPECT_THAT(msg, HasSubstr("git fetch --unshallow"));
}

TEST(RepositoryTest, CommitSnapshotListsNestedPathsWithBlobIds) {
  FixtureRepo f;
  f.write("top.txt", "top\n");
  f.write("dir/mid.py", "print('mid')\n");
  f.write("dir/sub/deep/leaf.h", "#pragma once\n");
  f.write("dir/run.sh", "#!/bin/sh\necho hi\n");
  f.git("add -A");
  f.git("update-index --chmod=+x dir/run.sh");
  ASSERT_EQ(::symlink("top.txt", (f.dir() + "/link").c_str()), 0);
  std::string id = f.commit("tree");

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->commitSnapshot(id);
  ASSERT_TRUE(snap.ok()) << snap.status();
  EXPECT_EQ(snap->label, "commit " + id.substr(0, 7));
  EXPECT_EQ(snap->treeId, trim(f.git("rev-parse HEAD^{tree}")));

  std::vector<std::string> paths;
  for (const auto& [p, ref] : snap->files) paths.push_back(p);
  EXPECT_THAT(paths, ::testing::ElementsAre("dir/mid.py", "dir/run.sh", "dir/sub/deep/leaf.h",
                                            "link", "top.txt"));
  for (const auto& [p, ref] : snap->files) {
    EXPECT_EQ(ref.id, trim(f.git("rev-parse HEAD:" + p))) << p;
    EXPECT_EQ(ref.data, nullptr) << p;
  }
  EXPECT_EQ(snap->read("dir/sub/deep/leaf.h").value_or("?"), "#pragma once\n");
  EXPECT_EQ(snap->read("dir/run.sh").value_or("?"), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(snap->read("link").value_or("?"), "top.txt");  // a symlink's blob is its target
  EXPECT_FALSE(snap->read("missing").ok());

  auto bad = snap->blobs->readBlob(std::string(40, '0'));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), StartsWith("unreadable object " + std::string(40, '0')));
  EXPECT_FALSE(snap->blobs->readBlob("nothex").ok());

  auto unknown = repo->commitSnapshot("nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "unknown revision 'nope'");
}

TEST(RepositoryTest, SnapshotOutlivesRepository) {
  FixtureRepo f;
  f.write("a.txt", "kept\n");
  std::string id = f.commit("first");
  Snapshot snap;
  {
    auto repo = openOrDie(f.dir());
    ASSERT_TRUE(repo);
    auto s = repo->commitSnapshot(id);
    ASSERT_TRUE(s.ok()) << s.status();
    snap = *s;
  }
  EXPECT_EQ(snap.read("a.txt").value_or(""), "kept\n");
}

TEST(RepositoryTest, WorkdirSnapshotOverlaysIndexAndWorkingTree) {
  FixtureRepo f;
  f.write(".gitignore", "*.log\nbuild/\n");
  f.write("keep.txt", "unchanged\n");
  f.write("mod.txt", "before\n");
  f.write("staged.txt", "before staged\n");
  f.write("gone.txt", "to be deleted\n");
  f.write("rmcached.txt", "removed from the index only\n");
  f.write("tracked.log", "tracked although ignored\n");
  f.git("add -f tracked.log");
  f.commit("first");

  f.write("mod.txt", "after\n");                 // modified, not staged
  f.write("staged.txt", "after staged\n");       // staged, working tree equals the index
  f.git("add staged.txt");
  f.remove("gone.txt");                          // deleted
  f.write("newdir/sub/new.txt", "untracked\n");  // untracked in a new folder
  f.write("debug.log", "ignored\n");             // ignored
  f.write("build/out.o", "ignored too\n");       // ignored folder
  f.write("added.txt", "added\n");               // new and staged
  f.git("add added.txt");
  f.git("rm -q --cached rmcached.txt");          // deleted from the index, still on disk
  f.git("rm -q --cached tracked.log");           // same, but ignored: left out

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  EXPECT_EQ(snap->label, "working tree");
  EXPECT_EQ(snap->treeId, "");

  std::vector<std::string> paths;
  for (const auto& [p, ref] : snap->files) paths.push_back(p);
  EXPECT_THAT(paths, ::testing::ElementsAre(".gitignore", "added.txt", "keep.txt", "mod.txt",
                                            "newdir/sub/new.txt", "rmcached.txt", "staged.txt"));

  EXPECT_EQ(snap->read("mod.txt").value_or("?"), "after\n");
  EXPECT_EQ(snap->read("staged.txt").value_or("?"), "after staged\n");
  EXPECT_EQ(snap->read("newdir/sub/new.txt").value_or("?"), "untracked\n");
  EXPECT_EQ(snap->read("added.txt").value_or("?"), "added\n");
  EXPECT_EQ(snap->read("rmcached.txt").value_or("?"), "removed from the index only\n");
  EXPECT_EQ(snap->read("keep.txt").value_or("?"), "unchanged\n");
  EXPECT_EQ(snap->find("keep.txt")->data, nullptr);  // unchanged: read from the object database
  EXPECT_EQ(snap->find("keep.txt")->id, trim(f.git("rev-parse HEAD:keep.txt")));
  EXPECT_NE(snap->find("mod.txt")->data, nullptr);
  EXPECT_EQ(snap->find("mod.txt")->id, trim(f.git("hash-object mod.txt")));
  EXPECT_EQ(snap->find("newdir/sub/new.txt")->id, trim(f.git("hash-object newdir/sub/new.txt")));
  EXPECT_EQ(snap->find("gone.txt"), nullptr);
  EXPECT_EQ(snap->find("debug.log"), nullptr);
  EXPECT_EQ(snap->find("tracked.log"), nullptr);
  EXPECT_EQ(snap->find("build/out.o"), nullptr);
}

TEST(RepositoryTest, WorkdirSnapshotOfUnbornHead) {
  FixtureRepo f;
  f.write("a.txt", "staged\n");
  f.git("add a.txt");
  f.write("b/c.txt", "untracked\n");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  EXPECT_FALSE(repo->resolve("HEAD").ok());
  auto snap = repo->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  ASSERT_EQ(snap->files.size(), 2u);
  EXPECT_EQ(snap->read("a.txt").value_or("?"), "staged\n");
  EXPECT_EQ(snap->read("b/c.txt").value_or("?"), "untracked\n");
}

TEST(RepositoryTest, ModeOnlyChangeKeepsContent) {
  FixtureRepo f;
  f.write("run.sh", "#!/bin/sh\n");
  f.commit("first");
  ASSERT_EQ(::chmod((f.dir() + "/run.sh").c_str(), 0755), 0);
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  ASSERT_NE(snap->find("run.sh"), nullptr);
  EXPECT_EQ(snap->find("run.sh")->id, trim(f.git("rev-parse HEAD:run.sh")));
  EXPECT_EQ(snap->read("run.sh").value_or("?"), "#!/bin/sh\n");
}

TEST(RepositoryTest, UnreadableWorkingTreeFileIsLeftOut) {
  FixtureRepo f;
  f.write("pipe", "was a file\n");
  f.write("ok.txt", "ok\n");
  f.commit("first");
  f.remove("pipe");
  ASSERT_EQ(::mkfifo((f.dir() + "/pipe").c_str(), 0644), 0);  // not readable as a file
  f.write("fresh/pipe2.txt", "x");
  f.remove("fresh/pipe2.txt");
  ASSERT_EQ(::mkfifo((f.dir() + "/fresh/pipe2").c_str(), 0644), 0);
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  EXPECT_EQ(snap->find("pipe"), nullptr);  // not silently the committed content
  EXPECT_EQ(snap->find("fresh/pipe2"), nullptr);
  EXPECT_EQ(snap->read("ok.txt").value_or("?"), "ok\n");
}

TEST(RepositoryTest, BinaryContentRoundTrips) {
  FixtureRepo f;
  std::string bin("\0\x01\x02\xff\0tail\0", 10);
  f.write("data.bin", bin);
  std::string id = f.commit("binary");
  std::string bin2("\0\0\0changed\0\xfe", 13);
  f.write("data.bin", bin2);

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto commitSnap = repo->commitSnapshot(id);
  ASSERT_TRUE(commitSnap.ok()) << commitSnap.status();
  auto r = commitSnap->read("data.bin");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, bin);
  EXPECT_EQ(commitSnap->find("data.bin")->id, blobId(bin));

  auto work = repo->workdirSnapshot();
  ASSERT_TRUE(work.ok()) << work.status();
  r = work->read("data.bin");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, bin2);
  EXPECT_EQ(work->find("data.bin")->id, trim(f.git("hash-object data.bin")));
}

TEST(RepositoryTest, ReadsFromSeveralThreadsAtOnce) {
  FixtureRepo f;
  constexpr int kFiles = 64;
  for (int i = 0; i < kFiles; ++i)
    f.write("f/" + std::to_string(i) + ".txt", std::string(1000 + i, static_cast<char>('a' + i % 26)));
  std::string id = f.commit("many");
  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->commitSnapshot(id);
  ASSERT_TRUE(snap.ok()) << snap.status();

  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        for (int i = 0; i < kFiles; ++i) {
          int k = (i + t * 7) % kFiles;
          auto r = snap->read("f/" + std::to_string(k) + ".txt");
          if (!r.ok() || *r != std::string(1000 + k, static_cast<char>('a' + k % 26))) ++failures;
        }
        // Other calls on the same repository interleave with the reads.
        if (!repo->resolve("HEAD").ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// Speed is measured in the benchmark target; this checks the property that makes it fast:
// unchanged files are taken from HEAD's tree, never read from disk.
TEST(RepositoryTest, WorkdirSnapshotReadsOnlyChangedFiles) {
  FixtureRepo f;
  constexpr int kFiles = 2000;
  for (int i = 0; i < kFiles; ++i)
    f.write("d" + std::to_string(i % 100) + "/f" + std::to_string(i) + ".txt", std::to_string(i) + "\n");
  f.commit("many");
  f.write("d7/f7.txt", "changed\n");
  f.write("new/n.txt", "new\n");

  auto repo = openOrDie(f.dir());
  ASSERT_TRUE(repo);
  auto snap = repo->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  EXPECT_EQ(snap->files.size(), static_cast<size_t>(kFiles + 1));
  EXPECT_EQ(snap->read("d7/f7.txt").value_or("?"), "changed\n");
  EXPECT_EQ(snap->read("new/n.txt").value_or("?"), "new\n");
  EXPECT_EQ(snap->find("d8/f8.txt")->data, nullptr);
  size_t inMemory = 0;
  for (const auto& [path, ref] : snap->files) inMemory += ref.data != nullptr;
  EXPECT_EQ(inMemory, 2u);
}

}  // namespace
}  // namespace impact
