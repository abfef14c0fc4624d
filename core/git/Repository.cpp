#include "git/Repository.h"

#include <git2.h>

namespace impact {
struct Repository::Impl {};
Repository::~Repository() = default;
absl::StatusOr<std::shared_ptr<Repository>> Repository::open(const std::string& dir) {
  return absl::UnimplementedError("not yet");
}
absl::StatusOr<std::string> Repository::resolve(const std::string& rev) const { return absl::UnimplementedError(""); }
absl::StatusOr<std::string> Repository::mergeBase(const std::string& a, const std::string& b) const { return absl::UnimplementedError(""); }
absl::StatusOr<Snapshot> Repository::commitSnapshot(const std::string& commitId) const { return absl::UnimplementedError(""); }
absl::StatusOr<Snapshot> Repository::workdirSnapshot() const { return absl::UnimplementedError(""); }
std::string Repository::workdir() const { return ""; }
std::string Repository::gitdir() const { return ""; }
bool Repository::isShallow() const { return false; }
}  // namespace impact
