#include "io/DiskRead.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace impact {

namespace {

std::string kindOf(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISLNK(m)) return "a symlink";
  return "not a regular file";
}

std::string resolved(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return "";
  std::string out = r;
  std::free(r);
  return out;
}

std::string linkText(const std::string& path) {
  char buf[PATH_MAX];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("?");
}

absl::Status tooLarge(uint64_t size, uint64_t max) {
  return absl::ResourceExhaustedError(absl::StrCat(humanBytes(size), ", over the ", humanBytes(max), " limit"));
}

}  // namespace

std::string humanBytes(uint64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, bytes == 1 ? " byte" : " bytes");
  const char* units[] = {"KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < sizeof units / sizeof *units) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (v >= 100 || v == static_cast<double>(static_cast<uint64_t>(v))) std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string notReadMessage(const absl::Status& status) { return absl::StrCat("not read: ", status.message()); }

absl::StatusOr<std::string> readRegularFile(const std::string& path, const DiskReadLimits& limits) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return absl::NotFoundError("no such file");
    return absl::UnavailableError(std::strerror(errno));
  }
  std::string target = path;
  if (S_ISLNK(st.st_mode)) {
    // Followed only to a regular file inside the workspace: never to a device, a pipe (the
    // server's own stdin) or a file elsewhere on the machine.
    std::string to = resolved(path);
    std::string root = limits.root.empty() ? "" : resolved(limits.root);
    if (root.empty()) return absl::FailedPreconditionError(absl::StrCat("a symlink (to ", linkText(path), ")"));
    if (root.back() != '/') root += '/';
    if (to.empty()) return absl::FailedPreconditionError(absl::StrCat("a symlink to ", linkText(path), ", which does not resolve"));
    if (to.rfind(root, 0) != 0)
      return absl::FailedPreconditionError(absl::StrCat("a symlink to ", to, ", outside the workspace"));
    if (::lstat(to.c_str(), &st) != 0) return absl::NotFoundError("no such file");
    if (!S_ISREG(st.st_mode)) return absl::FailedPreconditionError(absl::StrCat("a symlink to ", kindOf(st.st_mode)));
    target = to;
  }
  if (!S_ISREG(st.st_mode)) return absl::FailedPreconditionError(kindOf(st.st_mode));
  if (static_cast<uint64_t>(st.st_size) > limits.maxBytes) return tooLarge(static_cast<uint64_t>(st.st_size), limits.maxBytes);
  // O_NONBLOCK and O_NOFOLLOW: a path swapped for a FIFO or a symlink since the lstat neither
  // blocks nor leads elsewhere; what was opened is checked again.
  int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return absl::NotFoundError("no such file");
    if (errno == ELOOP) return absl::FailedPreconditionError("a symlink (it replaced the file while it was read)");
    return absl::UnavailableError(std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) return absl::UnavailableError(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return absl::FailedPreconditionError(kindOf(st.st_mode));
  if (static_cast<uint64_t>(st.st_size) > limits.maxBytes) return tooLarge(static_cast<uint64_t>(st.st_size), limits.maxBytes);
  std::string data;
  data.reserve(static_cast<size_t>(st.st_size));
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(std::strerror(errno));  // EAGAIN included: never waited for
    }
    if (n == 0) break;
    data.append(chunk, static_cast<size_t>(n));
    if (data.size() > limits.maxBytes) return tooLarge(data.size(), limits.maxBytes);  // it grew while read
  }
  return data;
}

}  // namespace impact
