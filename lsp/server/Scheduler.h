// The server's one worker: runs tasks in the order they were posted, plus debounced tasks that
// run after a quiet period (a newer post under the same key replaces the older one). The
// protocol thread only posts and never waits. One worker means the workspace needs no lock and
// diagnostics are published in the order their edits arrived.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "server/OwnedThread.h"

namespace impact::server {

class Scheduler {
 public:
  using Clock = std::chrono::steady_clock;
  Scheduler();
  ~Scheduler();  // finishes the running task, drops the rest, joins
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void post(std::function<void()> task);
  void postDebounced(const std::string& key, std::chrono::milliseconds delay, std::function<void()> task);
  // Runs the debounced task of `key` now (before the next queued task) if one is pending.
  void flush(const std::string& key);
  void stop() { stopUntil(Clock::time_point::max()); }
  // Drops the queue and waits for the running task until `deadline`; false when it is still
  // running then (its thread is left running: see server/OwnedThread.h).
  bool stopUntil(Clock::time_point deadline);

 private:
  void loop();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  std::map<std::string, std::pair<Clock::time_point, std::function<void()>>> delayed_;
  bool stopping_ = false;
  OwnedThread worker_;
};

}  // namespace impact::server
