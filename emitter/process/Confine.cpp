#include "process/Confine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include "process/Sandbox.h"

// Landlock's user API, written out here: the installed headers may predate the kernel's ABI.
namespace {
using impact::emitter::ChildRequest;
using impact::emitter::ChildResult;
constexpr unsigned kLandlockCreateRulesetVersion = 1u << 0;
constexpr int kLandlockRulePathBeneath = 1;
struct LandlockRulesetAttr {
  uint64_t handledAccessFs;
  uint64_t handledAccessNet;  // ABI >= 4
  uint64_t scoped;            // ABI >= 6
};
struct __attribute__((packed)) LandlockPathBeneathAttr {
  uint64_t allowedAccess;
  int32_t parentFd;
};
constexpr uint64_t kFsExecute = 1ull << 0, kFsWriteFile = 1ull << 1, kFsReadFile = 1ull << 2, kFsReadDir = 1ull << 3;
constexpr uint64_t kFsRefer = 1ull << 13, kFsTruncate = 1ull << 14, kFsIoctlDev = 1ull << 15;
constexpr uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1;

long llCreate(const LandlockRulesetAttr* a, size_t size, unsigned flags) {
  return ::syscall(SYS_landlock_create_ruleset, a, size, flags);
}
long llAddRule(int fd, const LandlockPathBeneathAttr* a) {
  return ::syscall(SYS_landlock_add_rule, fd, kLandlockRulePathBeneath, a, 0);
}

#if defined(__x86_64__)
constexpr uint32_t kAuditArch = 0xC000003E;  // AUDIT_ARCH_X86_64
#define IMPACT_SECCOMP 1
#elif defined(__aarch64__)
constexpr uint32_t kAuditArch = 0xC00000B7;  // AUDIT_ARCH_AARCH64
#define IMPACT_SECCOMP 1
#endif

#ifdef IMPACT_SECCOMP
// socket() of any family is refused (EACCES); socketpair() stays. io_uring is refused too (its
// socket and connect operations would pass beside the filter), and on x86_64 the x32 numbers.
#define IMPACT_DENY(nr, err) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))
sock_filter kFilter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
#if defined(__x86_64__)
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
#endif
    IMPACT_DENY(SYS_socket, EACCES),
    IMPACT_DENY(SYS_io_uring_setup, ENOSYS),
    IMPACT_DENY(SYS_io_uring_enter, ENOSYS),
    IMPACT_DENY(SYS_io_uring_register, ENOSYS),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
#undef IMPACT_DENY
const sock_fprog kProgram = {static_cast<unsigned short>(sizeof(kFilter) / sizeof(kFilter[0])), kFilter};
#endif

constexpr uid_t kNobody = 65534;

// As root, RLIMIT_NPROC is never enforced (the kernel exempts uid 0 and CAP_SYS_RESOURCE). The
// child's real uid becomes nobody (its effective uid stays 0, so it reads what root reads and
// Landlock narrows that), and its new user namespace takes every capability in the parent
// namespace away: the count then applies, and only to that namespace's processes.
bool enterNamespaces(bool asRoot) {
  // The raw call: after fork only this thread exists, and glibc's wrapper would signal the others.
  if (asRoot && ::syscall(SYS_setresuid, kNobody, 0, 0) != 0) return false;
  return ::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0;
}

// Probe in a throwaway child: namespaces, then a process limit of 2 and forks until refused.
// Exit 0: all works and a fork was refused with EAGAIN; 2: the limit was not enforced; 1: no namespaces.
int probeNamespaces(bool asRoot, bool& processLimit) {
  pid_t pid = ::fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    if (!enterNamespaces(asRoot)) ::_exit(1);
    rlimit rl{2, 2};
    if (::setrlimit(RLIMIT_NPROC, &rl) != 0) ::_exit(2);
    pid_t kids[4];
    int n = 0, refused = 0;
    for (; n < 4; ++n) {
      kids[n] = ::fork();
      if (kids[n] == 0) {
        ::pause();
        ::_exit(0);
      }
      if (kids[n] < 0) {
        refused = errno == EAGAIN;
        break;
      }
    }
    for (int i = 0; i < n; ++i) ::kill(kids[i], SIGKILL);
    for (int i = 0; i < n; ++i) ::waitpid(kids[i], nullptr, 0);
    ::_exit(refused ? 0 : 2);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  processLimit = code == 0;
  return code == 1 ? 1 : 0;
}

// The interpreter's executable (sys.executable: a shim such as pyenv's is a script that runs
// others), its standard library and its shared library folder, asked of it once. reads[0]: the
// interpreter to run.
std::vector<std::string> pythonReads(const std::string& python) {
  namespace fs = std::filesystem;
  std::vector<std::string> reads;
  std::error_code ec;
  std::error_code realEc;
  fs::path real = fs::canonical(python, realEc);
  char tmpl[] = "/tmp/impact-pyq-XXXXXX";
  if (!::mkdtemp(tmpl)) return reads;
  ChildRequest req;
  req.argv = {python, "-s", "-S", "-B", "-c",
              "import sys, sysconfig\np = sysconfig.get_paths()\nprint(sys.executable); print(p['stdlib']); "
              "print(p['platstdlib']); print(sysconfig.get_config_var('LIBDIR') or '')"};
  req.env = impact::emitter::childEnvironment(tmpl, "");
  req.cwd = tmpl;
  req.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  ChildResult r = impact::emitter::runChild(req);
  fs::remove_all(tmpl, ec);
  std::stringstream ss(r.out);
  std::string line;
  while (std::getline(ss, line))
    if (!line.empty() && line != "None") reads.push_back(line);
  if (r.exitCode != 0 || reads.empty()) {  // <prefix>/bin/python3 -> <prefix>/lib
    reads = {python};
    if (!realEc && real.has_parent_path()) reads.push_back((real.parent_path().parent_path() / "lib").string());
  }
  if (fs::path exe = fs::canonical(reads[0], ec); !ec && exe != fs::path(reads[0])) reads.push_back(exe.string());
  return reads;
}

std::string mib(uint64_t bytes) {
  if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

namespace impact::emitter {

std::string Confinement::filesystem() const {
  return landlockAbi > 0 ? "landlock-v" + std::to_string(landlockAbi) : "none";
}

std::string Confinement::network() const {
  if (userNetns) return "netns";
  if (seccomp) return "seccomp";
  if (landlockAbi >= 4) return "landlock-tcp";
  return "none";
}

Confinement detectConfinement(const std::string& python, const Limits& limits) {
  static std::mutex mu;
  static std::map<std::string, Confinement> known;
  std::lock_guard<std::mutex> lock(mu);
  auto it = known.find(python);
  if (it == known.end()) {
    Confinement c;
    long abi = llCreate(nullptr, 0, kLandlockCreateRulesetVersion);
    c.landlockAbi = abi > 0 ? int(abi) : 0;
    c.asRoot = ::geteuid() == 0;
    c.userNetns = probeNamespaces(c.asRoot, c.processLimit) == 0;
#ifdef IMPACT_SECCOMP
    c.seccomp = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
#endif
    c.reads = pythonReads(python);
    c.python = c.reads.front();
    for (const char* p : {"/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/local/lib",
                          "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"})
      if (::access(p, F_OK) == 0) c.reads.push_back(p);
    it = known.emplace(python, c).first;
  }
  Confinement c = it->second;
  c.limits = limits;
  return c;
}

nlohmann::json describeConfinement(const Confinement& c) {
  nlohmann::json layers = nlohmann::json::array();
  if (c.userNetns) layers.push_back("user-namespace");
  if (c.landlockAbi >= 4) layers.push_back("landlock-tcp");
  if (c.landlockAbi >= 6) layers.push_back("landlock-scope");
  if (c.seccomp) layers.push_back("seccomp-socket");
  nlohmann::json limits = {{"memory", c.limits.memoryBytes},
                           {"file_size", c.limits.fileSizeBytes},
                           {"open_files", c.limits.openFiles},
                           {"cpu", "the family budget"},
                           {"core", 0}};
  limits["processes"] = c.processLimit ? nlohmann::json(c.limits.processes)
                                       : nlohmann::json("not enforced: needs the child's own user namespace");
  return {{"confined", c.confined()}, {"filesystem", c.filesystem()}, {"network", c.network()},
          {"layers", layers}, {"limits", limits}};
}

std::string confinementSummary(const Confinement& c) {
  std::string lim = "limits memory " + mib(c.limits.memoryBytes) + ", processes " +
                    (c.processLimit ? std::to_string(c.limits.processes) : "not enforced") + ", file size " +
                    mib(c.limits.fileSizeBytes) + ", open files " + std::to_string(c.limits.openFiles) +
                    ", cpu the family budget, no core";
  if (!c.confined())
    return "UNCONFINED (filesystem " + c.filesystem() + ", network " + c.network() + "; " + lim + ")";
  return "filesystem " + c.filesystem() + ", network " + c.network() + ", " + lim;
}

ChildJail::~ChildJail() {
  if (ruleset_ >= 0) ::close(ruleset_);
}

std::string ChildJail::prepare(const Confinement& c, const std::vector<std::string>& reads, const std::string& scratch,
                               uint64_t cpuSeconds) {
  conf_ = &c;
  cpu_ = cpuSeconds;
  if (c.landlockAbi <= 0) return "";
  uint64_t all = (1ull << 13) - 1;
  if (c.landlockAbi >= 2) all |= kFsRefer;
  if (c.landlockAbi >= 3) all |= kFsTruncate;
  if (c.landlockAbi >= 5) all |= kFsIoctlDev;
  const uint64_t fileRights = kFsExecute | kFsWriteFile | kFsReadFile | kFsTruncate | kFsIoctlDev;
  LandlockRulesetAttr attr{all, 0, 0};
  size_t size = sizeof(uint64_t);
  if (c.landlockAbi >= 4) {
    attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;  // no rule: no TCP bind or connect at all
    size = 2 * sizeof(uint64_t);
  }
  if (c.landlockAbi >= 6) {
    attr.scoped = kScopeAbstractUnix | kScopeSignal;  // no signal or abstract socket outside the domain
    size = sizeof(LandlockRulesetAttr);
  }
  ruleset_ = int(llCreate(&attr, size, 0));
  if (ruleset_ < 0) return std::string("landlock_create_ruleset: ") + std::strerror(errno);
  auto allow = [&](const std::string& path, uint64_t access) -> std::string {
    int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return "";  // a path that is not there needs no rule
    struct stat st {};
    ::fstat(fd, &st);
    if (!S_ISDIR(st.st_mode)) access &= fileRights;
    LandlockPathBeneathAttr rule{access & all, fd};
    long r = llAddRule(ruleset_, &rule);
    int e = errno;
    ::close(fd);
    return r == 0 ? "" : "landlock_add_rule " + path + ": " + std::strerror(e);
  };
  const uint64_t read = kFsExecute | kFsReadFile | kFsReadDir;
  std::vector<std::string> all_reads = c.reads;
  all_reads.insert(all_reads.end(), reads.begin(), reads.end());
  for (const auto& p : all_reads)
    if (std::string e = allow(p, read); !e.empty()) return e;
  for (const char* dev : {"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"})
    if (std::string e = allow(dev, kFsReadFile | kFsWriteFile | kFsTruncate); !e.empty()) return e;
  return allow(scratch, all);
}

const char* ChildJail::enter() const {
  if (!conf_) return nullptr;
  const Limits& l = conf_->limits;
  auto limit = [](int what, uint64_t soft, uint64_t hard) {
    rlimit rl{rlim_t(soft), rlim_t(hard)};
    return ::setrlimit(what, &rl) == 0;
  };
  if (!limit(RLIMIT_AS, l.memoryBytes, l.memoryBytes)) return "setrlimit(RLIMIT_AS)";
  if (!limit(RLIMIT_FSIZE, l.fileSizeBytes, l.fileSizeBytes)) return "setrlimit(RLIMIT_FSIZE)";
  if (!limit(RLIMIT_NOFILE, l.openFiles, l.openFiles)) return "setrlimit(RLIMIT_NOFILE)";
  if (!limit(RLIMIT_CORE, 0, 0)) return "setrlimit(RLIMIT_CORE)";
  if (cpu_ > 0 && !limit(RLIMIT_CPU, cpu_, cpu_ + 5)) return "setrlimit(RLIMIT_CPU)";
  if (conf_->userNetns) {
    if (!enterNamespaces(conf_->asRoot)) return "unshare(CLONE_NEWUSER|CLONE_NEWNET)";
    // After the unshare: the count is of this namespace's processes only.
    if (conf_->processLimit && !limit(RLIMIT_NPROC, l.processes, l.processes)) return "setrlimit(RLIMIT_NPROC)";
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "prctl(PR_SET_NO_NEW_PRIVS)";
  if (ruleset_ >= 0 && ::syscall(SYS_landlock_restrict_self, ruleset_, 0) != 0) return "landlock_restrict_self";
#ifdef IMPACT_SECCOMP
  if (conf_->seccomp && ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &kProgram, 0, 0) != 0) return "seccomp";
#endif
  return nullptr;
}

std::string limitHit(const Confinement& c, int signal, const std::string& err) {
  const Limits& l = c.limits;
  auto has = [&](const char* s) { return err.find(s) != std::string::npos; };
  if (signal == SIGXFSZ || has("File too large"))
    return "the file-size limit (" + mib(l.fileSizeBytes) + ", RLIMIT_FSIZE) was hit";
  if (signal == SIGXCPU) return "the CPU-time limit (the family budget, RLIMIT_CPU) was hit";
  if (has("MemoryError") || has("Cannot allocate memory"))
    return "the memory limit (" + mib(l.memoryBytes) + " of address space, RLIMIT_AS; --family-memory) was hit";
  if (has("BlockingIOError") || has("can't start new thread") || has("Resource temporarily unavailable"))
    return "the process limit (" + std::to_string(l.processes) + " processes and threads, RLIMIT_NPROC) was hit";
  if (has("Too many open files"))
    return "the open-files limit (" + std::to_string(l.openFiles) + ", RLIMIT_NOFILE) was hit";
  return "";
}

}  // namespace impact::emitter
