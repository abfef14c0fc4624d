// A thread that shutdown waits for only until a deadline (issue 37: shutdown never joins a thread
// that can block). A run can block where no cancel flag is looked at: a slow git operation, a
// long report, a read the kernel does not let go of. Shutdown first asks every thread to stop (its
// cancel flag), then waits for each until one shared deadline; one still running then is detached
// and counted. Whoever detaches one also leaves alive what the thread uses (the server keeps its
// state: ImpactServer::stop), and the process ends with _Exit (lsp/main.cpp), never by running
// destructors under a thread that still reads them.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace impact::server {

// Threads detached at a deadline, process-wide: main() ends with _Exit when there are any.
inline std::atomic<int>& threadsLeftRunning() {
  static std::atomic<int> n{0};
  return n;
}

class OwnedThread {
 public:
  using Clock = std::chrono::steady_clock;
  OwnedThread() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, OwnedThread>>>
  explicit OwnedThread(F&& f) : done_(std::make_shared<Done>()) {
    thread_ = std::thread([fn = std::forward<F>(f), d = done_]() mutable {
      struct MarkEnded {
        Done& d;
        ~MarkEnded() {
          std::lock_guard<std::mutex> lock(d.mu);
          d.ended = true;
          d.cv.notify_all();
        }
      } mark{*d};
      fn();
    });
  }
  OwnedThread(OwnedThread&&) = default;
  OwnedThread& operator=(OwnedThread&&) = default;  // like std::thread: the target must not be joinable

  bool joinable() const { return thread_.joinable(); }
  // Its function returned (a join then waits only for the thread's own end).
  bool ended() const {
    if (!done_) return true;
    std::lock_guard<std::mutex> lock(done_->mu);
    return done_->ended;
  }
  // For a thread known to end soon (its function returned, or it is asked and cannot block).
  void join() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }
  // Joins it if its function returns by `deadline`; else detaches it, counts it and returns false.
  bool joinUntil(Clock::time_point deadline) {
    if (!thread_.joinable()) return true;
    if (thread_.get_id() == std::this_thread::get_id()) return false;  // asked from itself: cannot wait
    bool ended = true;
    if (done_) {
      std::unique_lock<std::mutex> lock(done_->mu);
      if (deadline == Clock::time_point::max()) done_->cv.wait(lock, [&] { return done_->ended; });
      else ended = done_->cv.wait_until(lock, deadline, [&] { return done_->ended; });
    }
    if (ended) {
      thread_.join();
      return true;
    }
    thread_.detach();
    ++threadsLeftRunning();
    return false;
  }

 private:
  struct Done {
    std::mutex mu;
    std::condition_variable cv;
    bool ended = false;
  };
  std::thread thread_;
  std::shared_ptr<Done> done_;
};

}  // namespace impact::server
