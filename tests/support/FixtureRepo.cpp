#include "support/FixtureRepo.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace impact::testing {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

RunResult run(const std::string& commandLine, const std::string& cwd) {
  char outTmpl[] = "/tmp/impact-out-XXXXXX";
  char errTmpl[] = "/tmp/impact-err-XXXXXX";
  int fo = mkstemp(outTmpl), fe = mkstemp(errTmpl);
  close(fo);
  close(fe);
  std::string cmd = "( " + (cwd.empty() ? "" : "cd " + shellQuote(cwd) + " && ") + commandLine +
                    " ) </dev/null >" + outTmpl + " 2>" + errTmpl;
  int st = std::system(cmd.c_str());
  RunResult r;
  r.exitCode = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(outTmpl);
  r.err = slurp(errTmpl);
  fs::remove(outTmpl);
  fs::remove(errTmpl);
  return r;
}

FixtureRepo::FixtureRepo() {
  char tmpl[] = "/tmp/impact-fixture-XXXXXX";
  dir_ = mkdtemp(tmpl);
  git("init -q -b main");
  git("config user.email fixture@example.com");
  git("config user.name Fixture");
  git("config commit.gpgsign false");
}

FixtureRepo::~FixtureRepo() {
  std::error_code ec;
  if (!std::getenv("IMPACT_KEEP_FIXTURES")) fs::remove_all(dir_, ec);
}

void FixtureRepo::write(const std::string& path, const std::string& content) {
  fs::path p = fs::path(dir_) / path;
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << content;
}

std::string FixtureRepo::read(const std::string& path) const { return slurp(fs::path(dir_) / path); }

void FixtureRepo::replace(const std::string& path, const std::string& from, const std::string& to) {
  std::string s = read(path);
  auto pos = s.find(from);
  ASSERT_NE(pos, std::string::npos) << "fixture: '" << from << "' not in " << path;
  s.replace(pos, from.size(), to);
  write(path, s);
}

void FixtureRepo::remove(const std::string& path) { fs::remove(fs::path(dir_) / path); }

std::string FixtureRepo::git(const std::string& args) {
  RunResult r = run("git " + args, dir_);
  EXPECT_EQ(r.exitCode, 0) << "git " << args << ": " << r.err;
  return r.out;
}

std::string FixtureRepo::commit(const std::string& message) {
  git("add -A");
  git("commit -q --allow-empty -m " + shellQuote(message));
  std::string id = git("rev-parse HEAD");
  while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
  return id;
}

std::string exampleDir() { return IMPACT_EXAMPLE_DIR; }

MonorepoFixture::MonorepoFixture() {
  fs::copy(fs::path(exampleDir()) / "monorepo", dir(), fs::copy_options::recursive);
  commit("Example monorepo");
  git("checkout -q -b feature");
}

void MonorepoFixture::addSlidingWindowToBuilder() {
  replace(kAttention, "    b.param(\"seqlen_kv\", I32)\n",
          "    b.param(\"seqlen_kv\", I32)\n    b.param(\"window_left\", I32)\n"
          "    b.param(\"window_right\", I32)\n    b.param(\"softcap\", F32)\n");
}

void MonorepoFixture::addSlidingWindowToPack() {
  replace(kAttentionPack, "        {\"by_value\", I32, 44, \"seqlen_kv\"},\n",
          "        {\"by_value\", I32, 44, \"seqlen_kv\"},\n        {\"by_value\", I32, 48, \"window_left\"},\n"
          "        {\"by_value\", I32, 52, \"window_right\"},\n        {\"by_value\", F32, 56, \"softcap\"},\n");
  replace(kAttentionPack, "                  shape.seqlenKv);",
          "                  shape.seqlenKv,\n                  shape.windowLeft,\n"
          "                  shape.windowRight,\n                  shape.softcap);");
}

int FixtureRepo::lineOf(const std::string& path, const std::string& needle) const {
  std::istringstream in(read(path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  ADD_FAILURE() << "'" << needle << "' not in " << path;
  return -1;
}

RunResult impact(const std::string& args, const std::string& cwd) {
  return run(shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " " + args, cwd);
}

const char* binDir() {
  const char* env = std::getenv("IMPACT_TEST_BIN_DIR");
  return env && *env ? env : IMPACT_BUILT_BIN_DIR;
}

std::string sharedDir() {
  fs::path p = fs::path(IMPACT_SHARED_DIR);
  std::error_code ec;
  if (fs::is_directory(p, ec)) return fs::canonical(p, ec).string();
  return "";
}

}  // namespace impact::testing
