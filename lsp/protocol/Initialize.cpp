#include "protocol/Initialize.h"

#include <algorithm>
#include <filesystem>

#include "llvm/Support/LSP/Protocol.h"
#include "protocol/Features.h"

namespace impact::lsp {

namespace json = llvm::json;
namespace L = llvm::lsp;

std::string againstRoot(const std::string& path, const std::string& root) {
  if (path.empty()) return path;
  std::filesystem::path p(path);
  if (!p.is_relative()) return path;  // as given
  // "../cache" from the root: the folder beside the workspace, spelled without the "..".
  if (!root.empty()) p = (std::filesystem::path(root) / p).lexically_normal();
  std::error_code ec;
  return std::filesystem::absolute(p, ec).string();
}

namespace {

std::string fileOfUri(llvm::StringRef uri) {
  auto f = L::URIForFile::fromURI(uri);
  if (f) return f->file().str();
  llvm::consumeError(f.takeError());
  return "";
}

std::string workspaceRoot(const json::Object& o) {
  std::string root;
  if (auto u = o.getString("rootUri")) root = fileOfUri(*u);
  if (root.empty())
    if (const json::Array* wf = o.getArray("workspaceFolders"); wf && !wf->empty())
      if (const json::Object* f0 = (*wf)[0].getAsObject())
        if (auto u = f0->getString("uri")) root = fileOfUri(*u);
  if (root.empty())
    if (auto p = o.getString("rootPath")) root = p->str();
  return root;
}

void readOptions(const json::Object& io, ClientSetup& s) {
  server::Options& opts = s.options;
  if (auto t = io.getString("target")) s.target = t->str();
  // The emitter runs repository code: only when the client says the workspace is trusted.
  if (auto e = io.getString("emitter")) opts.emitter = server::emitterModeFrom(e->str());
  if (auto ms = io.getInteger("emitterDebounceMs")) opts.emitterDebounce = std::chrono::milliseconds(std::max<int64_t>(0, *ms));
  if (auto h = io.getBoolean("emitterHints")) opts.emitterHints = *h;
  if (auto b = io.getNumber("emitterFamilyTimeoutS")) opts.emitterFamilyBudget = std::max(0.1, *b);
  // A relative emitterCache is the workspace's (the emitter's children run in a home of their own).
  if (auto c = io.getString("emitterCache")) opts.emitterCache = againstRoot(c->str(), s.root);
  if (auto d = io.getString("diagnostics")) s.diagnosticsMode = d->str();
}

void readCapabilities(const json::Object& caps, ClientSetup& s) {
  if (const json::Object* td = caps.getObject("textDocument"))
    if (const json::Object* h = td->getObject("hover"))
      if (const json::Array* fmts = h->getArray("contentFormat"))
        s.hoverMarkdown = !fmts->empty() && (*fmts)[0].getAsString() == std::optional<llvm::StringRef>("markdown");
  if (const json::Object* ws = caps.getObject("workspace")) {
    if (const json::Object* w = ws->getObject("didChangeWatchedFiles"))
      s.watchDynamic = w->getBoolean("dynamicRegistration").value_or(false);
    auto refreshes = [ws](const char* what) {
      const json::Object* c = ws->getObject(what);
      return c && c->getBoolean("refreshSupport").value_or(false);
    };
    s.refreshHints = refreshes("inlayHint");
    s.refreshLenses = refreshes("codeLens");
    s.refreshDiagnostics = refreshes("diagnostics");
  }
  if (const json::Object* win = caps.getObject("window")) {
    s.workDoneProgress = win->getBoolean("workDoneProgress").value_or(false);
    if (const json::Object* sd = win->getObject("showDocument")) s.showDocument = sd->getBoolean("support").value_or(false);
  }
  if (const json::Object* g = caps.getObject("general"))
    if (const json::Object* sr = g->getObject("staleRequestSupport")) s.staleCancel = sr->getBoolean("cancel").value_or(false);
}

}  // namespace

ClientSetup readInitialize(const json::Object& params) {
  ClientSetup s;
  s.root = workspaceRoot(params);
  if (const json::Object* io = params.getObject("initializationOptions")) readOptions(*io, s);
  if (const json::Object* caps = params.getObject("capabilities")) readCapabilities(*caps, s);
  return s;
}

json::Object serverCapabilities(bool pull) {
  json::Object caps{
      {"positionEncoding", "utf-16"},
      {"textDocumentSync", json::Object{{"openClose", true}, {"change", 2}, {"save", json::Object{{"includeText", false}}}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"codeActionProvider", json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
      {"executeCommandProvider", json::Object{{"commands", json::Array{"impact.run", "impact.refs", "impact.emit", "impact.showMirror"}}}},
  };
  addFeatureCapabilities(caps, pull);
  return caps;
}

}  // namespace impact::lsp
