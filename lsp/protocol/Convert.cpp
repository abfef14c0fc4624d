#include "protocol/Convert.h"

#include <algorithm>

namespace impact::lsp {

namespace L = llvm::lsp;

L::Position toLsp(server::Pos p) { return L::Position(int(p.line), int(p.character)); }
L::Range toLsp(server::Rng r) { return L::Range(toLsp(r.start), toLsp(r.end)); }
server::Pos fromLsp(const L::Position& p) {
  return {static_cast<uint32_t>(std::max(0, p.line)), static_cast<uint32_t>(std::max(0, p.character))};
}
server::Rng fromLsp(const L::Range& r) { return {fromLsp(r.start), fromLsp(r.end)}; }

std::string uriOf(const std::string& path) {
  auto u = L::URIForFile::fromFile(path);
  if (!u) {
    llvm::consumeError(u.takeError());
    return "file://" + path;
  }
  return u->uri().str();
}

Diagnostic toProtocol(const server::Diag& d) {
  Diagnostic out;
  out.range = toLsp(d.range);
  out.severity = int(d.severity);
  out.code = d.code;
  out.codeHref = "https://github.com/ROCm/rocm-libraries#impactd-" + d.code;
  out.message = d.message;
  for (const auto& r : d.related) out.related.push_back({uriOf(r.location.path), toLsp(r.location.range), r.message});
  out.data = json::Object{{"row", d.rowKey}, {"status", d.status}};
  return out;
}

CodeAction toProtocol(const server::Action& a) {
  CodeAction out;
  out.title = a.title;
  if (!a.kind.empty()) out.kind = a.kind;
  out.isPreferred = a.preferred;
  for (const auto& d : a.diagnostics) out.diagnostics.push_back(toProtocol(d));
  if (!a.edits.empty()) {
    L::WorkspaceEdit we;
    auto& edits = we.changes[uriOf(a.editPath)];
    for (const auto& e : a.edits) edits.push_back(L::TextEdit{toLsp(e.range), e.newText});
    out.edit = std::move(we);
  }
  if (a.showMirror) {
    Command c;
    c.title = a.title;
    c.command = "impact.showMirror";
    c.arguments.push_back(json::Object{{"uri", uriOf(a.showMirror->path)}, {"range", L::toJSON(toLsp(a.showMirror->range))}});
    out.command = std::move(c);
  }
  return out;
}

json::Value toJSON(const server::FileLoc& l) {
  return json::Object{{"uri", uriOf(l.path)}, {"range", L::toJSON(toLsp(l.range))}};
}

json::Value toJSON(const server::RefsResult& r) {
  auto names = [](const std::vector<std::string>& v) { return json::Array(v); };
  return json::Object{{"target", r.target},
                      {"headBranch", r.headBranch},
                      {"branches", names(r.branches)},
                      {"remoteBranches", names(r.remoteBranches)},
                      {"tags", names(r.tags)}};
}

void addLocations(json::Value& report, const std::vector<server::RowLocations>& rows) {
  json::Object* o = report.getAsObject();
  json::Array* out = o ? o->getArray("rows") : nullptr;
  if (!out) return;
  for (size_t i = 0; i < out->size() && i < rows.size(); ++i) {
    json::Object* row = (*out)[i].getAsObject();
    if (!row) continue;
    auto put = [&](const char* side, const std::optional<server::FileLoc>& loc) {
      if (json::Object* s = row->getObject(side); s && loc) (*s)["location"] = toJSON(*loc);
    };
    put("python", rows[i].python);
    put("mirror", rows[i].mirror);
  }
}

}  // namespace impact::lsp
