#include "cli/Paths.h"

#include <filesystem>

namespace impact::cli {

std::string absolutePath(const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(path, ec);
  if (ec) return path;
  std::string out = abs.lexically_normal().string();
  // "dir/" and "dir/." normalise to "dir/": keep no trailing slash but the root's.
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace impact::cli
