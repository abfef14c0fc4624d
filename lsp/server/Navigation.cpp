#include "server/Navigation.h"

#include "absl/strings/str_cat.h"
#include "contracts/kernargs/NameKeyedComparison.h"

namespace impact::server {

namespace {

bool contains(const SourceRange& r, uint32_t line, uint32_t col) {
  if (line < r.line || line > r.endLine) return false;
  if (line == r.line && col < r.col) return false;
  if (line == r.endLine && col > r.endCol) return false;
  return true;
}

std::string ownerOf(const CppArgList& l) {
  if (!l.symbol.empty()) return l.variable.empty() ? l.symbol : l.symbol + " " + l.variable;
  return l.variable.empty() ? "(list)" : l.variable;
}

bool sameBuilder(const KernargsPair& p, const std::string& path, const PyBuilder* b) {
  return p.builder && p.builder->path == path && p.builder->builder == b;
}

// Every paired copy's view of argument `index` of `abi` in builder `b`.
void collectCopies(const AnalysisState& st, const std::string& bpath, const PyBuilder* b, const PyAbi* abi, int index,
                   ArgCopies& out) {
  const KernelArg& want = abi->args[index];
  for (const auto& p : st.headPairs) {
    if (!sameBuilder(p, bpath, b)) continue;
    const CppArgList& list = *p.copy.list;
    Comparison cmp = compareCopy(*b, list, p.shipped.get());
    ArgSite site;
    site.path = p.copy.path;
    site.owner = ownerOf(list);
    site.range = list.range;
    int k = -1;
    if (cmp.abi == abi) {
      for (auto [bi, ci] : cmp.pairs)
        if (bi == index) k = ci;
    } else if (!want.name.empty()) {
      for (size_t j = 0; j < list.args.size(); ++j)
        if (list.args[j].name == want.name) k = int(j);
    }
    if (k < 0 || size_t(k) >= list.args.size()) {
      site.status = cmp.abi != abi && cmp.abi ? absl::StrCat("follows the ", cmp.abi->origin, " list")
                                              : (want.conditional ? "left out (conditional)" : "missing from this copy");
      out.copies.push_back(std::move(site));
      continue;
    }
    site.arg = list.args[k];
    site.range = list.args[k].range;
    std::string diff = elementDifference(list, list.args[k], want);
    site.status = diff.empty() ? "agrees" : "differs: " + diff;
    out.copies.push_back(std::move(site));
  }
}

}  // namespace

std::string elementDifference(const CppArgList& list, const KernelArg& c, const KernelArg& want) {
  std::vector<std::string> diffs;
  // A launch call's "names" are its argument expressions: only its kinds are compared.
  if (list.form != CppArgList::Form::Launch && !c.name.empty() && !want.name.empty() && c.name != want.name)
    diffs.push_back("named " + c.name);
  if (c.size && want.size && (c.kind != want.kind || c.size != want.size))
    diffs.push_back(absl::StrCat(c.kind, "/", c.size));
  // A name-keyed check states its scalar type (ROCKE_ARG_F32): compared at equal size too.
  if (list.form == CppArgList::Form::NameKeyed && diffs.empty()) {
    std::string bc = kernargs_detail::scalarClass(want, false), kc = kernargs_detail::scalarClass(c, true);
    if (!bc.empty() && !kc.empty() && bc != kc) diffs.push_back(absl::StrCat(c.typeText, " (", c.kind, "/", c.size, ")"));
  }
  if (diffs.empty()) return "";
  return diffs[0] + (diffs.size() > 1 ? ", " + diffs[1] : "");
}

std::optional<ArgCopies> argumentAt(const AnalysisState& st, const std::string& path, uint32_t line, uint32_t col) {
  const FileFacts* f = st.headFacts.find(path);
  if (!f) return std::nullopt;
  // The Python side: an argument of a builder's list.
  for (const auto& b : f->builders)
    for (const auto& abi : b.abis)
      for (size_t i = 0; i < abi.args.size(); ++i)
        if (contains(abi.args[i].range, line, col)) {
          ArgCopies out;
          out.builder = {path, abi.args[i].range, b.name, abi.args[i], "builder"};
          out.index = int(i);
          out.list = abi.origin;
          out.at = abi.args[i].range;
          collectCopies(st, path, &b, &abi, int(i), out);
          return out;
        }
  // A copy: the element under the cursor, then its builder's argument.
  for (const auto& p : st.headPairs) {
    if (p.copy.path != path || !p.builder) continue;
    const CppArgList& list = *p.copy.list;
    for (size_t j = 0; j < list.args.size(); ++j) {
      if (!contains(list.args[j].range, line, col)) continue;
      Comparison cmp = comparePair(p);
      if (!cmp.abi) return std::nullopt;
      int bi = -1;
      for (auto [x, y] : cmp.pairs)
        if (y == int(j)) bi = x;
      if (bi < 0 || size_t(bi) >= cmp.abi->args.size()) return std::nullopt;
      ArgCopies out;
      const KernelArg& a = cmp.abi->args[bi];
      out.builder = {p.builder->path, a.range, p.builder->builder->name, a, "builder"};
      out.index = bi;
      out.list = cmp.abi->origin;
      out.at = list.args[j].range;
      collectCopies(st, p.builder->path, p.builder->builder, cmp.abi, bi, out);
      return out;
    }
  }
  return std::nullopt;
}

std::vector<const KernargsPair*> pairsInRange(const AnalysisState& st, const std::string& path, uint32_t firstLine,
                                              uint32_t lastLine) {
  std::vector<const KernargsPair*> out;
  for (const auto& p : st.headPairs)
    if (p.copy.path == path && p.copy.list->range.line <= lastLine && p.copy.list->range.endLine >= firstLine)
      out.push_back(&p);
  return out;
}

std::string renderHover(const ArgCopies& a, bool md) {
  const KernelArg& b = a.builder.arg;
  std::string ks = kindSize(b);
  std::string out;
  if (md) {
    absl::StrAppend(&out, "**", b.name.empty() ? "(unnamed)" : b.name, "** `", ks, "` — argument #", a.index, " of `",
                    a.builder.owner, "`");
    if (a.list != a.builder.owner) absl::StrAppend(&out, " (the `", a.list, "` list)");
    if (b.conditional) absl::StrAppend(&out, ", only when `", b.condition, "`");
    absl::StrAppend(&out, "\n\n", a.builder.path, ":", b.range.line + 1, "\n\n");
    absl::StrAppend(&out, "| copy | line | kind | size | offset | status |\n|---|---|---|---|---|---|\n");
    for (const auto& c : a.copies) {
      std::string file = c.path.substr(c.path.rfind('/') + 1);
      absl::StrAppend(&out, "| `", file, "` ", c.owner, " | ", c.range.line + 1, " | ", c.arg.kind.empty() ? "-" : c.arg.kind,
                      " | ", c.arg.size ? std::to_string(c.arg.size) : "-", " | ",
                      c.arg.offset >= 0 ? std::to_string(c.arg.offset) : "-", " | ", c.status, " |\n");
    }
  } else {
    absl::StrAppend(&out, b.name.empty() ? "(unnamed)" : b.name, " ", ks, " - argument #", a.index, " of ", a.builder.owner,
                    " (", a.builder.path, ":", b.range.line + 1, ")\n");
    for (const auto& c : a.copies)
      absl::StrAppend(&out, "  ", c.path, ":", c.range.line + 1, " ", c.owner, "  ", c.arg.kind.empty() ? "-" : c.arg.kind,
                      "/", c.arg.size ? std::to_string(c.arg.size) : "-",
                      c.arg.offset >= 0 ? absl::StrCat(" @", c.arg.offset) : "", "  ", c.status, "\n");
  }
  if (a.copies.empty()) out += md ? "\n_No copy restates this argument._\n" : "  no copy restates this argument\n";
  return out;
}

}  // namespace impact::server
