// The server's state as an editor shows it (the notification impactd/status): starting after
// initialize, analysing while an analysis is pending, ready with the counts of mismatch and
// changed rows after each publish, error when the analysis cannot run as asked (no
// repository, no merge base, ...). No JSON here: lsp/protocol converts.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "server/Types.h"

namespace impact::server {

struct ServerStatus {
  enum class State { Starting, Analysing, Ready, Error };
  State state = State::Starting;
  int mismatches = 0;  // rows whose diagnostics are mismatches (Errors), pre-existing ones apart
  int changed = 0;     // rows whose diagnostics ask for a device run (Warnings)
  std::string message;
  std::string emitting;  // while the background emitter runs: "done/total" family builds ("0/0" at its start)
  std::string geometry;  // while the background geometry differential runs: "done/total" families ("0/0" at its start)
  bool operator==(const ServerStatus&) const = default;
};

const char* stateName(ServerStatus::State s);

// Remembers the last status sent and sends a new one only when it differs.
class StatusTracker {
 public:
  explicit StatusTracker(std::function<void(const ServerStatus&)> send) : send_(std::move(send)) {}

  void starting();
  // An analysis is pending: the counts of the last publish stay until the next one.
  void analysing();
  // After a publish: the counts of the rows published (each row counted once, whichever
  // files carry it); `problem` non-empty makes the state an error that says it.
  void settled(const std::vector<std::vector<Diag>>& published, const std::string& problem, const std::string& summary);
  // The analysis cannot run at all (no repository): no counts.
  void failed(const std::string& problem);
  // The background emitter's progress ("" when it is not running); kept across the other states.
  void emitting(const std::string& progress);
  // The background geometry differential's progress ("" when it is not running); kept likewise.
  void geometry(const std::string& progress);

  const ServerStatus& current() const { return last_; }

 private:
  void set(ServerStatus s);
  std::function<void(const ServerStatus&)> send_;
  ServerStatus last_;
  bool sent_ = false;
};

}  // namespace impact::server
