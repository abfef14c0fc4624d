// textDocument/diagnostic and workspace/diagnostic (issue 38, LSP 3.17 pull diagnostics): the
// diagnostics the server pushes, for clients that prefer to ask. A pull first brings the published
// set up to date (the same analyseAndPublish a debounced edit runs), so push and pull never
// disagree; the result id is a hash of what is published for the file.
#include "absl/strings/str_cat.h"
#include "server/ImpactServer.h"
#include "server/ServerState.h"

namespace impact::server {

namespace {

std::string resultIdOf(const std::vector<Diag>& diags) {
  uint64_t h = fnv1a("impactd-diagnostics");
  for (const auto& d : diags) {
    h = fnv1a(absl::StrCat(d.range.start.line, ":", d.range.start.character, "-", d.range.end.line, ":",
                           d.range.end.character, "|", int(d.severity), "|", d.code, "|", d.message, "|", d.rowKey),
              h);
    for (const auto& r : d.related)
      h = fnv1a(absl::StrCat(r.location.path, ":", r.location.range.start.line, ":", r.location.range.start.character, "|",
                             r.message),
                h);
  }
  return absl::StrCat(diags.size(), "-", absl::Hex(h, absl::kZeroPad16));
}

PulledDiagnostics pulled(ImpactServer::Impl& I, const std::string& rel, const std::string& previous) {
  PulledDiagnostics out;
  out.path = I.absPath(rel);
  if (auto it = I.published.find(rel); it != I.published.end()) out.items = it->second;
  if (auto d = I.docs.find(rel); d != I.docs.end()) out.version = d->second.version;
  out.resultId = resultIdOf(out.items);
  if (!previous.empty() && previous == out.resultId) {
    out.unchanged = true;
    out.items.clear();
  }
  return out;
}

}  // namespace

void ImpactServer::pullDiagnostics(const std::string& path, const std::string& previousResultId,
                                   std::function<void(std::optional<PulledDiagnostics>)> reply) {
  impl_->sched.post([this, path, previousResultId, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty()) return reply(std::nullopt);
    I.analyseAndPublish();  // what a pending debounced analysis would publish, now
    auto out = pulled(I, r, previousResultId);
    out.path = path;  // as the client named it
    reply(std::move(out));
  });
}

void ImpactServer::workspaceDiagnostics(std::map<std::string, std::string> previous,
                                        std::function<void(std::vector<PulledDiagnostics>)> reply) {
  impl_->sched.post([this, previous = std::move(previous), reply = std::move(reply)] {
    Impl& I = *impl_;
    I.analyseAndPublish();
    std::vector<PulledDiagnostics> out;
    std::map<std::string, std::string> prevByRel;
    for (const auto& [p, id] : previous)
      if (std::string r = I.rel(p); !r.empty()) prevByRel[r] = id;
    for (const auto& [rel, diags] : I.published) {
      auto it = prevByRel.find(rel);
      out.push_back(pulled(I, rel, it == prevByRel.end() ? "" : it->second));
    }
    // A file the client had diagnostics for that has none now: an empty report clears it.
    for (const auto& [rel, id] : prevByRel)
      if (!I.published.count(rel)) out.push_back(pulled(I, rel, id));
    reply(std::move(out));
  });
}

}  // namespace impact::server
