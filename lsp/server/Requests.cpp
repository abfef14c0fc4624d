// ImpactServer's read-only requests: hover, definition, references and code actions (Go to
// mirror, the quick fix), answered on the worker from the current analysis state.
#include "server/ImpactServer.h"

#include "server/ServerState.h"

namespace impact::server {

namespace {
std::vector<FileLoc> toLocs(ImpactServer::Impl& I, const AnalysisState& st, const std::vector<ArgSite>& sites) {
  std::vector<FileLoc> out;
  for (const auto& s : sites) {
    auto text = I.content(st, s.path);
    LineIndex idx(text ? std::string_view(*text) : std::string_view());
    out.push_back({I.absPath(s.path), idx.range(s.range)});
  }
  return out;
}

// The kernel argument at an LSP position, with the state and line index it was found in;
// false when there is none (no repository yet, a file outside it, no argument there).
bool argumentAtPos(ImpactServer::Impl& I, const std::string& path, Pos pos,
                   const std::function<void(const AnalysisState&, const LineIndex&, const ArgCopies&)>& fn) {
  std::string r = I.rel(path);
  if (r.empty() || !I.ready) return false;
  auto st = I.current();
  auto text = I.content(*st, r);
  if (!text) return false;
  LineIndex idx(*text);
  TSPoint pt = idx.point(idx.offset(pos));
  auto a = argumentAt(*st, r, pt.row, pt.column);
  if (!a) return false;
  fn(*st, idx, *a);
  return true;
}
}  // namespace

void ImpactServer::hover(const std::string& path, Pos pos, std::function<void(std::optional<HoverInfo>)> reply) {
  impl_->sched.post([this, path, pos, reply = std::move(reply)] {
    bool found = argumentAtPos(*impl_, path, pos, [&](const AnalysisState&, const LineIndex& idx, const ArgCopies& a) {
      reply(HoverInfo{idx.range(a.at), renderHover(a, true), renderHover(a, false)});
    });
    if (!found) reply(std::nullopt);
  });
}

void ImpactServer::definition(const std::string& path, Pos pos, std::function<void(std::vector<FileLoc>)> reply) {
  impl_->sched.post([this, path, pos, reply = std::move(reply)] {
    bool found = argumentAtPos(*impl_, path, pos, [&](const AnalysisState& st, const LineIndex&, const ArgCopies& a) {
      reply(toLocs(*impl_, st, {a.builder}));
    });
    if (!found) reply({});
  });
}

void ImpactServer::references(const std::string& path, Pos pos, std::function<void(std::vector<FileLoc>)> reply) {
  impl_->sched.post([this, path, pos, reply = std::move(reply)] {
    bool found = argumentAtPos(*impl_, path, pos, [&](const AnalysisState& st, const LineIndex&, const ArgCopies& a) {
      std::vector<ArgSite> sites{a.builder};
      sites.insert(sites.end(), a.copies.begin(), a.copies.end());
      reply(toLocs(*impl_, st, sites));
    });
    if (!found) reply({});
  });
}

void ImpactServer::codeActions(const std::string& path, Rng range, std::function<void(std::vector<Action>)> reply) {
  impl_->sched.post([this, path, range, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) return reply({});
    auto st = I.current();
    auto text = I.content(*st, r);
    if (!text) return reply({});
    LineIndex idx(*text);
    std::vector<Action> out;
    std::set<std::string> seen;
    auto mirrorAction = [&](const std::string& p, const SourceRange& sr, const std::string& what) {
      std::string key = absl::StrCat(p, ":", sr.line);
      if (!seen.insert(key).second) return;
      auto t = I.content(*st, p);
      LineIndex pidx(t ? std::string_view(*t) : std::string_view());
      Action a;
      a.title = absl::StrCat("Go to mirror: ", p.substr(p.rfind('/') + 1), ":", sr.line + 1, what.empty() ? "" : " (" + what + ")");
      a.showMirror = FileLoc{I.absPath(p), pidx.range(sr)};
      out.push_back(std::move(a));
    };
    uint32_t firstLine = range.start.line, lastLine = range.end.line;
    // From a copy: its builder, the other copies, and the quick fix when it is stale.
    for (const KernargsPair* p : pairsInRange(*st, r, firstLine, lastLine)) {
      if (!p->builder) continue;
      const PyBuilder& b = *p->builder->builder;
      Comparison cmp = comparePair(*p);
      // The quick fix rewrites C++; a descriptor's copy (JSON) gets only the jumps.
      if (cmp.outcome == Comparison::Outcome::Disagree && cmp.abi && classify(p->copy.path) == FileKind::Cpp) {
        if (auto newText = rewriteList(*text, *p->copy.list, *cmp.abi)) {
          Action fix;
          std::string copyName = p->copy.list->symbol.empty() ? p->copy.list->variable : p->copy.list->symbol;
          fix.title = absl::StrCat("Update ", copyName.empty() ? "the list" : copyName, " to match ", b.name);
          fix.kind = "quickfix";
          fix.preferred = true;
          fix.editPath = path;
          fix.edits.push_back({idx.range(p->copy.list->range), *newText});
          if (auto it = I.published.find(r); it != I.published.end())
            for (const auto& d : it->second)
              if (d.rowKey == "kernargs|" + p->copy.key) fix.diagnostics.push_back(d);
          out.push_back(std::move(fix));
        }
      }
      // A catalog entry (family.json): its args_signature rewritten to the list its spec gives.
      if (cmp.outcome == Comparison::Outcome::Disagree && cmp.abi && p->copy.list->catalog)
        if (auto rw = rewriteCatalogSignature(*text, *p->copy.list, *cmp.abi)) {
          Action fix;
          fix.title = absl::StrCat("Update ", p->copy.list->catalog->symbol, " args_signature to match ", b.name);
          fix.kind = "quickfix";
          fix.preferred = true;
          fix.editPath = path;
          fix.edits.push_back({idx.range(rw->range), rw->text});
          if (auto it = I.published.find(r); it != I.published.end())
            for (const auto& d : it->second)
              if (d.rowKey == "kernargs|" + p->copy.key) fix.diagnostics.push_back(d);
          out.push_back(std::move(fix));
        }
      mirrorAction(p->builder->path, b.range, b.name);
      for (const auto& q : st->headPairs)
        if (&q != p && q.builder && q.builder->key() == p->builder->key())
          mirrorAction(q.copy.path, q.copy.list->range, q.copy.list->symbol);
    }
    // From a builder: each of its copies.
    if (const FileFacts* f = st->headFacts.find(r))
      for (const auto& b : f->builders) {
        if (b.bodyRange.endLine < firstLine || b.bodyRange.line > lastLine) continue;
        for (const auto& q : st->headPairs)
          if (q.builder && q.builder->path == r && q.builder->builder == &b)
            mirrorAction(q.copy.path, q.copy.list->range, q.copy.list->symbol);
      }
    reply(std::move(out));
  });
}


}  // namespace impact::server
