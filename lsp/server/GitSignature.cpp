#include "server/GitSignature.h"

#include <sys/stat.h>

#include <filesystem>

#include "absl/strings/str_cat.h"

namespace impact::server {

namespace fs = std::filesystem;

std::string gitSignatureOf(const std::string& gitdir) {
  std::string sig;
  auto add = [&](const fs::path& p) {
    struct stat s {};
    if (::stat(p.c_str(), &s) == 0) absl::StrAppend(&sig, p.string(), ":", s.st_mtim.tv_sec, ".", s.st_mtim.tv_nsec, ";");
  };
  fs::path gd(gitdir);
  add(gd / "HEAD");
  add(gd / "index");
  add(gd / "packed-refs");
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(gd / "refs", ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) add(it->path());
  return sig;
}

}  // namespace impact::server
