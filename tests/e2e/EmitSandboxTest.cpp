// The emitter's sandbox through `impact emit`: per-family budgets, process groups, the environment.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

const char* kHang = R"PY("""A builder that never returns."""
import subprocess
import time
from dataclasses import dataclass

from rocke.core.ir import KernelDef


@dataclass(frozen=True)
class HangSpec:
    pid_file: str = ""


def build_hang(spec: HangSpec, *, arch: str = "gfx950") -> KernelDef:
    if spec.pid_file:
        child = subprocess.Popen(["sleep", "300"])
        with open(spec.pid_file, "w") as f:
            f.write(str(child.pid))
    while True:
        time.sleep(0.05)
)PY";

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
  std::string pidFile = repo.cacheDir() + "/../sleeper.pid";
  repo.write(std::string(E::kLib) + "kernels/gfx950/hang.py", kHang);
  repo.addUkd("hang_spawn", R"({"kind": "rocke", "source": "kernels/gfx950/hang.py", "builder": "build_hang", "spec": {"pid_file": ")" +
                                pidFile + R"("}})");
  repo.commit("a builder that starts a child and hangs");
  RunResult r = repo.emit("--family-timeout 2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(pidFile);
  int pid = 0;
  in >> pid;
  ASSERT_GT(pid, 0) << "the builder did not start its child";
  // The family's budget ended the group: the sleeping grandchild is gone too.
  bool dead = false;
  for (int i = 0; i < 100 && !dead; ++i) {
    dead = gone(pid);
    if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(dead) << "sleep " << pid << " outlived the timeout";
  if (!dead) ::kill(pid, SIGKILL);
  auto doc = repo.doc();
  const auto* hang = repo.family(doc, "kernels/gfx950/hang.py");
  ASSERT_NE(hang, nullptr);
  EXPECT_EQ((*hang)["head"]["status"], "timed_out");
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
