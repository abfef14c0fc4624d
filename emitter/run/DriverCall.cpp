#include "run/DriverCall.h"

#include <stdlib.h>

#include <cmath>
#include <filesystem>

#include "process/Sandbox.h"

namespace impact::emitter {

namespace {

std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

DriverOutcome callDriver(const Driver& driver, const nlohmann::json& request, const std::string& flavor,
                         std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel) {
  DriverOutcome o;
  char tmpl[] = "/tmp/impact-home-XXXXXX";  // HOME: an empty folder of its own
  if (!::mkdtemp(tmpl)) {
    o.status = "failed";
    o.error = "cannot make a temp HOME";
    return o;
  }
  ChildRequest req;
  // Not -I: it would drop PYTHONHASHSEED, and set order must not vary between runs. The environment is
  // ours entirely; the driver sets sys.path itself.
  req.argv = {driver.python, "-s", "-S", "-B", driver.script};
  req.env = childEnvironment(tmpl, flavor);
  req.cwd = tmpl;
  req.stdinText = request.dump();
  req.deadline = deadline;
  req.cancel = cancel;
  // Reads: the exported tree's import roots and the driver's folder (beside the system's); writes:
  // only this call's HOME. CPU time: what is left of the budget.
  std::vector<std::string> reads;
  for (const auto& root : request.value("import_roots", nlohmann::json::array()))
    if (root.is_string()) reads.push_back(root.get<std::string>());
  reads.push_back(std::filesystem::path(driver.script).parent_path().string());
  double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  ChildJail jail;
  if (std::string why = jail.prepare(driver.sandbox, reads, tmpl, uint64_t(std::max(1.0, std::ceil(left)) + 1));
      !why.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(tmpl, ec);
    o.status = "failed";
    o.error = "the child cannot be confined: " + why;
    o.cacheable = false;
    return o;
  }
  req.jail = &jail;
  ChildResult r = runChild(req);
  std::error_code ec;
  std::filesystem::remove_all(tmpl, ec);
  if (!r.started) {
    o.status = "failed";
    o.error = r.spawnError;
    return o;
  }
  if (r.timedOut) {
    o.status = "timed_out";
    o.error = "no answer before its deadline; its process group was killed";
    return o;
  }
  if (r.exitCode == 125 && r.err.starts_with("impact sandbox:")) {
    o.status = "failed";
    o.error = lastLine(r.err);
    o.cacheable = false;
    return o;
  }
  try {
    o.answer = nlohmann::json::parse(lastLine(r.out));
  } catch (const nlohmann::json::exception&) {
    o.status = "failed";
    std::string why = lastLine(r.err);
    o.error = why.empty() ? r.signal ? "the driver was killed by signal " + std::to_string(r.signal) + " without an answer"
                                     : "the driver exited " + std::to_string(r.exitCode) + " without an answer"
                          : why;
    if (std::string limit = limitHit(driver.sandbox, r.signal, why); !limit.empty()) {
      o.error = limit + ": " + o.error;
      o.cacheable = false;
    }
    return o;
  }
  if (!o.answer.is_object()) {
    o.status = "failed";
    o.error = "the driver's answer is not an object";
    return o;
  }
  if (auto it = o.answer.find("error"); it != o.answer.end() && it->is_string()) {
    o.status = "failed";
    o.error = it->get<std::string>();
    if (std::string limit = limitHit(driver.sandbox, 0, o.error); !limit.empty()) {
      o.error = limit + ": " + o.error;
      o.cacheable = false;
    }
    return o;
  }
  o.status = "ok";
  return o;
}

}  // namespace impact::emitter
