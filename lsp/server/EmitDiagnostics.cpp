#include "server/EmitDiagnostics.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analysis/Analysis.h"
#include "emit/Fold.h"
#include "emit/TreeKey.h"

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

// The head's differences from the disk snapshot: overrides whose content is not the snapshot's.
std::map<std::string, std::string> changesFromDisk(const AnalysisState& st) {
  std::map<std::string, std::string> out;
  for (const auto& [p, ref] : st.headOverrides) {
    const FileRef* d = st.disk->find(p);
    if (ref.id.empty() ? d != nullptr : (!d || d->id != ref.id)) out[p] = ref.id;
  }
  return out;
}

namespace {

Snapshot headSnapshot(const AnalysisState& st) {
  Snapshot head = *st.disk;
  for (const auto& [p, ref] : st.headOverrides) {
    if (ref.id.empty()) head.remove(p);
    else head.files[p] = ref;
  }
  return head;
}

}  // namespace

bool EmitMatch::applies(const AnalysisState& st, const emit::EmitDocument& doc) {
  if (!st.base || !st.disk) return false;
  std::string docKey = doc.baseTree + "|" + doc.headTree;
  if (checked_ && docKey == docKey_ && disk_.lock() == st.disk)
    return matched_ && emit::treeKey(*st.base) == doc.baseTree && changesFromDisk(st) == changes_;
  // A new document or a new disk snapshot: hash the whole head once.
  docKey_ = docKey;
  disk_ = st.disk;
  checked_ = true;
  matched_ = emit::treeKey(*st.base) == doc.baseTree && emit::treeKey(headSnapshot(st)) == doc.headTree;
  changes_ = matched_ ? changesFromDisk(st) : std::map<std::string, std::string>{};
  return matched_;
}

FoldedState foldState(const AnalysisState& st, const emit::EmitDocument& doc, EmitMatch& match) {
  FoldedState out;
  if (!match.applies(st, doc)) return out;
  Snapshot head = headSnapshot(st);
  out.applies = true;
  out.rows = st.rows;
  emit::foldRows(out.rows, doc, foldContextFor(*st.base, head, st.headPairs));
  for (size_t i = 0; i < out.rows.size(); ++i)
    if (out.rows[i].status == Status::Inert && st.rows[i].status != Status::Inert) out.folded.push_back(&out.rows[i]);
  return out;
}

namespace {

void addPackTime(const emit::EmitDocument& doc, const TreeFacts& head, std::map<std::string, std::vector<FileDiag>>& out) {
  const nlohmann::json& t = doc.packTime;
  if (!t.is_object() || !t.contains("findings") || !t["findings"].is_array()) return;
  for (const auto& f : t["findings"]) {
    if (!f.is_object()) continue;
    std::string family = f.value("family", ""), status = f.value("status", "");
    std::string path;
    for (const auto& fam : doc.families)
      if (fam.key() == family) path = fam.path;
    if (path.empty()) continue;
    std::string predicate;
    std::vector<std::string> accepted, refused;
    for (const auto& p : f.value("accepted_by", nlohmann::json::array()))
      if (p.is_string()) accepted.push_back(p.get<std::string>());
    for (const auto& p : f.value("refused_by", nlohmann::json::array()))
      if (p.is_string()) refused.push_back(p.get<std::string>());
    if (f.contains("predicate") && f["predicate"].is_string()) predicate = f["predicate"].get<std::string>();
    else if (!accepted.empty()) predicate = accepted[0];
    SourceRange at;
    if (const FileFacts* facts = head.find(path))
      for (const auto& d : facts->module.defs)
        if (d.name == predicate) at = {d.nameLine, 0, d.nameLine, 0};
    std::string field = f.value("field", ""), value = f.contains("value") ? f["value"].dump() : "?";
    std::string spec = absl::StrCat("the spec of variant ", f.value("variant", "?"), " with ", field, "=", value);
    FileDiag d;
    d.range = at;
    d.severity = status == "pre-existing" ? Severity::Information : Severity::Warning;
    d.code = "pack-time";
    d.status = status == "pre-existing" ? "preexisting" : "pack-time";
    d.rowKey = absl::StrCat("pack-time|", family, "|", field, "|", value);
    d.message = f.value("kind", "") == "sign"
                    ? absl::StrCat("pack-time ", status, ": ", absl::StrJoin(accepted, ", "), " accepts ", spec,
                                   " (non-positive) that ", absl::StrJoin(refused, ", "), " refuses")
                    : absl::StrCat("pack-time ", status, ": ", predicate, " accepts ", spec,
                                   " and the builder raises: ", trimReason(f.value("error", "?")));
    out[path].push_back(std::move(d));
  }
}

}  // namespace

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
  addPackTime(doc, head, out);
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
