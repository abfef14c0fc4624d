// The emitter's sandbox through `impact emit`: per-family budgets, process groups, the environment.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

// With a marker, it first starts a child that ignores SIGTERM and sleeps (its command line carries
// the marker, so the test finds it in /proc: the sandbox lets the builder write nowhere else).
const char* kHang = R"PY("""A builder that never returns."""
import os
import sys
import time
from dataclasses import dataclass

from rocke.core.ir import KernelDef


@dataclass(frozen=True)
class HangSpec:
    marker: str = ""


def build_hang(spec: HangSpec, *, arch: str = "gfx950") -> KernelDef:
    if spec.marker and os.fork() == 0:
        code = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(300)"
        os.execv(sys.executable, [sys.executable, "-c", code, spec.marker])
    while True:
        time.sleep(0.05)
)PY";

// The processes whose command line holds `marker`.
std::vector<int> withMarker(const std::string& marker) {
  std::vector<int> pids;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find(marker) != std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

// Is the process gone (or a zombie nobody waits for any more)?
bool gone(int pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  std::getline(stat, s);
  auto close = s.rfind(')');
  return close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z';
}

TEST(EmitSandbox, BuilderThatNeverReturnsCostsOnlyItsFamily) {
  E repo;
  repo.write(std::string(E::kLib) + "kernels/gfx950/hang.py", kHang);
  repo.addUkd("hang_1", R"({"kind": "rocke", "source": "kernels/gfx950/hang.py", "builder": "build_hang", "spec": {}})");
  repo.commit("a hanging builder");
  auto start = std::chrono::steady_clock::now();
  RunResult r = repo.emit("--family-timeout 2 --jobs 2");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_LT(secs, 20.0);
  auto doc = repo.doc();
  const auto* hang = repo.family(doc, "kernels/gfx950/hang.py");
  ASSERT_NE(hang, nullptr) << doc.dump(1);
  EXPECT_EQ((*hang)["head"]["status"], "timed_out") << hang->dump(1);
  EXPECT_EQ((*hang)["base"]["status"], "absent");
  for (const char* ok : {"kernels/gfx950/scale.py", "kernels/gfx950/softmax.py", "kernels/gfx950/reduce.py"}) {
    const auto* f = repo.family(doc, ok);
    ASSERT_NE(f, nullptr) << ok;
    EXPECT_EQ((*f)["head"]["status"], "ok") << ok;
    EXPECT_EQ((*f)["base"]["status"], "ok") << ok;
  }
}

TEST(EmitSandbox, TheWholeRunsTimeoutEndsWhatIsStillRunningAndTheDocumentIsWritten) {
  E repo;
  repo.write(std::string(E::kLib) + "kernels/gfx950/hang.py", kHang);
  repo.addUkd("hang_1", R"({"kind": "rocke", "source": "kernels/gfx950/hang.py", "builder": "build_hang", "spec": {}})");
  repo.commit("a hanging builder");
  auto start = std::chrono::steady_clock::now();
  RunResult r = repo.emit("--timeout 3 --family-timeout 300 --jobs 2");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_LT(secs, 20.0);
  auto doc = repo.doc();
  const auto* hang = repo.family(doc, "kernels/gfx950/hang.py");
  ASSERT_NE(hang, nullptr);
  EXPECT_EQ((*hang)["head"]["status"], "timed_out");
  EXPECT_EQ((*hang)["head"]["error"], "the whole run's timeout ended it; its process group was killed");
}

TEST(EmitSandbox, TimeoutKillsTheWholeProcessGroup) {
  E repo;
  std::string marker = "impact-sleeper-" + std::to_string(::getpid()) + "-" +
                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  repo.write(std::string(E::kLib) + "kernels/gfx950/hang.py", kHang);
  repo.addUkd("hang_spawn", R"({"kind": "rocke", "source": "kernels/gfx950/hang.py", "builder": "build_hang", "spec": {"marker": ")" +
                                marker + R"("}})");
  repo.commit("a builder that starts a child ignoring SIGTERM and hangs");
  std::atomic<bool> done{false};
  std::set<int> seen;
  std::thread watch([&] {
    while (!done) {
      for (int pid : withMarker(marker)) seen.insert(pid);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  RunResult r = repo.emit("--family-timeout 2");
  done = true;
  watch.join();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_FALSE(seen.empty()) << "the builder did not start its child";
  // The family's budget ended the group: the sleeping grandchild is gone too.
  for (int pid : seen) {
    bool dead = false;
    for (int i = 0; i < 100 && !dead; ++i) {
      dead = gone(pid);
      if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(dead) << "the sleeper " << pid << " outlived the timeout";
    if (!dead) ::kill(pid, SIGKILL);
  }
  auto doc = repo.doc();
  const auto* hang = repo.family(doc, "kernels/gfx950/hang.py");
  ASSERT_NE(hang, nullptr);
  EXPECT_EQ((*hang)["head"]["status"], "timed_out");
  for (const char* ok : {"kernels/gfx950/scale.py", "kernels/gfx950/softmax.py", "kernels/gfx950/reduce.py"})
    EXPECT_EQ((*repo.family(doc, ok))["head"]["status"], "ok") << ok;
}

TEST(EmitSandbox, CredentialVariablesNeverReachTheChild) {
  E repo;
  repo.write(std::string(E::kLib) + "kernels/gfx950/envprobe.py", R"PY("""Names its kernel after the environment it sees."""
import os
from dataclasses import dataclass

from rocke.core.ir import I32, IRBuilder, KernelDef


@dataclass(frozen=True)
class EnvSpec:
    n: int = 1


def build_envprobe(spec: EnvSpec, *, arch: str = "gfx950") -> KernelDef:
    home = os.environ.get("HOME", "")
    empty = "home_empty" if home and os.path.isdir(home) and not os.listdir(home) else "home_used"
    b = IRBuilder("env__" + "__".join(sorted(os.environ)) + "__" + empty)
    b.param("n", I32)
    return b.build()
)PY");
  repo.addUkd("envprobe_1", R"({"kind": "rocke", "source": "kernels/gfx950/envprobe.py", "builder": "build_envprobe", "spec": {}})");
  repo.commit("env probe");
  RunResult r = repo.emit("", "IMPACT_TEST_API_TOKEN=t0ps3cret MY_DB_PASSWORD=hunter2 AWS_SECRET_ACCESS_KEY=x "
                              "GITHUB_CREDENTIALS=y ROCKE_DENSE_VPAD=7 ROCKE_BACKEND=cpp");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto doc = repo.doc();
  const auto* f = repo.family(doc, "kernels/gfx950/envprobe.py");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ((*f)["head"]["status"], "ok") << f->dump(1);
  std::string name = (*f)["variants"][0]["head"]["kernels"][0]["name"];
  for (const char* absent : {"TOKEN", "PASSWORD", "SECRET", "CREDENTIALS", "ROCKE_DENSE_VPAD"})
    EXPECT_EQ(name.find(absent), std::string::npos) << absent << " reached the child: " << name;
  for (const char* present : {"__HOME__", "__ROCKE_BACKEND__", "__ROCKE_LLVM_FLAVOR__", "home_empty"})
    EXPECT_NE(name.find(present), std::string::npos) << present << " missing: " << name;
  EXPECT_EQ(doc["flavor"], "llvm22");
}

}  // namespace
}  // namespace impact::testing
