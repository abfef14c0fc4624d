#include "server/Diagnostics.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <set>

namespace impact::server {

namespace {
// The other side in a message: its symbol and file name (relatedInformation links the whole
// path), "build_attention_dense in attention_dense.py:76".
std::string otherSide(const Location& l) {
  std::string file = absl::StrCat(l.path.substr(l.path.rfind('/') + 1), ":", l.focus.line + 1);
  return l.symbol.empty() ? file : absl::StrCat(l.symbol, " in ", file);
}

std::string devices(const Row& r) {
  if (!r.label.empty()) return absl::StrCat(" (left to the ", r.label, " lane)");
  return absl::StrCat(" — needs a device run on ", r.archs.empty() ? "all ingestor archs" : absl::StrJoin(r.archs, ", "));
}
}  // namespace

std::map<std::string, std::vector<FileDiag>> diagnosticsByFile(const std::vector<Row>& rows) {
  std::map<std::string, std::vector<FileDiag>> out;
  for (const auto& r : rows) {
    if (r.status == Status::Inert || r.status == Status::Outside) continue;
    Severity sev = r.status == Status::Changed ? Severity::Warning
                   : r.preexisting             ? Severity::Information
                                               : Severity::Error;
    std::string status = r.status == Status::Changed ? "changed" : r.preexisting ? "preexisting" : "mismatch";
    std::string lead = r.preexisting ? "pre-existing (already so at the merge base): " : "";
    std::string view = r.view.empty() ? "" : " [" + r.view + " view]";
    std::string tail = r.status == Status::Changed ? devices(r) : "";
    auto add = [&](const Location& here, const Location& other, std::string msg, std::string otherMsg) {
      FileDiag d;
      d.range = here.line ? here.focus : SourceRange{};
      d.severity = sev;
      d.code = r.contract;
      d.message = lead + msg + view + tail;
      d.rowKey = r.key;
      d.status = status;
      if (!other.empty()) d.related.push_back({other.path, other.line ? other.focus : SourceRange{}, std::move(otherMsg)});
      out[here.path].push_back(std::move(d));
    };
    if (!r.mirror.empty()) {
      std::string msg = r.python.empty()
                            ? r.message
                            : absl::StrCat(r.contract, ": ", r.message, " (", otherSide(r.python), ")");
      add(r.mirror, r.python, msg, absl::StrCat("the builder ", r.python.symbol));
    }
    if (!r.python.empty()) {
      std::string msg = r.mirror.empty() ? r.message
                                         : absl::StrCat(r.contract, ": copy ", otherSide(r.mirror), ": ", r.message);
      add(r.python, r.mirror, msg, absl::StrCat("the copy ", r.mirror.symbol));
    }
  }
  return out;
}

void addNotCompared(const TreeFacts& head, const std::vector<KernargsPair>& pairs, const std::vector<std::string>& paths,
                    std::map<std::string, std::vector<FileDiag>>& byFile) {
  std::set<const CppArgList*> paired;
  for (const auto& p : pairs) paired.insert(p.copy.list);
  for (const std::string& path : paths) {
    const FileFacts* f = head.find(path);
    if (!f) continue;
    for (const auto& l : f->lists) {
      if (paired.count(&l)) continue;
      const char* what = l.form == CppArgList::Form::Launch      ? "launch call"
                         : l.form == CppArgList::Form::NameKeyed ? "name-keyed check"
                                                                 : "argument list";
      FileDiag d;
      d.range = l.range;
      d.severity = Severity::Information;
      d.code = "kernargs";
      d.status = "not-compared";
      d.message = absl::StrCat("not compared: this ", what, l.symbol.empty() ? "" : " in " + l.symbol,
                               " pairs with no builder (no profile, KDP or generator config names it, and no builder "
                               "shares its names); `impact check` says why");
      byFile[path].push_back(std::move(d));
    }
  }
}

}  // namespace impact::server
