// The persistent extraction cache: facts on disk under $XDG_CACHE_HOME/impactd (or a folder
// given), shared by every `impact` process and the language server (docs/ci.md).
//
// Key: (extractor version, extraction kind, git blob id, path). The extractor version is a hash
// of the extractor's sources and the codec version (generated/ExtractorVersion.h), so a build
// never reads facts another extractor wrote. Extraction also reads the path (classify(), a
// descriptor's type, a catalog's arch and family folders), so the path is hashed into the key.
// Layout: DIR/facts-<version>-c<codec>/<blob id[0]>/<blob id[1:]>.<kind>.<path hash>.
//
// Safe for concurrent use by threads and processes: an entry is written to a temp file beside
// it and renamed into place, so a reader sees a whole entry or none, and a writer killed
// mid-write leaves only a temp file (removed by trim() once stale). Each entry carries a header
// (magic, codec version, length, checksum): a corrupt or truncated entry is a miss, and the
// facts extracted then replace it. Bounded: trim() removes the least recently used entries
// (by modification time, refreshed on a hit) while the cache is over its size.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

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

  std::optional<FileFacts> load(const std::string& path, const std::string& blobId) override;
  void store(const std::string& path, const std::string& blobId, const FileFacts& facts) override;

  struct TrimResult {
    uint64_t bytesBefore = 0, bytesAfter = 0;
    size_t removed = 0;
  };
  // Removes temp files older than ten minutes, then the least recently used entries until the
  // cache holds at most 80% of its bound (when it holds more than the bound).
  TrimResult trim();

  struct Stats {
    size_t hits = 0, misses = 0, writes = 0, corrupt = 0, writeErrors = 0;
  };
  Stats stats() const;
  const std::string& dir() const { return dir_; }
  // Where the entry of (path, blobId) lives (for tests and diagnostics).
  std::string entryPath(std::string_view path, std::string_view blobId) const;

 private:
  std::string dir_;
  uint64_t maxBytes_;
  std::atomic<size_t> hits_{0}, misses_{0}, writes_{0}, corrupt_{0}, writeErrors_{0};
  std::atomic<uint64_t> writtenSinceTrim_{0};
  std::atomic<uint64_t> tempSeq_{0};
};

}  // namespace impact
