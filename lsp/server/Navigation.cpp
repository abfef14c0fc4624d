#include "server/Navigation.h"

#include "absl/strings/str_cat.h"
#include <set>

#include "contracts/CatalogBindings.h"
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

// The pair's builder is `b`: itself, or the copy of it a pairing restated (an AOT catalog entry's
// builder with its producer's spec decided, KernargsPair::ownBuilder).
bool sameBuilder(const KernargsPair& p, const std::string& path, const PyBuilder* b) {
  if (!p.builder || p.builder->path != path) return false;
  return p.builder->builder == b || (p.ownBuilder && p.builder->builder == p.ownBuilder.get() && p.ownBuilder->name == b->name);
}

// The name-keyed bindings (an adapter's buildBindings, a test's by hand) of the catalog entries
// among `pairs` that restate the argument (each entry's own name for it): one site per binding set.
struct EntryArgName {
  std::string path;  // the catalog
  uint32_t line;     // the entry's list
  std::string name;  // the entry's name for the argument
};
void collectBindingSites(const AnalysisState& st, const std::vector<EntryArgName>& entries, ArgCopies& out) {
  if (entries.empty()) return;
  std::set<std::string> seenSets;
  for (const BindingPair& bp : pairBindings(st.headFacts)) {
    std::string name;
    for (const EntryArgName& want : entries)
      for (const auto& [cpath, e] : bp.entries)
        if (name.empty() && cpath == want.path && e->range.line == want.line) name = want.name;
    if (name.empty()) continue;
    if (!seenSets.insert(absl::StrCat(bp.path, "|", bp.set->function, "|", bp.set->variable)).second) continue;
    ArgSite site;
    site.path = bp.path;
    site.owner = absl::StrCat(bp.set->function, " ", bp.set->variable);
    site.range = bp.set->range;
    site.status = absl::StrCat("binds no ", name);
    for (const NameBinding& b : bp.set->bindings)
      if (b.name == name) {
        site.range = b.range;
        site.arg.name = name;
        site.status = absl::StrCat("binds ", name, " in ", b.map, b.valueType.empty() ? "" : " as " + b.valueType);
        break;
      }
    out.copies.push_back(std::move(site));
  }
}

// Every paired copy's view of argument `index` of `abi` in builder `b`.
void collectCopies(const AnalysisState& st, const std::string& bpath, const PyBuilder* b, const PyAbi* abi, int index,
                   ArgCopies& out) {
  const KernelArg& want = abi->args[index];
  std::vector<EntryArgName> entries;  // the catalog entries that restate it (for their bindings)
  for (const auto& p : st.headPairs) {
    if (!sameBuilder(p, bpath, b)) continue;
    const CppArgList& list = *p.copy.list;
    // A restated builder (a catalog entry's, its producer's spec decided) is compared as paired;
    // its list of the same origin stands for `abi`.
    const PyBuilder* pb = p.builder->builder;
    const PyAbi* pabi = abi;
    if (pb != b)
      for (const PyAbi& x : pb->abis)
        if (x.origin == abi->origin) pabi = &x;
    Comparison cmp = compareCopy(*pb, list, p.shipped.get());
    ArgSite site;
    site.path = p.copy.path;
    site.owner = ownerOf(list);
    site.range = list.range;
    int k = -1;
    int pindex = index;
    if (pabi != abi) {  // the argument's place in the decided list (a conditional left out moves it)
      pindex = -1;
      for (size_t i = 0; i < pabi->args.size(); ++i)
        if (pabi->args[i].name == want.name) pindex = int(i);
    }
    if (cmp.abi == pabi && pindex >= 0) {
      for (auto [bi, ci] : cmp.pairs)
        if (bi == pindex) k = ci;
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
    if (list.catalog) entries.push_back({p.copy.path, list.range.line, entryArg(list.args[k]).first});
    out.copies.push_back(std::move(site));
  }
  collectBindingSites(st, entries, out);
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
      // A restated builder (a catalog entry's, its producer's spec decided): its copies are the
      // tree's builder's, the argument found there by name.
      const PyBuilder* tb = p.builder->builder;
      const PyAbi* tabi = cmp.abi;
      int ti = bi;
      if (p.ownBuilder && tb == p.ownBuilder.get())
        if (const FileFacts* bf = st.headFacts.find(p.builder->path))
          for (const auto& fb : bf->builders)
            if (fb.name == tb->name && fb.style == tb->style)
              for (const auto& fa : fb.abis)
                if (fa.origin == cmp.abi->origin)
                  for (size_t i = 0; i < fa.args.size(); ++i)
                    if (fa.args[i].name == a.name) tb = &fb, tabi = &fa, ti = int(i);
      out.index = ti;
      collectCopies(st, p.builder->path, tb, tabi, ti, out);
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
