#include "git/Snapshot.h"

#include <git2.h>

#include "absl/strings/str_cat.h"

namespace impact {

const FileRef* Snapshot::find(const std::string& path) const {
  auto it = files.find(path);
  if (it != files.end()) return &it->second;
  if (!scoped || !blobs || treeId.empty() || removed_.count(path)) return nullptr;
  std::lock_guard<std::mutex> lock(outside_->mu);
  auto [at, fresh] = outside_->byTreeAndPath.try_emplace(absl::StrCat(treeId, "\n", path));
  if (fresh)
    if (auto id = blobs->blobIdAt(treeId, path)) at->second = FileRef{std::move(*id), nullptr};
  return at->second ? &*at->second : nullptr;
}

void Snapshot::remove(const std::string& path) {
  files.erase(path);
  notRead.erase(path);
  if (scoped) removed_.insert(path);
}

absl::StatusOr<std::string> Snapshot::read(const std::string& path) const {
  const FileRef* f = find(path);
  if (!f) return absl::NotFoundError(absl::StrCat(path, ": not in ", label));
  if (auto it = notRead.find(path); it != notRead.end()) return absl::FailedPreconditionError(it->second);
  if (f->data) return *f->data;
  if (!blobs) return absl::FailedPreconditionError(absl::StrCat(path, ": no object database for ", label));
  auto r = blobs->readBlob(f->id);
  if (!r.ok()) return absl::Status(r.status().code(), absl::StrCat(path, ": ", r.status().message()));
  return r;
}

void Snapshot::overlay(const std::string& path, std::string content) {
  removed_.erase(path);
  notRead.erase(path);
  FileRef& f = files[path];
  f.id = blobId(content);
  f.data = std::make_shared<const std::string>(std::move(content));
}

std::string blobId(std::string_view content) {
  git_oid oid;
  git_odb_hash(&oid, content.data(), content.size(), GIT_OBJECT_BLOB);
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

}  // namespace impact
