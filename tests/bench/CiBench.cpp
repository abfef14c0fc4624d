// impact_ci_bench: `impact report` as a CI job runs it, against a floor (not a test).
//   floor = a single-threaded tree-sitter parse of every surface file (Python and C++ the layout
//           analyses, read from the head commit) + `git diff --name-only` of the range;
//   cold  = `impact report` with an empty cache (the cache is written);
//   warm  = the same again (every fact from the cache);
//   each with its wall time, CPU time and peak RSS. Run: bash scripts/bench.sh --ci [--scale=10]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

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

void print(const char* what, const Measure& m, double floorMs) {
  std::printf("%-38s %7.0f ms wall (%5.2fx floor) %7.0f ms cpu (%5.2fx floor) %5ld MB peak RSS (exit %d)\n", what,
              m.wallMs, m.wallMs / floorMs, m.cpuMs, m.cpuMs / gFloorCpuMs, m.rssMb, m.exit);
}

}  // namespace

int main(int argc, char** argv) {
  impact::bench::GeneratorSize size;
  int scale = 1;
  bool keep = false;  // --keep: leave the fixture and the cache for profiling
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--scale=", 0) == 0) scale = std::max(1, std::atoi(a.c_str() + 8));
    if (a == "--keep") keep = true;
  }
  size.kernelModules *= scale;
  size.ukds *= scale;
  size.cppFiles *= scale;
  size.unrelatedFiles *= scale;
  std::string dir = (fs::temp_directory_path() / ("impact-ci-bench-" + std::to_string(::getpid()))).string();
  std::string cache = dir + "-cache";
  auto g0 = steady_clock::now();
  impact::bench::generateMonorepo(dir, size);
  std::printf("fixture (scale %d): %d kernel modules, %d UKDs, %d C++ files, %d unrelated files (generated in %.1f s)\n",
              scale, size.kernelModules, size.ukds, size.cppFiles, size.unrelatedFiles, ms(steady_clock::now() - g0) / 1000);
  std::printf("machine: %u cores\n", std::thread::hardware_concurrency());

  // The floor, in this process: the range's names, then every surface file read and parsed once.
  auto f0 = steady_clock::now();
  double c0 = selfCpuMs();
  Measure diff = measure("git -C '" + dir + "' diff --name-only main...feature > /dev/null");
  auto repo = impact::Repository::open(dir);
  if (!repo.ok()) return std::fprintf(stderr, "%s\n", std::string(repo.status().message()).c_str()), 1;
  auto head = (*repo)->resolve("feature");
  auto snap = head.ok() ? (*repo)->commitSnapshot(*head) : absl::StatusOr<impact::Snapshot>(head.status());
  if (!snap.ok()) return std::fprintf(stderr, "%s\n", std::string(snap.status().message()).c_str()), 1;
  impact::Layout layout;
  size_t parsed = 0, bytes = 0;
  for (const auto& [path, ref] : snap->files) {
    if (!layout.analysed(path)) continue;
    bool py = path.ends_with(".py");
    bool cpp = path.ends_with(".cpp") || path.ends_with(".hpp") || path.ends_with(".h");
    if (!py && !cpp) continue;
    auto text = snap->read(path);
    if (!text.ok()) continue;
    bytes += text->size();
    auto tree = impact::SyntaxTree::parse(py ? impact::Lang::Python : impact::Lang::Cpp, std::move(*text));
    parsed += tree != nullptr;
  }
  double floorMs = ms(steady_clock::now() - f0);
  gFloorCpuMs = selfCpuMs() - c0 + diff.cpuMs;
  std::printf("floor: git diff --name-only %.0f ms + parse of %zu surface files (%.1f MB, one thread) = %.0f ms wall, "
              "%.0f ms cpu\n",
              diff.wallMs, parsed, bytes / 1e6, floorMs, gFloorCpuMs);

  std::string report = std::string(IMPACT_BIN_DIR) + "/impact report --repo '" + dir + "' --base main --head feature";
  fs::remove_all(cache);
  print("impact report --no-cache", measure(report + " --no-cache > /dev/null"), floorMs);
  print("impact report (cold: empty cache)", measure(report + " --cache '" + cache + "' > /dev/null"), floorMs);
  print("impact report (warm: cache filled)", measure(report + " --cache '" + cache + "' > /dev/null"), floorMs);
  print("impact report (warm, --format sarif)", measure(report + " --cache '" + cache + "' --format sarif > /dev/null"),
        floorMs);
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
