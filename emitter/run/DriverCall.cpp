#include "run/DriverCall.h"

#include <stdlib.h>

#include <cmath>
#include <filesystem>

#include "process/Sandbox.h"
#include "process/Session.h"

namespace impact::emitter {

namespace {

std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// What became of one request, from how its child ended or what it answered: the same words for
// a one-shot child and a served one.
struct Ending {
  bool timedOut = false;
  int exitCode = -1, signal = 0;
  bool answered = false;  // `out` holds an answer line (a served child that answered)
  std::string out, err;
};

DriverOutcome outcomeOf(const Driver& driver, const Ending& e) {
  DriverOutcome o;
  if (e.timedOut) {
    o.status = "timed_out";
    o.error = "no answer before its deadline; its process group was killed";
    return o;
  }
  if (!e.answered && e.exitCode == 125 && e.err.starts_with("impact sandbox:")) {
    o.status = "failed";
    o.error = lastLine(e.err);
    o.cacheable = false;
    return o;
  }
  try {
    o.answer = nlohmann::json::parse(lastLine(e.out));
  } catch (const nlohmann::json::exception&) {
    o.status = "failed";
    std::string why = lastLine(e.err);
    o.error = why.empty() ? e.signal ? "the driver was killed by signal " + std::to_string(e.signal) + " without an answer"
                                     : "the driver exited " + std::to_string(e.exitCode) + " without an answer"
                          : why;
    if (std::string limit = limitHit(driver.sandbox, e.signal, why); !limit.empty()) {
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

DriverOutcome failedWith(const std::string& why, bool cacheable) {
  DriverOutcome o;
  o.status = "failed";
  o.error = why;
  o.cacheable = cacheable;
  return o;
}

// The child's confinement: it reads the exported tree's import roots and the driver's folder
// (beside the system's), writes only its HOME; RLIMIT_CPU cpuSeconds.
std::string prepareJail(ChildJail& jail, const Driver& driver, const std::vector<std::string>& roots,
                        const std::string& home, double cpuSeconds) {
  std::vector<std::string> reads = roots;
  reads.push_back(std::filesystem::path(driver.script).parent_path().string());
  return jail.prepare(driver.sandbox, reads, home, uint64_t(std::max(1.0, std::ceil(cpuSeconds)) + 1));
}

std::string makeHome() {
  char tmpl[] = "/tmp/impact-home-XXXXXX";  // HOME: an empty folder of its own
  return ::mkdtemp(tmpl) ? std::string(tmpl) : std::string();
}

}  // namespace

DriverOutcome callDriver(const Driver& driver, const nlohmann::json& request, const std::string& flavor,
                         std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel) {
  std::string home = makeHome();
  if (home.empty()) return failedWith("cannot make a temp HOME", true);
  ChildRequest req;
  // Not -I: it would drop PYTHONHASHSEED, and set order must not vary between runs. The environment is
  // ours entirely; the driver sets sys.path itself.
  req.argv = {driver.python, "-s", "-S", "-B", driver.script};
  req.env = childEnvironment(home, flavor);
  req.cwd = home;
  req.stdinText = request.dump();
  req.deadline = deadline;
  req.cancel = cancel;
  std::vector<std::string> roots;
  for (const auto& root : request.value("import_roots", nlohmann::json::array()))
    if (root.is_string()) roots.push_back(root.get<std::string>());
  double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  ChildJail jail;
  if (std::string why = prepareJail(jail, driver, roots, home, left); !why.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(home, ec);
    return failedWith("the child cannot be confined: " + why, false);
  }
  req.jail = &jail;
  ChildResult r = runChild(req);
  std::error_code ec;
  std::filesystem::remove_all(home, ec);
  if (!r.started) return failedWith(r.spawnError, true);
  return outcomeOf(driver, {r.timedOut, r.exitCode, r.signal, false, r.out, r.err});
}

std::unique_ptr<DriverChild> DriverChild::start(const Driver& driver, const std::vector<std::string>& importRoots,
                                                const std::string& flavor, double cpuSeconds, DriverOutcome* failed) {
  std::unique_ptr<DriverChild> c(new DriverChild());
  c->driver_ = &driver;
  c->roots_ = importRoots;
  c->home_ = makeHome();
  if (c->home_.empty()) {
    *failed = failedWith("cannot make a temp HOME", true);
    return nullptr;
  }
  ChildRequest req;
  req.argv = {driver.python, "-s", "-S", "-B", driver.script, "--serve"};
  req.env = childEnvironment(c->home_, flavor);
  req.cwd = c->home_;
  ChildJail jail;  // entered between fork and exec; not needed after the start
  if (std::string why = prepareJail(jail, driver, importRoots, c->home_, cpuSeconds); !why.empty()) {
    *failed = failedWith("the child cannot be confined: " + why, false);
    return nullptr;
  }
  req.jail = &jail;
  std::string error;
  c->session_ = ChildSession::start(req, &error);
  if (!c->session_) {
    *failed = failedWith(error, true);
    return nullptr;
  }
  return c;
}

DriverChild::~DriverChild() {
  session_.reset();  // kills its process group
  std::error_code ec;
  if (!home_.empty()) std::filesystem::remove_all(home_, ec);
}

bool DriverChild::reusable() const { return session_ && session_->alive() && !exits_; }

DriverOutcome DriverChild::call(nlohmann::json request, std::chrono::steady_clock::time_point deadline,
                                const std::atomic<bool>* cancel) {
  if (!reusable()) return failedWith("the driver child has ended", false);
  double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  request["cpu_seconds"] = std::max(1.0, std::ceil(left));
  SessionReply r = session_->call(request.dump(), deadline, cancel);
  DriverOutcome o = outcomeOf(*driver_, {r.timedOut, r.exitCode, r.signal, r.answered, r.line, r.err});
  if (o.answer.is_object()) {
    // The transport's word, not the driver's answer: kept out of the cache and the document.
    exits_ = o.answer.value("/serve/exits"_json_pointer, true);
    o.answer.erase("serve");
  }
  if (o.status != "ok") exits_ = true;
  if (exits_ && session_->alive()) session_.reset();
  return o;
}

}  // namespace impact::emitter
