// libgit2's start-up without the system CA bundle (core/git/Libgit2.cpp): impact never opens a TLS
// connection, so the 140 certificates libgit2 (built with mbedTLS, as Debian builds it) would parse
// in git_libgit2_init are not read; reading a repository is unaffected.
#include <gtest/gtest.h>

#include <git2.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "git/Libgit2.h"
#include "git/Repository.h"

namespace impact {
namespace {

bool linksMbedTls() {
  // libgit2 reports its TLS backend only as a feature bit; the library it resolves the CA calls
  // in is what matters, so ask the runtime linker which libraries the process holds.
  std::string maps;
  if (FILE* f = std::fopen("/proc/self/maps", "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) maps.append(buf, n);
    std::fclose(f);
  }
  return maps.find("libmbedx509") != std::string::npos;
}

TEST(Libgit2Init, TheCaBundleIsNotParsedAndRepositoriesStillOpen) {
  gitlib::ensureLibgit2();
  if (!linksMbedTls())
    GTEST_SKIP() << "this libgit2 does not use mbedTLS: it loads (or not) its certificates otherwise";
  EXPECT_GE(gitlib::caBundleLoadsSkipped(), 1)
      << "libgit2 parsed the system CA bundle itself: the interposed loader was not called";
  // A repository opens and reads as before.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("impact-libgit2-init-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_EQ(std::system(("git -C '" + dir.string() + "' init -q && git -C '" + dir.string() +
                         "' -c user.name=t -c user.email=t@t commit -q --allow-empty -m one")
                            .c_str()),
            0);
  auto repo = Repository::open(dir.string());
  ASSERT_TRUE(repo.ok()) << repo.status();
  EXPECT_TRUE((*repo)->resolve("HEAD").ok());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace impact
