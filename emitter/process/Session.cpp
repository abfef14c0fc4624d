#include "process/Session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "process/Confine.h"

namespace impact::emitter {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::unique_ptr<ChildSession> ChildSession::start(const ChildRequest& req, std::string* error) {
  auto fail = [&](const std::string& why) -> std::unique_ptr<ChildSession> {
    if (error) *error = why;
    return nullptr;
  };
  if (req.argv.empty()) return fail("nothing to start");
  char tmpl[] = "/tmp/impact-child-XXXXXX";
  if (!::mkdtemp(tmpl)) return fail(std::string("cannot make a temp folder: ") + std::strerror(errno));
  std::unique_ptr<ChildSession> s(new ChildSession());
  s->scratch_ = tmpl;
  std::string errPath = s->scratch_ + "/stderr";
  // The child appends (so that emptying the file between calls keeps its writes at the start,
  // and its file-size limit counts one call's output); we read and truncate it.
  int errChild = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  s->errFd_ = ::open(errPath.c_str(), O_RDWR | O_CLOEXEC);
  int sv[2] = {-1, -1};
  if (errChild < 0 || s->errFd_ < 0 || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    std::string why = std::string("cannot prepare the child's streams: ") + std::strerror(errno);
    if (errChild >= 0) ::close(errChild);
    return fail(why);
  }
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : req.env) envStrings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : req.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();  // its own session and process group: ending the session ends the whole tree
    ::dup2(sv[1], 0);
    ::dup2(sv[1], 1);
    ::dup2(errChild, 2);
    if (!req.cwd.empty() && ::chdir(req.cwd.c_str()) != 0) ::_exit(126);
    if (req.jail)
      if (const char* failed = req.jail->enter()) {
        const char msg[] = "impact sandbox: the child could not be confined: ";
        (void)!::write(2, msg, sizeof(msg) - 1);
        (void)!::write(2, failed, std::strlen(failed));
        (void)!::write(2, "\n", 1);
        ::_exit(125);
      }
    ::syscall(SYS_close_range, 3u, ~0u, 0u);  // nothing of ours beyond 0, 1 and 2 (Sandbox.cpp)
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  int forkErrno = errno;
  ::close(sv[1]);
  ::close(errChild);
  if (pid < 0) {
    ::close(sv[0]);
    return fail(std::string("cannot start ") + req.argv[0] + ": " + std::strerror(forkErrno));
  }
  s->pid_ = pid;
  s->sock_ = sv[0];
  return s;
}

ChildSession::~ChildSession() {
  if (pid_ > 0) end(true, nullptr);
  if (errFd_ >= 0) ::close(errFd_);
  std::error_code ec;
  if (!scratch_.empty()) fs::remove_all(scratch_, ec);
}

std::string ChildSession::takeErr() {
  struct stat st {};
  if (errFd_ < 0 || ::fstat(errFd_, &st) != 0) return "";
  off_t from = st.st_size > (1 << 16) ? st.st_size - (1 << 16) : 0;  // the tail: its last line names the error
  std::string out(size_t(st.st_size - from), '\0');
  ssize_t n = ::pread(errFd_, out.data(), out.size(), from);
  out.resize(n > 0 ? size_t(n) : 0);
  if (::ftruncate(errFd_, 0) != 0) out += "\n(the child's stderr could not be emptied)";
  return out;
}

void ChildSession::end(bool kill, SessionReply* reply) {
  int status = 0;
  bool reaped = false;
  if (!kill) {  // the child closed its end: give it a moment to exit on its own
    auto until = Clock::now() + std::chrono::seconds(2);
    while (Clock::now() < until) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ::kill(-pid_, SIGKILL);  // the child (when still there) and whatever it started in its group
  // And the child itself: killed just after fork(), before its setsid(), it has no group of its
  // own yet, the group kill misses it, and waitpid() would wait for a child that went on to exec
  // and serve (a cancel in that instant hung the run and the server's shutdown).
  if (!reaped) ::kill(pid_, SIGKILL);  // a reaped pid may be another process's by now
  if (!reaped) ::waitpid(pid_, &status, 0);
  if (sock_ >= 0) ::close(sock_);
  sock_ = -1;
  pid_ = -1;
  if (reply) {
    if (WIFEXITED(status)) reply->exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) reply->signal = WTERMSIG(status);
  }
}

SessionReply ChildSession::call(const std::string& line, Clock::time_point deadline, const std::atomic<bool>* cancel) {
  SessionReply r;
  if (pid_ <= 0) return r;
  auto over = [&] { return Clock::now() >= deadline || (cancel && cancel->load()); };
  auto timedOut = [&] {
    r.timedOut = true;
    end(true, &r);
    r.err = takeErr();
    return r;
  };
  std::string out = line + "\n";
  size_t sent = 0;
  while (sent < out.size()) {
    if (over()) return timedOut();
    pollfd p{sock_, POLLOUT, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    ssize_t n = ::send(sock_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) sent += size_t(n);
    else if (n < 0 && errno != EAGAIN && errno != EINTR) break;  // the child is gone: read its end below
  }
  char buf[1 << 16];
  while (pending_.find('\n') == std::string::npos) {
    if (over()) return timedOut();
    pollfd p{sock_, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    ssize_t n = ::recv(sock_, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
      pending_.append(buf, size_t(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {  // the child closed its end without an answer
      end(false, &r);
      r.err = takeErr();
      return r;
    }
  }
  size_t nl = pending_.find('\n');
  r.answered = true;
  r.line = pending_.substr(0, nl);
  pending_.erase(0, nl + 1);
  r.err = takeErr();
  return r;
}

}  // namespace impact::emitter
