#include "analysis/TreeFacts.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace impact {

TreeFacts collectFacts(const Snapshot& snap, const Layout& layout, ExtractCache& cache) {
  std::vector<const std::pair<const std::string, FileRef>*> todo;
  for (const auto& entry : snap.files)
    if (layout.analysed(entry.first)) todo.push_back(&entry);

  std::vector<std::shared_ptr<const FileFacts>> out(todo.size());
  std::atomic<size_t> next{0};
  std::mutex mu;
  TreeFacts tf;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < todo.size();) {
      const auto& [path, ref] = *todo[i];
      out[i] = cache.get(path, ref.id, [&]() {
        auto content = snap.read(path);
        if (!content.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          tf.unreadable[path] = std::string(content.status().message());
        }
        return content;
      });
    }
  };
  unsigned n = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  if (todo.size() < 16) n = 1;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  for (size_t i = 0; i < todo.size(); ++i) tf.files.emplace(todo[i]->first, std::move(out[i]));
  return tf;
}

}  // namespace impact
