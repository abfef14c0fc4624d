#include "support/RecipeCorpus.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace impact::testing {

std::string recipeCorpusDir() {
  std::string shared = sharedDir();
  if (shared.empty()) return "";
  fs::path p = fs::path(shared) / "real-data" / "rocke-cpu";
  std::error_code ec;
  return fs::is_directory(p, ec) ? p.string() : "";
}

RecipeCorpusFixture::RecipeCorpusFixture() {
  std::string src = recipeCorpusDir();
  if (src.empty()) return;  // the test skips through IMPACT_REQUIRE_RECIPE_CORPUS
  fs::copy(src, dir(), fs::copy_options::recursive);
  for (auto& e : fs::recursive_directory_iterator(dir())) {
    std::error_code ec;
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add, ec);
  }
  commit("Real rocke-cpu recipe set");
  git("checkout -q -b feature");
}

}  // namespace impact::testing
