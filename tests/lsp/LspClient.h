// A minimal LSP client for transcript tests of the real impactd binary: spawns it with pipes,
// writes Content-Length framed messages, reads the server's messages on a reader thread and
// lets a test wait (with a timeout) for a response by id or a message matching a predicate.
// The child is killed on destruction if it is still running.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace impact::testing {

using Json = nlohmann::json;
using namespace std::chrono_literals;

class LspClient {
 public:
  // Starts IMPACT_BIN_DIR/impactd with `args` (e.g. "--git-poll-ms=100").
  explicit LspClient(std::vector<std::string> args = {});
  ~LspClient();
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  // ----- writing -----
  // A request with a fresh numeric id (returned).
  int request(const std::string& method, Json params = Json::object());
  void notify(const std::string& method, Json params = Json::object());
  void send(const Json& message);               // framed
  void sendBody(const std::string& body);       // framed, any bytes
  void sendRaw(const std::string& bytes);       // as is (headers included, or garbage)
  void closeInput();                            // the end of the server's input

  // ----- reading -----
  using Clock = std::chrono::steady_clock;
  // The response to request `id` (the whole message: "result" or "error"); nullopt on timeout.
  std::optional<Json> response(int id, std::chrono::milliseconds timeout = 8000ms);
  // The first message at index >= *from satisfying pred; *from is moved past it. nullopt on a
  // timeout.
  std::optional<Json> waitFor(const std::function<bool(const Json&)>& pred, size_t* from,
                              std::chrono::milliseconds timeout = 8000ms);
  // A notification (or a request from the server) with this method and pred(params).
  std::optional<Json> waitMethod(const std::string& method, size_t* from,
                                 const std::function<bool(const Json&)>& pred = nullptr,
                                 std::chrono::milliseconds timeout = 8000ms);
  // How many messages have arrived so far (a cursor for waitFor).
  size_t mark();
  std::vector<Json> messages();
  std::string stderrText();
  // The server's process id (its /proc entry: resident memory in the chaos tests).
  pid_t pid() const { return pid_; }

  // The exit code once the process ended; nullopt if it still runs after `timeout`
  // (-signal when killed by a signal).
  std::optional<int> waitExit(std::chrono::milliseconds timeout = 5000ms);

  // ----- the usual session -----
  // initialize (rootUri = root, initializationOptions = options when not null) with the
  // capabilities given (or a default set: markdown hover, workDoneProgress, showDocument),
  // then initialized. Returns the initialize response.
  Json initialize(const std::string& root, Json options = nullptr, Json capabilities = nullptr);
  void shutdownAndExit();

  // Server requests (showDocument, registerCapability, progress create) get a null result
  // automatically unless this is false.
  bool autoReply = true;

 private:
  void readLoop();
  void errLoop();
  void reap(bool block);

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  int nextId_ = 1000;
  std::mutex writeMu_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Json> received_;
  std::string stderr_;
  bool eof_ = false;
  std::optional<int> exitCode_;
  std::thread reader_, errReader_;
};

std::string fileUri(const std::string& path);
// LSP Position / Range objects.
Json pos(int line, int character);
Json range(int l1, int c1, int l2, int c2);

}  // namespace impact::testing
