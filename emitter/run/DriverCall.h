// One call of the driver (emitter/driver/) in the sandbox: writes the request on its stdin, reads
// its JSON answer, and says what became of it (answered, failed, timed out). DriverChild: a driver
// that serves one tree's build requests one after another (`--serve`), confined the same way.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

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

// One child per call: started, fed the request, ended.
DriverOutcome callDriver(const Driver& driver, const nlohmann::json& request, const std::string& flavor,
                         std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel);

class ChildSession;

// A driver child serving the build requests of one tree (its import roots) one after another: the
// tree is imported once, each request has its own deadline and CPU budget (the driver sets RLIMIT_CPU's
// soft limit per request below the child's hard limit), and a request that is not answered, or that
// failed, ends the child (its process group is killed; the caller starts a fresh one).
class DriverChild {
 public:
  // cpuSeconds: the child's hard RLIMIT_CPU, for every request it may serve. nullptr with *failed
  // set (status "failed") when it cannot be confined or started.
  static std::unique_ptr<DriverChild> start(const Driver& driver, const std::vector<std::string>& importRoots,
                                            const std::string& flavor, double cpuSeconds, DriverOutcome* failed);
  ~DriverChild();
  // The request's "cpu_seconds" is set from the deadline. After it, reusable() says whether the
  // child takes another request.
  DriverOutcome call(nlohmann::json request, std::chrono::steady_clock::time_point deadline,
                     const std::atomic<bool>* cancel);
  bool reusable() const;
  const std::vector<std::string>& importRoots() const { return roots_; }

 private:
  DriverChild() = default;
  const Driver* driver_ = nullptr;
  std::vector<std::string> roots_;
  std::string home_;
  std::unique_ptr<ChildSession> session_;
  bool exits_ = false;
};

}  // namespace impact::emitter
