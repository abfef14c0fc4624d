// libFuzzer target: the language server's whole input path, as clangd's fuzzer drives its
// transport. Bytes -> frame reader -> JSON -> dispatch -> the server API, on a small fixture
// workspace (the bundled example monorepo committed in /tmp/impactd-fuzz-workspace, created
// once per process; seeds name its files by URI).
//
// Each input is written to the server's stdin after an initialize/initialized pair for the
// fixture, followed by a barrier request (a hover): the harness waits (at most 150 ms) for
// the barrier's answer, so that the work the input queued on the server's worker has run,
// then ends the input and waits for the server to return.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "protocol/LSPServer.h"

namespace {

const char* const kRoot = "/tmp/impactd-fuzz-workspace";

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

void writeAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string cmd = std::string("rm -rf ") + kRoot + " && mkdir -p " + kRoot + " && cp -R " IMPACT_EXAMPLE_DIR
                    "/monorepo/. " + kRoot + " && cd " + kRoot +
                    " && git init -q -b main && git add -A && git -c user.name=fuzz -c user.email=fuzz@example.com"
                    " commit -qm base && git checkout -q -b feature";
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "FuzzLspInput: could not create the fixture workspace %s\n", kRoot);
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) std::abort();
  FILE* inF = fdopen(in[0], "r");
  FILE* outF = fdopen(out[1], "w");

  std::atomic<bool> done{false};
  std::thread server([&] {
    impact::lsp::ServerConfig cfg;
    cfg.gitPoll = std::chrono::minutes(10);
    impact::lsp::runLanguageServer(inF, outF, cfg);
    done = true;
  });

  std::mutex mu;
  std::string output;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) {
      std::lock_guard<std::mutex> lock(mu);
      output.append(buf, static_cast<size_t>(n));
    }
  });

  std::string root = std::string("file://") + kRoot;
  std::string pre =
      frame(R"({"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"rootUri":")" + root +
            R"(","initializationOptions":{"target":"main"},"capabilities":{"window":{"workDoneProgress":true}}}})") +
      frame(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  std::string barrier = frame(
      R"({"jsonrpc":"2.0","id":"fuzz-barrier","method":"textDocument/hover","params":{"textDocument":{"uri":")" + root +
      R"(/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py"},"position":{"line":0,"character":0}}})");
  writeAll(in[1], pre.data(), pre.size());
  writeAll(in[1], reinterpret_cast<const char*>(data), size);
  writeAll(in[1], barrier.data(), barrier.size());

  for (int waited = 0; waited < 150 && !done; waited += 2) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (output.find("\"fuzz-barrier\"") != std::string::npos) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::close(in[1]);
  server.join();
  std::fclose(inF);
  std::fclose(outF);
  reader.join();
  ::close(out[0]);
  return 0;
}
