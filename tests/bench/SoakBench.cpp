// impact_soak_bench: a day of typing in one server (issue 37, item 2). 20,000 keystrokes on the
// real gfx950 tiled 2D builder and 2,000 on its C++ pack (../shared/real-data), every one a new
// version of the document (a line typed and retyped with a counter, and every 100th an argument
// removed or restored), an analysis every 10 keystrokes, a hover and an impact.run every 500. The
// resident set is printed at the start, every 2,000 edits and at the end; after the warm-up (the
// first 2,000 edits) it must stay within 20 MB of where it was (exit code 1 otherwise).
//   Run: bash scripts/bench.sh --soak [--edits=N] [--pack-edits=N]
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

#include "server/ImpactServer.h"
#include "support/RealCorpus.h"

using namespace std::chrono;
using impact::testing::RealCorpusFixture;
namespace srv = impact::server;

namespace {

long rssKiB() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      long v = -1;
      in >> v;
      return v;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return -1;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint32_t lineOf(const std::string& text, const std::string& needle, size_t from = 0) {
  size_t at = text.find(needle, from);
  if (at == std::string::npos) return UINT32_MAX;
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// Waits for a callback posted to the server.
class Waiter {
 public:
  void done() {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    cv_.notify_all();
  }
  bool wait(seconds limit) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return done_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
};

struct Soak {
  srv::ImpactServer& server;
  std::vector<std::pair<int, long>> samples;  // (edits so far, RSS KiB)
  int edits = 0;
  int every = 2000;  // edits between samples of the resident set
  int hovers = 0, hoverAnswers = 0;
  std::mutex mu;
  steady_clock::time_point start = steady_clock::now();

  void sync() {
    auto w = std::make_shared<Waiter>();
    server.sync([w] { w->done(); });
    w->wait(seconds(120));
  }
  void sample() {
    sync();
    long kb = rssKiB();
    samples.emplace_back(edits, kb);
    std::printf("  after %5d edits: RSS %.1f MB (%.0f s)\n", edits, kb / 1024.0,
                duration<double>(steady_clock::now() - start).count());
    std::fflush(stdout);
  }
  bool hover(const std::string& abs, uint32_t line) {
    auto w = std::make_shared<Waiter>();
    bool answered = false;
    server.hover(abs, srv::Pos{line, 8}, [w, &answered](std::optional<srv::HoverInfo> h) {
      answered = h.has_value();
      w->done();
    });
    return w->wait(seconds(60)) && answered;
  }
  bool run() {
    auto w = std::make_shared<Waiter>();
    bool ok = false;
    server.runImpact(
        srv::RunRequest{}, [](const std::string&) {}, [] { return false; },
        [w, &ok](std::optional<srv::RunResult> r, std::string) {
          ok = r.has_value();
          w->done();
        });
    return w->wait(seconds(300)) && ok;
  }

  // `count` keystrokes on the document `abs`: its line `typed` (0-based) is retyped with the
  // keystroke's number, and every 100th keystroke the line `toggled` is removed or restored.
  bool type(const std::string& abs, const std::string& commentPrefix, uint32_t typed, uint32_t toggled,
            const std::string& toggledText, int count, int& version, uint32_t hoverLine) {
    bool present = true;
    for (int k = 0; k < count; ++k) {
      std::vector<srv::ContentChange> cs(1);
      std::string body = commentPrefix + " soak keystroke " + std::to_string(edits) + "\n";
      if (k % 100 == 99) {
        cs[0].range = present ? srv::Rng{{toggled, 0}, {toggled + 1, 0}} : srv::Rng{{toggled, 0}, {toggled, 0}};
        cs[0].text = present ? "" : toggledText;
        present = !present;
      } else {
        // The typed line is above the toggled one: its number does not move.
        cs[0].range = srv::Rng{{typed, 0}, {typed + 1, 0}};
        cs[0].text = body;
      }
      server.didChange(abs, std::move(cs), ++version);
      ++edits;
      if (edits % 10 == 0) sync();  // an analysis (sync runs one) and no unbounded queue
      if (edits % 500 == 0) {
        ++hovers;
        hoverAnswers += hover(abs, hoverLine) ? 1 : 0;
        if (!run()) {
          std::printf("  impact.run at edit %d failed\n", edits);
          return false;
        }
      }
      if (edits % every == 0) sample();
    }
    if (!present) {  // leave the document as it was
      std::vector<srv::ContentChange> cs(1);
      cs[0].range = srv::Rng{{toggled, 0}, {toggled, 0}};
      cs[0].text = toggledText;
      server.didChange(abs, std::move(cs), ++version);
    }
    return true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  int builderEdits = 20000, packEdits = 2000, every = 2000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--edits=", 0) == 0) builderEdits = std::max(1, std::atoi(a.c_str() + 8));
    if (a.rfind("--pack-edits=", 0) == 0) packEdits = std::max(0, std::atoi(a.c_str() + 13));
    if (a.rfind("--sample=", 0) == 0) every = std::max(1, std::atoi(a.c_str() + 9));
  }
  if (impact::testing::realCorpusDir().empty()) {
    std::printf("../shared/real-data/rocm-libraries is absent: the soak benchmark is skipped\n");
    return 0;
  }
  RealCorpusFixture fx;
  std::string builderAbs = fx.dir() + "/" + RealCorpusFixture::kTiledBuilder;
  std::string packAbs = fx.dir() + "/" + RealCorpusFixture::kTiledPack;
  std::string builder = readAll(builderAbs), pack = readAll(packAbs);
  // A line to type at the top of each file (a comment), so that every keystroke is a new version.
  builder = "# soak\n" + builder;
  pack = "// soak\n" + pack;
  const std::string toggledB = "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n";
  const std::string toggledP = "                                      0.0F,\n";
  uint32_t tB = lineOf(builder, toggledB, builder.find("b.param(")),
           tP = lineOf(pack, toggledP, pack.find("preparedTiled.kernel().launch("));
  uint32_t hoverLine = lineOf(builder, "b.param(");
  if (tB == UINT32_MAX || tP == UINT32_MAX || hoverLine == UINT32_MAX) {
    std::printf("the edited lines are not in the real files (have they changed?)\n");
    return 1;
  }
  std::printf("soak: %d keystrokes on %s (%zu lines), %d on %s; machine: %u cores\n", builderEdits,
              RealCorpusFixture::kTiledBuilder, static_cast<size_t>(std::count(builder.begin(), builder.end(), '\n')),
              packEdits, RealCorpusFixture::kTiledPack, std::thread::hardware_concurrency());

  srv::Callbacks cb;
  cb.showMessage = [](srv::Severity, const std::string& m) { std::fprintf(stderr, "message: %s\n", m.c_str()); };
  srv::Options opts;
  opts.gitPoll = milliseconds(60000);
  srv::ImpactServer server(cb, opts);
  Soak s{server, {}, 0, every, 0, 0, {}};
  auto t0 = steady_clock::now();
  server.initialize(fx.dir(), "main");
  server.didOpen(builderAbs, builder, 1);
  server.didOpen(packAbs, pack, 1);
  s.sample();
  int vB = 1, vP = 1;
  bool ok = s.type(builderAbs, "#", 0, tB, toggledB, builderEdits, vB, hoverLine) &&
            s.type(packAbs, "//", 0, tP, toggledP, packEdits, vP, hoverLine);
  if (s.edits % s.every != 0) s.sample();
  double secs = duration<double>(steady_clock::now() - t0).count();
  // Flat: after the warm-up (the first 2,000 edits), no sample more than 20 MB above it.
  long warm = s.samples[0].second;
  for (const auto& [n, kb] : s.samples)
    if (n <= 2000) warm = kb;
  long top = warm, low = warm;
  for (size_t i = 1; i < s.samples.size(); ++i) {
    top = std::max(top, s.samples[i].second);
    low = std::min(low, s.samples[i].second);
  }
  bool flat = top - warm <= 20 * 1024;
  std::printf("soak: %d edits in %.0f s; RSS at start %.1f MB, after warm-up %.1f MB, highest after %.1f MB, end %.1f MB: "
              "%s (limit: 20 MB above the warm-up)\n",
              s.edits, secs, s.samples[0].second / 1024.0, warm / 1024.0, top / 1024.0, s.samples.back().second / 1024.0,
              flat ? "flat" : "NOT flat");
  std::printf("soak: %d hovers (%d with an answer), %d impact.run\n", s.hovers, s.hoverAnswers, s.edits / 500);
  (void)low;
  return ok && flat ? 0 : 1;
}
