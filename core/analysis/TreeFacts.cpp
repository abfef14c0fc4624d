#include "analysis/TreeFacts.h"

#include "analysis/CrossModule.h"
#include "contracts/AotProducers.h"
#include "contracts/CatalogBindings.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>


namespace impact {

namespace {

// One extraction: a (path, content id) and the snapshots that hold it.
struct Job {
  const std::string* path;
  const FileRef* ref;
  const Snapshot* snap;                         // read from this one
  std::vector<std::pair<size_t, size_t>> uses;  // (snapshot index, slot in its list)
};

}  // namespace

std::vector<TreeFacts> collectFacts(const std::vector<const Snapshot*>& snaps, const Layout& layout,
                                    ExtractCache& cache) {
  std::vector<TreeFacts> out(snaps.size());
  std::vector<std::vector<const std::string*>> paths(snaps.size());
  std::vector<std::vector<std::shared_ptr<const FileFacts>>> slots(snaps.size());
  std::vector<Job> jobs;
  // A job per (path, id) of the first snapshot; a later snapshot joins the job of the same
  // path when its content is the same (the working tree's in-memory files have ids too).
  std::map<std::string_view, size_t> firstJob;
  for (size_t s = 0; s < snaps.size(); ++s) {
    for (const auto& [path, ref] : snaps[s]->files) {
      if (!layout.analysed(path)) continue;
      size_t slot = paths[s].size();
      paths[s].push_back(&path);
      if (s > 0)
        if (auto it = firstJob.find(path); it != firstJob.end() && jobs[it->second].ref->id == ref.id) {
          jobs[it->second].uses.emplace_back(s, slot);
          continue;
        }
      if (s == 0) firstJob.emplace(path, jobs.size());
      jobs.push_back(Job{&path, &ref, snaps[s], {{s, slot}}});
    }
    slots[s].resize(paths[s].size());
  }

  std::atomic<size_t> next{0};
  std::mutex mu;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      const Job& job = jobs[i];
      auto facts = cache.get(*job.path, job.ref->id, [&]() {
        auto content = job.snap->read(*job.path);
        // A working-tree file not read (a FIFO, too large) is no damage to the repository: its
        // facts say why.
        if (!content.ok() && !job.snap->notRead.count(*job.path)) {
          std::lock_guard<std::mutex> lock(mu);
          for (const auto& [s, _] : job.uses) out[s].unreadable[*job.path] = std::string(content.status().message());
        }
        return content;
      });
      for (const auto& [s, slot] : job.uses) slots[s][slot] = facts;
    }
  };
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  if (jobs.size() < 16) n = 1;
  n = std::min<size_t>(n, jobs.size() / 4 + 1);
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  cache.flush();  // what was extracted goes to the disk cache as one pack

  std::vector<TreeReader> reads(snaps.size());
  std::vector<TreeIds> idsOf(snaps.size());
  for (size_t s = 0; s < snaps.size(); ++s) {
    for (size_t i = 0; i < paths[s].size(); ++i)
      out[s].files.emplace_hint(out[s].files.end(), *paths[s][i], std::move(slots[s][i]));
    const Snapshot* snap = snaps[s];
    reads[s] = [snap](const std::string& p) -> std::optional<std::string> {
      auto content = snap->read(p);
      if (!content.ok()) return std::nullopt;
      return std::move(*content);
    };
    idsOf[s] = [snap](const std::string& p) {
      const FileRef* ref = snap->find(p);
      return ref ? ref->id : std::string();
    };
  }
  // Each side's modules followed through its own tree, the sides at once (each reads only its
  // own facts and snapshot).
  std::vector<std::thread> sides;
  for (size_t s = 1; s < snaps.size(); ++s) sides.emplace_back([&, s] { followModules(out[s], reads[s], idsOf[s]); });
  if (!snaps.empty()) followModules(out[0], reads[0], idsOf[0]);
  for (auto& t : sides) t.join();
  ProducerMemo producerRuns;  // a producer the base and the head read alike runs once
  producerRuns.diskDir = cache.sideFolder();  // and a warm run runs none
  for (size_t s = 0; s < snaps.size(); ++s) {
    readProducers(out[s], layout, reads[s], idsOf[s], &producerRuns);  // the AOT catalog's producer scripts, run through the tree
    readLaunchAbi(out[s], reads[s], idsOf[s]);                      // and its engine's packing rules
  }
  return out;
}

TreeFacts collectFacts(const Snapshot& snap, const Layout& layout, ExtractCache& cache) {
  return std::move(collectFacts(std::vector<const Snapshot*>{&snap}, layout, cache)[0]);
}

}  // namespace impact
