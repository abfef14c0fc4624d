#include "server/Status.h"

#include <set>

namespace impact::server {

const char* stateName(ServerStatus::State s) {
  switch (s) {
    case ServerStatus::State::Starting: return "starting";
    case ServerStatus::State::Analysing: return "analysing";
    case ServerStatus::State::Ready: return "ready";
    case ServerStatus::State::Error: return "error";
  }
  return "error";
}

void StatusTracker::set(ServerStatus s) {
  if (sent_ && s == last_) return;
  last_ = std::move(s);
  sent_ = true;
  if (send_) send_(last_);
}

void StatusTracker::starting() { set({ServerStatus::State::Starting, 0, 0, "", last_.emitting, last_.geometry}); }

void StatusTracker::analysing() {
  ServerStatus s = last_;
  s.state = ServerStatus::State::Analysing;
  s.message = "";
  set(std::move(s));
}

void StatusTracker::settled(const std::vector<std::vector<Diag>>& published, const std::string& problem,
                            const std::string& summary) {
  std::set<std::string> mismatches, changed;
  for (const auto& diags : published)
    for (const auto& d : diags) {
      if (d.status == "mismatch") mismatches.insert(d.rowKey);
      else if (d.status == "changed") changed.insert(d.rowKey);
    }
  ServerStatus s;
  s.state = problem.empty() ? ServerStatus::State::Ready : ServerStatus::State::Error;
  s.mismatches = static_cast<int>(mismatches.size());
  s.changed = static_cast<int>(changed.size());
  s.message = problem.empty() ? summary : problem;
  s.emitting = last_.emitting;
  s.geometry = last_.geometry;
  set(std::move(s));
}

void StatusTracker::failed(const std::string& problem) {
  set({ServerStatus::State::Error, 0, 0, problem, last_.emitting, last_.geometry});
}

void StatusTracker::emitting(const std::string& progress) {
  ServerStatus s = last_;
  s.emitting = progress;
  set(std::move(s));
}

void StatusTracker::geometry(const std::string& progress) {
  ServerStatus s = last_;
  s.geometry = progress;
  set(std::move(s));
}

}  // namespace impact::server
