#include "git/Snapshot.h"

#include <git2.h>

#include "absl/strings/str_cat.h"

namespace impact {

const FileRef* Snapshot::find(const std::string& path) const {
  auto it = files.find(path);
  return it == files.end() ? nullptr : &it->second;
}

absl::StatusOr<std::string> Snapshot::read(const std::string& path) const {
  const FileRef* f = find(path);
  if (!f) return absl::NotFoundError(absl::StrCat(path, ": not in ", label));
  if (f->data) return *f->data;
  if (!blobs) return absl::FailedPreconditionError(absl::StrCat(path, ": no object database for ", label));
  auto r = blobs->readBlob(f->id);
  if (!r.ok()) return absl::Status(r.status().code(), absl::StrCat(path, ": ", r.status().message()));
  return r;
}

void Snapshot::overlay(const std::string& path, std::string content) {
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
