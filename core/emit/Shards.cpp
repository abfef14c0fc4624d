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

std::vector<int> assignShards(const std::vector<ShardItem>& items, int count) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (items[a].variants != items[b].variants) return items[a].variants > items[b].variants;
    uint64_t ha = stableFamilyHash(items[a].family), hb = stableFamilyHash(items[b].family);
    if (ha != hb) return ha < hb;
    return items[a].family < items[b].family;
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
  // Families in the unsharded run's order (by key); each in exactly one shard.
  std::map<std::string, const Family*> families;
  std::set<std::pair<std::string, std::string>> failureSeen;
  std::set<std::pair<std::string, std::string>> notInspectedSeen;
  json findings = json::array(), timedOut = json::array();
  size_t fresh = 0, firstShipped = 0;
  for (int k = 1; k <= n; ++k) {
    const EmitDocument& d = *byIndex[k];
    for (const auto& f : d.families)
      if (!families.emplace(f.key(), &f).second)
        return refuse(absl::StrCat("the family ", f.key(), " is in two shards (the shards were made differently)"));
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
  for (const auto& [key, f] : families) out.families.push_back(*f);
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
