// A snapshot: every file of one revision of the tree, by path, with its git blob id.
// Contents are read lazily (from the object database, or held in memory for working-tree
// files and editor buffers). Analysis is a pure function of a snapshot's contents.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace impact {

// Reads blob contents by id; implemented over libgit2 (git/Repository.cpp).
class BlobReader {
 public:
  virtual ~BlobReader() = default;
  virtual absl::StatusOr<std::string> readBlob(const std::string& id) const = 0;
  // The blob id of a file of a git tree (nullopt when the tree has no such file).
  virtual std::optional<std::string> blobIdAt(const std::string& treeId, const std::string& path) const = 0;
  // The paths whose blob differs between two git trees (added and removed count), every folder
  // included; folders with the same tree id are not walked.
  virtual absl::StatusOr<std::set<std::string>> changedBetween(const std::string& treeA,
                                                              const std::string& treeB) const = 0;
};

// Which folders a snapshot lists: called with a folder's path ending in '/' ("a/b/"); false
// leaves the folder and everything below it out of `Snapshot::files`. Null: every folder.
using FolderScope = std::function<bool(std::string_view folder)>;

// The id of a file that is present but was not read (Snapshot::notRead): no blob id, so never a
// key of the persistent cache.
inline constexpr const char* kNotReadId = "not-read";

struct FileRef {
  std::string id;                           // git blob id (hex) of the content
  std::shared_ptr<const std::string> data;  // in memory (working tree, editor); null: read blob
};

class Snapshot {
 public:
  std::string label;     // "base 1a2b3c4", "head 5d6e7f8", "head (working tree)"
  std::string treeId;    // git tree id when the snapshot is a commit's tree; "" otherwise
  // Every file, by path; for a scoped snapshot, only the files of the folders in its scope.
  std::map<std::string, FileRef> files;
  std::shared_ptr<const BlobReader> blobs;
  // A commit's snapshot listed with a FolderScope: `files` holds the scope's files only, and
  // find()/read() answer any other path from the commit's tree (looked up once, remembered).
  bool scoped = false;
  // Working-tree files present but not read (a FIFO, a device, a symlink out of the workspace,
  // over the size limit: io/DiskRead.h), path -> why. Their FileRef has the id kNotReadId and
  // read() answers FailedPrecondition(why), so their facts say why (ok = false) and they are
  // neither the committed content nor silently gone.
  std::map<std::string, std::string> notRead;

  const FileRef* find(const std::string& path) const;
  absl::StatusOr<std::string> read(const std::string& path) const;
  // Replaces (or adds) a file with in-memory content; its id is the git blob hash of it.
  void overlay(const std::string& path, std::string content);
  void remove(const std::string& path);

 private:
  // Paths outside the scope looked up in the tree (nullopt: not in it), by tree id and path.
  // Shared by copies: a git tree does not change.
  struct Outside {
    std::mutex mu;
    std::map<std::string, std::optional<FileRef>> byTreeAndPath;
  };
  std::shared_ptr<Outside> outside_ = std::make_shared<Outside>();
  std::set<std::string> removed_;  // removed from a scoped snapshot: not looked up again
};

// The git blob id of a content (what `git hash-object` prints).
std::string blobId(std::string_view content);

}  // namespace impact
