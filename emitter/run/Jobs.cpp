#include "run/Jobs.h"

#include <atomic>
#include <functional>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"

namespace impact::emitter {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

class Progress {
 public:
  Progress(bool on, size_t total, std::function<void(size_t, size_t, const std::string&)> cb)
      : on_(on), total_(total), start_(Clock::now()), cb_(std::move(cb)) {}
  void update(const std::string& current, bool finished) {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished) ++done_;
    if (cb_) cb_(done_, total_, current);
    if (!on_) return;
    double s = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(stderr, "\r\033[Kemit: %zu/%zu family builds · %s · %.1fs", done_, total_, current.c_str(), s);
    std::fflush(stderr);
  }
  ~Progress() {
    if (on_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool on_;
  size_t total_, done_ = 0;
  Clock::time_point start_;
  std::function<void(size_t, size_t, const std::string&)> cb_;
  std::mutex mu_;
};

// Which job a worker builds next. Jobs are queued per tree (their import roots): a worker keeps
// to the tree its child has imported while that tree has jobs left; a worker without a tree takes
// the one with the fewest workers (then the most jobs); a worker whose tree is done moves to
// another only where more jobs wait than workers serve it, since moving costs a fresh child and
// an import. With one child per call (--child-per-chunk) any waiting job will do.
class Scheduler {
 public:
  static constexpr size_t kNone = size_t(-1);
  Scheduler(const std::vector<Job>& jobs, const std::vector<size_t>& toBuild, bool sticky) : sticky_(sticky) {
    for (size_t i : toBuild) queues_[jobs[i].request.value("import_roots", json::array()).dump()].push_back(i);
  }
  // The next job for a worker on `tree` ("" when it has none), or kNone; `tree` becomes its tree.
  size_t next(std::string& tree) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!tree.empty()) {
      if (auto& q = queues_[tree]; !q.empty()) return pop(q);
      --workers_[tree];
    }
    const std::string* best = nullptr;
    for (const auto& [t, q] : queues_) {
      if (q.empty() || (sticky_ && !tree.empty() && q.size() <= size_t(workers_[t]))) continue;
      if (!best || workers_[t] < workers_[*best] ||
          (workers_[t] == workers_[*best] && q.size() > queues_[*best].size()))
        best = &t;
    }
    if (!best) {
      tree.clear();
      return kNone;
    }
    tree = *best;
    ++workers_[tree];
    return pop(queues_[tree]);
  }

 private:
  static size_t pop(std::deque<size_t>& q) {
    size_t i = q.front();
    q.pop_front();
    return i;
  }
  bool sticky_;
  std::mutex mu_;
  std::map<std::string, std::deque<size_t>> queues_;
  std::map<std::string, int> workers_;
};

std::vector<std::string> importRoots(const json& request) {
  std::vector<std::string> roots;
  for (const auto& r : request.value("import_roots", json::array()))
    if (r.is_string()) roots.push_back(r.get<std::string>());
  return roots;
}

}  // namespace

void runJobs(std::vector<Job>& jobs, const Driver& driver, const FamilyCache& cache, const std::string& flavor,
             const EmitOptions& opts, Clock::time_point runDeadline, EmitStats& stats) {
  // Jobs with one cache key (a family unchanged between base and head) are built once.
  std::map<std::string, size_t> primary;
  std::vector<size_t> toRun, toBuild;
  for (size_t i = 0; i < jobs.size(); ++i)
    if (primary.emplace(jobs[i].cacheKey, i).second) toRun.push_back(i);
  std::atomic<size_t> built{0}, cached{0}, children{0};
  Progress progress(opts.progress, toRun.size(), opts.onProgress);
  auto label = [](const Job& j) { return absl::StrCat(j.family, j.head ? " (head)" : " (base)"); };
  for (size_t i : toRun) {  // what the cache holds needs no child
    Job& j = jobs[i];
    if (auto hit = cache.get(j.cacheKey)) {
      j.answer = *hit;
      j.side.status = "ok";
      j.side.built = false;
      ++cached;
      progress.update(label(j), true);
    } else {
      toBuild.push_back(i);
    }
  }
  Scheduler scheduler(jobs, toBuild, !opts.childPerChunk);
  auto budget = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.familyBudget));
  auto startChild = [&](const std::vector<std::string>& roots, std::unique_ptr<DriverChild>& child, DriverOutcome& o) {
    double runLeft = std::chrono::duration<double>(runDeadline - Clock::now()).count();
    child = DriverChild::start(driver, roots, flavor, std::max(1.0, runLeft), &o);
    ++children;
    return child != nullptr;
  };
  // One build in the worker's child: reused when it serves this tree, else a fresh one.
  auto serve = [&](std::unique_ptr<DriverChild>& child, const Job& j, Clock::time_point deadline) {
    std::vector<std::string> roots = importRoots(j.request);
    bool reused = child && child->reusable() && child->importRoots() == roots;
    DriverOutcome o;
    if (!reused && !startChild(roots, child, o)) return o;
    o = child->call(j.request, deadline, opts.cancel);
    // A limit hit in a child that served earlier chunks may owe to them (memory that grew, a
    // process left running): the chunk gets one fresh child, as a child of its own would have been.
    if (reused && o.status == "failed" && !o.cacheable && !(opts.cancel && opts.cancel->load()) &&
        startChild(roots, child, o))
      o = child->call(j.request, std::min(Clock::now() + budget, runDeadline), opts.cancel);
    if (child && !child->reusable()) child.reset();
    return o;
  };
  auto work = [&] {
    std::string tree;
    std::unique_ptr<DriverChild> child;
    for (size_t n = scheduler.next(tree); n != Scheduler::kNone; n = scheduler.next(tree)) {
      Job& j = jobs[n];
      progress.update(label(j), false);
      if (opts.cancel && opts.cancel->load()) {  // cancelled: nothing more starts
        j.side.status = "timed_out";
        j.side.error = "cancelled";
        progress.update(label(j), true);
        continue;
      }
      if (Clock::now() >= runDeadline) {  // never started: the whole run's time is up
        j.side.status = "timed_out";
        j.side.error = "not started: the whole run's timeout had passed";
        progress.update(label(j), true);
        continue;
      }
      auto deadline = std::min(Clock::now() + budget, runDeadline);
      DriverOutcome o = opts.childPerChunk ? callDriver(driver, j.request, flavor, deadline, opts.cancel)
                                           : serve(child, j, deadline);
      if (opts.cancel && opts.cancel->load()) {  // killed by the cancel: not an answer, never cached
        j.side.status = "timed_out";
        j.side.error = "cancelled";
        progress.update(label(j), true);
        continue;
      }
      j.side.built = true;
      ++built;
      j.side.status = o.status;
      j.side.error = o.error;
      if (o.status == "timed_out" && Clock::now() >= runDeadline)
        j.side.error = "the whole run's timeout ended it; its process group was killed";
      if (o.status == "ok") {
        j.answer = o.answer;
        cache.put(j.cacheKey, o.answer);
      } else if (o.status == "failed" && o.cacheable) {
        cache.put(j.cacheKey, json{{"error", o.error}});  // deterministic: the same inputs fail again
      }
      progress.update(label(j), true);
    }
  };
  unsigned n = opts.jobs > 0 ? unsigned(opts.jobs) : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(n, toBuild.size()); ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& p = jobs[primary[jobs[i].cacheKey]];
    if (&p == &jobs[i]) continue;
    jobs[i].answer = p.answer;
    jobs[i].side.status = p.side.status;
    jobs[i].side.error = p.side.error;
    jobs[i].side.built = false;
    ++stats.shared;
  }
  stats.built = built;
  stats.cached = cached;
  stats.children = opts.childPerChunk ? built.load() : children.load();
}


MergedSide mergeChunks(const std::vector<const Job*>& chunks) {
  MergedSide m;
  m.side.status = "ok";
  json variants = json::array();
  for (const Job* j : chunks) {
    m.side.built = m.side.built || j->side.built;
    std::string status = j->side.status;
    std::string error = j->side.error;
    if (status == "ok" && j->answer.contains("error")) {
      status = "failed";
      error = j->answer["error"].is_string() ? j->answer["error"].get<std::string>() : "failed";
    }
    if (status != "ok" && (m.side.status == "ok" || (status == "timed_out" && m.side.status != "timed_out"))) {
      m.side.status = status;
      m.side.error = error;
    }
    const json* got = j->answer.is_object() && j->answer.contains("variants") && j->answer["variants"].is_array()
                          ? &j->answer["variants"]
                          : nullptr;
    for (size_t i = 0; i < j->count; ++i) {
      if (got && i < got->size()) variants.push_back((*got)[i]);
      else variants.push_back({{"error", error.empty() ? "not built" : error}});
    }
    if (j->first == 0 && j->answer.is_object() && j->answer.contains("probe")) m.answer["probe"] = j->answer["probe"];
  }
  m.answer["variants"] = variants;
  return m;
}

}  // namespace impact::emitter
