#include "run/Emit.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "analysis/Analysis.h"
#include "analysis/TreeFacts.h"
#include "cache/DiskCache.h"
#include "cache/FamilyCache.h"
#include "emit/Shards.h"
#include "emit/TreeKey.h"
#include "emitter_driver_sources.h"
#include "git/Repository.h"
#include "process/Sandbox.h"
#include "python/ModuleGraph.h"
#include "run/DriverCall.h"
#include "run/Jobs.h"
#include "run/PackTime.h"
#include "tree/TreeExport.h"
#include "variants/Variants.h"

namespace impact::emitter {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

absl::StatusOr<Confinement> sandboxInForce(const Limits& limits) {
  std::string python = findPython();
  if (python.empty()) return absl::FailedPreconditionError("no python3 on PATH (set IMPACT_PYTHON)");
  return detectConfinement(python, limits);
}

std::string defaultCacheDir() {
  if (const char* d = std::getenv("IMPACT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/impactd";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/impactd";
  return "/tmp/impactd-cache";
}

absl::StatusOr<Driver> installDriver(const std::string& cacheDir, const Limits& limits, bool unconfined) {
  Driver d;
  d.version = blobId(absl::StrCat(driver_sources::kDriver, "\n--\n", driver_sources::kProbe)).substr(0, 16);
  fs::path dir = fs::path(cacheDir) / "driver" / d.version;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create the emitter cache ", dir.string(), ": ", ec.message()));
  for (auto [name, text] : {std::pair{"impact_emit_driver.py", driver_sources::kDriver},
                            std::pair{"impact_emit_probe.py", driver_sources::kProbe}}) {
    fs::path p = dir / name;
    if (fs::exists(p)) continue;
    fs::path tmp = dir / absl::StrCat(name, ".", ::getpid());
    std::ofstream(tmp, std::ios::binary) << text;
    fs::rename(tmp, p, ec);
  }
  d.script = (dir / "impact_emit_driver.py").string();
  d.python = findPython();
  if (d.python.empty()) return absl::FailedPreconditionError("no python3 on PATH (set IMPACT_PYTHON)");
  d.sandbox = detectConfinement(d.python, limits);
  if (!d.sandbox.python.empty()) d.python = d.sandbox.python;  // never a shim: it would run others
  if (unconfined) {
    d.sandbox.landlockAbi = 0;
    d.sandbox.userNetns = d.sandbox.seccomp = d.sandbox.processLimit = false;
  }
  return d;
}

namespace {

struct Side {
  Snapshot snap;
  TreeFacts facts;
  std::unique_ptr<ModuleGraph> graph;
  ExportedTree tree;
  std::map<std::string, std::string> dataBlobs;  // non-Python files below the import roots
  json ladder = json::array();
  std::set<std::string> driverClosure;  // modules the driver imports for every family
};


bool underRoots(const std::string& path, const Layout& layout) {
  for (const auto& r : layout.importRoots)
    if (path.starts_with(r.ends_with("/") ? r : r + "/")) return true;
  return false;
}

// The newest flavor both revisions know: the head's ladder order, first one the base knows too.
std::string commonFlavor(const json& base, const json& head) {
  for (const auto& f : head)
    for (const auto& g : base)
      if (f == g && f.is_string()) return f.get<std::string>();
  return "";
}

emit::VariantSide sideOf(const VariantSpec& v, const json& answer, size_t index) {
  emit::VariantSide s;
  s.present = true;
  s.spec = json::parse(v.spec, nullptr, false);
  const json* rec = nullptr;
  if (answer.contains("variants") && answer["variants"].is_array() && index < answer["variants"].size())
    rec = &answer["variants"][index];
  if (!rec || !rec->is_object()) {
    s.error = answer.contains("error") && answer["error"].is_string() ? answer["error"].get<std::string>()
                                                                       : "not built";
    return s;
  }
  if (rec->contains("error")) s.error = (*rec)["error"].is_string() ? (*rec)["error"].get<std::string>() : "error";
  for (const auto& k : rec->value("kernels", json::array())) {
    emit::KernelRecord kr;
    kr.name = k.value("name", "");
    kr.irSha256 = k.value("ir_sha256", "");
    kr.compile = k.value("compile", json::object());
    for (const auto& a : k.value("args", json::array()))
      kr.args.push_back({a.value("name", ""), a.value("kind", ""), a.value("type", ""), a.value("size", 0u)});
    s.kernels.push_back(std::move(kr));
  }
  return s;
}

}  // namespace

absl::StatusOr<emit::EmitDocument> runEmit(const EmitOptions& opts, EmitStats* statsOut) {
  EmitStats stats;
  auto start = Clock::now();
  auto runDeadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.runBudget));
  auto repo = Repository::open(opts.repo);
  if (!repo.ok()) return repo.status();
  ReportRequest rr;
  rr.repo = opts.repo;
  rr.config = opts.config;
  auto layout = layoutFor(rr, **repo, Layout{});
  if (!layout.ok()) return layout.status();
  auto baseTip = (*repo)->resolve(opts.base);
  if (!baseTip.ok()) return baseTip.status();
  auto headCommit = (*repo)->resolve(opts.head.empty() ? "HEAD" : opts.head);
  if (!headCommit.ok()) return headCommit.status();
  auto mb = (*repo)->mergeBase(*baseTip, *headCommit);
  if (!mb.ok()) return mb.status();

  std::string cacheDir = opts.cacheDir.empty() ? defaultCacheDir() : opts.cacheDir;
  if (!(*repo)->workdir().empty()) {
    std::string wd = fs::weakly_canonical((*repo)->workdir()).string();
    std::string cd = fs::weakly_canonical(fs::absolute(cacheDir)).string();
    if (!wd.ends_with("/")) wd += "/";
    if ((cd + "/").starts_with(wd))
      return absl::InvalidArgumentError(absl::StrCat("the emitter cache ", cacheDir, " lies inside the repository; ",
                                                     "it never writes there (choose another --cache)"));
  }
  auto driver = installDriver(cacheDir, opts.limits, opts.unconfined);
  if (!driver.ok()) return driver.status();
  stats.sandbox = confinementSummary(driver->sandbox);
  if (!driver->sandbox.confined()) {
    if (opts.requireSandbox)
      return absl::FailedPreconditionError(absl::StrCat("--require-sandbox: the emitter's child would run ",
                                                        stats.sandbox, "; refusing to run the tree's Python"));
    std::fprintf(stderr, "impact emit: the tree's Python runs %s: %s (docs/emitter.md)\n", stats.sandbox.c_str(),
                 opts.unconfined ? "--unconfined was given" : "this kernel offers no Landlock or no network isolation");
  }

  // The trees' facts persist beside the emitter's other caches (as `impact report --cache` keeps
  // them: core/cache/DiskCache.h), so that a warm run extracts nothing.
  ExtractCache extractCache;
  extractCache.setStore(std::make_shared<DiskCache>(cacheDir));
  Side sides[2];
  for (int h = 0; h < 2; ++h) {
    auto snap = h ? (opts.head.empty() ? (*repo)->workdirSnapshot() : (*repo)->commitSnapshot(*headCommit))
                  : (*repo)->commitSnapshot(*mb);
    if (!snap.ok()) return snap.status();
    sides[h].snap = std::move(*snap);
    sides[h].facts = collectFacts(sides[h].snap, *layout, extractCache);
    sides[h].graph = std::make_unique<ModuleGraph>(sides[h].facts, *layout);
    auto tree = exportTree(sides[h].snap, *layout, cacheDir);
    if (!tree.ok()) return tree.status();
    sides[h].tree = *tree;
    for (const auto& [p, ref] : sides[h].snap.files)
      if (underRoots(p, *layout) && !p.ends_with(".py")) sides[h].dataBlobs[p] = ref.id;
    // What the driver itself imports for every family: the lowering, the target, the compile options.
    for (const char* m : {"rocke.core.lower_llvm", "rocke.core.llvm_profile", "rocke.core.arch", "rocke.helpers.compile"})
      if (std::string p = sides[h].graph->modulePath(m); !p.empty()) {
        auto c = sides[h].graph->importClosure(p);
        sides[h].driverClosure.insert(c.begin(), c.end());
      }
  }

  emit::EmitDocument doc;
  doc.baseTree = emit::treeKey(sides[0].snap);
  doc.headTree = emit::treeKey(sides[1].snap);
  doc.baseCommit = *mb;
  doc.headCommit = opts.head.empty() ? "working tree" : *headCommit;
  doc.driverVersion = driver->version;
  doc.sandbox = describeConfinement(driver->sandbox);

  // The LLVM flavor: the newest both trees' ladders know.
  FamilyCache cache((fs::path(cacheDir) / "families").string());
  for (int h = 0; h < 2; ++h) {
    // Cached per tree: the ladder is a pure function of the tree's files and the driver.
    std::string key = blobId(absl::StrCat("flavors|", h ? doc.headTree : doc.baseTree, "|", driver->version));
    if (auto hit = cache.get(key); hit && hit->contains("ladder")) {
      sides[h].ladder = (*hit)["ladder"];
      continue;
    }
    json req = {{"mode", "flavors"}, {"import_roots", sides[h].tree.importRoots}};
    auto deadline = std::min(Clock::now() + std::chrono::seconds(60), runDeadline);
    DriverOutcome o = callDriver(*driver, req, "", deadline, opts.cancel);
    if (opts.cancel && opts.cancel->load()) return absl::CancelledError("the emitter run was cancelled");
    if (o.status == "ok") {
      sides[h].ladder = o.answer.value("ladder", json::array());
      cache.put(key, {{"ladder", sides[h].ladder}});
    } else {
      doc.failures.push_back({"", absl::StrCat("no LLVM flavor ladder at the ", h ? "head" : "base", ": ", o.error)});
    }
  }
  doc.flavor = commonFlavor(sides[0].ladder, sides[1].ladder);
  if (doc.flavor.empty() && doc.failures.empty())
    doc.failures.push_back({"", "the two revisions' flavor ladders share no LLVM flavor"});

  Plan plan = planVariants(sides[0].facts, sides[1].facts, *layout);
  doc.failures.insert(doc.failures.end(), plan.failures.begin(), plan.failures.end());
  doc.notInspected = plan.notInspected;
  // The chunks of each family (base and head slices of chunk c together) and, in a shard, which
  // of them this shard builds; a family with none of its chunks here is left out.
  std::map<std::string, size_t> chunkSize;
  std::set<std::pair<std::string, size_t>> mine;
  {
    std::vector<emit::ShardItem> items;
    for (const auto& [key, fam] : plan.families) {
      size_t n = std::max(fam.base.size(), fam.head.size());
      size_t k = chunkSize[key] = emit::shardChunkVariants(n, opts.shardCount, kChunkVariants);
      for (size_t c = 0; c * k < n; ++c) {
        auto slice = [&](size_t total) { return c * k < total ? std::min(k, total - c * k) : size_t(0); };
        items.push_back({key, slice(fam.base.size()) + slice(fam.head.size()), c});
      }
    }
    std::vector<int> which = emit::assignShards(items, std::max(opts.shardCount, 1));
    emit::Shard shard{opts.shardIndex, opts.shardCount, {}, {}};
    for (size_t i = 0; i < items.size(); ++i)
      if (opts.shardCount == 0 || which[i] == opts.shardIndex) {
        mine.insert({items[i].family, items[i].chunk});
        if (shard.families.empty() || shard.families.back() != items[i].family) shard.families.push_back(items[i].family);
        shard.chunks.push_back(emit::chunkName(items[i].family, items[i].chunk));
      }
    for (auto it = plan.families.begin(); it != plan.families.end();)
      it = std::any_of(mine.begin(), mine.end(), [&](const auto& m) { return m.first == it->first; })
               ? std::next(it)
               : plan.families.erase(it);
    if (opts.shardCount > 0) doc.shard = std::move(shard);
  }
  auto owned = [&](const std::string& key, size_t index) { return mine.count({key, index / chunkSize[key]}) > 0; };

  std::vector<Job> jobs;
  std::map<std::string, std::array<std::vector<std::string>, 2>> closures;
  for (const auto& [key, fam] : plan.families) {
    for (int h = 0; h < 2; ++h) {
      const auto& vs = h ? fam.head : fam.base;
      Side& s = sides[h];
      std::set<std::string> closure;
      if (s.facts.find(fam.path)) closure = s.graph->importClosure(fam.path);
      closure.insert(s.driverClosure.begin(), s.driverClosure.end());
      closures[key][h].assign(closure.begin(), closure.end());
      if (vs.empty()) continue;
      std::map<std::string, std::string> blobs = s.dataBlobs;
      for (const auto& p : closure)
        if (const FileRef* r = s.snap.find(p)) blobs[p] = r->id;
      if (!s.snap.find(fam.path)) blobs[fam.path] = "absent";
      const size_t k = chunkSize[key];
      for (size_t first = 0; first < vs.size(); first += k) {
        if (!owned(key, first)) continue;
        Job j;
        j.family = key;
        j.head = h;
        j.first = first;
        j.count = std::min(k, vs.size() - first);
        json variants = json::array();
        for (size_t i = first; i < first + j.count; ++i)
          variants.push_back({{"name", vs[i].name}, {"arch", vs[i].arch}, {"spec", json::parse(vs[i].spec, nullptr, false)}});
        bool probe = opts.probe && first == 0;
        j.request = {{"mode", "build"},
                     {"import_roots", s.tree.importRoots},
                     {"flavor", doc.flavor.empty() ? json(nullptr) : json(doc.flavor)},
                     {"family", {{"source", fam.source}, {"builder", fam.builder}}},
                     {"variants", variants},
                     {"probe", probe},
                     {"probe_budget", std::max(1.0, opts.familyBudget / 4)}};
        if (probe && k < kChunkVariants) {
          // A shard's smaller first chunk probes what the unsharded run's first chunk probes.
          json pv = json::array();
          for (size_t i = 0; i < std::min(kChunkVariants, vs.size()); ++i)
            pv.push_back({{"name", vs[i].name}, {"arch", vs[i].arch}, {"spec", json::parse(vs[i].spec, nullptr, false)}});
          j.request["probe_variants"] = std::move(pv);
        }
        CacheKeyInput ck{blobs, variants, fam.source, fam.builder, doc.flavor, driver->version, probe};
        j.cacheKey = familyCacheKey(ck);
        jobs.push_back(std::move(j));
      }
    }
  }
  runJobs(jobs, *driver, cache, doc.flavor, opts, runDeadline, stats);
  if (opts.cancel && opts.cancel->load()) return absl::CancelledError("the emitter run was cancelled");

  std::map<std::pair<std::string, bool>, std::vector<const Job*>> chunks;
  for (const auto& j : jobs) chunks[{j.family, j.head}].push_back(&j);
  std::map<std::pair<std::string, bool>, MergedSide> merged;
  for (const auto& [k, list] : chunks) merged[k] = mergeChunks(list);
  for (const auto& [key, fam] : plan.families) {
    emit::Family f;
    f.source = fam.source;
    f.path = fam.path;
    f.builder = fam.builder;
    json answers[2];
    for (int h = 0; h < 2; ++h) {
      emit::FamilySide& side = h ? f.head : f.base;
      auto it = merged.find({key, bool(h)});
      if (it == merged.end()) {
        side.status = (h ? fam.head : fam.base).empty() ? "absent" : "other_shard";
      } else {
        side = it->second.side;
        answers[h] = it->second.answer;
      }
      side.closure = closures[key][h];
    }
    // The index of each built variant in its side's merged answer (only this shard's chunks).
    std::vector<size_t> ownedIndex[2];
    for (int h = 0; h < 2; ++h) {
      size_t n = 0;
      for (size_t i = 0; i < (h ? fam.head : fam.base).size(); ++i) ownedIndex[h].push_back(owned(key, i) ? n++ : 0);
    }
    // Pair variants across revisions by (name, target).
    std::map<std::pair<std::string, std::string>, emit::Variant> vars;
    std::vector<std::pair<std::string, std::string>> order;
    for (int h = 1; h >= 0; --h) {
      const auto& vs = h ? fam.head : fam.base;
      for (size_t i = 0; i < vs.size(); ++i) {
        auto k = std::make_pair(vs[i].name, vs[i].arch);
        if (!vars.count(k)) order.push_back(k);
        emit::Variant& v = vars[k];
        v.name = vs[i].name;
        v.arch = vs[i].arch;
        emit::VariantSide& vside = h ? v.head : v.base;
        if (owned(key, i)) {
          vside = sideOf(vs[i], answers[h], ownedIndex[h][i]);
        } else {
          vside.present = true;
          vside.spec = json::parse(vs[i].spec, nullptr, false);
          vside.otherShard = true;
        }
      }
    }
    for (const auto& k : order) f.variants.push_back(std::move(vars[k]));
    stats.variants += f.variants.size();
    doc.families.push_back(std::move(f));
  }
  stats.families = doc.families.size();
  if (opts.probe) {
    std::vector<ProbeSides> probes;
    for (const auto& [key, fam] : plan.families) {
      ProbeSides p;
      p.family = key;
      p.shippedAtBase = !fam.base.empty();
      for (bool h : {false, true})
        if (auto it = merged.find({key, h}); it != merged.end())
          (h ? p.head : p.base) = it->second.answer.value("probe", json());
      probes.push_back(std::move(p));
    }
    doc.packTime = packTimeTables(probes);
  }
  if (statsOut) *statsOut = stats;
  return doc;
}

}  // namespace impact::emitter
