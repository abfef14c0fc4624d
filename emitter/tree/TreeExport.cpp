#include "tree/TreeExport.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "emit/TreeKey.h"

namespace impact::emitter {

namespace fs = std::filesystem;

namespace {

bool underRoot(const std::string& path, const std::string& root) {
  std::string r = root.ends_with("/") ? root : root + "/";
  return path.starts_with(r);
}

std::string folderName(const std::string& key) {
  std::string out;
  for (char c : key) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  return out;
}

}  // namespace

absl::StatusOr<ExportedTree> exportTree(const Snapshot& snap, const Layout& layout, const std::string& cacheDir) {
  ExportedTree t;
  fs::path dir = fs::path(cacheDir) / "trees" / folderName(emit::treeKey(snap));
  t.dir = dir.string();
  for (const auto& r : layout.importRoots) t.importRoots.push_back((dir / r).string());
  std::error_code ec;
  if (fs::exists(dir / ".complete", ec)) {
    t.reused = true;
    return t;
  }
  fs::path tmp = fs::path(cacheDir) / "trees" / absl::StrCat(".tmp-", ::getpid(), "-", folderName(emit::treeKey(snap)));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", tmp.string(), ": ", ec.message()));
  for (const auto& r : layout.importRoots) fs::create_directories(tmp / r, ec);
  for (const auto& [path, ref] : snap.files) {
    bool wanted = false;
    for (const auto& r : layout.importRoots) wanted = wanted || underRoot(path, r);
    bool escapes = false;  // a ".." component (git never stores one; an overlay might)
    for (const auto& part : fs::path(path)) escapes = escapes || part == "..";
    if (!wanted || escapes || path.starts_with("/")) continue;
    auto content = snap.read(path);
    if (!content.ok()) return absl::InternalError(absl::StrCat("cannot read ", path, ": ", content.status().message()));
    fs::path out = tmp / path;
    fs::create_directories(out.parent_path(), ec);
    std::ofstream f(out, std::ios::binary);
    f.write(content->data(), static_cast<std::streamsize>(content->size()));
    if (!f) return absl::InternalError(absl::StrCat("cannot write ", out.string()));
    ++t.files;
  }
  std::ofstream(tmp / ".complete") << "ok\n";
  fs::rename(tmp, dir, ec);
  if (ec) {  // another run exported it first
    fs::remove_all(tmp, ec);
    if (!fs::exists(dir / ".complete")) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  }
  return t;
}

}  // namespace impact::emitter
