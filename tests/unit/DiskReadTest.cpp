// The one guarded disk read (core/io/DiskRead.h, issue 37): what is read, what is refused and
// the words that say why. Each refusal here is a read that hung or exploded before.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "git/Repository.h"
#include "io/DiskRead.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path dir;
  TempDir() {
    char tmpl[] = "/tmp/impact-diskread-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string at(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(at(name), std::ios::binary) << text; }
};

TEST(DiskRead, ARegularFileIsRead) {
  TempDir t;
  t.write("a.py", "x = 1\n");
  auto r = readRegularFile(t.at("a.py"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "x = 1\n");
}

TEST(DiskRead, AMissingFileIsNotFound) {
  TempDir t;
  auto r = readRegularFile(t.at("gone.py"));
  EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
}

TEST(DiskRead, AFifoIsRefusedWithoutBlocking) {
  TempDir t;
  ASSERT_EQ(::mkfifo(t.at("pipe.py").c_str(), 0644), 0);
  auto t0 = std::chrono::steady_clock::now();
  auto r = readRegularFile(t.at("pipe.py"));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  EXPECT_EQ(notReadMessage(r.status()), "not read: a FIFO");
}

TEST(DiskRead, ADeviceAndADirectoryAreRefused) {
  TempDir t;
  EXPECT_EQ(notReadMessage(readRegularFile("/dev/zero").status()), "not read: a character device");
  fs::create_directory(t.at("d.py"));
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("d.py")).status()), "not read: a directory");
}

TEST(DiskRead, SymlinksAreFollowedOnlyToARegularFileInsideTheRoot) {
  TempDir t;
  t.write("real.py", "y = 2\n");
  ASSERT_EQ(::symlink(t.at("real.py").c_str(), t.at("link.py").c_str()), 0);
  ASSERT_EQ(::symlink("/dev/zero", t.at("zero.py").c_str()), 0);
  ASSERT_EQ(::symlink("/dev/stdin", t.at("stdin.py").c_str()), 0);
  ASSERT_EQ(::symlink("/etc/hostname", t.at("out.py").c_str()), 0);
  ASSERT_EQ(::mkfifo(t.at("pipe").c_str(), 0644), 0);
  ASSERT_EQ(::symlink(t.at("pipe").c_str(), t.at("topipe.py").c_str()), 0);
  DiskReadLimits in = DiskReadLimits::within(t.dir.string());
  auto r = readRegularFile(t.at("link.py"), in);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "y = 2\n");
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("zero.py"), in).status()),
            "not read: a symlink to /dev/zero, outside the workspace");
  // /dev/stdin leads to this process's own input (a pipe, /dev/null): never followed.
  std::string toStdin(readRegularFile(t.at("stdin.py"), in).status().message());
  EXPECT_EQ(toStdin.rfind("a symlink to /", 0), 0u) << toStdin;
  EXPECT_TRUE(toStdin.ends_with(", outside the workspace") || toStdin.ends_with(", which does not resolve")) << toStdin;
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("out.py"), in).status()),
            "not read: a symlink to /etc/hostname, outside the workspace");
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("topipe.py"), in).status()), "not read: a symlink to a FIFO");
  // No root: a symlink is not followed at all.
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("link.py")).status()), "not read: a symlink (to " + t.at("real.py") + ")");
}

TEST(DiskRead, TheSizeLimitSaysBothSizes) {
  TempDir t;
  t.write("huge.py", "");
  ASSERT_EQ(::truncate(t.at("huge.py").c_str(), 3435973837LL), 0);  // 3.2 GiB, sparse
  auto r = readRegularFile(t.at("huge.py"));
  EXPECT_TRUE(absl::IsResourceExhausted(r.status())) << r.status();
  EXPECT_EQ(notReadMessage(r.status()), "not read: 3.2 GB, over the 64 MB limit");
  t.write("small.py", std::string(2000, 'x'));
  EXPECT_EQ(notReadMessage(readRegularFile(t.at("small.py"), DiskReadLimits::within("", 1024)).status()),
            "not read: 2.0 KB, over the 1 KB limit");
  EXPECT_EQ(humanBytes(812), "812 bytes");
  EXPECT_EQ(humanBytes(12800), "12.5 KB");
}

// The working tree's snapshot (the CLI's and the emitter's view): a FIFO, a device symlink's
// link text as git stores it, and a file over the limit, each present and said why.
TEST(DiskRead, TheWorkingTreeSnapshotSaysWhyAFileWasNotRead) {
  testing::FixtureRepo repo;
  repo.write("a.py", "x = 1\n");
  repo.commit("init");
  ASSERT_EQ(::mkfifo((repo.dir() + "/pipe.py").c_str(), 0644), 0);
  ASSERT_EQ(::symlink("/dev/zero", (repo.dir() + "/zero.py").c_str()), 0);
  auto r = Repository::open(repo.dir());
  ASSERT_TRUE(r.ok()) << r.status();
  auto snap = (*r)->workdirSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status();
  // A FIFO is present (git status lists it when it is untracked), not read, with its reason.
  if (snap->find("pipe.py")) {
    auto c = snap->read("pipe.py");
    EXPECT_EQ(c.status().message(), "a FIFO") << c.status();
  }
  // A symlink is its link text, as git stores it: never the device's bytes.
  auto z = snap->read("zero.py");
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(*z, "/dev/zero");
}

}  // namespace
}  // namespace impact
