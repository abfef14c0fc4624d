// The persistent extraction cache: facts on disk under $XDG_CACHE_HOME/impactd (or a folder
// given), shared by every `impact` process and the language server (docs/ci.md).
//
// Key: (extractor version, extraction kind, git blob id, path). The extractor version is a hash
// of the extractor's sources and the codec version (generated/ExtractorVersion.h), so a build
// never reads facts another extractor wrote. Extraction also reads the path (classify(), a
// descriptor's type, a catalog's arch and family folders), so the path is hashed into the key.
//
// Packs: a run's new entries are written together as ONE file, DIR/facts-<version>-c<codec>/
// <time><pid><seq>.pack (a header, an index of key hashes and offsets, then the entries), at
// flush() — at the end of a tree's extraction, when 8 MB are pending, and on destruction. A
// file per entry cost the file system ~0.5 ms each (an inode, a rename): a cold run of the
// benchmark spent more on that than on its extraction. A pack is written to a temp file and
// renamed into place, never changed after: a reader sees a whole pack or none, and a writer
// killed mid-write leaves only a temp file (removed by trim() once stale). Each entry carries its
// key and a checksum: a corrupt or truncated entry is a miss, and the facts extracted then go to
// a newer pack, which wins. Packs are indexed when first needed (newer ones override older
// ones) and stay open, so a pack another process removes is still read. Bounded: trim() removes
// the least recently used packs (modification time, refreshed on a hit at most hourly) while the
// cache is over its size, and a flush that finds more than 24 packs merges all but the 8
// largest into one.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "extract/Extract.h"

namespace impact {

// What of a path decides what extraction makes of a content: "python", "cpp", "manifest",
// "descriptor-<type>", "catalog", "other".
std::string extractionKind(std::string_view path);

class DiskCache : public FactsStore {
 public:
  static constexpr uint64_t kDefaultMaxBytes = 1ull << 30;  // 1 GiB

  // $XDG_CACHE_HOME/impactd, else $HOME/.cache/impactd; "" when neither is set.
  static std::string defaultDir();
  // The extractor version entries are keyed by (a hash of the extractor's sources).
  static const char* extractorVersion();

  explicit DiskCache(std::string dir, uint64_t maxBytes = kDefaultMaxBytes);
  ~DiskCache() override;  // flushes
  DiskCache(const DiskCache&) = delete;
  DiskCache& operator=(const DiskCache&) = delete;

  std::optional<FileFacts> load(const std::string& path, const std::string& blobId) override;
  // Kept in memory until flush() (a store is seen by load() only after it).
  void store(const std::string& path, const std::string& blobId, const FileFacts& facts) override;
  // Writes the stored entries as one pack.
  void flush() override;
  std::string sideFolder() const override { return folder(); }

  struct TrimResult {
    uint64_t bytesBefore = 0, bytesAfter = 0;
    size_t removed = 0;
  };
  // Removes temp files older than ten minutes, then the least recently used packs until the
  // cache holds at most 80% of its bound (when it holds more than the bound).
  TrimResult trim();

  struct Stats {
    // writes: entries written in packs; writeErrors: entries a failed flush lost.
    size_t hits = 0, misses = 0, writes = 0, corrupt = 0, writeErrors = 0;
  };
  Stats stats() const;
  const std::string& dir() const { return dir_; }

  // Where the entry of (path, blobId) that load() would read lives (for tests and diagnostics).
  struct Location {
    std::string file;
    uint64_t offset = 0, length = 0;
  };
  std::optional<Location> locate(std::string_view path, std::string_view blobId);
  // Every entry load() can find, by file and offset.
  std::vector<Location> entries();
  // The key of (path, blobId) within this extractor version's folder.
  static std::string entryKey(std::string_view path, std::string_view blobId);

 private:
  struct Pack {
    std::string file;
    int fd = -1;
    uint64_t size = 0;  // bytes, when indexed (packs never change)
    // The pack mapped read-only (null when mapping failed: entries are then read with pread).
    // A pack is written once under a temporary name and renamed into place, never rewritten, so
    // the mapping stays valid, even after another process's trim unlinks the file.
    const char* map = nullptr;
    std::atomic<int64_t> touchedAt{0};  // seconds; a hit refreshes the file's time hourly
  };
  struct Where {
    Pack* pack;
    uint64_t offset, length;
  };
  std::string folder() const;
  void indexLocked();                                   // reads the packs of the folder once
  bool addPackLocked(const std::string& file);          // indexes one pack
  // The bytes of an entry: a view of the mapped pack, else read into `buffer`; false when the
  // entry lies past the pack's end or cannot be read.
  static bool entryBytes(const Where& w, std::string& buffer, std::string_view& bytes);
  bool writePackLocked(const std::vector<std::pair<std::string, std::string>>& entries, std::string* file);
  void mergeSmallPacksLocked();

  std::string dir_;
  uint64_t maxBytes_;
  mutable std::mutex mu_;
  bool indexed_ = false;
  std::vector<std::unique_ptr<Pack>> packs_;  // open until destruction
  absl::flat_hash_map<uint64_t, Where> index_;  // key hash -> newest entry
  std::vector<std::pair<std::string, std::string>> pending_;  // (key, entry bytes)
  uint64_t pendingBytes_ = 0;
  std::atomic<size_t> hits_{0}, misses_{0}, writes_{0}, corrupt_{0}, writeErrors_{0};
  std::atomic<uint64_t> writtenSinceTrim_{0};
  uint64_t seq_ = 0;
};

}  // namespace impact
