// workspace/executeCommand (impact.showMirror, impact.peekCopies, impact.emit, impact.refs,
// impact.run) and the emitter's and geometry's runs as work-done progress: the protocol side of the
// server API's commands (LSPServerImpl.h).
#include "protocol/LSPServerImpl.h"

#include "protocol/Convert.h"

namespace impact::lsp {

void LSPServer::executeCommand(const ExecuteCommandParams& p, json::Value id) {
  const json::Object* arg = p.arguments.empty() ? nullptr : p.arguments[0].getAsObject();
  if (p.command == "impact.showMirror") {
    if (!arg) return replyError(id, kInvalidParams, "impact.showMirror takes {uri, range}");
    auto uri = arg->getString("uri");
    L::Range range;
    json::Path::Root root;
    const json::Value* r = arg->get("range");
    if (!uri || !r || !L::fromJSON(*r, range, root)) {
      if (!uri || !r) return replyError(id, kInvalidParams, "impact.showMirror takes {uri, range}");
      return replyError(id, kInvalidParams, "impact.showMirror: invalid range");
    }
    call("window/showDocument", toJSON(ShowDocumentParams{uri->str(), range, true}));
    return send(id, json::Value(nullptr));
  }
  if (p.command == "impact.peekCopies") {
    // A client that cannot peek (the command is the code lens's): the first copy is shown.
    const json::Array* locs = arg ? arg->getArray("locations") : nullptr;
    const json::Object* first = locs && !locs->empty() ? (*locs)[0].getAsObject() : nullptr;
    L::Range range;
    json::Path::Root root;
    auto uri = first ? first->getString("uri") : std::nullopt;
    const json::Value* r = first ? first->get("range") : nullptr;
    if (!uri || !r || !L::fromJSON(*r, range, root)) return replyError(id, kInvalidParams, "impact.peekCopies takes {uri, position, locations}");
    call("window/showDocument", toJSON(ShowDocumentParams{uri->str(), range, true}));
    return send(id, json::Value(nullptr));
  }
  if (p.command == "impact.emit") {
    auto reply = replier(id);
    return server_->runEmitter([reply](std::string summary, std::string error) mutable {
      if (!error.empty()) return reply(llvm::make_error<L::LSPError>("impact.emit: " + error, L::ErrorCode(kRequestFailed)));
      reply(json::Value(json::Object{{"summary", summary}}));
    });
  }
  if (p.command == "impact.refs") {
    auto reply = replier(id);
    return server_->refs([reply](std::optional<server::RefsResult> r, std::string error) mutable {
      if (!r) return reply(llvm::make_error<L::LSPError>("impact.refs: " + error, L::ErrorCode(kRequestFailed)));
      reply(toJSON(*r));
    });
  }
  if (p.command != "impact.run") return replyError(id, kInvalidParams, "unknown command: " + p.command);
  server::RunRequest req;
  if (arg) {
    req.base = arg->getString("base").value_or("").str();
    req.head = arg->getString("head").value_or("").str();
    req.targetTip = arg->getString("targetTip").value_or("").str();
  }
  auto reply = replier(id);
  auto cancelled = cancelFlag(id);
  std::optional<json::Value> token = p.workDoneToken;
  if (!token && client_.workDoneProgress) {
    token = json::Value(llvm::formatv("impact.run-{0}", ++progressSeq_).str());
    call("window/workDoneProgress/create", json::Object{{"token", *token}});
  }
  if (token) notify("$/progress", progressParams(*token, "begin", "impact", "starting"));
  server_->runImpact(
      req,
      [this, token](const std::string& msg) {
        if (token) notify("$/progress", progressParams(*token, "report", "", msg));
      },
      cancelled,
      [this, token, reply](std::optional<server::RunResult> r, std::string error) mutable {
        if (token) notify("$/progress", progressParams(*token, "end", "", r ? "done" : error));
        if (!r) return reply(llvm::make_error<L::LSPError>("impact.run: " + error, L::ErrorCode(kRequestFailed)));
        json::Value report = nullptr;
        if (auto parsed = json::parse(r->json)) report = std::move(*parsed);
        else llvm::consumeError(parsed.takeError());
        addLocations(report, r->rows);
        reply(json::Value(json::Object{{"text", r->text}, {"report", std::move(report)}}));
      });
}

void LSPServer::emitProgress(const server::EmitProgress& p) {
  using K = server::EmitProgress::Kind;
  const bool geometry = p.task == server::EmitProgress::Task::Geometry;
  json::Value token = nullptr;
  {
    std::lock_guard<std::mutex> lock(emitMu_);
    if (p.kind == K::Begin) {
      if (!client_.workDoneProgress) return;
      emitTokens_.insert_or_assign(
          std::pair{p.task, p.run},
          json::Value(llvm::formatv(geometry ? "impact.geometry-{0}" : "impact.emit-{0}", p.run).str()));
    }
    auto it = emitTokens_.find(std::pair{p.task, p.run});
    if (it == emitTokens_.end()) return;
    token = it->second;
    if (p.kind == K::End) emitTokens_.erase(it);
  }
  json::Object value;
  if (p.kind == K::Begin) {
    call("window/workDoneProgress/create", json::Object{{"token", token}});
    value = json::Object{{"kind", "begin"}, {"title", geometry ? "impactd geometry" : "impactd emitter"},
                         {"cancellable", true}, {"percentage", 0},
                         {"message", p.message}};
  } else if (p.kind == K::Report) {
    value = json::Object{{"kind", "report"}, {"cancellable", true}, {"message", p.message}};
    if (p.total) value["percentage"] = int64_t(p.done * 100 / p.total);
  } else {
    value = json::Object{{"kind", "end"}, {"message", p.message}};
  }
  notify("$/progress", json::Object{{"token", token}, {"value", std::move(value)}});
}

}  // namespace impact::lsp
