// The emitter's confinement (issue 20) through the real `impact emit`: each test is a hostile
// builder in the fixture tree (beside its three honest families), and shows that what it tries is
// refused or ends its own family only, with the document written and every other family built.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/EmitFixture.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;
using E = EmitFixture;

// A builder module in the fixture's form: its spec names what to try, `_attempt` tries it and
// returns a word, and the kernel is named after that word so the document shows the outcome.
std::string hostile(const std::string& name, const std::string& doc, const std::string& attempt) {
  return "\"\"\"A hostile builder: " + doc + ".\"\"\"\nimport os\nfrom dataclasses import dataclass\n\n"
         "from rocke.core.ir import I32, IRBuilder, KernelDef\n\n\n"
         "@dataclass(frozen=True)\nclass " + name + "Spec:\n    target: str = \"\"\n    port: int = 0\n\n\n" +
         attempt + "\n\ndef build_" + name + "(spec: " + name + "Spec, *, arch: str = \"gfx950\") -> KernelDef:\n"
         "    b = IRBuilder(\"" + name + "__\" + _attempt(spec))\n    b.param(\"n\", I32)\n    return b.build()\n";
}

// Writes the module kernels/gfx950/<name>.py; emit() adds a UKD launching it with `spec`, commits
// and runs `impact emit`.
struct Hostile {
  E repo;
  std::string name;
  RunResult run;
  nlohmann::json doc;
  Hostile(const std::string& n, const std::string& docLine, const std::string& attempt) : name(n) {
    repo.write(std::string(E::kLib) + "kernels/gfx950/" + name + ".py", hostile(name, docLine, attempt));
  }
  void emit(const std::string& spec, const std::string& extra = "") {
    repo.addUkd(name + "_1", R"({"kind": "rocke", "source": "kernels/gfx950/)" + name + R"(.py", "builder": "build_)" +
                                name + R"(", "spec": )" + spec + "}");
    repo.commit("a hostile builder: " + name);
    run = repo.emit("--no-probe --jobs 2 " + extra);
    doc = repo.doc();
  }
  const nlohmann::json& family(const std::string& name) {
    const auto* f = repo.family(doc, "kernels/gfx950/" + name + ".py");
    static const nlohmann::json none;
    return f ? *f : none;
  }
  std::string kernelName(const std::string& name) {
    const auto& f = family(name);
    if (!f.contains("variants") || f["variants"].empty()) return "";
    return f["variants"][0]["head"].value("kernels", nlohmann::json::array()).empty()
               ? "error: " + f["variants"][0]["head"].value("error", std::string("?"))
               : f["variants"][0]["head"]["kernels"][0].value("name", "");
  }
  // The honest families are built and folded as before.
  void othersBuilt() {
    for (const char* ok : {"kernels/gfx950/scale.py", "kernels/gfx950/softmax.py", "kernels/gfx950/reduce.py"}) {
      const auto* f = repo.family(doc, ok);
      ASSERT_NE(f, nullptr) << ok << "\n" << doc.dump(1);
      EXPECT_EQ((*f)["head"]["status"], "ok") << ok << (*f)["head"].dump();
      EXPECT_EQ((*f)["base"]["status"], "ok") << ok << (*f)["base"].dump();
    }
  }
};

// What `impact emit --sandbox-check` says is in force here.
nlohmann::json sandboxHere() {
  RunResult r = run(shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " emit --sandbox-check");
  std::string json = r.out.substr(r.out.find('\n') + 1);
  return nlohmann::json::parse(json, nullptr, false);
}

#define REQUIRE_SOME_CONFINEMENT()                                                                         \
  do {                                                                                                     \
    auto here = sandboxHere();                                                                             \
    ASSERT_TRUE(here.is_object()) << "impact emit --sandbox-check printed no JSON";                        \
    if (here["filesystem"] == "none" && here["network"] == "none")                                         \
      GTEST_SKIP() << "this kernel offers no Landlock, no user namespace and no seccomp: nothing to confine with"; \
  } while (0)

TEST(EmitConfine, TheDocumentAndTheSummarySayWhichConfinementIsInForce) {
  REQUIRE_SOME_CONFINEMENT();
  E repo;
  RunResult r = repo.emit("--no-probe --require-sandbox");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto doc = repo.doc();
  ASSERT_TRUE(doc.contains("sandbox")) << doc.dump(1);
  const auto& s = doc["sandbox"];
  EXPECT_EQ(s["confined"], true) << s.dump();
  EXPECT_EQ(s["limits"]["memory"], 4ull << 30);
  EXPECT_EQ(s["limits"]["file_size"], 256ull << 20);
  EXPECT_EQ(s["limits"]["core"], 0);
  std::string summary = "sandbox: filesystem " + s["filesystem"].get<std::string>() + ", network " +
                        s["network"].get<std::string>();
  EXPECT_NE(r.err.find(summary), std::string::npos) << r.err;
  EXPECT_EQ(sandboxHere(), s);  // --sandbox-check prints what the run recorded
}

TEST(EmitConfine, UnconfinedRunsSayItAndRequireSandboxRefusesThem) {
  E repo;
  RunResult r = repo.emit("--no-probe --unconfined");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("runs UNCONFINED"), std::string::npos) << r.err;
  auto doc = repo.doc();
  EXPECT_EQ(doc["sandbox"]["confined"], false) << doc.dump(1);
  EXPECT_EQ(doc["sandbox"]["filesystem"], "none");
  RunResult refused = repo.emit("--no-probe --unconfined --require-sandbox");
  EXPECT_EQ(refused.exitCode, 3) << refused.err;
  EXPECT_NE(refused.err.find("--require-sandbox"), std::string::npos) << refused.err;
}

TEST(EmitConfine, ATcpConnectionToALocalListenerIsRefusedAndTheListenerSeesNothing) {
  REQUIRE_SOME_CONFINEMENT();
  int l = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(l, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(l, 8), 0);
  socklen_t len = sizeof a;
  ::getsockname(l, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);
  std::atomic<bool> stop{false};
  std::atomic<int> accepted{0};
  std::thread listener([&] {
    while (!stop) {
      pollfd p{l, POLLIN, 0};
      if (::poll(&p, 1, 50) > 0) {
        int c = ::accept(l, nullptr, nullptr);
        if (c >= 0) {
          ++accepted;
          ::close(c);
        }
      }
    }
  });
  Hostile h("netleak", "sends what it finds to a local listener",
            "def _attempt(spec):\n    import socket\n    try:\n"
            "        s = socket.create_connection((\"127.0.0.1\", spec.port), timeout=3)\n"
            "    except OSError:\n        return \"refused\"\n    s.sendall(b\"token\")\n    return \"connected\"\n");
  h.emit("{\"port\": " + std::to_string(port) + "}");
  stop = true;
  listener.join();
  ::close(l);
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  EXPECT_EQ(h.kernelName("netleak"), "netleak__refused") << h.family("netleak").dump(1);
  EXPECT_EQ(accepted.load(), 0) << "the listener saw a connection from the builder";
  h.othersBuilt();
}

TEST(EmitConfine, FilesOutsideTheTreeAndTheRepositorysGitConfigCannotBeRead) {
  REQUIRE_SOME_CONFINEMENT();
  Hostile h("readleak", "reads credentials outside its tree",
            "def _attempt(spec):\n    out = []\n    for path in spec.target.split(\"|\"):\n        try:\n"
            "            with open(path) as f:\n                f.read()\n            out.append(\"read\")\n"
            "        except PermissionError:\n            out.append(\"refused\")\n"
            "        except OSError:\n            out.append(\"missing\")\n    return \"__\".join(out)\n");
  std::string canary = h.repo.dir() + ".canary";  // beside the repository
  std::ofstream(canary) << "s3cr3t-beside-the-repository\n";
  // The repository's own .git/config: the file a CI checkout leaves a token in.
  std::string gitConfig = h.repo.dir() + "/.git/config";
  ASSERT_TRUE(fs::exists(gitConfig));
  h.emit("{\"target\": \"" + canary + "|" + gitConfig + "\"}");
  fs::remove(canary);
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  EXPECT_EQ(h.kernelName("readleak"), "readleak__refused__refused") << h.family("readleak").dump(1);
  h.othersBuilt();
}

TEST(EmitConfine, AFileInTheUsersHomeCannotBeWrittenAndStaysUnchanged) {
  REQUIRE_SOME_CONFINEMENT();
  const char* home = std::getenv("HOME");
  ASSERT_TRUE(home && *home);
  std::string canary = std::string(home) + "/.impact-confine-canary-" + std::to_string(::getpid());
  std::ofstream(canary) << "original\n";
  std::string created = std::string(home) + "/.impact-confine-created-" + std::to_string(::getpid());
  Hostile h("homewrite", "plants a file in the user's home",
            "def _attempt(spec):\n    out = []\n    for path in spec.target.split(\"|\"):\n        try:\n"
            "            with open(path, \"w\") as f:\n                f.write(\"pwned\")\n            out.append(\"written\")\n"
            "        except OSError:\n            out.append(\"refused\")\n    return \"__\".join(out)\n");
  h.emit("{\"target\": \"" + canary + "|" + created + "\"}");
  std::ifstream in(canary);
  std::stringstream ss;
  ss << in.rdbuf();
  fs::remove(canary);
  bool planted = fs::exists(created);
  fs::remove(created);
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  EXPECT_EQ(h.kernelName("homewrite"), "homewrite__refused__refused") << h.family("homewrite").dump(1);
  EXPECT_EQ(ss.str(), "original\n");
  EXPECT_FALSE(planted);
  h.othersBuilt();
}

TEST(EmitConfine, AForkBombFailsItsFamilyNamingTheProcessLimit) {
  auto here = sandboxHere();
  if (!here.is_object() || !here["limits"]["processes"].is_number())
    GTEST_SKIP() << "this kernel offers no user namespace: RLIMIT_NPROC cannot be scoped to the child here";
  Hostile h("forkbomb", "forks until refused",
            "def _attempt(spec):\n    import time\n    while True:\n        if os.fork() == 0:\n"
            "            time.sleep(60)\n            os._exit(0)\n");
  h.emit("{}");
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  const auto& f = h.family("forkbomb");
  EXPECT_EQ(f["head"]["status"], "failed") << f.dump(1);
  EXPECT_NE(f["head"].value("error", "").find("the process limit (64 processes and threads, RLIMIT_NPROC) was hit"),
            std::string::npos) << f.dump(1);
  h.othersBuilt();
}

TEST(EmitConfine, AllocatingEightGibFailsItsFamilyNamingTheMemoryLimit) {
  Hostile h("hog", "allocates 8 GiB",
            "def _attempt(spec):\n    block = bytearray(8 << 30)\n    return str(len(block))\n");
  h.emit("{}");
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  const auto& f = h.family("hog");
  EXPECT_EQ(f["head"]["status"], "failed") << f.dump(1);
  EXPECT_NE(f["head"].value("error", "").find("the memory limit (4 GiB of address space, RLIMIT_AS; --family-memory) was hit"),
            std::string::npos) << f.dump(1);
  h.othersBuilt();
}

TEST(EmitConfine, WritingAOneGibFileFailsItsFamilyNamingTheFileSizeLimit) {
  Hostile h("diskfill", "writes a 1 GiB file into its scratch",
            "def _attempt(spec):\n    chunk = b\"\\0\" * (1 << 20)\n"
            "    with open(os.path.join(os.environ[\"TMPDIR\"], \"fill\"), \"wb\") as f:\n"
            "        for _ in range(1024):\n            f.write(chunk)\n    return \"written\"\n");
  h.emit("{}");
  ASSERT_EQ(h.run.exitCode, 0) << h.run.err;
  const auto& f = h.family("diskfill");
  EXPECT_EQ(f["head"]["status"], "failed") << f.dump(1);
  EXPECT_NE(f["head"].value("error", "").find("the file-size limit (256 MiB, RLIMIT_FSIZE) was hit"), std::string::npos)
      << f.dump(1);
  h.othersBuilt();
}

}  // namespace
}  // namespace impact::testing
