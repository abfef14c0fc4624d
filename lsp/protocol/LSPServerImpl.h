// The protocol layer's server object (clangd's ClangdLSPServer), internal to lsp/protocol: its
// read loop, dispatch, lifecycle, documents and requests in LSPServer.cpp; workspace/executeCommand
// and the runs' work-done progress in Commands.cpp. No analysis logic here.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"
#include "protocol/Framing.h"
#include "protocol/Initialize.h"
#include "protocol/LSPServer.h"
#include "protocol/Protocol.h"
#include "server/ImpactServer.h"

namespace impact::lsp {

class LSPServer {
 public:
  LSPServer(std::FILE* in, std::FILE* out, const ServerConfig& cfg)
      : reader_(in),
        out_(fileno(out), /*shouldClose=*/false, /*unbuffered=*/false),
        transport_(in, out_),
        cfg_(cfg) {}

  // Serves until `exit` or the end of input; the process exit code (LSPServer.h).
  int run();
  // A thread was left running (it may still call into this object): never destroyed then.
  bool leftRunning() const { return leftRunning_; }

 private:
  enum Code {
    kParseError = -32700,
    kInvalidRequest = -32600,
    kMethodNotFound = -32601,
    kInvalidParams = -32602,
    kInternalError = -32603,
    kServerNotInitialized = -32002,
    kRequestCancelled = -32800,
    kContentModified = -32801,
    kRequestFailed = -32803,
  };

  enum class Level { Error, Info, Verbose };
  void log(Level l, const std::string& s) {
    if (static_cast<int>(l) > static_cast<int>(cfg_.log)) return;
    std::lock_guard<std::mutex> lock(errMu_);
    std::fprintf(stderr, "impactd: %s\n", s.c_str());
  }

  // ----- sending -----
  void send(json::Value id, llvm::Expected<json::Value> result) {
    std::lock_guard<std::mutex> lock(outMu_);
    transport_.reply(std::move(id), std::move(result));
  }
  void replyError(json::Value id, int code, const std::string& msg) {
    send(std::move(id), llvm::make_error<L::LSPError>(msg, L::ErrorCode(code)));
  }
  void notify(llvm::StringRef method, json::Value params) {
    std::lock_guard<std::mutex> lock(outMu_);
    transport_.notify(method, std::move(params));
  }
  void call(llvm::StringRef method, json::Value params) {
    std::lock_guard<std::mutex> lock(outMu_);
    transport_.call(method, std::move(params), llvm::formatv("impactd-{0}", ++outgoing_).str());
  }

  // ----- test hooks (--test-hooks) -----
  struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    void wait(std::chrono::milliseconds limit) {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, limit, [this] { return open; });
    }
    void release() {
      {
        std::lock_guard<std::mutex> lock(mu);
        open = true;
      }
      cv.notify_all();
    }
  };
  void releaseHolds() {
    std::lock_guard<std::mutex> lock(holdMu_);
    for (auto& g : holds_) g->release();
    holds_.clear();
  }
  std::mutex holdMu_;
  std::vector<std::shared_ptr<Gate>> holds_;

  // ----- requests in flight (for $/cancelRequest and stale requests) -----
  struct Pending {
    std::atomic<bool> cancelled{false};
  };
  std::string idKey(const json::Value& id) { return llvm::formatv("{0}", id).str(); }

  // A reply function for request `id`: answers -32800 when it was cancelled, -32801 when the
  // document it read was edited since (and the client supports stale-request cancelling).
  std::function<void(llvm::Expected<json::Value>)> replier(json::Value id, std::string path = "");
  std::function<bool()> cancelFlag(const json::Value& id);

  // ----- dispatch (LSPServer.cpp) -----
  void dispatch(json::Value msg);
  // A message whose Content-Type names a charset other than UTF-8 (LSP supports no other):
  // refused, answered when it is a request.
  void refuseCharset(const std::string& body);

  template <typename T>
  bool parse(const json::Value& raw, T& out, std::string& err) {
    json::Path::Root root;
    if (fromJSON(raw, out, root)) return true;
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::toString(root.getError());
    err = os.str();
    return false;
  }

  void onRequest(const std::string& method, json::Value params, json::Value id);
  void onNotification(const std::string& method, json::Value params);
  void onInitialize(const json::Value& params, json::Value id);
  void onInitialized();

  // ----- commands and progress (Commands.cpp) -----
  // workspace/executeCommand: impact.showMirror, impact.peekCopies, impact.emit, impact.refs,
  // impact.run (with work-done progress).
  void executeCommand(const ExecuteCommandParams& p, json::Value id);
  // The emitter's and the geometry differential's runs as work-done progress, cancellable by the
  // client (window/workDoneProgress/cancel), one token per run.
  void emitProgress(const server::EmitProgress& p);

  FrameReader reader_;
  llvm::raw_fd_ostream out_;
  L::JSONTransport transport_;
  ServerConfig cfg_;
  std::mutex outMu_, errMu_, pendingMu_;
  std::map<std::string, std::shared_ptr<Pending>> pending_;
  std::mutex emitMu_;
  std::map<std::pair<server::EmitProgress::Task, uint64_t>, json::Value> emitTokens_;  // the runs in progress
  std::unique_ptr<server::ImpactServer> server_;
  bool initialized_ = false, shutdown_ = false, exitRequested_ = false, leftRunning_ = false;
  ClientSetup client_;  // what initialize said
  std::atomic<int> outgoing_{0}, progressSeq_{0};
};

}  // namespace impact::lsp
