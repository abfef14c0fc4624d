#include "server/EmitDiagnostics.h"

#include "absl/strings/str_cat.h"

namespace impact::server {

std::string trimReason(const std::string& error) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= error.size()) {
    size_t nl = error.find('\n', start);
    std::string line = error.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
    if (b != std::string::npos) lines.push_back(line.substr(b, e - b + 1));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  std::string out;
  for (size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  if (out.size() > 300) out = "…" + out.substr(out.size() - 300);
  return out.empty() ? "no reason given" : out;
}

void addEmitDiagnostics(const emit::EmitDocument& doc, const TreeFacts& head, const std::vector<const Row*>& folded,
                        bool hints, std::map<std::string, std::vector<FileDiag>>& out) {
  for (const auto& f : doc.families) {
    const emit::FamilySide& s = f.head;
    if (s.status != "failed" && s.status != "timed_out") continue;
    const FileFacts* facts = head.find(f.path);
    SourceRange at;
    if (facts)
      for (const auto& b : facts->builders)
        if (b.name == f.builder) at = b.range;
    FileDiag d;
    d.range = at;
    d.severity = Severity::Warning;
    d.code = "emitter";
    d.status = "changed";
    d.rowKey = "emitter|" + f.key();
    d.message = absl::StrCat("emitter: ", f.builder, s.status == "timed_out" ? " timed out" : " failed", " at the head: ",
                             trimReason(s.error), " — its rows cannot fold");
    out[f.path].push_back(std::move(d));
  }
  if (!hints) return;
  for (const Row* r : folded) {
    const Location& here = r->python.empty() ? r->mirror : r->python;
    if (here.empty()) continue;
    FileDiag d;
    d.range = here.line ? here.focus : SourceRange{};
    d.severity = Severity::Hint;
    d.code = r->contract;
    d.status = "inert";
    d.rowKey = r->key;
    d.message = r->message;
    out[here.path].push_back(std::move(d));
  }
}

}  // namespace impact::server
