#include "process/Sandbox.h"

#include "process/Confine.h"
#include "io/DiskRead.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace impact::emitter {

namespace fs = std::filesystem;

bool credentialLike(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const char* w : {"token", "key", "secret", "passw", "credential", "auth", "session", "cookie"})
    if (n.find(w) != std::string::npos) return true;
  return false;
}

std::map<std::string, std::string> childEnvironment(const std::string& home, const std::string& flavor) {
  std::map<std::string, std::string> env;
  const char* path = std::getenv("PATH");
  env["PATH"] = path && *path ? path : "/usr/bin:/bin";
  env["LANG"] = "C.UTF-8";
  env["LC_ALL"] = "C.UTF-8";
  env["HOME"] = home;
  env["TMPDIR"] = home;
  env["ROCKE_BACKEND"] = "python";
  if (!flavor.empty()) env["ROCKE_LLVM_FLAVOR"] = flavor;
  env["PYTHONHASHSEED"] = "0";
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  for (auto it = env.begin(); it != env.end();)
    it = credentialLike(it->first) ? env.erase(it) : std::next(it);
  return env;
}

std::string findPython() {
  if (const char* p = std::getenv("IMPACT_PYTHON"); p && *p) return p;
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    fs::path cand = fs::path(dir) / "python3";
    if (::access(cand.c_str(), X_OK) == 0) return cand.string();
  }
  return "";
}

namespace {

// The child's output files, through the guarded read (io/DiskRead.h): a child that replaced one
// with a FIFO or a symlink to a device cannot block the thread that waits for it (and the
// server's shutdown, which joins that thread).
std::string slurp(const fs::path& p) {
  auto text = readRegularFile(p.string(), DiskReadLimits::within("", 256ull << 20));
  return text.ok() ? std::move(*text) : std::string();
}

}  // namespace

ChildResult runChild(const ChildRequest& req) {
  ChildResult res;
  char tmpl[] = "/tmp/impact-child-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    res.spawnError = std::string("cannot make a temp folder: ") + std::strerror(errno);
    return res;
  }
  fs::path scratch = tmpl;
  {
    std::ofstream(scratch / "stdin", std::ios::binary) << req.stdinText;
  }
  int in = ::open((scratch / "stdin").c_str(), O_RDONLY | O_CLOEXEC);
  int out = ::open((scratch / "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = ::open((scratch / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : req.env) envStrings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : req.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = (in >= 0 && out >= 0 && err >= 0 && !req.argv.empty()) ? ::fork() : -1;
  if (pid == 0) {
    ::setsid();  // its own session and process group: a timeout ends the whole tree
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (!req.cwd.empty() && ::chdir(req.cwd.c_str()) != 0) ::_exit(126);
    if (req.jail)
      if (const char* failed = req.jail->enter()) {
        const char msg[] = "impact sandbox: the child could not be confined: ";
        (void)!::write(2, msg, sizeof(msg) - 1);
        (void)!::write(2, failed, std::strlen(failed));
        (void)!::write(2, "\n", 1);
        ::_exit(125);
      }
    // No descriptor of ours beyond stdin, stdout and stderr reaches the tree's code (one opened
    // without O_CLOEXEC would be a way past the confinement).
    ::syscall(SYS_close_range, 3u, ~0u, 0u);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  for (int fd : {in, out, err})
    if (fd >= 0) ::close(fd);
  if (pid < 0) {
    res.spawnError = std::string("cannot start ") + (req.argv.empty() ? "?" : req.argv[0]) + ": " + std::strerror(errno);
    std::error_code ec;
    fs::remove_all(scratch, ec);
    return res;
  }
  res.started = true;
  int status = 0;
  bool done = false;
  while (!done) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      done = true;
      break;
    }
    bool cancelled = req.cancel && req.cancel->load();
    if (std::chrono::steady_clock::now() >= req.deadline || cancelled) {
      res.timedOut = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);  // before its setsid() the child has no group yet (Session.cpp, end())
      ::waitpid(pid, &status, 0);
      done = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-pid, SIGKILL);  // whatever the child started and left behind in its group
  if (WIFEXITED(status)) res.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  res.out = slurp(scratch / "stdout");
  res.err = slurp(scratch / "stderr");
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return res;
}

}  // namespace impact::emitter
