// impact_ci_bench: `impact report` as a CI job runs it, against a floor (not a test).
//   floor = a single-threaded tree-sitter parse of every surface file (Python and C++ the layout
//           analyses, read from the head commit) + `git diff --name-only` of the range;
//   cold  = `impact report` with an empty cache (the cache is written);
//   warm  = the same again (every fact from the cache);
//   each with its wall time, CPU time and peak RSS. Run: bash scripts/bench.sh --ci [--scale=10]
//   [--shape=ingestor|surface] [--aot=N] [--runs=5]: `ingestor` (the default) is 301 surface files beside 20k
//   unrelated ones (--aot=N adds N AOT catalog families to it: 4 files each); `surface` is issue 37's tree, 13.7k of its 20k files surface files. With
//   --runs=N every measure is taken N times and the median printed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "MonorepoGenerator.h"
#include "git/Repository.h"
#include "model/Layout.h"
#include "parse/Syntax.h"

using namespace std::chrono;
namespace fs = std::filesystem;

namespace {

double ms(steady_clock::duration d) { return duration<double, std::milli>(d).count(); }

double selfCpuMs() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
}

struct Measure {
  double wallMs = 0, cpuMs = 0;
  long rssMb = 0;
  int exit = -1;
};

// Runs a command line in a child (sh -c exec ...) and measures that child alone.
Measure measure(const std::string& cmd) {
  Measure m;
  auto t = steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  ::wait4(pid, &status, 0, &ru);
  m.wallMs = ms(steady_clock::now() - t);
  m.cpuMs = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
  m.rssMb = ru.ru_maxrss / 1024;
  m.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return m;
}

double gFloorCpuMs = 1;

struct Floor {
  double wallMs = 0, cpuMs = 0, diffMs = 0;
  size_t parsed = 0, bytes = 0;
};

// The floor, in this process: the range's names, then every surface file read and parsed once.
absl::StatusOr<Floor> measureFloor(const std::string& dir) {
  Floor f;
  auto f0 = steady_clock::now();
  double c0 = selfCpuMs();
  Measure diff = measure("git -C '" + dir + "' diff --name-only main...feature > /dev/null");
  auto repo = impact::Repository::open(dir);
  if (!repo.ok()) return repo.status();
  auto head = (*repo)->resolve("feature");
  if (!head.ok()) return head.status();
  auto snap = (*repo)->commitSnapshot(*head);
  if (!snap.ok()) return snap.status();
  impact::Layout layout;
  for (const auto& [path, ref] : snap->files) {
    if (!layout.analysed(path)) continue;
    bool py = path.ends_with(".py");
    bool cpp = path.ends_with(".cpp") || path.ends_with(".hpp") || path.ends_with(".h");
    if (!py && !cpp) continue;
    auto text = snap->read(path);
    if (!text.ok()) continue;
    f.bytes += text->size();
    auto tree = impact::SyntaxTree::parse(py ? impact::Lang::Python : impact::Lang::Cpp, std::move(*text));
    f.parsed += tree != nullptr;
  }
  f.wallMs = ms(steady_clock::now() - f0);
  f.cpuMs = selfCpuMs() - c0 + diff.cpuMs;
  f.diffMs = diff.wallMs;
  return f;
}

template <class T, class F>
double medianOf(const std::vector<T>& xs, F f) {
  std::vector<double> v;
  for (const auto& x : xs) v.push_back(f(x));
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

// Every run of one measure, then its median and its ratios to the floor's medians.
void printRuns(const char* what, const std::vector<Measure>& ms_, double floorMs, double floorCpuMs) {
  std::string each;
  for (const auto& m : ms_) each += (each.empty() ? "" : " ") + std::to_string(static_cast<int>(m.wallMs + 0.5));
  double wall = medianOf(ms_, [](const Measure& m) { return m.wallMs; });
  double cpu = medianOf(ms_, [](const Measure& m) { return m.cpuMs; });
  long rss = static_cast<long>(medianOf(ms_, [](const Measure& m) { return double(m.rssMb); }));
  int exit = ms_.empty() ? -1 : ms_.back().exit;
  std::printf("%-38s median %7.0f ms wall (%5.2fx floor) %7.0f ms cpu (%5.2fx floor) %5ld MB peak RSS (exit %d) [runs: %s]\n",
              what, wall, wall / floorMs, cpu, cpu / floorCpuMs, rss, exit, each.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  impact::bench::GeneratorSize size;
  int scale = 1, runs = 1;
  bool keep = false;  // --keep: leave the fixture and the cache for profiling
  std::string shape = "ingestor";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--scale=", 0) == 0) scale = std::max(1, std::atoi(a.c_str() + 8));
    else if (a.rfind("--runs=", 0) == 0) runs = std::max(1, std::atoi(a.c_str() + 7));
    else if (a.rfind("--shape=", 0) == 0) shape = a.substr(8);
    else if (a.rfind("--aot=", 0) == 0) size.aotFamilies = std::max(0, std::atoi(a.c_str() + 6));
    else if (a == "--keep") keep = true;
    else if (a.rfind("--floor=", 0) == 0) {
      // The floor alone on a kept fixture: for an instruction count beside impact report's
      // (valgrind --tool=callgrind impact_ci_bench --floor=DIR).
      auto f = measureFloor(a.substr(8));
      if (!f.ok()) return std::fprintf(stderr, "%s\n", std::string(f.status().message()).c_str()), 1;
      std::printf("floor: parse of %zu surface files (%.1f MB): %.0f ms wall, %.0f ms cpu\n", f->parsed, f->bytes / 1e6,
                  f->wallMs, f->cpuMs);
      return 0;
    }
    else return std::fprintf(stderr, "usage: impact_ci_bench [--scale=N] [--shape=ingestor|surface] [--aot=N] [--runs=N] [--keep] | --floor=DIR\n"), 2;
  }
  if (shape != "ingestor" && shape != "surface")
    return std::fprintf(stderr, "impact_ci_bench: unknown shape '%s' (ingestor, surface)\n", shape.c_str()), 2;
  std::string dir = (fs::temp_directory_path() / ("impact-ci-bench-" + std::to_string(::getpid()))).string();
  std::string cache = dir + "-cache";
  auto g0 = steady_clock::now();
  if (shape == "surface") {
    impact::bench::generateSurfaceMonorepo(dir, scale);
    std::printf("fixture (shape surface, scale %d): 100 ops (builders, packs, pins, KDPs, profile YAMLs), %d Python, "
                "%d C++, %d Markdown files; a 3-file change (generated in %.1f s)\n",
                scale, 6800 * scale, 6900 * scale, 6700 * scale, ms(steady_clock::now() - g0) / 1000);
  } else {
    size.kernelModules *= scale;
    size.ukds *= scale;
    size.cppFiles *= scale;
    size.unrelatedFiles *= scale;
    impact::bench::generateMonorepo(dir, size);
    std::printf("fixture (shape ingestor, scale %d): %d kernel modules, %d UKDs, %d C++ files, %d unrelated files, "
                "%d AOT catalog families (generated in %.1f s)\n",
                scale, size.kernelModules, size.ukds, size.cppFiles, size.unrelatedFiles, size.aotFamilies,
                ms(steady_clock::now() - g0) / 1000);
  }
  std::printf("machine: %u cores, load average %s\n", std::thread::hardware_concurrency(), loadAverage().c_str());

  std::string report = std::string(IMPACT_BIN_DIR) + "/impact report --repo '" + dir + "' --base main --head feature";
  std::vector<Floor> floors;
  std::vector<Measure> none, cold, warm, sarif;
  for (int r = 0; r < runs; ++r) {
    auto f = measureFloor(dir);
    if (!f.ok()) return std::fprintf(stderr, "%s\n", std::string(f.status().message()).c_str()), 1;
    floors.push_back(*f);
    none.push_back(measure(report + " --no-cache > /dev/null"));
    fs::remove_all(cache);
    cold.push_back(measure(report + " --cache '" + cache + "' > /dev/null"));
    warm.push_back(measure(report + " --cache '" + cache + "' > /dev/null"));
    sarif.push_back(measure(report + " --cache '" + cache + "' --format sarif > /dev/null"));
  }
  double floorMs = medianOf(floors, [](const Floor& f) { return f.wallMs; });
  gFloorCpuMs = medianOf(floors, [](const Floor& f) { return f.cpuMs; });
  std::string each;
  for (const auto& f : floors) each += (each.empty() ? "" : " ") + std::to_string(static_cast<int>(f.wallMs + 0.5));
  std::printf("floor: git diff --name-only %.0f ms + parse of %zu surface files (%.1f MB, one thread): median %.0f ms "
              "wall, %.0f ms cpu [runs: %s]\n",
              medianOf(floors, [](const Floor& f) { return f.diffMs; }), floors[0].parsed, floors[0].bytes / 1e6, floorMs,
              gFloorCpuMs, each.c_str());
  printRuns("impact report --no-cache", none, floorMs, gFloorCpuMs);
  printRuns("impact report (cold: empty cache)", cold, floorMs, gFloorCpuMs);
  printRuns("impact report (warm: cache filled)", warm, floorMs, gFloorCpuMs);
  printRuns("impact report (warm, --format sarif)", sarif, floorMs, gFloorCpuMs);
  std::printf("load average after: %s\n", loadAverage().c_str());
  std::error_code ec;
  uintmax_t cacheBytes = 0;
  size_t entries = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache, ec))
    if (e.is_regular_file()) cacheBytes += e.file_size(), ++entries;
  std::printf("cache: %zu files (a run's entries are one pack), %.1f MB\n", entries, cacheBytes / 1e6);
  if (keep) {
    std::printf("kept: %s and %s\n", dir.c_str(), cache.c_str());
    return 0;
  }
  fs::remove_all(dir, ec);
  fs::remove_all(cache, ec);
  return 0;
}
