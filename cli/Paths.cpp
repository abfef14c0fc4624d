#include "cli/Paths.h"

#include <filesystem>

namespace impact::cli {

std::string absolutePath(const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(path, ec);
  if (ec) return path;
  // Not normalised: "cache/../x" stays what the system makes of it (cache may be a symbolic link,
  // or must exist), and an absolute path stays as given.
  return abs.string();
}

}  // namespace impact::cli
