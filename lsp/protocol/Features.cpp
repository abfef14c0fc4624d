#include "protocol/Features.h"

#include "llvm/Support/LSP/Protocol.h"
#include "protocol/Convert.h"

namespace impact::lsp {

namespace {

namespace L = llvm::lsp;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;
using Reply = std::function<void(llvm::Expected<Value>)>;

constexpr int kInvalidParams = -32602, kRequestFailed = -32803;

llvm::Error failure(int code, const std::string& msg) { return llvm::make_error<L::LSPError>(msg, L::ErrorCode(code)); }

std::optional<server::Pos> posOf(const Value* v) {
  const Object* o = v ? v->getAsObject() : nullptr;
  if (!o) return std::nullopt;
  auto l = o->getInteger("line"), c = o->getInteger("character");
  if (!l || !c || *l < 0 || *c < 0) return std::nullopt;
  return server::Pos{uint32_t(*l), uint32_t(*c)};
}
std::optional<server::Rng> rangeOf(const Value* v) {
  const Object* o = v ? v->getAsObject() : nullptr;
  if (!o) return std::nullopt;
  auto s = posOf(o->get("start")), e = posOf(o->get("end"));
  if (!s || !e) return std::nullopt;
  return server::Rng{*s, *e};
}
Value posJSON(server::Pos p) { return Object{{"line", int64_t(p.line)}, {"character", int64_t(p.character)}}; }
Value rangeJSON(server::Rng r) { return Object{{"start", posJSON(r.start)}, {"end", posJSON(r.end)}}; }
Value locJSON(const server::FileLoc& l) { return Object{{"uri", uriOf(l.path)}, {"range", rangeJSON(l.range)}}; }

std::string fileOf(llvm::StringRef uri) {
  auto u = L::URIForFile::fromURI(uri);
  if (!u) {
    llvm::consumeError(u.takeError());
    return "";
  }
  return u->file().str();
}

Value tooltipJSON(const std::string& text, bool md) {
  if (!md) return text;
  return Object{{"kind", "markdown"}, {"value", "```\n" + text + "\n```"}};
}

Value hintJSON(const server::InlayHint& h, bool md) {
  Object o{{"position", posJSON(h.position)},
           {"label", h.label},
           {"kind", int64_t(h.kind)},
           {"paddingLeft", h.paddingLeft},
           {"paddingRight", h.paddingRight},
           {"data", Object{{"path", h.path}, {"at", posJSON(h.at)}, {"marked", h.marked}}}};
  if (!h.tooltip.empty()) o["tooltip"] = tooltipJSON(h.tooltip, md);
  return o;
}

std::optional<server::InlayHint> hintFrom(const Value& v) {
  const Object* o = v.getAsObject();
  if (!o) return std::nullopt;
  server::InlayHint h;
  auto p = posOf(o->get("position"));
  const Object* d = o->getObject("data");
  if (!p || !d) return std::nullopt;
  h.position = *p;
  if (auto l = o->getString("label")) h.label = l->str();
  if (auto k = o->getInteger("kind")) h.kind = *k == 1 ? server::InlayHint::Kind::Type : server::InlayHint::Kind::Parameter;
  h.paddingLeft = o->getBoolean("paddingLeft").value_or(false);
  h.paddingRight = o->getBoolean("paddingRight").value_or(false);
  if (auto t = o->getString("tooltip")) h.tooltip = t->str();
  else if (const Object* t = o->getObject("tooltip")) {
    std::string s = t->getString("value").value_or("").str();
    if (s.rfind("```\n", 0) == 0 && s.size() >= 8) s = s.substr(4, s.size() - 8);
    h.tooltip = s;
  }
  auto path = d->getString("path");
  auto at = posOf(d->get("at"));
  if (!path || !at) return std::nullopt;
  h.path = path->str();
  h.at = *at;
  h.marked = d->getBoolean("marked").value_or(false);
  return h;
}

Value lensJSON(const server::CodeLens& l) {
  Object o{{"range", rangeJSON(l.range)},
           {"data", Object{{"path", l.path}, {"kind", l.kind == server::CodeLens::Kind::Builder ? "builder" : "copy"}}}};
  if (!l.resolved) return o;
  Object cmd{{"title", l.title}, {"command", l.command}};
  if (l.command == "impact.showMirror" && l.target) cmd["arguments"] = Array{locJSON(*l.target)};
  if (l.command == "impact.peekCopies") {
    Array locs;
    for (const auto& x : l.locations) locs.push_back(locJSON(x));
    cmd["arguments"] = Array{Object{{"uri", uriOf(l.path)}, {"position", posJSON(l.range.start)}, {"locations", std::move(locs)}}};
  }
  o["command"] = std::move(cmd);
  return o;
}

std::optional<server::CodeLens> lensFrom(const Value& v) {
  const Object* o = v.getAsObject();
  const Object* d = o ? o->getObject("data") : nullptr;
  auto r = o ? rangeOf(o->get("range")) : std::nullopt;
  if (!d || !r) return std::nullopt;
  server::CodeLens l;
  l.range = *r;
  auto path = d->getString("path");
  if (!path) return std::nullopt;
  l.path = path->str();
  l.kind = d->getString("kind") == std::optional<llvm::StringRef>("builder") ? server::CodeLens::Kind::Builder
                                                                               : server::CodeLens::Kind::Copy;
  return l;
}

Value symbolJSON(const server::DocumentSymbol& s) {
  Array kids;
  for (const auto& c : s.children) kids.push_back(symbolJSON(c));
  Object o{{"name", s.name}, {"kind", int64_t(s.kind)}, {"range", rangeJSON(s.range)}, {"selectionRange", rangeJSON(s.selection)}};
  if (!s.detail.empty()) o["detail"] = s.detail;
  if (!kids.empty()) o["children"] = std::move(kids);
  return o;
}

Value reportJSON(const server::PulledDiagnostics& p, bool withUri) {
  Object o{{"kind", p.unchanged ? "unchanged" : "full"}, {"resultId", p.resultId}};
  if (!p.unchanged) {
    Array items;
    for (const auto& d : p.items) items.push_back(toJSON(toProtocol(d)));
    o["items"] = std::move(items);
  }
  if (withUri) {
    o["uri"] = uriOf(p.path);
    o["version"] = p.version ? Value(*p.version) : Value(nullptr);
  }
  return o;
}

}  // namespace

bool isFeatureRequest(const std::string& m) {
  return m == "textDocument/inlayHint" || m == "inlayHint/resolve" || m == "textDocument/codeLens" ||
         m == "codeLens/resolve" || m == "textDocument/documentSymbol" || m == "workspace/symbol" ||
         m == "textDocument/diagnostic" || m == "workspace/diagnostic" || m == "textDocument/prepareRename" ||
         m == "textDocument/rename";
}

std::string featureDocumentPath(const Value& params) {
  const Object* o = params.getAsObject();
  const Object* td = o ? o->getObject("textDocument") : nullptr;
  auto uri = td ? td->getString("uri") : std::nullopt;
  return uri ? fileOf(*uri) : "";
}

void handleFeatureRequest(server::ImpactServer& server, const std::string& method, const Value& params,
                          const FeatureOptions& opts, Reply reply) {
  const Object* o = params.getAsObject();
  std::string path = featureDocumentPath(params);
  auto bad = [&](const std::string& what) { reply(failure(kInvalidParams, "invalid " + method + " params: " + what)); };
  bool md = opts.markdown;
  if (method == "inlayHint/resolve") {
    auto h = hintFrom(params);
    if (!h) return bad("an inlay hint with impactd's data");
    return server.resolveInlayHint(*h, [reply, md](server::InlayHint r) { reply(hintJSON(r, md)); });
  }
  if (method == "codeLens/resolve") {
    auto l = lensFrom(params);
    if (!l) return bad("a code lens with impactd's data");
    return server.resolveCodeLens(*l, [reply](server::CodeLens r) { reply(lensJSON(r)); });
  }
  if (method == "workspace/symbol") {
    if (!o) return bad("an object");
    std::string q = o->getString("query").value_or("").str();
    return server.workspaceSymbols(q, [reply](std::vector<server::WorkspaceSymbol> syms) {
      Array out;
      for (const auto& s : syms)
        out.push_back(Object{{"name", s.name}, {"kind", int64_t(s.kind)}, {"containerName", s.container},
                             {"location", locJSON(s.location)}});
      reply(Value(std::move(out)));
    });
  }
  if (method == "workspace/diagnostic") {
    if (!o) return bad("an object");
    std::map<std::string, std::string> prev;
    if (const Array* a = o->getArray("previousResultIds"))
      for (const auto& e : *a)
        if (const Object* x = e.getAsObject())
          if (auto u = x->getString("uri"))
            if (auto v = x->getString("value")) prev[fileOf(*u)] = v->str();
    return server.workspaceDiagnostics(prev, [reply](std::vector<server::PulledDiagnostics> ds) {
      Array items;
      for (const auto& d : ds) items.push_back(reportJSON(d, true));
      reply(Value(Object{{"items", std::move(items)}}));
    });
  }
  // The rest are about one document.
  if (path.empty()) return bad("textDocument.uri must be a file: URI");
  if (method == "textDocument/inlayHint") {
    auto r = rangeOf(o->get("range"));
    if (!r) return bad("range");
    return server.inlayHints(path, *r, [reply, md](std::vector<server::InlayHint> hs) {
      Array out;
      for (const auto& h : hs) out.push_back(hintJSON(h, md));
      reply(Value(std::move(out)));
    });
  }
  if (method == "textDocument/codeLens")
    return server.codeLenses(path, [reply](std::vector<server::CodeLens> ls) {
      Array out;
      for (const auto& l : ls) out.push_back(lensJSON(l));
      reply(Value(std::move(out)));
    });
  if (method == "textDocument/documentSymbol")
    return server.documentSymbols(path, [reply](std::vector<server::DocumentSymbol> ss) {
      Array out;
      for (const auto& s : ss) out.push_back(symbolJSON(s));
      reply(Value(std::move(out)));
    });
  if (method == "textDocument/diagnostic") {
    std::string prev = o->getString("previousResultId").value_or("").str();
    return server.pullDiagnostics(path, prev, [reply](std::optional<server::PulledDiagnostics> d) {
      if (!d) return reply(failure(kRequestFailed, "the file is not in the workspace"));
      reply(reportJSON(*d, false));
    });
  }
  auto pos = posOf(o->get("position"));
  if (!pos) return bad("position");
  if (method == "textDocument/prepareRename")
    return server.prepareRename(path, *pos, [reply](server::RenameTarget t) {
      if (!t.refusal.empty()) return reply(failure(kRequestFailed, "impactd cannot rename this: " + t.refusal));
      reply(Value(Object{{"range", rangeJSON(t.range)}, {"placeholder", t.placeholder}}));
    });
  auto newName = o->getString("newName");
  if (!newName) return bad("newName");
  server.rename(path, *pos, newName->str(), [reply](server::RenameResult r) {
    if (!r.refusal.empty()) return reply(failure(kRequestFailed, "impactd cannot rename this: " + r.refusal));
    Object changes;
    for (const auto& [p, edits] : r.edits) {
      Array es;
      for (const auto& e : edits) es.push_back(Object{{"range", rangeJSON(e.range)}, {"newText", e.newText}});
      changes[uriOf(p)] = std::move(es);
    }
    reply(Value(Object{{"changes", std::move(changes)}}));
  });
}

void addFeatureCapabilities(Object& caps, bool pull) {
  caps["inlayHintProvider"] = Object{{"resolveProvider", true}};
  caps["codeLensProvider"] = Object{{"resolveProvider", true}};
  caps["documentSymbolProvider"] = true;
  caps["workspaceSymbolProvider"] = true;
  caps["renameProvider"] = Object{{"prepareProvider", true}};
  if (pull)
    caps["diagnosticProvider"] = Object{{"identifier", "impactd"}, {"interFileDependencies", true}, {"workspaceDiagnostics", true}};
}

}  // namespace impact::lsp
