#include "git/Refs.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "git/Libgit2.h"

namespace impact {

using namespace gitlib;

absl::StatusOr<RefNames> listRefNames(const std::string& dir) {
  ensureLibgit2();
  git_repository* rawRepo = nullptr;
  if (git_repository_open_ext(&rawRepo, dir.c_str(), 0, nullptr) != 0)
    return absl::NotFoundError(absl::StrCat("not a git repository: ", dir));
  RepoPtr repo(rawRepo);
  git_reference_iterator* rawIt = nullptr;
  if (git_reference_iterator_new(&rawIt, repo.get()) != 0)
    return absl::InternalError(absl::StrCat("cannot list the refs", errorSuffix()));
  Ptr<git_reference_iterator, git_reference_iterator_free> it(rawIt);
  RefNames out;
  git_reference* ref = nullptr;
  while (git_reference_next(&ref, it.get()) == 0) {
    ReferencePtr owned(ref);
    if (git_reference_type(ref) != GIT_REFERENCE_DIRECT) continue;  // origin/HEAD and the like
    std::string name = git_reference_shorthand(ref);
    if (git_reference_is_branch(ref)) out.branches.push_back(name);
    else if (git_reference_is_remote(ref)) out.remoteBranches.push_back(name);
    else if (git_reference_is_tag(ref)) out.tags.push_back(name);
  }
  for (auto* v : {&out.branches, &out.remoteBranches, &out.tags}) std::sort(v->begin(), v->end());
  git_reference* head = nullptr;
  if (git_repository_head(&head, repo.get()) == 0) {
    ReferencePtr owned(head);
    if (git_reference_is_branch(head)) out.headBranch = git_reference_shorthand(head);
  }
  return out;
}

}  // namespace impact
