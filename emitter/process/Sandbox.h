// Running the driver as a sandboxed child (SPEC R4.1): python3 in isolated mode, an allow-listed
// environment without credentials, HOME an empty temp folder, its own process group (setsid), and
// a deadline after which the whole group is killed. The group is also killed when the child
// exits, so nothing it started outlives it.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace impact::emitter {

class ChildJail;

struct ChildRequest {
  std::vector<std::string> argv;               // argv[0]: an absolute executable path
  std::map<std::string, std::string> env;      // the child's whole environment
  std::string cwd;
  std::string stdinText;
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;   // set: kill the group now
  const ChildJail* jail = nullptr;             // set: entered between fork and exec (process/Confine.h)
};

struct ChildResult {
  bool started = false;
  bool timedOut = false;
  int exitCode = -1;      // -1 when killed by a signal
  int signal = 0;
  std::string out, err;
  std::string spawnError; // why it could not start
};

ChildResult runChild(const ChildRequest& req);

// Is an environment variable's name credential-like (token, key, secret, password, credential,
// auth, session, cookie)? Such a variable never reaches the child.
bool credentialLike(std::string_view name);

// The child's environment: PATH (from the parent when not credential-like, else /usr/bin:/bin),
// LANG/LC_ALL C.UTF-8, HOME and TMPDIR the given empty folder, ROCKE_BACKEND=python,
// ROCKE_LLVM_FLAVOR (when given), PYTHONHASHSEED=0, PYTHONDONTWRITEBYTECODE=1. Nothing else of
// the parent's passes (no user ROCKE_* setting: the environment changes the IR).
std::map<std::string, std::string> childEnvironment(const std::string& home, const std::string& flavor);

// The python3 to run: IMPACT_PYTHON when set, else the first python3 on PATH. "" when none.
std::string findPython();

}  // namespace impact::emitter
