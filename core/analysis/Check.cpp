#include "analysis/Check.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analysis/Analysis.h"
#include "contracts/AotProducers.h"
#include "contracts/CatalogPairing.h"
#include "contracts/CatalogBindings.h"
#include "git/Repository.h"
#include "model/Guard.h"

namespace impact {
namespace {

bool under(const std::string& path, const std::vector<std::string>& prefixes) {
  for (const std::string& p : prefixes) {
    std::string q = p;
    while (q.size() > 1 && q.back() == '/') q.pop_back();
    if (path == q || path.starts_with(q + "/") || q == ".") return true;
  }
  return false;
}

std::string argText(const KernelArg& a) {
  std::string s = absl::StrCat(a.name.empty() ? "?" : a.name, " ", kindSize(a));
  if (!a.choices.empty()) {  // a type a condition chooses: each with its condition
    std::vector<std::string> cs;
    for (const TypeChoice& c : a.choices)
      cs.push_back(absl::StrCat(c.name.empty() ? "" : c.name + " ", c.kind, "/", c.size, " if ", guardKey(c.when)));
    s = absl::StrCat(a.name.empty() ? "?" : a.name, " (", absl::StrJoin(cs, " | "), ")");
  }
  if (a.conditional) s += " [if " + a.condition + "]";
  return s;
}

std::string abiHeading(const PyAbi& abi) {
  if (abi.guard.empty() && abi.when.empty()) return "arguments";
  if (abi.guard.empty()) return absl::StrCat("arguments (when ", guardKey(abi.when), ")");
  return absl::StrCat("arguments (early return to ", abi.origin, " when ", abi.guard, ")");
}

std::string where(const std::string& path, const SourceRange& r) { return absl::StrCat(path, ":", r.line + 1); }

}  // namespace

absl::StatusOr<CheckResult> runCheck(const CheckRequest& req, const Layout& defaults, ExtractCache& cache) {
  auto repo = Repository::open(req.repo);
  if (!repo.ok()) return repo.status();
  ReportRequest rr;
  rr.repo = req.repo;
  rr.config = req.config;
  auto layout = layoutFor(rr, **repo, defaults);
  if (!layout.ok()) return layout.status();
  CheckResult out;
  absl::StatusOr<Snapshot> snap = absl::UnknownError("");
  if (req.head.empty()) {
    if ((*repo)->workdir().empty())
      return absl::FailedPreconditionError("the repository is bare: there is no working tree to check; name a commit (--head REV)");
    snap = (*repo)->workdirSnapshot();
    out.head = "working tree";
  } else {
    auto commit = (*repo)->resolve(req.head);
    if (!commit.ok()) return commit.status();
    snap = (*repo)->commitSnapshot(*commit);
    out.head = *commit;
  }
  if (!snap.ok()) return snap.status();
  auto facts = std::make_shared<TreeFacts>(collectFacts(*snap, *layout, cache));
  if (!facts->unreadable.empty())
    return absl::DataLossError(
        absl::StrCat(facts->unreadable.begin()->second, ": the repository is damaged; `git fsck` says more"));
  out.facts = facts;
  std::vector<KernargsPair> unpaired;
  std::vector<KernargsPair> pairs = pairKernargs(*facts, *layout, &unpaired);
  out.accounting = account(*facts, *layout, pairs, unpaired, /*compare=*/true);
  return out;
}

Accounting filterAccounting(const Accounting& a, const std::vector<std::string>& paths) {
  if (paths.empty()) return a;
  Accounting f;
  std::set<std::string> families;  // "module:name" of builders in scope
  for (const auto& b : a.builders)
    if (under(b.path, paths)) families.insert(b.path + ":" + b.name);
  for (const auto& c : a.copies)
    if (under(c.path, paths) && !c.builder.empty()) families.insert(c.builder);
  for (const auto& c : a.copies) {
    if (!under(c.path, paths) && !families.count(c.builder)) continue;
    f.copies.push_back(c);
    if (c.state == AccountedCopy::State::NotACopy) continue;
    ++f.copiesTotal;
    if (c.state == AccountedCopy::State::Compared) ++f.copiesCompared;
  }
  for (const auto& b : a.builders) {
    if (!families.count(b.path + ":" + b.name)) continue;
    f.builders.push_back(b);
    ++f.buildersTotal;
    if (b.read) ++f.buildersRead;
  }
  return f;
}

namespace {
// Each AOT catalog family whose catalog the accounting holds (DOMAIN.md §6): its catalog, the
// producer that builds its kernels, and the name-keyed bindings (adapter, tests) of its entries.
std::string aotFamilies(const TreeFacts& facts, const Accounting& a) {
  std::set<std::string> catalogs;
  for (const auto& c : a.copies)
    if (!aotFamilyFolder(c.path).empty()) catalogs.insert(c.path);
  std::vector<BindingPair> bindings = pairBindings(facts);
  std::string out;
  for (const std::string& catalog : catalogs) {
    const FileFacts* f = facts.find(catalog);
    size_t entries = 0;
    std::string opKind;
    if (f)
      for (const auto& l : f->lists)
        if (l.catalog) ++entries, opKind = l.catalog->opKind;
    const std::string folder = aotFamilyFolder(catalog);
    absl::StrAppend(&out, "\naot family ", folder, "\n  catalog ", catalog, ": ", entries, " entries, op_kind ",
                    opKind.empty() ? "(none)" : opKind, "\n");
    bool producer = false;
    std::set<std::string> symbols;
    if (f)
      for (const auto& l : f->lists)
        if (l.catalog) symbols.insert(l.catalog->symbol);
    for (auto it = facts.producers.lower_bound(folder); it != facts.producers.end() && it->first.starts_with(folder); ++it) {
      if (it->second->kernels.empty() && it->second->notRead.empty()) continue;  // a generator (below)
      producer = true;
      std::set<std::string> builders;
      for (const auto& k : it->second->kernels) builders.insert(k.builderPath + ":" + k.builderName);
      absl::StrAppend(&out, "  producer ", it->first, ": ",
                      it->second->notRead.empty()
                          ? absl::StrCat(it->second->kernels.size(), " kernels built by ", absl::StrJoin(builders, ", "))
                          : "NOT READ: " + it->second->notRead,
                      "\n");
    }
    if (!producer) absl::StrAppend(&out, "  producer: none in the folder (entries pair by folder and symbol)\n");
    // The generators that write this catalog's entries (the family folder's or the arch folder's).
    std::map<std::string, size_t> writers;
    size_t unexplained = 0;
    for (const std::string& symbol : symbols) {
      std::string w = catalogWrittenBy(facts, catalog, symbol);
      if (!w.empty()) ++writers[w];
      bool built = false;
      for (auto it = facts.producers.lower_bound(folder); it != facts.producers.end() && it->first.starts_with(folder); ++it)
        for (const auto& k : it->second->kernels) built = built || std::count(k.names.begin(), k.names.end(), symbol);
      if (w.empty() && !built && producer) ++unexplained;
    }
    for (const auto& [w, n] : writers)
      absl::StrAppend(&out, "  generator ", w, ": writes ", n, " of the ", symbols.size(), " entries\n");
    if (unexplained)
      absl::StrAppend(&out, "  ", unexplained, " of the ", symbols.size(), " entries: no producer or generator explains them\n");
    for (const BindingPair& p : bindings) {
      if (std::none_of(p.entries.begin(), p.entries.end(), [&](const auto& e) { return e.first == catalog; })) continue;
      BindingCheck c = checkBindings(p);
      absl::StrAppend(&out, "  bindings ", p.path, ":", p.set->range.line + 1, " ", p.set->function, " ",
                      p.set->variable, " (", p.set->bindings.size(), " names; paired by ", p.pairedBy, ")\n    ",
                      c.problems.empty() ? "binds every name the entries need, as LaunchAbi packs it"
                                         : absl::StrJoin(c.problems, "; "),
                      c.unused.empty() ? "" : "; not read by any entry: " + absl::StrJoin(c.unused, ", "),
                      c.unstated.empty() ? "" : "; value type not stated: " + absl::StrJoin(c.unstated, "; "), "\n    ",
                      c.rules, "\n");
    }
  }
  return out;
}
}  // namespace

std::string renderCheckText(const CheckResult& r, const Accounting& a) {
  std::string out = absl::StrCat("impact check: ", r.head, "\n");
  std::set<const AccountedCopy*> shown;
  for (const auto& b : a.builders) {
    std::string family = b.path + ":" + b.name;
    absl::StrAppend(&out, "\nbuilder ", family, b.builder ? absl::StrCat(" (line ", b.builder->range.line + 1, ")") : "",
                    b.read ? "" : "  NOT READ", "\n");
    for (const auto& d : b.declaredBy) absl::StrAppend(&out, "  declared by ", d, "\n");
    if (!b.read) absl::StrAppend(&out, "  ", b.notRead, "\n");
    if (b.read && b.builder)
      for (const auto& abi : b.builder->abis) {
        std::vector<std::string> args;
        for (const auto& x : abi.args) args.push_back(argText(x));
        absl::StrAppend(&out, "  ", abiHeading(abi), " (", abi.args.size(), "): ", absl::StrJoin(args, ", "),
                        abi.tailHelper.empty() ? "" : absl::StrCat(" … then whatever ", abi.tailHelper, " declares"), "\n");
      }
    for (const auto& c : a.copies) {
      if (c.builder != family) continue;
      shown.insert(&c);
      absl::StrAppend(&out, "  copy ", where(c.path, c.range), " ", c.what, "\n    paired by ",
                      c.pairedBy.empty() ? "(not said)" : c.pairedBy, "\n    ", c.detail, "\n");
    }
  }
  // Copies compared with a Python names list (no builder entry): one family per list.
  std::map<std::string, std::vector<const AccountedCopy*>> byNamesList;
  for (const auto& c : a.copies)
    if (!shown.count(&c) && !c.builder.empty()) byNamesList[c.builder].push_back(&c);
  for (const auto& [list, copies] : byNamesList) {
    absl::StrAppend(&out, "\nnames list ", list, "\n");
    for (const AccountedCopy* c : copies) {
      shown.insert(c);
      absl::StrAppend(&out, "  copy ", where(c->path, c->range), " ", c->what, "\n    paired by ",
                      c->pairedBy.empty() ? "(not said)" : c->pairedBy, "\n    ", c->detail, "\n");
    }
  }
  if (r.facts) absl::StrAppend(&out, aotFamilies(*r.facts, a));
  std::string gaps, asides;
  for (const auto& c : a.copies) {
    if (shown.count(&c)) continue;
    std::string line = absl::StrCat("  ", where(c.path, c.range), " ", c.what, "\n    ", c.detail, "\n");
    if (c.state == AccountedCopy::State::NotACopy) asides += line;
    else gaps += line;
  }
  if (!gaps.empty()) absl::StrAppend(&out, "\nnot compared:\n", gaps);
  if (!asides.empty()) absl::StrAppend(&out, "\nnot copies:\n", asides);
  absl::StrAppend(&out, "\ncoverage: ", coverageLine(a), "\n");
  if (a.unaccounted())
    absl::StrAppend(&out, a.unaccounted(), " not read or not compared: a NONE does not cover them\n");
  return out;
}

std::string renderCheckJson(const CheckResult& r, const Accounting& a) {
  using nlohmann::json;
  json builders = json::array(), copies = json::array();
  for (const auto& b : a.builders) {
    json abis = json::array();
    if (b.read && b.builder)
      for (const auto& abi : b.builder->abis) {
        json args = json::array();
        for (const auto& x : abi.args) {
          json one = {{"name", x.name}, {"kind_size", kindSize(x)}};
          if (x.conditional) one["condition"] = x.condition;
          args.push_back(std::move(one));
        }
        abis.push_back({{"origin", abi.origin}, {"guard", abi.guard}, {"args", args}, {"tail_helper", abi.tailHelper}});
      }
    json one = {{"module", b.path}, {"builder", b.name}, {"declared_by", b.declaredBy}, {"read", b.read}, {"abis", abis}};
    if (!b.read) one["not_read"] = b.notRead;
    builders.push_back(std::move(one));
  }
  for (const auto& c : a.copies) {
    const char* state = c.state == AccountedCopy::State::Compared      ? "compared"
                        : c.state == AccountedCopy::State::NotCompared ? "not_compared"
                                                                       : "not_a_copy";
    copies.push_back({{"path", c.path}, {"line", c.range.line + 1}, {"what", c.what}, {"state", state},
                      {"builder", c.builder}, {"paired_by", c.pairedBy}, {"detail", c.detail}});
  }
  json j = {{"head", r.head},
            {"builders", builders},
            {"copies", copies},
            {"coverage",
             {{"copies_compared", a.copiesCompared}, {"copies_total", a.copiesTotal}, {"builders_read", a.buildersRead},
              {"builders_total", a.buildersTotal}}},
            {"unaccounted", a.unaccounted()}};
  return j.dump(2) + "\n";
}

}  // namespace impact
