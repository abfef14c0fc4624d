#include "emit/Shards.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"

namespace impact::emit {

using nlohmann::json;

uint64_t stableFamilyHash(const std::string& key) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

size_t shardChunkVariants(size_t sideVariants, int shardCount, size_t chunkVariants) {
  size_t k = std::max<size_t>(chunkVariants, 1);
  if (shardCount > 1 && sideVariants > 0) k = std::min(k, (sideVariants + shardCount - 1) / size_t(shardCount));
  return std::max<size_t>(k, 1);
}

std::string chunkName(const std::string& family, size_t chunk) { return absl::StrCat(family, "#", chunk); }

std::vector<int> assignShards(const std::vector<ShardItem>& items, int count) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (items[a].variants != items[b].variants) return items[a].variants > items[b].variants;
    uint64_t ha = stableFamilyHash(chunkName(items[a].family, items[a].chunk));
    uint64_t hb = stableFamilyHash(chunkName(items[b].family, items[b].chunk));
    if (ha != hb) return ha < hb;
    if (items[a].family != items[b].family) return items[a].family < items[b].family;
    return items[a].chunk < items[b].chunk;
  });
  std::vector<size_t> load(std::max(count, 1), 0);
  std::vector<int> shard(items.size(), 1);
  for (size_t i : order) {
    size_t best = std::min_element(load.begin(), load.end()) - load.begin();  // first of the least loaded
    load[best] += items[i].variants;
    shard[i] = int(best) + 1;
  }
  return shard;
}

namespace {

absl::Status refuse(const std::string& msg) { return absl::FailedPreconditionError(msg); }

std::string shardName(const EmitDocument& d) { return absl::StrCat("shard ", d.shard->index, "/", d.shard->count); }

int statusRank(const std::string& s) { return s == "timed_out" ? 2 : s == "failed" ? 1 : 0; }

// A family side from the shards' copies of it: the worst status of the shards that built part of
// it (the first such shard's error), built when any of them built.
void mergeFamilySide(FamilySide& into, const FamilySide& part, bool& seen) {
  if (part.status == "other_shard") return;
  into.built = into.built || part.built;
  if (!seen || statusRank(part.status) > statusRank(into.status)) {
    into.status = part.status;
    into.error = part.error;
  }
  seen = true;
}

// Adds one shard's copy of a family into `into` (the first shard's copy, its sides not yet
// merged); each variant side comes from the one shard that built it.
absl::Status mergeFamily(Family& into, const Family& part, const std::string& shard) {
  if (part.variants.size() != into.variants.size())
    return refuse(absl::StrCat("the shards disagree on the variants of ", into.key(), " (", shard, ")"));
  for (size_t i = 0; i < part.variants.size(); ++i) {
    Variant& v = into.variants[i];
    const Variant& p = part.variants[i];
    if (p.name != v.name || p.arch != v.arch)
      return refuse(absl::StrCat("the shards disagree on the variants of ", into.key(), " (", shard, ")"));
    for (int h = 0; h < 2; ++h) {
      VariantSide& to = h ? v.head : v.base;
      const VariantSide& from = h ? p.head : p.base;
      if (!from.present || from.otherShard) continue;
      if (to.present && !to.otherShard)
        return refuse(absl::StrCat("the variant ", v.name, " of ", into.key(), " was built by two shards"));
      to = from;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<EmitDocument> mergeShards(const std::vector<EmitDocument>& shards) {
  if (shards.empty()) return refuse("no shard document to merge");
  for (const auto& d : shards)
    if (!d.shard) return refuse("a document to merge is a whole run, not a shard (made without --shard)");
  const EmitDocument& first = shards.front();
  for (const auto& d : shards) {
    if (d.schema != first.schema) return refuse(absl::StrCat("mixed schemas: ", first.schema, " and ", d.schema));
    if (d.baseTree != first.baseTree || d.headTree != first.headTree)
      return refuse(absl::StrCat("mixed trees: ", shardName(first), " was made for base ", first.baseTree, " head ",
                                 first.headTree, ", ", shardName(d), " for base ", d.baseTree, " head ", d.headTree));
    if (d.driverVersion != first.driverVersion)
      return refuse(absl::StrCat("mixed driver versions: ", first.driverVersion, " and ", d.driverVersion));
    if (d.flavor != first.flavor)
      return refuse(absl::StrCat("mixed LLVM flavors: '", first.flavor, "' and '", d.flavor, "'"));
    if (d.packTime.is_null() != first.packTime.is_null())
      return refuse("mixed runs: some shards were made with --no-probe, some without");
    if (d.shard->count != first.shard->count)
      return refuse(absl::StrCat("mixed shard counts: ", shardName(first), " and ", shardName(d)));
  }
  int n = first.shard->count;
  std::vector<const EmitDocument*> byIndex(n + 1, nullptr);
  for (const auto& d : shards) {
    if (byIndex[d.shard->index]) return refuse(absl::StrCat(shardName(d), " is given twice"));
    byIndex[d.shard->index] = &d;
  }
  for (int k = 1; k <= n; ++k)
    if (!byIndex[k]) return refuse(absl::StrCat("shard ", k, "/", n, " is missing"));

  EmitDocument out;
  out.schema = first.schema;
  out.baseTree = first.baseTree;
  out.headTree = first.headTree;
  out.baseCommit = first.baseCommit;
  out.headCommit = first.headCommit;
  out.flavor = first.flavor;
  out.driverVersion = first.driverVersion;
  // The confinement: the weakest any shard ran in (a shard that ran unconfined makes the run so).
  for (const auto& d : shards)
    if (out.sandbox.is_null() || (d.sandbox.is_object() && !d.sandbox.value("confined", true))) out.sandbox = d.sandbox;
  // Families in the unsharded run's order (by key); a family split over shards reassembled.
  std::map<std::string, Family> families;
  std::map<std::string, std::vector<const Family*>> byFamily;  // the later shards' copies
  std::set<std::pair<std::string, std::string>> failureSeen;
  std::set<std::pair<std::string, std::string>> notInspectedSeen;
  json findings = json::array(), timedOut = json::array();
  size_t fresh = 0, firstShipped = 0;
  for (int k = 1; k <= n; ++k) {
    const EmitDocument& d = *byIndex[k];
    for (const auto& f : d.families) {
      auto [it, fresh] = families.try_emplace(f.key(), f);
      if (fresh) continue;
      if (auto st = mergeFamily(it->second, f, shardName(d)); !st.ok()) return st;
      byFamily[f.key()].push_back(&f);
    }
    // Run-wide failures and descriptors are the same in every shard: kept once, in shard order.
    for (const auto& f : d.failures)
      if (failureSeen.insert({f.family, f.message}).second) out.failures.push_back(f);
    for (const auto& x : d.notInspected)
      if (notInspectedSeen.insert({x.path, x.reason}).second) out.notInspected.push_back(x);
    if (d.packTime.is_object()) {
      for (const auto& f : d.packTime.value("findings", json::array())) findings.push_back(f);
      for (const auto& f : d.packTime.value("timed_out", json::array())) timedOut.push_back(f);
      fresh += d.packTime.value("new", size_t(0));
      firstShipped += d.packTime.value("first_shipped", size_t(0));
    }
  }
  for (auto& [key, f] : families) {
    Family whole = f;
    bool seen[2] = {false, false};
    whole.base = {"other_shard", "", false, f.base.closure};
    whole.head = {"other_shard", "", false, f.head.closure};
    std::vector<const Family*> parts = {&f};
    for (const Family* p : byFamily[key]) parts.push_back(p);
    for (const Family* p : parts) {
      mergeFamilySide(whole.base, p->base, seen[0]);
      mergeFamilySide(whole.head, p->head, seen[1]);
    }
    for (const auto& v : whole.variants)
      if ((v.base.present && v.base.otherShard) || (v.head.present && v.head.otherShard))
        return refuse(absl::StrCat("the variant ", v.name, " of ", key, " was built by no shard"));
    out.families.push_back(std::move(whole));
  }
  if (!first.packTime.is_null()) {
    // The unsharded tables list findings family by family in key order (stable within a family).
    auto famOf = [](const json& f) { return f.is_object() ? f.value("family", std::string()) : std::string(); };
    std::vector<json> fs(findings.begin(), findings.end());
    std::stable_sort(fs.begin(), fs.end(), [&](const json& a, const json& b) { return famOf(a) < famOf(b); });
    std::vector<json> ts(timedOut.begin(), timedOut.end());
    std::stable_sort(ts.begin(), ts.end());
    out.packTime = {{"findings", fs}, {"new", fresh}, {"first_shipped", firstShipped}, {"timed_out", ts}};
  }
  return out;
}

}  // namespace impact::emit
