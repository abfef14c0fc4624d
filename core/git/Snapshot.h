// A snapshot: every file of one revision of the tree, by path, with its git blob id.
// Contents are read lazily (from the object database, or held in memory for working-tree
// files and editor buffers). Analysis is a pure function of a snapshot's contents.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace impact {

// Reads blob contents by id; implemented over libgit2 (git/Repository.cpp).
class BlobReader {
 public:
  virtual ~BlobReader() = default;
  virtual absl::StatusOr<std::string> readBlob(const std::string& id) const = 0;
};

struct FileRef {
  std::string id;                           // git blob id (hex) of the content
  std::shared_ptr<const std::string> data;  // in memory (working tree, editor); null: read blob
};

class Snapshot {
 public:
  std::string label;     // "base 1a2b3c4", "head 5d6e7f8", "head (working tree)"
  std::string treeId;    // git tree id when the snapshot is a commit's tree; "" otherwise
  std::map<std::string, FileRef> files;
  std::shared_ptr<const BlobReader> blobs;

  const FileRef* find(const std::string& path) const;
  absl::StatusOr<std::string> read(const std::string& path) const;
  // Replaces (or adds) a file with in-memory content; its id is the git blob hash of it.
  void overlay(const std::string& path, std::string content);
  void remove(const std::string& path) { files.erase(path); }
};

// The git blob id of a content (what `git hash-object` prints).
std::string blobId(std::string_view content);

}  // namespace impact
