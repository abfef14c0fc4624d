#include "lsp/LspClient.h"

#include "support/FixtureRepo.h"

#include <cctype>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace impact::testing {

namespace {
void writeAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the server is gone (EPIPE): the test will notice by its answers
    done += static_cast<size_t>(n);
  }
}
}  // namespace

// Percent-encoded as editors send it (RFC 3986: unreserved characters and '/' as they are).
std::string fileUri(const std::string& path) {
  std::string out = "file://";
  for (unsigned char ch : path) {
    if (std::isalnum(ch) || ch == '/' || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += "0123456789ABCDEF"[ch >> 4];
      out += "0123456789ABCDEF"[ch & 15];
    }
  }
  return out;
}
Json pos(int line, int character) { return {{"line", line}, {"character", character}}; }
Json range(int l1, int c1, int l2, int c2) { return {{"start", pos(l1, c1)}, {"end", pos(l2, c2)}}; }

LspClient::LspClient(std::vector<std::string> args) {
  static bool ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);  // a write to a server that has exited must not kill the test
    return true;
  }();
  (void)ignored;
  int inPipe[2], outPipe[2], errPipe[2];
  if (::pipe2(inPipe, O_CLOEXEC) || ::pipe2(outPipe, O_CLOEXEC) || ::pipe2(errPipe, O_CLOEXEC))
    throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, inPipe[0], 0);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, errPipe[1], 2);
  std::string bin = std::string(IMPACT_BIN_DIR) + "/impactd";
  std::vector<std::string> argv{bin};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int rc = posix_spawn(&pid_, bin.c_str(), &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(inPipe[0]);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  in_ = inPipe[1];
  out_ = outPipe[0];
  err_ = errPipe[0];
  if (rc != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start " + bin + ": " + std::strerror(rc));
  }
  reader_ = std::thread([this] { readLoop(); });
  errReader_ = std::thread([this] { errLoop(); });
}

LspClient::~LspClient() {
  closeInput();
  if (!waitExit(2000ms)) {
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  if (reader_.joinable()) reader_.join();
  if (errReader_.joinable()) errReader_.join();
  if (out_ >= 0) ::close(out_);
  if (err_ >= 0) ::close(err_);
}

void LspClient::reap(bool block) {
  if (pid_ < 0 || exitCode_) return;
  int st = 0;
  pid_t r = ::waitpid(pid_, &st, block ? 0 : WNOHANG);
  if (r == pid_) exitCode_ = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? -WTERMSIG(st) : -1000;
}

std::optional<int> LspClient::waitExit(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    reap(false);
    if (exitCode_ || Clock::now() >= deadline) return exitCode_;
    std::this_thread::sleep_for(10ms);
  }
}

// ----- writing -----

void LspClient::sendRaw(const std::string& bytes) {
  std::lock_guard<std::mutex> lock(writeMu_);
  if (in_ >= 0) writeAll(in_, bytes);
}

void LspClient::sendBody(const std::string& body) {
  sendRaw("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

void LspClient::send(const Json& message) { sendBody(message.dump()); }

int LspClient::request(const std::string& method, Json params) {
  int id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = ++nextId_;
  }
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

void LspClient::notify(const std::string& method, Json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void LspClient::closeInput() {
  std::lock_guard<std::mutex> lock(writeMu_);
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

// ----- reading -----

void LspClient::readLoop() {
  std::string buf;
  char chunk[65536];
  for (;;) {
    // Take every complete frame out of buf.
    for (;;) {
      size_t hdrEnd = buf.find("\r\n\r\n");
      if (hdrEnd == std::string::npos) break;
      size_t cl = buf.find("Content-Length:");
      if (cl == std::string::npos || cl > hdrEnd) {
        buf.erase(0, hdrEnd + 4);
        continue;
      }
      size_t len = std::strtoull(buf.c_str() + cl + 15, nullptr, 10);
      if (buf.size() < hdrEnd + 4 + len) break;
      std::string body = buf.substr(hdrEnd + 4, len);
      buf.erase(0, hdrEnd + 4 + len);
      Json msg = Json::parse(body, nullptr, /*allow_exceptions=*/false);
      if (msg.is_discarded()) msg = Json{{"unparsable", body}};
      // A request from the server: answer it so that it is never left waiting.
      if (autoReply && msg.is_object() && msg.contains("method") && msg.contains("id"))
        send({{"jsonrpc", "2.0"}, {"id", msg["id"]}, {"result", nullptr}});
      {
        std::lock_guard<std::mutex> lock(mu_);
        received_.push_back(std::move(msg));
      }
      cv_.notify_all();
    }
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buf.append(chunk, static_cast<size_t>(n));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    eof_ = true;
  }
  cv_.notify_all();
}

void LspClient::errLoop() {
  char chunk[4096];
  for (;;) {
    ssize_t n = ::read(err_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard<std::mutex> lock(mu_);
    stderr_.append(chunk, static_cast<size_t>(n));
  }
}

std::optional<Json> LspClient::waitFor(const std::function<bool(const Json&)>& pred, size_t* from,
                                       std::chrono::milliseconds timeout) {
  size_t start = from ? *from : 0;
  auto deadline = Clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    for (size_t i = start; i < received_.size(); ++i)
      if (pred(received_[i])) {
        if (from) *from = i + 1;
        return received_[i];
      }
    start = received_.size();
    if (eof_) return std::nullopt;
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
      for (size_t i = start; i < received_.size(); ++i)
        if (pred(received_[i])) {
          if (from) *from = i + 1;
          return received_[i];
        }
      return std::nullopt;
    }
  }
}

std::optional<Json> LspClient::response(int id, std::chrono::milliseconds timeout) {
  size_t from = 0;
  return waitFor(
      [id](const Json& m) {
        return m.is_object() && !m.contains("method") && m.contains("id") && m["id"] == Json(id);
      },
      &from, timeout);
}

std::optional<Json> LspClient::waitMethod(const std::string& method, size_t* from,
                                          const std::function<bool(const Json&)>& pred,
                                          std::chrono::milliseconds timeout) {
  return waitFor(
      [&](const Json& m) {
        if (!m.is_object() || m.value("method", "") != method) return false;
        return !pred || pred(m.contains("params") ? m["params"] : Json());
      },
      from, timeout);
}

size_t LspClient::mark() {
  std::lock_guard<std::mutex> lock(mu_);
  return received_.size();
}

std::vector<Json> LspClient::messages() {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

std::string LspClient::stderrText() {
  std::lock_guard<std::mutex> lock(mu_);
  return stderr_;
}

// ----- the usual session -----

Json LspClient::initialize(const std::string& root, Json options, Json capabilities) {
  if (capabilities.is_null())
    capabilities = {
        {"textDocument", {{"hover", {{"contentFormat", {"markdown", "plaintext"}}}}}},
        {"window", {{"workDoneProgress", true}, {"showDocument", {{"support", true}}}}},
    };
  Json params{{"processId", nullptr}, {"rootUri", fileUri(root)}, {"capabilities", capabilities}};
  if (!options.is_null()) params["initializationOptions"] = options;
  int id = request("initialize", params);
  auto r = response(id);
  notify("initialized");
  return r ? *r : Json();
}

void LspClient::shutdownAndExit() {
  int id = request("shutdown", nullptr);
  response(id);
  notify("exit");
}

}  // namespace impact::testing
