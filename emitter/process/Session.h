// A sandboxed child that stays alive across requests (docs/emitter.md, "One child per job"): the
// same start as runChild (process/Sandbox.h: its own session and process group, the environment
// and the jail of the request, no descriptor of ours beyond 0, 1 and 2), but its stdin and stdout
// are one socket to us, a request is one line and its answer one line. Each call has its own
// deadline; a call that is not answered (the child exited, was killed, or the deadline or the
// cancel flag came first) ends the child: its whole process group is killed, and the session is
// over. The destructor kills the group too, so nothing the child started outlives the session.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "process/Sandbox.h"

namespace impact::emitter {

struct SessionReply {
  bool answered = false;  // `line` holds the child's answer
  bool timedOut = false;  // the deadline or the cancel flag came first; the group was killed
  std::string line;       // the answer, without its newline
  int exitCode = -1;      // when not answered: the child's exit (-1 when killed by a signal)
  int signal = 0;
  std::string err;        // what the child wrote on stderr during this call
};

class ChildSession {
 public:
  // Starts the child (req.stdinText is not used). nullptr, and *error set, when it cannot start.
  static std::unique_ptr<ChildSession> start(const ChildRequest& req, std::string* error);
  ~ChildSession();
  ChildSession(const ChildSession&) = delete;
  ChildSession& operator=(const ChildSession&) = delete;

  // Sends one request line (no newline in it) and waits for one answer line.
  SessionReply call(const std::string& line, std::chrono::steady_clock::time_point deadline,
                    const std::atomic<bool>* cancel);
  bool alive() const { return pid_ > 0; }

 private:
  ChildSession() = default;
  void end(bool kill, SessionReply* reply);  // kills the group, reaps the child, fills exit and signal
  std::string takeErr();

  pid_t pid_ = -1;
  int sock_ = -1;
  int errFd_ = -1;  // our descriptor of the child's stderr file (O_APPEND on its side)
  std::string scratch_;
  std::string pending_;  // bytes read past the last answer line
};

}  // namespace impact::emitter
