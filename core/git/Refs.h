// The repository's refs by short name: what an editor offers as ranges to compare with.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace impact {

struct RefNames {
  std::string headBranch;                   // the checked-out branch; "" for a detached HEAD
  std::vector<std::string> branches;        // local branches, sorted
  std::vector<std::string> remoteBranches;  // "origin/develop", sorted; symbolic ones (origin/HEAD) left out
  std::vector<std::string> tags;            // sorted
};

// Every branch, remote-tracking branch and tag of the repository at or above dir (its own
// libgit2 handle: nothing shared with a Repository). Errors: "not a git repository: DIR", or
// the refs cannot be listed.
absl::StatusOr<RefNames> listRefNames(const std::string& dir);

}  // namespace impact
