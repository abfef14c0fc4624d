// The read loop, dispatch, lifecycle (initialize, shutdown, exit), cancellation, documents and
// requests of the protocol layer (LSPServerImpl.h); the commands are in Commands.cpp.
#include "protocol/LSPServerImpl.h"

#include "llvm/Support/LSP/Logging.h"
#include "protocol/Convert.h"
#include "protocol/Features.h"
#include "protocol/Validate.h"
#include "cache/DiskCache.h"
#include "server/OwnedThread.h"

namespace impact::lsp {

using server::ImpactServer;

namespace {
// LSP messages nest a dozen levels; the JSON parser recurses per level.
constexpr size_t kMaxNesting = 256;
}  // namespace

int LSPServer::run() {
  std::string problem;
  while (!exitRequested_) {
    auto body = reader_.next(problem);
    if (!body) {  // end of input: how, when it was early
      log(Level::Error, !problem.empty() ? problem : "the input ended without an exit notification");
      break;
    }
    if (!problem.empty()) {
      log(Level::Error, problem);
      continue;
    }
    if (!isUtf8Charset(reader_.charset())) {
      refuseCharset(*body);
      continue;
    }
    if (size_t at = 0; !json::isUTF8(*body, &at)) {
      // A client that sends bytes that are not UTF-8 (a document in Latin-1, say): read them
      // as U+FFFD rather than losing the whole message, so the document stays in step.
      log(Level::Error, "a message with invalid UTF-8 (at byte " + std::to_string(at) + ") was repaired");
      *body = json::fixUTF8(*body);
    }
    if (jsonNesting(*body, kMaxNesting) > kMaxNesting) {
      log(Level::Error, "a message nested deeper than " + std::to_string(kMaxNesting) + " levels was refused");
      replyError(nullptr, kParseError, "parse error: nested deeper than " + std::to_string(kMaxNesting) + " levels");
      continue;
    }
    auto doc = json::parse(*body);
    if (!doc) {
      std::string err = llvm::toString(doc.takeError());
      log(Level::Error, "JSON parse error: " + err);
      replyError(nullptr, kParseError, "parse error: " + err);
      continue;
    }
    try {
      dispatch(std::move(*doc));
    } catch (const std::exception& e) {
      log(Level::Error, std::string("internal error: ") + e.what());
    } catch (...) {
      log(Level::Error, "internal error");
    }
  }
  releaseHolds();
  const int code = exitRequested_ && shutdown_ ? 0 : 1;
  // Stops the worker and every run before the transport goes away, waiting for none of them
  // past the deadline (issue 37): one that is still running then is left, with the server's
  // state, and the process ends with _Exit (lsp/main.cpp).
  if (server_ && !server_->stop(std::chrono::steady_clock::now() + ImpactServer::kShutdownWait)) {
    log(Level::Error, std::to_string(server::threadsLeftRunning().load()) +
                          " thread(s) still running at the shutdown's deadline (a read or a git operation that "
                          "does not return); exiting without them");
    (void)server_.release();
    leftRunning_ = true;
  }
  server_.reset();
  std::fflush(stderr);
  return code;
}

std::function<void(llvm::Expected<json::Value>)> LSPServer::replier(json::Value id, std::string path) {
  auto p = std::make_shared<Pending>();
  {
    std::lock_guard<std::mutex> lock(pendingMu_);
    pending_[idKey(id)] = p;
  }
  int64_t epoch = path.empty() || !server_ ? 0 : server_->documentEpoch(path);
  return [this, id, p, path, epoch](llvm::Expected<json::Value> result) mutable {
    {
      std::lock_guard<std::mutex> lock(pendingMu_);
      pending_.erase(idKey(id));
    }
    if (p->cancelled) {
      if (!result) llvm::consumeError(result.takeError());
      return replyError(id, kRequestCancelled, "request cancelled");
    }
    if (client_.staleCancel && !path.empty() && server_ && server_->documentEpoch(path) != epoch) {
      if (!result) llvm::consumeError(result.takeError());
      return replyError(id, kContentModified, "the document changed before the answer was ready");
    }
    send(id, std::move(result));
  };
}

std::function<bool()> LSPServer::cancelFlag(const json::Value& id) {
  std::lock_guard<std::mutex> lock(pendingMu_);
  auto it = pending_.find(idKey(id));
  if (it == pending_.end()) return [] { return false; };
  auto p = it->second;
  return [p] { return p->cancelled.load(); };
}

void LSPServer::dispatch(json::Value msg) {
  json::Object* o = msg.getAsObject();
  if (!o) {
    log(Level::Error, "a message that is not a JSON object was ignored");
    return replyError(nullptr, kInvalidRequest, "a JSON-RPC message is an object");
  }
  std::optional<json::Value> id;
  if (json::Value* i = o->get("id")) id = *i;
  // JSON-RPC 2.0 / LSP: an id is a number or a string; any other is an Invalid Request whose
  // answer has id null (it cannot be echoed).
  if (id && !validId(*id)) {
    log(Level::Error, "a message whose id is not a number or a string was refused");
    return replyError(nullptr, kInvalidRequest, "\"id\" must be a number or a string");
  }
  std::optional<llvm::StringRef> method = o->getString("method");
  if (!method && o->get("method")) {
    log(Level::Error, "a message whose method is not a string was refused");
    return replyError(id ? *id : json::Value(nullptr), kInvalidRequest, "\"method\" must be a string");
  }
  if (!method) {
    // A response (to showDocument, registerCapability, progress create) or junk.
    if (!id) log(Level::Error, "a message with neither method nor id was ignored");
    return;
  }
  if (o->getString("jsonrpc") != std::optional<llvm::StringRef>("2.0")) {
    log(Level::Error, "a message without \"jsonrpc\": \"2.0\" was refused: " + method->str());
    if (id) replyError(*id, kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
    return;
  }
  json::Value params = nullptr;
  if (json::Value* p = o->get("params")) params = *p;
  // Positions and lengths are uintegers (0 to 2^31-1): a larger value is refused, never
  // narrowed to another line (protocol/Validate.h).
  if (std::string bad = uintegerProblem(params); !bad.empty() && method != "initialize") {
    std::string what = "invalid " + method->str() + " params: " + bad;
    if (id) return replyError(*id, kInvalidParams, what);
    return log(Level::Error, what);
  }
  if (id) onRequest(method->str(), std::move(params), std::move(*id));
  else onNotification(method->str(), std::move(params));
}

void LSPServer::refuseCharset(const std::string& body) {
  std::string why = "a message in charset '" + reader_.charset() + "' was refused: only utf-8 is supported";
  log(Level::Error, why);
  json::Value id = nullptr;
  if (auto doc = json::parse(body)) {
    if (const json::Object* o = doc->getAsObject())
      if (const json::Value* i = o->get("id"); i && validId(*i)) id = *i;
  } else {
    llvm::consumeError(doc.takeError());
  }
  replyError(std::move(id), kInvalidRequest, why);
}

void LSPServer::onRequest(const std::string& method, json::Value params, json::Value id) {
  if (method == "initialize") return onInitialize(params, id);
  if (!initialized_) return replyError(id, kServerNotInitialized, "the server is not initialized: send initialize first");
  if (shutdown_) return replyError(id, kInvalidRequest, "the server is shutting down");
  if (method == "shutdown") {
    shutdown_ = true;
    releaseHolds();
    return send(id, json::Value(nullptr));
  }
  if (method == "impactd/test/hold" && cfg_.testHooks) {
    // Test hook (impactd --test-hooks): the worker waits (at most 10 s) until the
    // notification impactd/test/release, so requests sent meanwhile queue behind it.
    auto gate = std::make_shared<Gate>();
    {
      std::lock_guard<std::mutex> lock(holdMu_);
      holds_.push_back(gate);
    }
    server_->sync([gate] { gate->wait(std::chrono::seconds(10)); });
    return send(id, json::Value(nullptr));
  }
  std::string err;
  if (method == "textDocument/hover") {
    L::TextDocumentPositionParams p;
    if (!parse(params, p, err)) return replyError(id, kInvalidParams, "invalid hover params: " + err);
    std::string path = p.textDocument.uri.file().str();
    auto reply = replier(id, path);
    bool md = client_.hoverMarkdown;
    return server_->hover(path, fromLsp(p.position), [reply, md](std::optional<server::HoverInfo> h) mutable {
      if (!h) return reply(json::Value(nullptr));
      reply(json::Value(json::Object{
          {"contents", json::Object{{"kind", md ? "markdown" : "plaintext"}, {"value", md ? h->markdown : h->plaintext}}},
          {"range", L::toJSON(toLsp(h->range))}}));
    });
  }
  if (method == "textDocument/definition" || method == "textDocument/references") {
    L::TextDocumentPositionParams p;
    if (!parse(params, p, err)) return replyError(id, kInvalidParams, "invalid " + method + " params: " + err);
    std::string path = p.textDocument.uri.file().str();
    auto reply = replier(id, path);
    auto done = [reply](std::vector<server::FileLoc> locs) mutable {
      json::Array out;
      for (const auto& l : locs)
        out.push_back(json::Object{{"uri", uriOf(l.path)}, {"range", L::toJSON(toLsp(l.range))}});
      reply(json::Value(std::move(out)));
    };
    if (method == "textDocument/definition") return server_->definition(path, fromLsp(p.position), std::move(done));
    return server_->references(path, fromLsp(p.position), std::move(done));
  }
  if (method == "textDocument/codeAction") {
    L::CodeActionParams p;
    if (!parse(params, p, err)) return replyError(id, kInvalidParams, "invalid codeAction params: " + err);
    std::string path = p.textDocument.uri.file().str();
    auto reply = replier(id, path);
    return server_->codeActions(path, fromLsp(p.range), [reply](std::vector<server::Action> actions) mutable {
      json::Array out;
      for (const auto& a : actions) out.push_back(toJSON(toProtocol(a)));
      reply(json::Value(std::move(out)));
    });
  }
  if (method == "workspace/executeCommand") {
    ExecuteCommandParams p;
    if (!parse(params, p, err)) return replyError(id, kInvalidParams, "invalid executeCommand params: " + err);
    return executeCommand(p, id);
  }
  if (isFeatureRequest(method))  // issue 38: hints, lenses, symbols, pull diagnostics, rename
    return handleFeatureRequest(*server_, method, params, FeatureOptions{client_.hoverMarkdown}, replier(id, featureDocumentPath(params)));
  replyError(id, kMethodNotFound, "method not found: " + method);
}

void LSPServer::onNotification(const std::string& method, json::Value params) {
  if (method == "exit") {
    exitRequested_ = true;
    return;
  }
  if (method == "impactd/test/release" && cfg_.testHooks) return releaseHolds();
  if (method == "$/cancelRequest") {
    if (const json::Object* o = params.getAsObject())
      if (const json::Value* i = o->get("id")) {
        std::lock_guard<std::mutex> lock(pendingMu_);
        if (auto it = pending_.find(idKey(*i)); it != pending_.end()) it->second->cancelled = true;
      }
    return;
  }
  if (!initialized_ || shutdown_) return;  // LSP: notifications before initialize are dropped
  if (method == "window/workDoneProgress/cancel") {
    if (const json::Object* o = params.getAsObject())
      if (const json::Value* t = o->get("token")) {
        std::lock_guard<std::mutex> lock(emitMu_);
        for (const auto& [run, token] : emitTokens_)
          if (token == *t) run.first == server::EmitProgress::Task::Geometry ? server_->cancelGeometry() : server_->cancelEmitter();
      }
    return;
  }
  std::string err;
  auto bad = [&](const std::string& what) { log(Level::Error, "invalid " + method + " params: " + what); };
  if (method == "initialized") return onInitialized();
  if (method == "textDocument/didOpen") {
    L::DidOpenTextDocumentParams p;
    if (!parse(params, p, err)) return bad(err);
    return server_->didOpen(p.textDocument.uri.file().str(), p.textDocument.text, p.textDocument.version);
  }
  if (method == "textDocument/didChange") {
    L::DidChangeTextDocumentParams p;
    if (!parse(params, p, err)) return bad(err);
    std::vector<server::ContentChange> changes;
    for (const auto& c : p.contentChanges) {
      server::ContentChange cc;
      if (c.range) cc.range = fromLsp(*c.range);
      cc.text = c.text;
      changes.push_back(std::move(cc));
    }
    return server_->didChange(p.textDocument.uri.file().str(), std::move(changes), p.textDocument.version);
  }
  if (method == "textDocument/didClose") {
    L::DidCloseTextDocumentParams p;
    if (!parse(params, p, err)) return bad(err);
    return server_->didClose(p.textDocument.uri.file().str());
  }
  if (method == "textDocument/didSave") {
    DidSaveTextDocumentParams p;
    if (!parse(params, p, err)) return bad(err);
    return server_->didSave(p.textDocument.uri.file().str());
  }
  if (method == "workspace/didChangeWatchedFiles") {
    DidChangeWatchedFilesParams p;
    if (!parse(params, p, err)) return bad(err);
    std::vector<std::string> paths;
    for (const auto& e : p.changes) {
      auto u = L::URIForFile::fromURI(e.uri);
      if (!u) {
        llvm::consumeError(u.takeError());
        continue;
      }
      paths.push_back(u->file().str());
    }
    return server_->filesChanged(paths);
  }
  if (method == "workspace/didChangeConfiguration") {
    if (const json::Object* o = params.getAsObject())
      if (const json::Object* s = o->getObject("settings"))
        if (const json::Object* i = s->getObject("impactd"))
          if (auto t = i->getString("target")) server_->setTarget(t->str());
    return;
  }
  // $/setTrace and others: nothing to do.
}

void LSPServer::onInitialize(const json::Value& params, json::Value id) {
  if (initialized_) return replyError(id, kInvalidRequest, "initialize was already sent");
  const json::Object* o = params.getAsObject();
  if (!o) return replyError(id, kInvalidParams, "initialize params must be an object");
  client_ = readInitialize(*o);
  server::Options opts = client_.options;

  server::Callbacks cb;
  cb.publish = [this](const std::string& path, const std::vector<server::Diag>& diags, std::optional<int64_t> version) {
    if (client_.diagnosticsMode == "pull") return;  // the client asks (textDocument/diagnostic)
    json::Array arr;
    for (const auto& d : diags) arr.push_back(toJSON(toProtocol(d)));
    json::Object p{{"uri", uriOf(path)}, {"diagnostics", std::move(arr)}};
    if (version) p["version"] = *version;
    notify("textDocument/publishDiagnostics", std::move(p));
  };
  cb.showMessage = [this](server::Severity s, const std::string& m) {
    notify("window/showMessage", json::Object{{"type", int(s)}, {"message", m}});
  };
  cb.log = [this](const std::string& m) { log(Level::Info, m); };
  cb.status = [this](const server::ServerStatus& st) {
    notify("impactd/status", toJSON(StatusParams{server::stateName(st.state), st.mismatches, st.changed, st.message,
                                                 st.emitting, st.geometry}));
  };
  cb.emitProgress = [this](const server::EmitProgress& p) { emitProgress(p); };
  cb.refresh = [this](bool hints, bool diagnostics) {
    if (hints && client_.refreshHints) call("workspace/inlayHint/refresh", nullptr);
    if (hints && client_.refreshLenses) call("workspace/codeLens/refresh", nullptr);
    if (diagnostics && client_.refreshDiagnostics && client_.diagnosticsMode != "push") call("workspace/diagnostic/refresh", nullptr);
  };
  opts.gitPoll = cfg_.gitPoll;
  if (!cfg_.noCache) opts.cacheDir = cfg_.cacheDir.empty() ? DiskCache::defaultDir() : cfg_.cacheDir;
  server_ = std::make_unique<ImpactServer>(std::move(cb), opts);
  initialized_ = true;

  json::Object caps = serverCapabilities(client_.diagnosticsMode != "push");
  send(id, json::Value(json::Object{{"capabilities", std::move(caps)},
                                    {"serverInfo", json::Object{{"name", "impactd"}, {"version", IMPACT_VERSION}}}}));
  // After the answer: impactd/status (starting, then the analysis) follows it. An empty root
  // is a problem the server reports (showMessage and the status).
  server_->initialize(client_.root, client_.target);
}

void LSPServer::onInitialized() {
  if (!client_.watchDynamic) return;
  json::Array watchers;
  for (const char* g : {"**/*.py", "**/*.{cpp,hpp,h,cc,hh}", "**/*.json", "**/*.{yaml,yml}"})
    watchers.push_back(json::Object{{"globPattern", g}});
  call("client/registerCapability",
       json::Object{{"registrations", json::Array{json::Object{
                        {"id", "impactd-watched-files"},
                        {"method", "workspace/didChangeWatchedFiles"},
                        {"registerOptions", json::Object{{"watchers", std::move(watchers)}}}}}}});
}

int runLanguageServer(std::FILE* in, std::FILE* out, const ServerConfig& config) {
  L::Logger::setLogLevel(config.log == ServerConfig::Log::Verbose ? L::Logger::Level::Debug
                         : config.log == ServerConfig::Log::Info  ? L::Logger::Level::Info
                                                                  : L::Logger::Level::Error);
  auto s = std::make_unique<LSPServer>(in, out, config);
  int code = s->run();
  if (s->leftRunning()) (void)s.release();  // read by a thread still running: the process ends with _Exit
  return code;
}

int threadsLeftRunning() { return server::threadsLeftRunning().load(); }

}  // namespace impact::lsp
