// impact_hints_bench: textDocument/inlayHint's answer time for the visible range of the real
// 4,600-line gfx950 tiled builder (../shared/real-data, issue 38), in the server (no protocol):
// the window of its parameter declarations (60 lines, the 18 b.param calls), a window of 60
// lines elsewhere in the file, the whole file, and the pack's launch. Each request waits for its
// answer; the analysis is warm (nothing edited between requests) unless --edit, which types a
// comment line into the builder before each request (the answer then includes the analysis).
//   Run: bash scripts/bench.sh --hints [--requests=N] [--edit]
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "server/ImpactServer.h"
#include "support/RealCorpus.h"

using namespace std::chrono;
using impact::testing::RealCorpusFixture;
namespace S = impact::server;

namespace {

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint32_t lineOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  return at == std::string::npos ? 0 : static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// One request, waited for: its wall time and how many hints it answered.
std::pair<double, size_t> ask(S::ImpactServer& s, const std::string& path, uint32_t first, uint32_t last) {
  std::mutex m;
  std::condition_variable c;
  bool done = false;
  size_t n = 0;
  auto t = steady_clock::now();
  s.inlayHints(path, S::Rng{{first, 0}, {last, 0}}, [&](std::vector<S::InlayHint> hs) {
    std::lock_guard<std::mutex> lock(m);
    n = hs.size();
    done = true;
    c.notify_all();
  });
  std::unique_lock<std::mutex> lock(m);
  c.wait(lock, [&] { return done; });
  return {duration<double, std::milli>(steady_clock::now() - t).count(), n};
}

}  // namespace

int main(int argc, char** argv) {
  int requests = 200;
  bool edit = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--requests=", 0) == 0) requests = std::max(1, std::atoi(a.c_str() + 11));
    if (a == "--edit") edit = true;
  }
  if (impact::testing::realCorpusDir().empty()) {
    std::printf("../shared/real-data/rocm-libraries is absent: the inlay hint benchmark is skipped\n");
    return 0;
  }
  RealCorpusFixture fx;
  std::string builderAbs = fx.dir() + "/" + RealCorpusFixture::kTiledBuilder;
  std::string packAbs = fx.dir() + "/" + RealCorpusFixture::kTiledPack;
  std::string builder = readAll(builderAbs), pack = readAll(packAbs);
  S::Callbacks cb;
  S::Options opts;
  opts.gitPoll = milliseconds(60000);
  S::ImpactServer server(cb, opts);
  server.initialize(fx.dir(), "main");
  server.didOpen(builderAbs, builder, 1);
  uint32_t params = lineOf(builder, "    # ---------------- parameter declarations ----------------");
  uint32_t launch = lineOf(pack, "preparedTiled.kernel().launch(");
  ask(server, builderAbs, 0, 1);  // waits for the first analysis
  std::printf("real builder: %s (%zu lines)\n", RealCorpusFixture::kTiledBuilder,
              size_t(std::count(builder.begin(), builder.end(), '\n')));
  struct Window {
    const char* what;
    std::string path;
    uint32_t first, last;
  };
  std::vector<Window> windows{{"builder, the 60 visible lines of its b.param calls", builderAbs, params, params + 60},
                              {"builder, 60 visible lines without a b.param", builderAbs, 2000, 2060},
                              {"builder, the whole file", builderAbs, 0, 5000},
                              {"pack, the launch's 25 lines", packAbs, launch, launch + 25}};
  int version = 2;
  for (const auto& w : windows) {
    std::vector<double> t;
    size_t n = 0;
    for (int r = 0; r < requests; ++r) {
      if (edit) {
        S::ContentChange c;
        c.range = S::Rng{{0, 0}, {0, 0}};
        c.text = "# edit\n";
        server.didChange(builderAbs, {c}, version++);
      }
      auto [ms, hints] = ask(server, w.path, w.first, w.last);
      t.push_back(ms);
      n = hints;
    }
    std::printf("%s: %zu hints; %d requests%s: median %.2f ms, p90 %.2f ms, max %.2f ms\n", w.what, n, requests,
                edit ? " (an edit before each)" : "", percentile(t, 0.5), percentile(t, 0.9), percentile(t, 1.0));
  }
  return 0;
}
