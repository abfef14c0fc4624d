// One call of the driver (emitter/driver/) in the sandbox: writes the request on its stdin, reads
// its JSON answer, and says what became of it (answered, failed, timed out).
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "process/Confine.h"

namespace impact::emitter {

struct Driver {
  std::string python;      // absolute path of python3
  std::string script;      // the driver, written into the cache folder
  std::string version;     // digest of the driver's sources
  Confinement sandbox;     // what every child enters (process/Confine.h)
};

struct DriverOutcome {
  std::string status;      // "ok" | "failed" | "timed_out"
  std::string error;       // why not ok
  nlohmann::json answer;   // the driver's answer when ok
  bool cacheable = true;   // false: the failure depends on the sandbox (a limit, a confinement error)
};

DriverOutcome callDriver(const Driver& driver, const nlohmann::json& request, const std::string& flavor,
                         std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel);

}  // namespace impact::emitter
