#include "cache/DiskCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "ExtractorVersion.h"
#include "absl/strings/str_cat.h"
#include "cache/FactsCodec.h"
#include "extract/Descriptor.h"
#include "parse/Syntax.h"

namespace impact {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'I', 'M', 'P', 'A', 'C', 'T', 'F', 'C'};
// magic, codec version (u32), reserved (u32), payload length (u64), FNV-1a of the payload (u64)
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8;
constexpr uint64_t kMaxEntryBytes = 512ull << 20;
constexpr auto kStaleTemp = std::chrono::minutes(10);
constexpr auto kTouchAfter = std::chrono::hours(1);

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

bool readAll(int fd, std::string& out, size_t n) {
  out.resize(n);
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, out.data() + got, n - got);
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

bool isTemp(const fs::path& p) { return p.filename().string().find(".tmp.") != std::string::npos; }

}  // namespace

std::string extractionKind(std::string_view path) {
  switch (classify(path)) {
    case FileKind::Python: return "python";
    case FileKind::Cpp: return "cpp";
    case FileKind::Manifest: return "manifest";
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

std::string DiskCache::entryPath(std::string_view path, std::string_view blobId) const {
  // The path is part of the key: extraction reads it (a descriptor's type, a catalog's arch and
  // family folders), so an entry is never served to another path with the same content.
  // Sixteen folders by the id's first digit: a cold run makes few folders (each costs the file
  // system an inode, as an entry does), and a folder holds a few ten thousand entries at most.
  std::string id(blobId);
  return absl::StrCat(dir_, "/facts-", IMPACT_EXTRACTOR_VERSION, "-c", kFactsCodecVersion, "/", id.substr(0, 1), "/",
                      id.substr(1), ".", extractionKind(path), ".", absl::Hex(fnv1a(path), absl::kZeroPad16));
}

std::optional<FileFacts> DiskCache::load(const std::string& path, const std::string& blobId) {
  const std::string file = entryPath(path, blobId);
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ++misses_;
    return std::nullopt;
  }
  struct stat st {};
  std::string bytes;
  bool whole = ::fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(kHeaderSize) &&
               static_cast<uint64_t>(st.st_size) <= kMaxEntryBytes && readAll(fd, bytes, static_cast<size_t>(st.st_size));
  if (whole) {
    // A hit keeps the entry young for trim(); refreshed at most hourly to spare the writes.
    auto mtime = std::chrono::seconds(st.st_mtim.tv_sec);
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    if (now - mtime > kTouchAfter) ::futimens(fd, nullptr);
  }
  ::close(fd);
  auto corrupt = [&]() -> std::optional<FileFacts> {
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  };
  if (!whole || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return corrupt();
  const char* h = bytes.data() + sizeof kMagic;
  if (get<uint32_t>(h) != kFactsCodecVersion) return corrupt();
  uint64_t len = get<uint64_t>(h + 8), sum = get<uint64_t>(h + 16);
  std::string_view payload(bytes.data() + kHeaderSize, bytes.size() - kHeaderSize);
  if (len != payload.size() || fnv1a(payload) != sum) return corrupt();
  auto facts = decodeFacts(payload, path);
  if (!facts.ok()) return corrupt();
  ++hits_;
  return std::move(*facts);
}

void DiskCache::store(const std::string& path, const std::string& blobId, const FileFacts& facts) {
  const std::string file = entryPath(path, blobId);
  // Header and payload in one buffer: the payload is encoded after a header whose length and
  // checksum are filled in once it is known.
  std::string bytes;
  bytes.reserve(4096);
  bytes.append(kMagic, sizeof kMagic);
  put<uint32_t>(bytes, kFactsCodecVersion);
  put<uint32_t>(bytes, 0);
  put<uint64_t>(bytes, 0);
  put<uint64_t>(bytes, 0);
  encodeFactsInto(facts, bytes);
  std::string_view payload(bytes.data() + kHeaderSize, bytes.size() - kHeaderSize);
  const uint64_t len = payload.size(), sum = fnv1a(payload);
  std::memcpy(bytes.data() + 16, &len, sizeof len);
  std::memcpy(bytes.data() + 24, &sum, sizeof sum);

  // A temp file beside the entry (same file system: the rename is atomic), unique per process
  // and write. Its folder is made only when the first open finds it missing.
  std::string tmp = absl::StrCat(file, ".tmp.", ::getpid(), ".", tempSeq_.fetch_add(1));
  auto openTemp = [&] { return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644); };
  int fd = openTemp();
  if (fd < 0 && errno == ENOENT) {
    std::error_code ec;
    fs::create_directories(fs::path(file).parent_path(), ec);
    fd = openTemp();
  }
  if (fd < 0) {
    ++writeErrors_;
    return;
  }
  bool ok = writeAll(fd, bytes);
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), file.c_str()) != 0) {
    ::unlink(tmp.c_str());
    ++writeErrors_;
    return;
  }
  ++writes_;
  // A process that writes a tenth of the bound trims, so a long-lived server stays bounded too.
  if (writtenSinceTrim_.fetch_add(bytes.size()) + bytes.size() > maxBytes_ / 10) {
    writtenSinceTrim_ = 0;
    trim();
  }
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
  for (const auto& en : entries) {
    if (res.bytesAfter <= target) break;
    std::error_code e;
    if (fs::remove(en.path, e)) {
      res.bytesAfter -= en.size;
      ++res.removed;
    }
  }
  return res;
}

DiskCache::Stats DiskCache::stats() const {
  return {hits_.load(), misses_.load(), writes_.load(), corrupt_.load(), writeErrors_.load()};
}

}  // namespace impact
