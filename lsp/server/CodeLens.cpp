// textDocument/codeLens and codeLens/resolve (issue 38): above each builder "N copies · K stale ·
// M shipped variants" (command impact.peekCopies, the copies); above each copy "copy of build_x:
// agrees" or "copy of build_x: 2 mismatches" (command impact.showMirror, the builder). A lens is
// sent with its range alone; resolve counts (the same comparison as the diagnostics).
#include "absl/strings/str_cat.h"
#include "server/CopyViews.h"
#include "server/ImpactServer.h"
#include "server/ServerState.h"

namespace impact::server {

namespace {

// Every lens of a file, unresolved: builders first, then copies, in file order each.
std::vector<CodeLens> lensesOf(const AnalysisState& st, const std::string& r, const LineIndex& idx,
                               const std::string& absPath) {
  std::vector<CodeLens> out;
  if (const FileFacts* f = st.headFacts.find(r))
    for (const auto& b : f->builders) {
      if (b.abis.empty() && b.notRead.empty()) continue;
      CodeLens l;
      l.range = idx.range(b.range);
      l.path = absPath;
      l.kind = CodeLens::Kind::Builder;
      out.push_back(std::move(l));
    }
  for (const auto& p : st.headPairs) {
    if (p.copy.path != r || !p.builder) continue;
    CodeLens l;
    SourceRange at = p.copy.list->range;
    at.endLine = at.line;
    at.endCol = at.col;
    l.range = idx.range(at);
    l.path = absPath;
    l.kind = CodeLens::Kind::Copy;
    out.push_back(std::move(l));
  }
  return out;
}

FileLoc locOf(ImpactServer::Impl& I, const AnalysisState& st, const std::string& path, const SourceRange& sr) {
  auto t = I.content(st, path);
  LineIndex idx(t ? std::string_view(*t) : std::string_view());
  return {I.absPath(path), idx.range(sr)};
}

void resolveBuilder(ImpactServer::Impl& I, const AnalysisState& st, const std::string& r, const PyBuilder& b, CodeLens& l) {
  std::vector<CopyView> views = viewsOfBuilder(st, r, &b);
  int stale = 0;
  const ShippedSet* shipped = nullptr;
  for (const auto& v : views) {
    if (!v.agrees()) ++stale;
    if (!shipped && v.pair->shipped) shipped = v.pair->shipped.get();
    l.locations.push_back(locOf(I, st, v.pair->copy.path, v.pair->copy.list->range));
  }
  l.title = absl::StrCat(views.size(), views.size() == 1 ? " copy" : " copies", " · ", stale, " stale · ",
                         shipped ? absl::StrCat(shipped->variants.size(), shipped->incomplete.empty() ? "" : "+")
                                 : std::string("no"),
                         " shipped variant", shipped && shipped->variants.size() == 1 ? "" : "s");
  if (!b.notRead.empty()) l.title += " · arguments not read: " + b.notRead;
  l.command = views.empty() ? "" : "impact.peekCopies";
}

void resolveCopy(ImpactServer::Impl& I, const AnalysisState& st, const KernargsPair& p, CodeLens& l) {
  CopyView v = viewOf(p);
  const PyBuilder& b = *p.builder->builder;
  l.title = absl::StrCat("copy of ", b.name, ": ");
  if (v.agrees()) l.title += "agrees";
  else absl::StrAppend(&l.title, v.mismatches, v.mismatches == 1 ? " mismatch" : " mismatches");
  l.command = "impact.showMirror";
  l.target = locOf(I, st, p.builder->path, b.range);
}

}  // namespace

void ImpactServer::codeLenses(const std::string& path, std::function<void(std::vector<CodeLens>)> reply) {
  impl_->sched.post([this, path, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) return reply({});
    auto st = I.current();
    auto text = I.content(*st, r);
    if (!text) return reply({});
    LineIndex idx(*text);
    reply(lensesOf(*st, r, idx, path));
  });
}

void ImpactServer::resolveCodeLens(CodeLens lens, std::function<void(CodeLens)> reply) {
  impl_->sched.post([this, lens = std::move(lens), reply = std::move(reply)]() mutable {
    Impl& I = *impl_;
    std::string r = I.rel(lens.path);
    if (r.empty() || !I.ready) return reply(std::move(lens));
    auto st = I.current();
    auto text = I.content(*st, r);
    if (!text) return reply(std::move(lens));
    LineIndex idx(*text);
    TSPoint pt = idx.point(idx.offset(lens.range.start));
    lens.resolved = true;
    if (lens.kind == CodeLens::Kind::Builder) {
      if (const FileFacts* f = st->headFacts.find(r))
        for (const auto& b : f->builders)
          if (b.range.line == pt.row && b.range.col == pt.column) {
            resolveBuilder(I, *st, r, b, lens);
            return reply(std::move(lens));
          }
    } else {
      for (const auto& p : st->headPairs)
        if (p.copy.path == r && p.builder && p.copy.list->range.line == pt.row && p.copy.list->range.col == pt.column) {
          resolveCopy(I, *st, p, lens);
          return reply(std::move(lens));
        }
    }
    lens.title = "(changed since: ask again)";  // the file moved under the lens
    reply(std::move(lens));
  });
}

}  // namespace impact::server
