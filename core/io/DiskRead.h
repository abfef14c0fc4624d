// The one guarded way to read a file from disk (issue 37): every component (the server's disk
// reads, the working tree of a snapshot, the layout configuration, the emitter's staging through
// the snapshot, the CLI's named files) reads through readRegularFile. A workspace can be hostile
// (a pull request can add a FIFO named `x.py`, or a symlink to /dev/zero or /dev/stdin): only a
// regular file is read (lstat, then fstat of what was opened), opened O_NONBLOCK so that a file
// swapped for a FIFO between the two never blocks, at most `maxBytes` of it, and a symlink only
// when it resolves to a regular file inside `root`.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace impact {

inline constexpr uint64_t kDiskReadMaxBytes = 64ull << 20;

struct DiskReadLimits {
  uint64_t maxBytes = kDiskReadMaxBytes;
  // A symlink is followed only to a regular file inside this folder (resolved, any trailing
  // '/'); "" = a symlink is not followed at all.
  std::string root;

  // A file of the folder `root` (a workspace): symlinks followed only inside it.
  static DiskReadLimits within(std::string root, uint64_t maxBytes = kDiskReadMaxBytes) {
    DiskReadLimits l;
    l.root = std::move(root);
    l.maxBytes = maxBytes;
    return l;
  }
};

// The content of the regular file at `path`. Errors: NotFound when nothing is there (deleted);
// FailedPrecondition with the reason when it is not read ("a FIFO", "a character device",
// "a symlink to /dev/zero, outside the workspace"); ResourceExhausted when it is too large
// ("3.2 GB, over the 64 MB limit"); Unavailable when the read itself failed. The message is the
// reason alone: callers say "not read: " + message (notReadMessage).
absl::StatusOr<std::string> readRegularFile(const std::string& path, const DiskReadLimits& limits = {});

// "not read: <reason>" for a status of readRegularFile.
std::string notReadMessage(const absl::Status& status);

// A size as people read it: "812 bytes", "12.5 KB", "64 MB", "3.2 GB" (binary units).
std::string humanBytes(uint64_t bytes);

}  // namespace impact
