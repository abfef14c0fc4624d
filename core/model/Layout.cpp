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
// Build, dependency and CI test-category files (R2.9) and flatc inputs (R2.8). They are not
// parsed, but analysed so that their changes get rows (core/judge/BuildFileRows.cpp).
bool buildInput(std::string_view path) {
  auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name == "CMakeLists.txt" || name.ends_with(".cmake") || name.ends_with(".cmake.in") ||
         (name.starts_with("requirements") && name.ends_with(".txt")) || name == "pyproject.toml" ||
         name.find("test_categories") != std::string_view::npos || name.ends_with(".fbs") ||
         name == "flatc_flags.txt";
}

// The ingestor's trees beyond the analysed roots: the plugin SDK and the generator.
bool ingestorTree(std::string_view path) {
  return path.starts_with("projects/hipdnn/plugin_sdk/") || path.starts_with("projects/hipdnn/tools/IngestorGenerator/");
}

// CI files that name the ingestor (workflows, test-category lists).
bool ingestorCi(std::string_view path) {
  if (!path.starts_with(".github/")) return false;
  for (std::string_view w : {"hipdnn", "hip-kernel-provider", "hip_kernel_provider", "ingestor", "test_categor"})
    if (path.find(w) != std::string_view::npos) return true;
  return false;
}
}  // namespace

bool Layout::analysed(std::string_view path) const {
  if (path == genericTargetTable) return true;
  switch (classify(path)) {
    case FileKind::Python: return under(path, pythonRoots);
    case FileKind::Cpp:
      return under(path, cppRoots) || (path.ends_with("_generated.h") && path.starts_with("projects/hipdnn/"));
    case FileKind::Manifest:
    case FileKind::GeneratorConfig: return under(path, manifestRoots);
    case FileKind::Descriptor: return under(path, descriptorRoots);
    case FileKind::Other:
      if (ingestorCi(path)) return true;
      return buildInput(path) && (under(path, descriptorRoots) || under(path, pythonRoots) || under(path, cppRoots) ||
                                  under(path, manifestRoots) || ingestorTree(path) ||
                                  (path.starts_with("projects/hipdnn/") &&
                                   path.find("test_categories") != std::string_view::npos));
  }
  return false;
}

bool Layout::mayHoldAnalysed(std::string_view folder) const {
  // Every analysed path starts with one of these (see analysed()); a folder on the way to one,
  // or inside one, may hold analysed files.
  auto related = [&](std::string_view root) { return root.starts_with(folder) || folder.starts_with(root); };
  for (const auto* roots : {&pythonRoots, &cppRoots, &manifestRoots, &descriptorRoots})
    for (const auto& r : *roots)
      if (related(r)) return true;
  return related("projects/hipdnn/") || related(".github/") || related(genericTargetTable);
}

namespace {

// No empty, "." or ".." component (one trailing "/" allowed): normalizing changes nothing. Most
// paths are so (every shipped descriptor's source, asked thousands of times per report).
bool alreadyNormal(std::string_view path) {
  for (size_t at = 0; at < path.size();) {
    size_t next = path.find('/', at);
    if (next == std::string_view::npos) next = path.size();
    std::string_view part = path.substr(at, next - at);
    if (part.empty() || part == "." || part == "..") return false;
    at = next + 1;
  }
  return true;
}

}  // namespace

std::string Layout::libraryPath(std::string_view relative) const {
  while (relative.starts_with("./")) relative.remove_prefix(2);
  std::string joined;
  joined.reserve(libraryRoot.size() + 1 + relative.size());
  joined.append(libraryRoot).append(1, '/').append(relative);
  if (alreadyNormal(joined)) return joined;  // asked thousands of times per report: one allocation
  return normalizedPath(joined);
}

std::string normalizedPath(std::string_view path) {
  // "a/b/../c/./d" -> "a/c/d". A ".." above the first component is kept: such a path names no
  // file of the tree, and the caller says so.
  if (alreadyNormal(path)) return std::string(path);
  std::vector<std::string_view> parts;
  size_t kept = 0;  // leading ".." components
  for (size_t at = 0; at <= path.size();) {
    size_t next = path.find('/', at);
    if (next == std::string_view::npos) next = path.size();
    std::string_view part = path.substr(at, next - at);
    if (part == "..") {
      if (parts.size() > kept) parts.pop_back();
      else parts.push_back(part), ++kept;
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    at = next + 1;
  }
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  if (!path.empty() && path.back() == '/' && !out.empty()) out += '/';
  return out;
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
