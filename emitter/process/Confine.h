// Confining the emitter's child (issue 20): what the kernel offers is detected once at start
// (Landlock's ABI, an unprivileged user + network namespace, seccomp), and every driver child then
// enters, between fork and exec: resource limits (setrlimit), its own user and network namespace,
// a Landlock domain that reads only the exported tree, the driver, the Python installation and the
// system libraries and writes only its scratch folder, and a seccomp filter that refuses socket().
// Where the kernel offers none of it the child runs as before and the document says "unconfined".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace impact::emitter {

struct Limits {
  uint64_t memoryBytes = 4ull << 30;     // RLIMIT_AS (--family-memory)
  uint64_t processes = 64;               // RLIMIT_NPROC: processes and threads, in the child's user namespace
  uint64_t fileSizeBytes = 256ull << 20; // RLIMIT_FSIZE
  uint64_t openFiles = 256;              // RLIMIT_NOFILE
  // RLIMIT_CPU is the family's budget (set per child); RLIMIT_CORE is 0.
};

struct Confinement {
  int landlockAbi = 0;         // 0: no Landlock
  bool userNetns = false;      // unshare(CLONE_NEWUSER | CLONE_NEWNET) works here
  bool seccomp = false;        // a seccomp filter can be installed (this architecture is known)
  bool asRoot = false;         // we run as uid 0: the child's real uid becomes nobody (see Confine.cpp)
  bool processLimit = false;   // RLIMIT_NPROC really refuses a fork (tested at detection)
  Limits limits;
  std::string python;              // the interpreter children run (the found one's sys.executable)
  std::vector<std::string> reads;  // Python's executable and standard library, system libraries

  std::string filesystem() const;  // "landlock-v7" | "none"
  std::string network() const;     // "netns" | "seccomp" | "landlock-tcp" | "none"
  bool confined() const { return landlockAbi > 0 && network() != "none"; }
};

// Detects what this kernel offers (once per process and python; later calls return the first
// answer with `limits` replaced). python: the interpreter the driver runs with.
Confinement detectConfinement(const std::string& python, const Limits& limits);

// The document's `sandbox` object: {confined, filesystem, network, layers, limits: {...}}.
nlohmann::json describeConfinement(const Confinement& c);
// One line for people: "landlock-v7 filesystem, netns network, limits memory 4 GiB, ..." or
// "UNCONFINED (...)".
std::string confinementSummary(const Confinement& c);

// What one child enters, prepared in the parent before fork (the child may only make syscalls).
class ChildJail {
 public:
  ChildJail() = default;
  ChildJail(const ChildJail&) = delete;
  ChildJail& operator=(const ChildJail&) = delete;
  ~ChildJail();
  // reads: folders and files the child may read (the exported tree's import roots, the driver's
  // folder); scratch: the only folder it may write. cpuSeconds: its RLIMIT_CPU. Returns "" or why
  // the jail cannot be prepared (then the child must not start).
  std::string prepare(const Confinement& c, const std::vector<std::string>& reads, const std::string& scratch,
                      uint64_t cpuSeconds);
  // In the child, after fork and before exec: nullptr, or the name of the step that failed.
  const char* enter() const;

 private:
  const Confinement* conf_ = nullptr;
  int ruleset_ = -1;
  uint64_t cpu_ = 0;
};

// Which limit a child that died or answered nothing hit, from its signal and its stderr: "" when
// none, else a message naming the limit ("the file-size limit (256 MiB, RLIMIT_FSIZE) was hit").
std::string limitHit(const Confinement& c, int signal, const std::string& err);

}  // namespace impact::emitter
