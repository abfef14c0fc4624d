// extractFile: the pure function (path, content) -> FileFacts, and its cache keyed by blob id.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <optional>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "extract/cpp/Macros.h"
#include "model/Facts.h"

namespace impact {

// Which extractor a path goes to (by name; DOMAIN.md §1 layout).
FileKind classify(std::string_view path);

// Why a content cannot be analysed (binary, too large, invalid UTF-8); "" when it can.
std::string unreadableReason(FileKind kind, std::string_view content);

// Pure: the same (path, content) always gives the same facts. Never throws; unreadable input
// (invalid UTF-8, a syntax error, malformed JSON/YAML) gives ok = false with the reason.
FileFacts extractFile(std::string_view path, std::string_view content);

class SyntaxTree;

// The same, from a tree already parsed from the content (an editor buffer re-parsed
// incrementally). The tree's language must be the one classify(path) implies.
FileFacts extractParsed(std::string_view path, const SyntaxTree& tree);
// A C++ file with the macros of the tree's headers it includes read through `headers` (issue 36
// item 3; core/analysis/CrossModule runs it: extraction per file stays a function of the file).
FileFacts extractParsed(std::string_view path, const SyntaxTree& tree, const cpp::HeaderReader* headers);

// A store below the in-memory map that outlives the process (core/cache/DiskCache): facts by
// (path, git blob id). Implementations are thread-safe and never fail the analysis: a store
// that cannot be read or written is a miss.
class FactsStore {
 public:
  virtual ~FactsStore() = default;
  virtual std::optional<FileFacts> load(const std::string& path, const std::string& blobId) = 0;
  virtual void store(const std::string& path, const std::string& blobId, const FileFacts& facts) = 0;
  // Makes what was stored durable (a store may keep it in memory until then).
  virtual void flush() {}
  // A folder beside the facts, of this extractor version, for what is derived per tree and kept
  // across processes (the AOT producers' runs: core/contracts/AotProducers); "" when none.
  virtual std::string sideFolder() const { return ""; }
};

// Facts by (path, content id). Thread-safe. Content ids are git blob ids, so a file unchanged
// between base and head, or between two keystrokes, is extracted once.
//
// Bounded (issue 37): an editor makes a new version of a document at every keystroke, so the
// entries nothing else holds (a version no open buffer, working tree or revision's facts holds
// any more: only the cache owns it) are kept to `bound` bytes, the least recently used evicted
// first. Entries still held elsewhere are never evicted (their memory is owned there; dropping
// them would only extract them again). Bytes are estimated by the facts' encoded size. Unbounded
// (0, the default: `impact` runs once) skips the estimate.
class ExtractCache {
 public:
  // Facts of (path, contentId); `read` is called for the content only on a miss. A read
  // error gives facts with ok = false naming the reason.
  std::shared_ptr<const FileFacts> get(const std::string& path, const std::string& contentId,
                                       const std::function<absl::StatusOr<std::string>()>& read);
  std::shared_ptr<const FileFacts> find(const std::string& path, const std::string& contentId) const;
  // Stores facts computed elsewhere (extractParsed) under (path, contentId).
  std::shared_ptr<const FileFacts> put(const std::string& path, const std::string& contentId, FileFacts facts);
  size_t size() const;
  size_t extractions() const { return extractions_; }

  // The bound on the bytes of entries only the cache holds (0: none). The server's default is
  // kServerBound.
  static constexpr size_t kServerBound = 16u << 20;
  void setBound(size_t bytes);
  size_t bytes() const;        // estimated bytes of every entry (0 when unbounded)
  size_t evictions() const;    // entries evicted so far

  // Misses of the map go to `store` when the content id is a git blob id, and what is
  // extracted then is written to it. Set before the first get().
  void setStore(std::shared_ptr<FactsStore> store) { store_ = std::move(store); }
  size_t fromStore() const { return fromStore_; }
  std::string sideFolder() const { return store_ ? store_->sideFolder() : ""; }
  // Writes what the store keeps in memory (FactsStore::flush); called after a tree's extraction.
  void flush() {
    if (store_) store_->flush();
  }

 private:
  struct Entry {
    std::shared_ptr<const FileFacts> facts;
    size_t bytes = 0;
    uint64_t used = 0;  // the tick of the last use
  };
  std::shared_ptr<const FileFacts> insertLocked(std::string key, std::shared_ptr<const FileFacts> facts);
  void sweepLocked();

  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, Entry> map_;
  mutable uint64_t tick_ = 0;
  size_t bound_ = 0, bytes_ = 0, sinceSweep_ = 0, evictions_ = 0;
  size_t extractions_ = 0;
  size_t fromStore_ = 0;
  std::shared_ptr<FactsStore> store_;
};

}  // namespace impact
