#include "run/Jobs.h"

#include <atomic>
#include <functional>
#include <cstdio>
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

}  // namespace

void runJobs(std::vector<Job>& jobs, const Driver& driver, const FamilyCache& cache, const std::string& flavor,
             const EmitOptions& opts, Clock::time_point runDeadline, EmitStats& stats) {
  // Jobs with one cache key (a family unchanged between base and head) are built once.
  std::map<std::string, size_t> primary;
  std::vector<size_t> toRun;
  for (size_t i = 0; i < jobs.size(); ++i)
    if (primary.emplace(jobs[i].cacheKey, i).second) toRun.push_back(i);
  std::atomic<size_t> next{0};
  std::atomic<size_t> built{0}, cached{0};
  Progress progress(opts.progress, toRun.size(), opts.onProgress);
  auto budget = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.familyBudget));
  auto work = [&] {
    for (size_t n = next++; n < toRun.size(); n = next++) {
      Job& j = jobs[toRun[n]];
      std::string label = absl::StrCat(j.family, j.head ? " (head)" : " (base)");
      if (auto hit = cache.get(j.cacheKey)) {
        j.answer = *hit;
        j.side.status = "ok";
        j.side.built = false;
        ++cached;
        progress.update(label, true);
        continue;
      }
      progress.update(label, false);
      if (opts.cancel && opts.cancel->load()) {  // cancelled: nothing more starts
        j.side.status = "timed_out";
        j.side.error = "cancelled";
        progress.update(label, true);
        continue;
      }
      if (Clock::now() >= runDeadline) {  // never started: the whole run's time is up
        j.side.status = "timed_out";
        j.side.error = "not started: the whole run's timeout had passed";
        progress.update(label, true);
        continue;
      }
      auto deadline = std::min(Clock::now() + budget, runDeadline);
      DriverOutcome o = callDriver(driver, j.request, flavor, deadline, opts.cancel);
      if (opts.cancel && opts.cancel->load()) {  // killed by the cancel: not an answer, never cached
        j.side.status = "timed_out";
        j.side.error = "cancelled";
        progress.update(label, true);
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
      progress.update(label, true);
    }
  };
  unsigned n = opts.jobs > 0 ? unsigned(opts.jobs) : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(n, toRun.size()); ++t) pool.emplace_back(work);
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
