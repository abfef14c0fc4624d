#include "cache/DiskCache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <tuple>
#include <vector>

#include "ExtractorVersion.h"
#include "absl/strings/str_cat.h"
#include "cache/FactsCodec.h"
#include "extract/Descriptor.h"
#include "parse/Syntax.h"

namespace impact {

namespace fs = std::filesystem;

namespace {

// An entry: magic, codec version (u32), key length (u32), payload length (u64), checksum of the key
// then the payload (u64, `checksum`), the key, the payload.
constexpr char kMagic[8] = {'I', 'M', 'P', 'A', 'C', 'T', 'F', '2'};
constexpr size_t kEntryHeader = 8 + 4 + 4 + 8 + 8;
// A pack: magic, codec version (u32), entry count (u32), checksum of the index (u64), the index
// (per entry: key hash (FNV-1a), offset from the pack's start, length; u64 each), the entries.
constexpr char kPackMagic[8] = {'I', 'M', 'P', 'A', 'C', 'T', 'P', '2'};
constexpr size_t kPackHeader = 8 + 4 + 4 + 8;
constexpr size_t kIndexRow = 24;
constexpr uint64_t kMaxEntryBytes = 512ull << 20;
constexpr uint64_t kFlushBytes = 8ull << 20;
constexpr size_t kMaxPacks = 24, kKeptPacks = 8;
constexpr auto kStaleTemp = std::chrono::minutes(10);
constexpr int64_t kTouchAfterSeconds = 3600;

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
template <typename T>
T get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A checksum against torn or damaged bytes (not against an adversary: a cache folder is the
// user's own), eight bytes a step: every warm run checks every entry it reads, and FNV-1a byte by
// byte was a tenth of a warm report's instructions.
uint64_t checksum(std::string_view s, uint64_t h = 0x243F6A8885A308D3ull) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  h = (h ^ tail ^ (static_cast<uint64_t>(s.size()) << 56)) * kMul;
  return h ^ (h >> 32);
}

bool preadAll(int fd, std::string& out, uint64_t offset, size_t n) {
  out.resize(n);
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(fd, out.data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t w = ::write(fd, data.data(), data.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data.remove_prefix(static_cast<size_t>(w));
  }
  return true;
}

bool isTemp(const fs::path& p) { return p.filename().string().find(".tmp") != std::string::npos; }
bool isPack(const fs::path& p) { return p.extension() == ".pack" && !isTemp(p); }

int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The key and payload of an entry's bytes, when they are whole and their checksum holds.
bool parseEntry(std::string_view bytes, std::string_view& key, std::string_view& payload) {
  if (bytes.size() < kEntryHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return false;
  const char* h = bytes.data() + sizeof kMagic;
  if (get<uint32_t>(h) != kFactsCodecVersion) return false;
  uint64_t keyLen = get<uint32_t>(h + 4), len = get<uint64_t>(h + 8), sum = get<uint64_t>(h + 16);
  if (bytes.size() != kEntryHeader + keyLen + len) return false;
  key = bytes.substr(kEntryHeader, keyLen);
  payload = bytes.substr(kEntryHeader + keyLen);
  return checksum(payload, checksum(key)) == sum;
}

}  // namespace

std::string extractionKind(std::string_view path) {
  switch (classify(path)) {
    case FileKind::Python: return "python";
    case FileKind::Cpp: return "cpp";
    case FileKind::Manifest: return "manifest";
    case FileKind::GeneratorConfig: return "generator-config";
    case FileKind::Descriptor:
      if (isAotCatalog(path)) return "catalog";
      return "descriptor-" + descriptorType(path);
    case FileKind::Other: return "other";
  }
  return "other";
}

std::string DiskCache::defaultDir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return absl::StrCat(x, "/impactd");
  if (const char* h = std::getenv("HOME"); h && *h) return absl::StrCat(h, "/.cache/impactd");
  return "";
}

const char* DiskCache::extractorVersion() { return IMPACT_EXTRACTOR_VERSION; }

DiskCache::DiskCache(std::string dir, uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {}

DiskCache::~DiskCache() {
  flush();
  for (auto& p : packs_) {
    if (p->map) ::munmap(const_cast<char*>(p->map), p->size);
    if (p->fd >= 0) ::close(p->fd);
  }
}

bool DiskCache::entryBytes(const Where& w, std::string& buffer, std::string_view& bytes) {
  if (w.offset > w.pack->size || w.length > w.pack->size - w.offset) return false;
  if (w.pack->map) {
    bytes = std::string_view(w.pack->map + w.offset, static_cast<size_t>(w.length));
    return true;
  }
  if (!preadAll(w.pack->fd, buffer, w.offset, static_cast<size_t>(w.length))) return false;
  bytes = buffer;
  return true;
}

std::string DiskCache::folder() const {
  return absl::StrCat(dir_, "/facts-", IMPACT_EXTRACTOR_VERSION, "-c", kFactsCodecVersion);
}

std::string DiskCache::entryKey(std::string_view path, std::string_view blobId) {
  // The path is part of the key: extraction reads it (a descriptor's type, a catalog's arch and
  // family folders), so an entry is never served to another path with the same content.
  return absl::StrCat(std::string(blobId), ".", extractionKind(path), ".", absl::Hex(fnv1a(path), absl::kZeroPad16));
}

bool DiskCache::addPackLocked(const std::string& file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // removed meanwhile by another process's trim
  std::string header, rows;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0 && preadAll(fd, header, 0, kPackHeader) &&
            std::memcmp(header.data(), kPackMagic, sizeof kPackMagic) == 0 &&
            get<uint32_t>(header.data() + 8) == kFactsCodecVersion;
  uint64_t count = ok ? get<uint32_t>(header.data() + 12) : 0;
  ok = ok && kPackHeader + count * kIndexRow <= static_cast<uint64_t>(st.st_size) &&
       preadAll(fd, rows, kPackHeader, count * kIndexRow) && checksum(rows) == get<uint64_t>(header.data() + 16);
  if (!ok) {  // a damaged pack: every entry of it is a miss (trim() ages it out)
    ::close(fd);
    ++corrupt_;
    return false;
  }
  auto pack = std::make_unique<Pack>();
  pack->file = file;
  pack->fd = fd;
  pack->size = static_cast<uint64_t>(st.st_size);
  pack->touchedAt = st.st_mtim.tv_sec;
  // One mapping instead of a pread per entry (a warm report reads hundreds: each a system call).
  if (void* m = ::mmap(nullptr, pack->size, PROT_READ, MAP_PRIVATE, fd, 0); m != MAP_FAILED)
    pack->map = static_cast<const char*>(m);
  for (uint64_t i = 0; i < count; ++i) {
    const char* r = rows.data() + i * kIndexRow;
    uint64_t off = get<uint64_t>(r + 8), len = get<uint64_t>(r + 16);
    if (len > kMaxEntryBytes) continue;  // past the file's end: load() finds it short (corrupt)
    index_[get<uint64_t>(r)] = Where{pack.get(), off, len};
  }
  packs_.push_back(std::move(pack));
  return true;
}

void DiskCache::indexLocked() {
  if (indexed_) return;
  indexed_ = true;
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(folder(), ec), end; !ec && it != end; it.increment(ec))
    if (isPack(it->path())) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());  // oldest first: a newer pack's entry overrides
  for (const auto& f : files) addPackLocked(f);
}

std::optional<FileFacts> DiskCache::load(const std::string& path, const std::string& blobId) {
  const std::string key = entryKey(path, blobId);
  const uint64_t h = fnv1a(key);
  Where w{};
  {
    std::lock_guard<std::mutex> lock(mu_);
    indexLocked();
    auto it = index_.find(h);
    if (it == index_.end()) {
      ++misses_;
      return std::nullopt;
    }
    w = it->second;
  }
  std::string buffer;
  std::string_view bytes, k, payload;
  if (!entryBytes(w, buffer, bytes) || !parseEntry(bytes, k, payload)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = index_.find(h); it != index_.end() && it->second.pack == w.pack && it->second.offset == w.offset)
      index_.erase(it);  // the rewritten entry goes to a newer pack
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  }
  if (k != key) {  // another key with the same hash
    ++misses_;
    return std::nullopt;
  }
  auto facts = decodeFacts(payload, path);
  if (!facts.ok()) {
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  }
  // A hit keeps the pack young for trim(); refreshed at most hourly to spare the writes.
  int64_t now = nowSeconds(), was = w.pack->touchedAt.load();
  if (now - was > kTouchAfterSeconds && w.pack->touchedAt.compare_exchange_strong(was, now)) ::futimens(w.pack->fd, nullptr);
  ++hits_;
  return std::move(*facts);
}

void DiskCache::store(const std::string& path, const std::string& blobId, const FileFacts& facts) {
  std::string key = entryKey(path, blobId);
  // Header, key and payload in one buffer; the lengths and checksum are filled in once known.
  std::string bytes;
  bytes.reserve(4096);
  bytes.append(kMagic, sizeof kMagic);
  put<uint32_t>(bytes, kFactsCodecVersion);
  put<uint32_t>(bytes, static_cast<uint32_t>(key.size()));
  put<uint64_t>(bytes, 0);
  put<uint64_t>(bytes, 0);
  bytes += key;
  encodeFactsInto(facts, bytes);
  std::string_view payload(bytes.data() + kEntryHeader + key.size(), bytes.size() - kEntryHeader - key.size());
  const uint64_t len = payload.size(), sum = checksum(payload, checksum(key));
  std::memcpy(bytes.data() + 16, &len, sizeof len);
  std::memcpy(bytes.data() + 24, &sum, sizeof sum);
  if (bytes.size() > kMaxEntryBytes) return;
  bool full;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pendingBytes_ += bytes.size();
    pending_.emplace_back(std::move(key), std::move(bytes));
    full = pendingBytes_ >= kFlushBytes;
  }
  if (full) flush();
}

bool DiskCache::writePackLocked(const std::vector<std::pair<std::string, std::string>>& entries, std::string* file) {
  std::string rows, header;
  uint64_t offset = kPackHeader + entries.size() * kIndexRow;
  for (const auto& [key, bytes] : entries) {
    put<uint64_t>(rows, fnv1a(key));
    put<uint64_t>(rows, offset);
    put<uint64_t>(rows, bytes.size());
    offset += bytes.size();
  }
  header.append(kPackMagic, sizeof kPackMagic);
  put<uint32_t>(header, kFactsCodecVersion);
  put<uint32_t>(header, static_cast<uint32_t>(entries.size()));
  put<uint64_t>(header, checksum(rows));
  // The name sorts by time (newer packs override older ones), then process and sequence.
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  *file = absl::StrCat(folder(), "/", absl::Hex(ns.count(), absl::kZeroPad16), "-", ::getpid(), "-", seq_++, ".pack");
  // A temp file beside the pack (same file system: the rename is atomic).
  std::string tmp = *file + ".tmp";
  auto openTemp = [&] { return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644); };
  int fd = openTemp();
  if (fd < 0 && errno == ENOENT) {
    std::error_code ec;
    fs::create_directories(folder(), ec);
    fd = openTemp();
  }
  if (fd < 0) return false;
  bool ok = writeAll(fd, header) && writeAll(fd, rows);
  for (const auto& [key, bytes] : entries) ok = ok && writeAll(fd, bytes);
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), file->c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

void DiskCache::flush() {
  uint64_t written = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (pending_.empty()) return;
    indexLocked();
    std::vector<std::pair<std::string, std::string>> entries;
    entries.swap(pending_);
    written = pendingBytes_;
    pendingBytes_ = 0;
    std::string file;
    if (!writePackLocked(entries, &file) || !addPackLocked(file)) {
      writeErrors_ += entries.size();
      return;
    }
    writes_ += entries.size();
    mergeSmallPacksLocked();
  }
  // A process that writes a tenth of the bound trims, so a long-lived server stays bounded too.
  if (writtenSinceTrim_.fetch_add(written) + written > maxBytes_ / 10) {
    writtenSinceTrim_ = 0;
    trim();
  }
}

void DiskCache::mergeSmallPacksLocked() {
  std::vector<Pack*> live;
  for (auto& p : packs_)
    if (fs::exists(p->file)) live.push_back(p.get());
  if (live.size() <= kMaxPacks) return;
  std::vector<std::pair<uint64_t, Pack*>> bySize;
  for (Pack* p : live) {
    struct stat st {};
    if (::fstat(p->fd, &st) == 0) bySize.emplace_back(static_cast<uint64_t>(st.st_size), p);
  }
  std::sort(bySize.begin(), bySize.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::set<Pack*> merged;
  for (size_t i = kKeptPacks; i < bySize.size(); ++i) merged.insert(bySize[i].second);
  // The newest entry of each key that lives in a merged pack, read back and checked.
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& [h, w] : index_) {
    if (!merged.count(w.pack)) continue;
    std::string buffer;
    std::string_view bytes, key, payload;
    if (!entryBytes(w, buffer, bytes) || !parseEntry(bytes, key, payload)) continue;
    entries.emplace_back(std::string(key), std::string(bytes));
  }
  std::string file;
  if (!writePackLocked(entries, &file) || !addPackLocked(file)) return;
  for (Pack* p : merged) ::unlink(p->file.c_str());  // still open here: readers of it go on
}

std::optional<DiskCache::Location> DiskCache::locate(std::string_view path, std::string_view blobId) {
  std::lock_guard<std::mutex> lock(mu_);
  indexLocked();
  auto it = index_.find(fnv1a(entryKey(path, blobId)));
  if (it == index_.end()) return std::nullopt;
  return Location{it->second.pack->file, it->second.offset, it->second.length};
}

std::vector<DiskCache::Location> DiskCache::entries() {
  std::vector<Location> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    indexLocked();
    for (const auto& [h, w] : index_) out.push_back({w.pack->file, w.offset, w.length});
  }
  std::sort(out.begin(), out.end(), [](const Location& a, const Location& b) {
    return std::tie(a.file, a.offset) < std::tie(b.file, b.offset);
  });
  return out;
}

DiskCache::TrimResult DiskCache::trim() {
  TrimResult res;
  struct Entry {
    std::chrono::nanoseconds mtime;  // since the epoch (CLOCK_REALTIME, as the file system stamps)
    uint64_t size;
    fs::path path;
  };
  std::vector<Entry> entries;
  std::error_code ec;
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  for (fs::recursive_directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (it->is_directory(e)) continue;  // the type comes with the listing: no stat
    // One lstat per file for its kind, time and size.
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;  // removed meanwhile
    auto mtime = std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec);
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (isTemp(it->path())) {
      // A writer killed mid-write left it; a live writer renames within milliseconds.
      if (now - mtime > kStaleTemp && fs::remove(it->path(), e)) ++res.removed;
      continue;
    }
    entries.push_back({mtime, size, it->path()});
    res.bytesBefore += size;
  }
  res.bytesAfter = res.bytesBefore;
  if (res.bytesBefore <= maxBytes_) return res;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.mtime < b.mtime; });
  const uint64_t target = maxBytes_ / 10 * 8;
  std::set<std::string> removed;
  for (const auto& en : entries) {
    if (res.bytesAfter <= target) break;
    std::error_code e;
    if (fs::remove(en.path, e)) {
      res.bytesAfter -= en.size;
      ++res.removed;
      removed.insert(en.path.string());
    }
  }
  // What this process indexed from a removed pack is gone for it too (as for the next process).
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = index_.begin(); it != index_.end();)
    if (removed.count(it->second.pack->file)) index_.erase(it++);
    else ++it;
  return res;
}

DiskCache::Stats DiskCache::stats() const {
  return {hits_.load(), misses_.load(), writes_.load(), corrupt_.load(), writeErrors_.load()};
}

}  // namespace impact
