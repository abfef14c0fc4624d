#include "model/Layout.h"

#include <cctype>

#include "extract/Extract.h"

namespace impact {

namespace {
bool under(std::string_view path, const std::vector<std::string>& roots) {
  for (const auto& r : roots)
    if (path.starts_with(r)) return true;
  return false;
}
}  // namespace

bool Layout::analysed(std::string_view path) const {
  switch (classify(path)) {
    case FileKind::Python: return under(path, pythonRoots);
    case FileKind::Cpp: return under(path, cppRoots);
    case FileKind::Manifest: return under(path, manifestRoots);
    case FileKind::Descriptor: return under(path, descriptorRoots);
    case FileKind::Other: return false;
  }
  return false;
}

std::string Layout::libraryPath(std::string_view relative) const {
  std::string r(relative);
  while (r.starts_with("./")) r.erase(0, 2);
  return libraryRoot + "/" + r;
}

std::string archFromPath(std::string_view path) {
  // The last "gfx<digits/letters>" token of the path, case-insensitive, ending at a non-alnum
  // character or at an upper-case letter (CamelCase file names: Gfx950AttentionDense).
  std::string found;
  for (size_t i = 0; i + 3 < path.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(path[i])) != 'g' ||
        std::tolower(static_cast<unsigned char>(path[i + 1])) != 'f' ||
        std::tolower(static_cast<unsigned char>(path[i + 2])) != 'x')
      continue;
    if (i > 0 && std::isalnum(static_cast<unsigned char>(path[i - 1])) &&
        !std::isupper(static_cast<unsigned char>(path[i])))
      continue;
    size_t j = i + 3;
    std::string arch = "gfx";
    while (j < path.size() && std::isalnum(static_cast<unsigned char>(path[j])) &&
           !std::isupper(static_cast<unsigned char>(path[j])))
      arch += static_cast<char>(path[j++]);
    if (arch.size() > 3 && std::isdigit(static_cast<unsigned char>(arch[3]))) found = arch;
  }
  return found;
}

}  // namespace impact
