#include "server/Scheduler.h"

#include <exception>

namespace impact::server {

Scheduler::Scheduler() : worker_([this] { loop(); }) {}

Scheduler::~Scheduler() { stop(); }

bool Scheduler::stopUntil(Clock::time_point deadline) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  return worker_.joinUntil(deadline);
}

void Scheduler::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void Scheduler::postDebounced(const std::string& key, std::chrono::milliseconds delay, std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    delayed_[key] = {Clock::now() + delay, std::move(task)};
  }
  cv_.notify_one();
}

void Scheduler::flush(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = delayed_.find(key);
  if (it == delayed_.end()) return;
  queue_.push_front(std::move(it->second.second));
  delayed_.erase(it);
  cv_.notify_one();
}

void Scheduler::loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      for (;;) {
        if (stopping_) return;
        if (!queue_.empty()) {
          task = std::move(queue_.front());
          queue_.pop_front();
          break;
        }
        auto now = Clock::now();
        auto due = delayed_.end();
        for (auto it = delayed_.begin(); it != delayed_.end(); ++it)
          if (due == delayed_.end() || it->second.first < due->second.first) due = it;
        if (due != delayed_.end() && due->second.first <= now) {
          task = std::move(due->second.second);
          delayed_.erase(due);
          break;
        }
        if (due == delayed_.end()) cv_.wait(lock);
        else cv_.wait_until(lock, due->second.first);
      }
    }
    try {
      task();
    } catch (const std::exception&) {
      // A task never takes the worker down; the task itself reports what failed.
    } catch (...) {
    }
  }
}

}  // namespace impact::server
