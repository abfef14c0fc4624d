// Every git read of impactd, over libgit2. Nothing is checked out or written.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "git/Snapshot.h"

namespace impact {

// The merged view (SPEC R1.1, R1.2): the head merged into the target tip, in memory.
struct MergedTree {
  Snapshot snap;                        // stage-0 entries; a conflicted path keeps the head's blob
  std::vector<std::string> conflicted;  // conflicted paths, sorted
};

// A three-way merge of one file's contents.
struct TextMerge {
  bool clean = false;
  std::string content;  // the merged content when clean
};

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

  // The files of a commit's tree; with a scope, only those of the folders it keeps are listed
  // (Snapshot::scoped: other paths are still found by find() and read()).
  absl::StatusOr<Snapshot> commitSnapshot(const std::string& commitId, const FolderScope& scope = {}) const;
  // The same snapshot, made from `known` (a commit's snapshot listed with the same scope) and the
  // diff of the two trees: folders the commits share are not walked again. Equal to
  // commitSnapshot(commitId, scope).
  absl::StatusOr<Snapshot> commitSnapshotFrom(const Snapshot& known, const std::string& commitId,
                                              const FolderScope& scope = {}) const;
  // HEAD's tree with the index and the working tree (modified, deleted and untracked files,
  // ignored files left out) laid over it.
  absl::StatusOr<Snapshot> workdirSnapshot() const;
  // The head commit merged into the target tip commit (git_merge_trees: ancestor = the tree of
  // mergeBaseCommit, ours = the target tip, theirs = the head), with rename detection. Nothing is
  // written to the repository, its index or the working tree: blobs made by content merges are
  // kept in an in-memory object store for the life of this Repository. A conflicted path keeps
  // the head's blob (absent when the head deleted it) and is listed in `conflicted`.
  // Errors: "unknown revision 'REV'", "cannot merge ...".
  absl::StatusOr<MergedTree> mergedSnapshot(const std::string& headCommit,
                                            const std::string& targetTipCommit,
                                            const std::string& mergeBaseCommit) const;

  // A three-way merge of file contents in memory (git_merge_file; no repository involved).
  static absl::StatusOr<TextMerge> mergeText(const std::string& ancestor, const std::string& ours,
                                             const std::string& theirs);

  std::string workdir() const;  // with a trailing '/'; "" for a bare repository
  std::string gitdir() const;
  bool isShallow() const;

  struct Impl;

 private:
  explicit Repository(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace impact
