// Every git read of impactd, over libgit2. Nothing is checked out or written.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "git/Snapshot.h"

namespace impact {

class Repository {
 public:
  // dir may be any folder inside the work tree (or a bare repository).
  // Errors: "not a git repository: DIR".
  static absl::StatusOr<std::shared_ptr<Repository>> open(const std::string& dir);
  ~Repository();

  // Commit id (hex) of a revision (branch, tag, sha, HEAD~2, origin/develop).
  // Error: "unknown revision 'REV'".
  absl::StatusOr<std::string> resolve(const std::string& rev) const;
  // Error: "no merge base between A and B" (also for a shallow clone, which is said so).
  absl::StatusOr<std::string> mergeBase(const std::string& a, const std::string& b) const;

  absl::StatusOr<Snapshot> commitSnapshot(const std::string& commitId) const;
  // HEAD's tree with the index and the working tree (modified, deleted and untracked files,
  // ignored files left out) laid over it.
  absl::StatusOr<Snapshot> workdirSnapshot() const;

  std::string workdir() const;  // with a trailing '/'; "" for a bare repository
  std::string gitdir() const;
  bool isShallow() const;

  struct Impl;

 private:
  explicit Repository(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace impact
