// The protocol types LLVM's llvm/Support/LSP lacks, in one place (LSP 3.17): Diagnostic with
// code/codeDescription/data, Command, CodeAction with a command, ExecuteCommandParams,
// work-done progress, didChangeWatchedFiles, didSave, showDocument; and impactd's own
// notification impactd/status. Include only from the
// protocol layer (Protocol.h is heavy). Beware: llvm::json::Value(StringRef) does not own its
// string; every string here is put in as std::string.
#pragma once

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <string>
#include <vector>

namespace impact::lsp {

namespace json = llvm::json;
namespace L = llvm::lsp;

struct Command {
  std::string title, command;
  json::Array arguments;
};
inline json::Value toJSON(const Command& c) {
  return json::Object{{"title", c.title}, {"command", c.command}, {"arguments", json::Array(c.arguments)}};
}

struct Diagnostic {
  L::Range range;
  int severity = 1;
  std::string code;
  std::string codeHref;
  std::string source = "impactd";
  std::string message;
  struct Related {
    std::string uri;
    L::Range range;
    std::string message;
  };
  std::vector<Related> related;
  json::Value data = nullptr;
};
inline json::Value toJSON(const Diagnostic& d) {
  json::Object o{{"range", L::toJSON(d.range)}, {"severity", d.severity}, {"source", d.source}, {"message", d.message}};
  if (!d.code.empty()) o["code"] = d.code;
  if (!d.codeHref.empty()) o["codeDescription"] = json::Object{{"href", d.codeHref}};
  if (!d.related.empty()) {
    json::Array rel;
    // Built by hand with owning strings: llvm::json keeps a StringRef (URIForFile::uri())
    // by reference, which would dangle once the Diagnostic is gone.
    for (const auto& r : d.related)
      rel.push_back(json::Object{{"location", json::Object{{"uri", std::string(r.uri)}, {"range", L::toJSON(r.range)}}},
                                 {"message", std::string(r.message)}});
    o["relatedInformation"] = std::move(rel);
  }
  if (d.data.kind() != json::Value::Null) o["data"] = d.data;
  return o;
}

struct CodeAction {
  std::string title;
  std::optional<std::string> kind;
  std::vector<Diagnostic> diagnostics;
  bool isPreferred = false;
  std::optional<L::WorkspaceEdit> edit;
  std::optional<Command> command;
};
inline json::Value toJSON(const CodeAction& a) {
  json::Object o{{"title", a.title}};
  if (a.kind) o["kind"] = *a.kind;
  if (!a.diagnostics.empty()) {
    json::Array ds;
    for (const auto& d : a.diagnostics) ds.push_back(toJSON(d));
    o["diagnostics"] = std::move(ds);
  }
  if (a.isPreferred) o["isPreferred"] = true;
  if (a.edit) o["edit"] = L::toJSON(*a.edit);
  if (a.command) o["command"] = toJSON(*a.command);
  return o;
}

struct ExecuteCommandParams {
  std::string command;
  json::Array arguments;
  std::optional<json::Value> workDoneToken;
};
inline bool fromJSON(const json::Value& v, ExecuteCommandParams& p, json::Path path) {
  json::ObjectMapper o(v, path);
  if (!o || !o.map("command", p.command)) return false;
  if (const json::Object* obj = v.getAsObject()) {
    if (const json::Array* a = obj->getArray("arguments")) p.arguments = *a;
    if (const json::Value* t = obj->get("workDoneToken")) p.workDoneToken = *t;
  }
  return true;
}

// $/progress with a WorkDoneProgressBegin/Report/End value.
inline json::Value progressParams(const json::Value& token, const std::string& kind, const std::string& title,
                                  const std::string& message) {
  json::Object value{{"kind", kind}};
  if (!title.empty()) value["title"] = title;
  if (!message.empty()) value["message"] = message;
  return json::Object{{"token", token}, {"value", std::move(value)}};
}

struct FileEvent {
  std::string uri;
  int type = 2;  // 1 created, 2 changed, 3 deleted
};
struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> changes;
};
inline bool fromJSON(const json::Value& v, FileEvent& e, json::Path path) {
  json::ObjectMapper o(v, path);
  return o && o.map("uri", e.uri) && o.map("type", e.type);
}
inline bool fromJSON(const json::Value& v, DidChangeWatchedFilesParams& p, json::Path path) {
  json::ObjectMapper o(v, path);
  return o && o.map("changes", p.changes);
}

struct DidSaveTextDocumentParams {
  L::TextDocumentIdentifier textDocument;
};
inline bool fromJSON(const json::Value& v, DidSaveTextDocumentParams& p, json::Path path) {
  json::ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument);
}

struct ShowDocumentParams {
  std::string uri;
  L::Range selection;
  bool takeFocus = true;
};
inline json::Value toJSON(const ShowDocumentParams& p) {
  return json::Object{{"uri", p.uri}, {"selection", L::toJSON(p.selection)}, {"takeFocus", p.takeFocus}};
}

// impactd/status (docs/editors.md): {"state": "starting"|"analysing"|"ready"|"error",
// "mismatches": N, "changed": N, "message": "..."}.
struct StatusParams {
  std::string state;
  int mismatches = 0, changed = 0;
  std::string message;
  std::string emitting;  // "done/total" while the background emitter runs; absent otherwise
  std::string geometry;  // "done/total" families while the background geometry differential runs; absent otherwise
};
inline json::Value toJSON(const StatusParams& p) {
  json::Object o{{"state", p.state}, {"mismatches", p.mismatches}, {"changed", p.changed}, {"message", p.message}};
  if (!p.emitting.empty()) o["emitting"] = p.emitting;
  if (!p.geometry.empty()) o["geometry"] = p.geometry;
  return o;
}

}  // namespace impact::lsp
