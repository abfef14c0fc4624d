// impact_bench: speed and memory on a generated monorepo-sized fixture (not a test).
//   cold `impact report`; initialize -> first diagnostics; didChange on a builder ->
//   republished diagnostics (median, p99 over 200 edits, debounce excluded); hover latency;
//   peak RSS; the resident set over a 10,000-edit session (every 1,000 edits).
//   Run: bash scripts/bench.sh
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "MonorepoGenerator.h"
#include "server/ImpactServer.h"

using namespace std::chrono;
namespace fs = std::filesystem;

namespace {

double ms(steady_clock::duration d) { return duration<double, std::milli>(d).count(); }

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

long peakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// The resident set now (/proc/self/statm), not the peak.
long currentRssMb() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * (::sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  impact::bench::GeneratorSize size;
  int edits = 200;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--unrelated=", 0) == 0) size.unrelatedFiles = std::atoi(a.c_str() + 12);
    if (a.rfind("--edits=", 0) == 0) edits = std::atoi(a.c_str() + 8);
  }
  std::string dir = (fs::temp_directory_path() / ("impact-bench-" + std::to_string(::getpid()))).string();
  auto g0 = steady_clock::now();
  std::string builder = impact::bench::generateMonorepo(dir, size);
  std::printf("fixture: %d kernel modules, %d UKDs, %d C++ files, %d unrelated files (generated in %.1f s)\n",
              size.kernelModules, size.ukds, size.cppFiles, size.unrelatedFiles, ms(steady_clock::now() - g0) / 1000);

  // Cold `impact report` (a fresh process: no cache).
  {
    std::string cmd = std::string(IMPACT_BIN_DIR) + "/impact report --repo '" + dir + "' --base main --no-cache > /dev/null";
    auto t = steady_clock::now();
    int rc = std::system(cmd.c_str());
    std::printf("impact report (cold, head commit vs merge base): %.0f ms (exit %d)\n", ms(steady_clock::now() - t),
                WEXITSTATUS(rc));
  }

  std::mutex mu;
  std::condition_variable cv;
  int publishes = 0;
  std::string pinAbs = dir + "/" + impact::bench::pinFile(0);
  int pinPublishes = 0;
  size_t pinDiagCount = 0;
  impact::server::Callbacks cb;
  cb.publish = [&](const std::string& path, const std::vector<impact::server::Diag>& d, std::optional<int64_t>) {
    std::lock_guard<std::mutex> lock(mu);
    if (std::getenv("IMPACT_BENCH_TRACE")) std::fprintf(stderr, "publish %s: %zu\n", path.c_str(), d.size());
    ++publishes;
    if (path == pinAbs) {
      ++pinPublishes;
      pinDiagCount = d.size();
    }
    cv.notify_all();
  };
  cb.showMessage = [](impact::server::Severity, const std::string& m) { std::fprintf(stderr, "message: %s\n", m.c_str()); };
  impact::server::Options opts;
  opts.minDebounce = opts.maxDebounce = milliseconds(0);  // measured without the debounce
  opts.gitPoll = milliseconds(60000);
  impact::server::ImpactServer server(cb, opts);

  auto t0 = steady_clock::now();
  server.initialize(dir, "main");
  {
    std::unique_lock<std::mutex> lock(mu);
    if (!cv.wait_for(lock, seconds(60), [&] { return publishes > 0; })) {
      std::printf("no diagnostics within 60 s\n");
      return 1;
    }
  }
  std::printf("initialize -> first diagnostics: %.0f ms (%d files, the pin with %zu)\n", ms(steady_clock::now() - t0),
              publishes, pinDiagCount);

  std::string builderAbs = dir + "/" + builder;
  std::ifstream in(builderAbs);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  server.didOpen(builderAbs, text, 1);
  {
    std::mutex m2;
    std::condition_variable c2;
    bool done = false;
    server.sync([&] {
      std::lock_guard<std::mutex> lock(m2);
      done = true;
      c2.notify_all();
    });
    std::unique_lock<std::mutex> lock(m2);
    c2.wait(lock, [&] { return done; });
  }
  // The line that breaks the pin; each edit removes or restores it.
  const std::string line = "    b.param(\"window_left\", I32)\n";
  size_t at = text.find(line);
  if (at == std::string::npos) return 1;
  uint32_t lineNo = static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));

  std::vector<double> editMs;
  bool present = true;
  for (int e = 0; e < edits; ++e) {
    impact::server::ContentChange c;
    if (present) {
      c.range = impact::server::Rng{{lineNo, 0}, {lineNo + 1, 0}};
      c.text = "";
    } else {
      c.range = impact::server::Rng{{lineNo, 0}, {lineNo, 0}};
      c.text = line;
    }
    present = !present;
    int before;
    {
      std::lock_guard<std::mutex> lock(mu);
      before = pinPublishes;
    }
    auto t = steady_clock::now();
    server.didChange(builderAbs, {c}, e + 2);
    std::unique_lock<std::mutex> lock(mu);
    if (!cv.wait_for(lock, seconds(10), [&] { return pinPublishes > before; })) {
      std::printf("edit %d: no republished diagnostics for the pin\n", e);
      return 1;
    }
    editMs.push_back(ms(steady_clock::now() - t));
  }
  std::printf("didChange on a builder -> republished diagnostics (%d edits adding/removing an argument): median %.2f ms, p99 %.2f ms\n",
              edits, percentile(editMs, 0.5), percentile(editMs, 0.99));

  // The common keystroke: a type edit in the body (names unchanged: the pairing is reused).
  {
    // Start from a builder every copy agrees with: take the added argument out if it is in.
    std::string cur = text;
    cur.erase(at, line.size());
    if (edits % 2 == 0) {
      impact::server::ContentChange c;
      c.range = impact::server::Rng{{lineNo, 0}, {lineNo + 1, 0}};
      int before;
      {
        std::lock_guard<std::mutex> lock(mu);
        before = pinPublishes;
      }
      server.didChange(builderAbs, {c}, 999);
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, seconds(10), [&] { return pinPublishes > before; });
    }
    size_t t0 = cur.find("b.param(\"s0\", I32)");
    uint32_t tLine = static_cast<uint32_t>(std::count(cur.begin(), cur.begin() + t0, '\n'));
    uint32_t col = static_cast<uint32_t>(t0 - cur.rfind('\n', t0) - 1) + 14;  // the "I32" of s0: after `b.param("s0", `
    std::vector<double> typeMs;
    bool wide = false;
    for (int e = 0; e < edits; ++e) {
      impact::server::ContentChange c;
      c.range = impact::server::Rng{{tLine, col}, {tLine, col + 3}};
      c.text = wide ? "I32" : "I64";
      wide = !wide;
      int before;
      {
        std::lock_guard<std::mutex> lock(mu);
        before = pinPublishes;
      }
      auto t = steady_clock::now();
      server.didChange(builderAbs, {c}, 1000 + e);
      std::unique_lock<std::mutex> lock(mu);
      if (!cv.wait_for(lock, seconds(10), [&] { return pinPublishes > before; })) {
        std::printf("type edit %d: no republished diagnostics for the pin\n", e);
        return 1;
      }
      typeMs.push_back(ms(steady_clock::now() - t));
    }
    std::printf("didChange of a type in a builder -> republished diagnostics (%d edits): median %.2f ms, p99 %.2f ms\n",
                edits, percentile(typeMs, 0.5), percentile(typeMs, 0.99));
  }

  // Hover on the first b.param argument of the builder.
  size_t q = text.find("b.param(\"a_ptr\"");
  uint32_t qLine = static_cast<uint32_t>(std::count(text.begin(), text.begin() + q, '\n'));
  std::vector<double> hoverMs;
  int hoverHits = 0;
  for (int h = 0; h < 200; ++h) {
    std::mutex m3;
    std::condition_variable c3;
    bool done = false;
    auto t = steady_clock::now();
    server.hover(builderAbs, {qLine, 8}, [&](std::optional<impact::server::HoverInfo> info) {
      std::lock_guard<std::mutex> lock(m3);
      hoverHits += info.has_value();
      done = true;
      c3.notify_all();
    });
    std::unique_lock<std::mutex> lock(m3);
    c3.wait(lock, [&] { return done; });
    hoverMs.push_back(ms(steady_clock::now() - t));
  }
  std::printf("hover (%d/200 answered with copies): median %.2f ms, p99 %.2f ms\n", hoverHits, percentile(hoverMs, 0.5),
              percentile(hoverMs, 0.99));
  std::printf("peak RSS: %ld MB\n", peakRssMb());

  // Memory over a long session: 10,000 edits adding/removing the argument (each waits for
  // the pin's republished diagnostics), the resident set printed every 1,000.
  {
    bool present = false;  // the type phase above left the builder without the added line
    std::printf("RSS over 10,000 edits:");
    for (int e = 1; e <= 10000; ++e) {
      impact::server::ContentChange c;
      c.range = present ? impact::server::Rng{{lineNo, 0}, {lineNo + 1, 0}} : impact::server::Rng{{lineNo, 0}, {lineNo, 0}};
      c.text = present ? "" : line;
      present = !present;
      int before;
      {
        std::lock_guard<std::mutex> lock(mu);
        before = pinPublishes;
      }
      server.didChange(builderAbs, {c}, 100000 + e);
      std::unique_lock<std::mutex> lock(mu);
      if (!cv.wait_for(lock, seconds(10), [&] { return pinPublishes > before; })) {
        std::printf("\nRSS edit %d: no republished diagnostics for the pin\n", e);
        return 1;
      }
      if (e % 1000 == 0) {
        std::printf(" %d:%ldMB", e, currentRssMb());
        std::fflush(stdout);
      }
    }
    std::printf("\n");
  }
  std::error_code ec;
  if (!std::getenv("IMPACT_KEEP_FIXTURES")) fs::remove_all(dir, ec);
  return 0;
}
