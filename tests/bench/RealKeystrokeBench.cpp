// impact_real_bench: keystroke -> republished diagnostics on the real gfx950 tiled 2D builder
// and its C++ pack (../shared/real-data, issue 18), end to end in the server with its default
// debounce (floor 50 ms). The builder edit removes or restores one `b.param` line, the pack edit
// one launch argument line; each waits for the pack's diagnostics to be republished. Prints the
// median and p90 of the wall time and the server's CPU time per edit (the machine may be loaded).
//   Run: bash scripts/bench.sh --real [--edits=N] [--aot]
// --aot adds the real gfx1151 rmsnorm2d AOT catalog family (../shared/real-data/aot-catalog: its
// producer, family.json, platform builders, adapter and tests) to the fixture on both sides, and a
// third measure: a keystroke on its static builder, waiting for family.json's diagnostics.
#include <sys/resource.h>

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

#include "server/ImpactServer.h"
#include "support/RealCorpus.h"

using namespace std::chrono;
using impact::testing::RealCorpusFixture;

namespace {

double ms(steady_clock::duration d) { return duration<double, std::milli>(d).count(); }

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

double cpuMs() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Publishes {
  std::mutex mu;
  std::condition_variable cv;
  std::string watched;  // the absolute path whose publications are counted
  int count = 0;
  steady_clock::time_point last;
};

class Session {
 public:
  explicit Session(Publishes& p) : p_(p) {
    cb_.publish = [this](const std::string& path, const std::vector<impact::server::Diag>&, std::optional<int64_t>) {
      std::lock_guard<std::mutex> lock(p_.mu);
      if (path != p_.watched) return;
      ++p_.count;
      p_.last = steady_clock::now();
      p_.cv.notify_all();
    };
    cb_.showMessage = [](impact::server::Severity, const std::string& m) { std::fprintf(stderr, "message: %s\n", m.c_str()); };
    opts_.gitPoll = milliseconds(60000);  // the default debounce: measured end to end
    server_ = std::make_unique<impact::server::ImpactServer>(cb_, opts_);
  }
  impact::server::ImpactServer& server() { return *server_; }
  void sync() {
    std::mutex m;
    std::condition_variable c;
    bool done = false;
    server_->sync([&] {
      std::lock_guard<std::mutex> lock(m);
      done = true;
      c.notify_all();
    });
    std::unique_lock<std::mutex> lock(m);
    c.wait(lock, [&] { return done; });
  }

 private:
  Publishes& p_;
  impact::server::Callbacks cb_;
  impact::server::Options opts_;
  std::unique_ptr<impact::server::ImpactServer> server_;
};

// Toggles `line` (a whole line of `text`, found after `after`) out of and back into the document
// `abs`, `edits` times, each edit waiting for the watched file's republished diagnostics.
bool run(const char* what, Session& s, Publishes& p, const std::string& abs, const std::string& text,
         const std::string& after, const std::string& line, int edits) {
  size_t at = text.find(line, text.find(after));
  if (at == std::string::npos || text.find(after) == std::string::npos) {
    std::printf("%s: the edited line is not in the real file (has it changed?)\n", what);
    return false;
  }
  uint32_t lineNo = static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
  std::vector<double> wall, cpu;
  bool present = true;
  for (int e = 0; e < edits; ++e) {
    impact::server::ContentChange c;
    c.range = present ? impact::server::Rng{{lineNo, 0}, {lineNo + 1, 0}} : impact::server::Rng{{lineNo, 0}, {lineNo, 0}};
    c.text = present ? "" : line;
    present = !present;
    int before;
    {
      std::lock_guard<std::mutex> lock(p.mu);
      before = p.count;
    }
    double c0 = cpuMs();
    auto t = steady_clock::now();
    s.server().didChange(abs, {c}, 10 + e);
    std::unique_lock<std::mutex> lock(p.mu);
    if (!p.cv.wait_for(lock, seconds(10), [&] { return p.count > before; })) {
      std::printf("%s edit %d: the pack's diagnostics were not republished within 10 s\n", what, e);
      return false;
    }
    wall.push_back(ms(p.last - t));
    lock.unlock();
    s.sync();  // the publication's own tail (status, settle) counted in the CPU time
    cpu.push_back(cpuMs() - c0);
  }
  std::printf("%s -> republished pack diagnostics (%d edits, debounce included): median %.1f ms, p90 %.1f ms; "
              "CPU per edit median %.1f ms, p90 %.1f ms\n",
              what, edits, percentile(wall, 0.5), percentile(wall, 0.9), percentile(cpu, 0.5), percentile(cpu, 0.9));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int edits = 60;
  bool aot = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--edits=", 0) == 0) edits = std::max(1, std::atoi(a.c_str() + 8));
    else if (a == "--aot") aot = true;
  }
  if (impact::testing::realCorpusDir().empty()) {
    std::printf("../shared/real-data/rocm-libraries is absent: the real-file keystroke benchmark is skipped\n");
    return 0;
  }
  RealCorpusFixture fx;
  const std::string aotData = impact::testing::realCorpusDir() + "/../aot-catalog/dnn-providers";
  const std::string hkp = "dnn-providers/hip-kernel-provider/";
  const std::string rmsBuilder = hkp + "rocke/platform/python/rocke/instances/common/rmsnorm2d.py";
  const std::string rmsCatalog = hkp + "rocke/aot_catalog/gfx1151/rmsnorm2d/family.json";
  if (aot) {
    if (!std::filesystem::is_directory(aotData)) {
      std::printf("../shared/real-data/aot-catalog is absent: --aot cannot be measured\n");
      return 1;
    }
    // On main and on the feature branch alike: the family sits beside the change.
    fx.git("checkout -q main");
    std::filesystem::copy(aotData, fx.dir() + "/dnn-providers",
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
    for (auto& e : std::filesystem::recursive_directory_iterator(fx.dir() + "/dnn-providers")) {
      std::error_code ec;
      std::filesystem::permissions(e.path(), std::filesystem::perms::owner_write, std::filesystem::perm_options::add, ec);
    }
    fx.commit("the real gfx1151 rmsnorm2d AOT catalog family");
    fx.git("checkout -q -B feature");
    std::printf("with the real gfx1151 rmsnorm2d AOT catalog family (%s)\n", rmsCatalog.c_str());
  }
  std::string builderAbs = fx.dir() + "/" + RealCorpusFixture::kTiledBuilder;
  std::string packAbs = fx.dir() + "/" + RealCorpusFixture::kTiledPack;
  std::string builder = readAll(builderAbs), pack = readAll(packAbs);
  std::printf("real files: %s (%zu bytes), %s (%zu bytes)\n", RealCorpusFixture::kTiledBuilder, builder.size(),
              RealCorpusFixture::kTiledPack, pack.size());

  Publishes p;
  p.watched = packAbs;
  Session s(p);
  auto t0 = steady_clock::now();
  s.server().initialize(fx.dir(), "main");
  s.server().didOpen(builderAbs, builder, 1);
  s.server().didOpen(packAbs, pack, 1);
  s.sync();
  std::printf("initialize + open both -> analysed: %.0f ms\n", ms(steady_clock::now() - t0));

  // The builder's last unconditional scalar (slot 18), and the pack's slot-15 launch argument.
  bool ok = run("builder: remove/restore one b.param line", s, p, builderAbs, builder, "b.param(",
                "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n", edits);
  ok = ok && run("pack: remove/restore one launch argument line", s, p, packAbs, pack,
                 "preparedTiled.kernel().launch(", "                                      0.0F,\n", edits);
  if (ok && aot) {
    // The AOT family's static builder: its `eps` argument removed and restored; each edit waits
    // for family.json's republished diagnostics (its 14 entries are copies of that builder's list).
    std::string rmsAbs = fx.dir() + "/" + rmsBuilder, rms = readAll(rmsAbs);
    {
      std::lock_guard<std::mutex> lock(p.mu);
      p.watched = fx.dir() + "/" + rmsCatalog;
    }
    s.server().didOpen(rmsAbs, rms, 1);
    s.sync();
    ok = run("AOT builder: remove/restore one b.param line", s, p, rmsAbs, rms, "def build_rmsnorm2d(",
             "    eps = b.param(\"eps\", F32)\n", edits);
  }
  return ok ? 0 : 1;
}
