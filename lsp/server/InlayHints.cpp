// textDocument/inlayHint and inlayHint/resolve (issue 38): at each value of a copy (a launch's
// positional values, a KernelArgument list's elements, a Python restatement's entries) the builder
// argument it binds, marked where the value disagrees; at each b.param of a builder, how many
// copies state it and, for a conditional one, which shipped variants turn it on. From the same
// comparison as the diagnostics (server/CopyViews.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/Guards.h"
#include "server/CopyViews.h"
#include "server/ImpactServer.h"
#include "server/ServerState.h"

namespace impact::server {

namespace {

bool inLines(const SourceRange& r, uint32_t first, uint32_t last) { return r.endLine >= first && r.line <= last; }

std::string where(const std::string& path, const SourceRange& r) { return absl::StrCat(fileName(path), ":", r.line + 1); }

// The hints at a copy's values.
void copyHints(const AnalysisState& st, const std::string& path, uint32_t first, uint32_t last,
               const LineIndex& idx, const std::string& absPath, std::vector<InlayHint>& out) {
  for (const auto& p : st.headPairs) {
    if (p.copy.path != path || !p.builder || !inLines(p.copy.list->range, first, last)) continue;
    CopyView v = viewOf(p);
    if (!v.cmp.abi) continue;
    const CppArgList& list = *p.copy.list;
    const auto& bargs = v.cmp.abi->args;
    // A KernelArgument list states offsets: the hint gives the one the builder implies.
    const bool withOffset = list.form == CppArgList::Form::Static;
    std::vector<int64_t> offsets = withOffset ? impliedOffsets(bargs) : std::vector<int64_t>{};
    for (size_t j = 0; j < list.args.size(); ++j) {
      const KernelArg& c = list.args[j];
      if (!inLines(c.range, first, last)) continue;
      InlayHint h;
      h.position = idx.position(c.range.line, c.range.col);
      h.paddingRight = true;
      h.path = absPath;
      h.at = h.position;
      int bi = v.builderOf[j];
      if (bi < 0) {
        if (v.diffs[j].empty()) continue;  // past an open end: not judged, no hint
        h.marked = true;
        h.label = "≠ (extra):";
        h.tooltip = absl::StrCat("This value is not in ", p.builder->builder->name, "'s list (",
                                 where(p.builder->path, p.builder->builder->range), "): the builder has ", bargs.size(),
                                 " arguments.");
        out.push_back(std::move(h));
        continue;
      }
      const KernelArg& b = bargs[bi];
      std::string name = b.name.empty() ? absl::StrCat("#", bi) : b.name;
      h.label = name;
      if (withOffset && size_t(bi) < offsets.size())
        absl::StrAppend(&h.label, offsets[bi] >= 0 ? absl::StrCat(" @", offsets[bi]) : std::string(" @?"));
      h.label += ":";
      if (!v.diffs[j].empty()) {
        h.marked = true;
        h.label = "≠ " + h.label;
        h.tooltip = absl::StrCat("The builder has ", name, " ", kindSize(b), " at #", bi, " (",
                                 p.builder->builder->name, " in ", where(p.builder->path, b.range),
                                 "); this value differs: ", v.diffs[j], ".");
      }
      out.push_back(std::move(h));
    }
  }
}

// Which shipped variants turn a conditional argument on ("on for 2 of 12 shipped variants: a, b").
std::string shippedOn(const PyAbi& abi, const KernelArg& a, const ShippedSet* shipped) {
  if (!shipped || shipped->variants.empty()) return "no shipped variants known";
  Guard g = guardAnd(abi.when, argGuard(a));
  std::vector<std::string> on;
  size_t unknown = 0;
  for (const auto& v : shipped->variants) {
    Truth t = v.spec ? evalGuard(g, *v.spec) : Truth::Unknown;
    if (t == Truth::True) on.push_back(v.name.empty() ? "(unnamed)" : v.name);
    if (t == Truth::Unknown) ++unknown;
  }
  std::string out = absl::StrCat("on for ", on.size(), " of ", shipped->variants.size(), " shipped variants");
  if (!on.empty()) {
    std::vector<std::string> shown(on.begin(), on.begin() + std::min<size_t>(on.size(), 3));
    absl::StrAppend(&out, ": ", absl::StrJoin(shown, ", "), on.size() > 3 ? ", …" : "");
  }
  if (unknown) absl::StrAppend(&out, " (", unknown, " undecided)");
  if (!shipped->incomplete.empty()) absl::StrAppend(&out, " (set incomplete: ", shipped->incomplete, ")");
  return out;
}

// The hints at a builder's b.param calls.
void builderHints(const AnalysisState& st, const std::string& path, uint32_t first, uint32_t last,
                  const LineIndex& idx, const std::string& absPath, std::vector<InlayHint>& out) {
  const FileFacts* f = st.headFacts.find(path);
  if (!f) return;
  // A b.param two builders declare (a helper's, returned to early): the builder with the most
  // copies stating it gives the hint (the helper alone has none: its copies pair with the entry).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<int, InlayHint>> best;
  for (const auto& b : f->builders) {
    if (b.abis.empty()) continue;  // (a list's arguments may lie outside the def: a helper's)
    std::vector<CopyView> views;
    bool viewsRead = false;
    std::set<std::pair<uint32_t, uint32_t>> seen;  // a b.param shared by two lists: one hint
    for (const auto& abi : b.abis)
      for (size_t i = 0; i < abi.args.size(); ++i) {
        const KernelArg& a = abi.args[i];
        // Outside the def, an argument is a helper's: of this module, unless the lists were read
        // through other modules (its range may then be in another file).
        bool inDef = a.range.line >= b.bodyRange.line && a.range.endLine <= b.bodyRange.endLine;
        if (!inLines(a.range, first, last) || (!inDef && !b.readThrough.empty())) continue;
        if (!seen.insert({a.range.line, a.range.col}).second) continue;
        if (!viewsRead) {
          views = viewsOfBuilder(st, path, &b);
          viewsRead = true;
        }
        int stating = 0, differing = 0;
        const ShippedSet* shipped = nullptr;
        for (const auto& v : views) {
          if (!shipped && v.pair->shipped) shipped = v.pair->shipped.get();
          int j = elementFor(v, &abi, int(i));
          if (j < 0) continue;
          ++stating;
          if (!v.diffs[j].empty()) ++differing;
        }
        InlayHint h;
        h.kind = InlayHint::Kind::Type;
        h.position = idx.position(a.range.endLine, a.range.endCol);
        h.paddingLeft = true;
        h.path = absPath;
        h.at = idx.position(a.range.line, a.range.col);
        h.label = absl::StrCat(stating, stating == 1 ? " copy" : " copies");
        if (differing) {
          h.marked = true;
          absl::StrAppend(&h.label, " (", differing, " ≠)");
          h.tooltip = absl::StrCat(differing, " of the ", stating, " copies stating ", a.name, " differ from ",
                                   kindSize(a), ".");
        }
        if (a.conditional) absl::StrAppend(&h.label, " · ", shippedOn(abi, a, shipped));
        auto [it, fresh] = best.try_emplace({a.range.line, a.range.col}, stating, h);
        if (!fresh && stating > it->second.first) it->second = {stating, std::move(h)};
      }
  }
  for (auto& [at, h] : best) out.push_back(std::move(h.second));
}

std::vector<InlayHint> inlayHintsOf(const AnalysisState& st, const std::string& path, uint32_t first, uint32_t last,
                                    const LineIndex& idx, const std::string& absPath) {
  std::vector<InlayHint> out;
  copyHints(st, path, first, last, idx, absPath, out);
  builderHints(st, path, first, last, idx, absPath, out);
  std::stable_sort(out.begin(), out.end(), [](const InlayHint& a, const InlayHint& b) {
    return std::tie(a.position.line, a.position.character) < std::tie(b.position.line, b.position.character);
  });
  return out;
}

}  // namespace

bool hintInputsMoved(const AnalysisState* before, const AnalysisState& now) {
  // The first analysis: a client that asked before it (and got none) asks again.
  if (!before) return true;
  auto holdsHints = [](const FileFacts& f) { return !f.builders.empty() || !f.lists.empty(); };
  for (const auto& [path, f] : now.headFacts.files) {
    auto it = before->headFacts.files.find(path);
    const FileFacts* old = it == before->headFacts.files.end() ? nullptr : it->second.get();
    if (old == f.get()) continue;
    if (holdsHints(*f) || (old && holdsHints(*old))) return true;
  }
  for (const auto& [path, f] : before->headFacts.files)
    if (!now.headFacts.files.count(path) && (!f->builders.empty() || !f->lists.empty())) return true;
  return false;
}

void ImpactServer::inlayHints(const std::string& path, Rng range, std::function<void(std::vector<InlayHint>)> reply) {
  impl_->sched.post([this, path, range, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) return reply({});
    auto st = I.current();
    std::map<std::string, Impl::LineIndexOf> memo;
    const LineIndex& idx = I.lineIndex(*st, r, memo);
    if (!memo[r].text) return reply({});
    // The lines the range touches, then the range itself (its end is exclusive, as LSP's).
    std::vector<InlayHint> out;
    auto before = [](Pos a, Pos b) { return std::tie(a.line, a.character) < std::tie(b.line, b.character); };
    for (auto& h : inlayHintsOf(*st, r, range.start.line, range.end.line, idx, path))
      if (!before(h.position, range.start) && (before(h.position, range.end) || h.position == range.end))
        out.push_back(std::move(h));
    reply(std::move(out));
  });
}

void ImpactServer::resolveInlayHint(InlayHint hint, std::function<void(InlayHint)> reply) {
  impl_->sched.post([this, hint = std::move(hint), reply = std::move(reply)]() mutable {
    Impl& I = *impl_;
    std::string r = I.rel(hint.path);
    if (r.empty() || !I.ready) return reply(std::move(hint));
    auto st = I.current();
    auto text = I.content(*st, r);
    if (!text) return reply(std::move(hint));
    LineIndex idx(*text);
    TSPoint pt = idx.point(idx.offset(hint.at));
    // The table of every copy of the argument, as hover gives it, after what the hint says.
    if (auto a = argumentAt(*st, r, pt.row, pt.column)) {
      std::string table = renderHover(*a, false);
      hint.tooltip = hint.tooltip.empty() ? table : hint.tooltip + "\n\n" + table;
    }
    reply(std::move(hint));
  });
}

}  // namespace impact::server
