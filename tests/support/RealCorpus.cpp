#include "support/RealCorpus.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace impact::testing {

std::string realCorpusDir() {
  std::string shared = sharedDir();
  if (shared.empty()) return "";
  fs::path p = fs::path(shared) / "real-data" / "rocm-libraries";
  std::error_code ec;
  return fs::is_directory(p, ec) ? p.string() : "";
}

RealCorpusFixture::RealCorpusFixture() {
  std::string src = realCorpusDir();
  if (src.empty()) return;  // the test skips through IMPACT_REQUIRE_REAL_CORPUS
  // shared/ is read-only: copy the files, then let them be edited in the fixture.
  fs::copy(src, dir(), fs::copy_options::recursive);
  for (auto& e : fs::recursive_directory_iterator(dir())) {
    if (e.path().filename() == ".git") continue;
    std::error_code ec;
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add, ec);
  }
  commit("Real rocm-libraries corpus");
  git("checkout -q -b feature");
}

}  // namespace impact::testing
