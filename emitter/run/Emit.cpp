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

// The emitter cache never lies inside the repository it reads.
absl::Status cacheOutsideRepo(const Repository& repo, const std::string& cacheDir) {
  if (repo.workdir().empty()) return absl::OkStatus();
  std::string wd = fs::weakly_canonical(repo.workdir()).string();
  std::string cd = fs::weakly_canonical(fs::absolute(cacheDir)).string();
  if (!wd.ends_with("/")) wd += "/";
  if ((cd + "/").starts_with(wd))
    return absl::InvalidArgumentError(absl::StrCat("the emitter cache ", cacheDir, " lies inside the repository; ",
                                                   "it never writes there (choose another --cache)"));
  return absl::OkStatus();
}

// The two revisions compared: the merge base and the head (a commit or the working tree).
struct Revisions {
  std::shared_ptr<Repository> repo;
  Layout layout;
  std::string mergeBase, headCommit;
};

absl::StatusOr<Revisions> openRevisions(const EmitOptions& opts) {
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
  return Revisions{std::move(*repo), std::move(*layout), *mb, *headCommit};
}

// Each revision's snapshot, facts, module graph and exported tree.
absl::Status loadSides(const EmitOptions& opts, const Revisions& rv, const std::string& cacheDir, Side (&sides)[2]) {
  // The trees' facts persist beside the emitter's other caches (as `impact report --cache` keeps
  // them: core/cache/DiskCache.h), so that a warm run extracts nothing.
  ExtractCache extractCache;
  extractCache.setStore(std::make_shared<DiskCache>(cacheDir));
  for (int h = 0; h < 2; ++h) {
    auto snap = h ? (opts.head.empty() ? rv.repo->workdirSnapshot() : rv.repo->commitSnapshot(rv.headCommit))
                  : rv.repo->commitSnapshot(rv.mergeBase);
    if (!snap.ok()) return snap.status();
    Side& s = sides[h];
    s.snap = std::move(*snap);
    s.facts = collectFacts(s.snap, rv.layout, extractCache);
    s.graph = std::make_unique<ModuleGraph>(s.facts, rv.layout);
    auto tree = exportTree(s.snap, rv.layout, cacheDir);
    if (!tree.ok()) return tree.status();
    s.tree = *tree;
    for (const auto& [p, ref] : s.snap.files)
      if (underRoots(p, rv.layout) && !p.ends_with(".py")) s.dataBlobs[p] = ref.id;
    // What the driver itself imports for every family: the lowering, the target, the compile options.
    for (const char* m : {"rocke.core.lower_llvm", "rocke.core.llvm_profile", "rocke.core.arch", "rocke.helpers.compile"})
      if (std::string p = s.graph->modulePath(m); !p.empty()) {
        auto c = s.graph->importClosure(p);
        s.driverClosure.insert(c.begin(), c.end());
      }
  }
  return absl::OkStatus();
}

// The LLVM flavor: the newest both trees' ladders know (each ladder cached per tree). Nullopt
// when the run was cancelled.
std::optional<std::string> chooseFlavor(const Driver& driver, FamilyCache& cache, const EmitOptions& opts,
                                        Clock::time_point runDeadline, Side (&sides)[2], emit::EmitDocument& doc) {
  for (int h = 0; h < 2; ++h) {
    // The ladder is a pure function of the tree's files and the driver.
    std::string key = blobId(absl::StrCat("flavors|", h ? doc.headTree : doc.baseTree, "|", driver.version));
    if (auto hit = cache.get(key); hit && hit->contains("ladder")) {
      sides[h].ladder = (*hit)["ladder"];
      continue;
    }
    json req = {{"mode", "flavors"}, {"import_roots", sides[h].tree.importRoots}};
    auto deadline = std::min(Clock::now() + std::chrono::seconds(60), runDeadline);
    DriverOutcome o = callDriver(driver, req, "", deadline, opts.cancel);
    if (opts.cancel && opts.cancel->load()) return std::nullopt;
    if (o.status == "ok") {
      sides[h].ladder = o.answer.value("ladder", json::array());
      cache.put(key, {{"ladder", sides[h].ladder}});
    } else {
      doc.failures.push_back({"", absl::StrCat("no LLVM flavor ladder at the ", h ? "head" : "base", ": ", o.error)});
    }
  }
  std::string flavor = commonFlavor(sides[0].ladder, sides[1].ladder);
  if (flavor.empty() && doc.failures.empty())
    doc.failures.push_back({"", "the two revisions' flavor ladders share no LLVM flavor"});
  return flavor;
}

// The chunks of each family (base and head slices of chunk c together) and, in a shard, which of
// them this shard builds; a family with none of its chunks here is left out of the plan.
struct ChunkPlan {
  std::map<std::string, size_t> chunkSize;
  std::set<std::pair<std::string, size_t>> mine;
  bool owned(const std::string& key, size_t index) const { return mine.count({key, index / chunkSize.at(key)}) > 0; }
};

ChunkPlan planChunks(Plan& plan, const EmitOptions& opts, emit::EmitDocument& doc) {
  ChunkPlan cp;
  std::vector<emit::ShardItem> items;
  for (const auto& [key, fam] : plan.families) {
    size_t n = std::max(fam.base.size(), fam.head.size());
    size_t k = cp.chunkSize[key] = emit::shardChunkVariants(n, opts.shardCount, kChunkVariants);
    for (size_t c = 0; c * k < n; ++c) {
      auto slice = [&](size_t total) { return c * k < total ? std::min(k, total - c * k) : size_t(0); };
      items.push_back({key, slice(fam.base.size()) + slice(fam.head.size()), c});
    }
  }
  std::vector<int> which = emit::assignShards(items, std::max(opts.shardCount, 1));
  emit::Shard shard{opts.shardIndex, opts.shardCount, {}, {}};
  for (size_t i = 0; i < items.size(); ++i)
    if (opts.shardCount == 0 || which[i] == opts.shardIndex) {
      cp.mine.insert({items[i].family, items[i].chunk});
      if (shard.families.empty() || shard.families.back() != items[i].family) shard.families.push_back(items[i].family);
      shard.chunks.push_back(emit::chunkName(items[i].family, items[i].chunk));
    }
  for (auto it = plan.families.begin(); it != plan.families.end();)
    it = std::any_of(cp.mine.begin(), cp.mine.end(), [&](const auto& m) { return m.first == it->first; })
             ? std::next(it)
             : plan.families.erase(it);
  if (opts.shardCount > 0) doc.shard = std::move(shard);
  return cp;
}

json variantsJson(const std::vector<VariantSpec>& vs, size_t first, size_t count) {
  json variants = json::array();
  for (size_t i = first; i < first + count; ++i) {
    json v = {{"name", vs[i].name}, {"arch", vs[i].arch}, {"spec", json::parse(vs[i].spec, nullptr, false)}};
    if (!vs[i].aot.empty()) v["aot"] = json::parse(vs[i].aot, nullptr, false);  // built as its producer did
    variants.push_back(std::move(v));
  }
  return variants;
}

using Closures = std::map<std::string, std::array<std::vector<std::string>, 2>>;

// One job per chunk of a family's variants on each side that this shard owns, with the cache key
// of everything its build reads (the family's import closure, the data files, the driver).
std::vector<Job> makeJobs(const Plan& plan, const ChunkPlan& cp, Side (&sides)[2], const Driver& driver,
                          const std::string& flavor, const EmitOptions& opts, Closures& closures) {
  std::vector<Job> jobs;
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
      const size_t k = cp.chunkSize.at(key);
      for (size_t first = 0; first < vs.size(); first += k) {
        if (!cp.owned(key, first)) continue;
        Job j;
        j.family = key;
        j.head = h;
        j.first = first;
        j.count = std::min(k, vs.size() - first);
        json variants = variantsJson(vs, first, j.count);
        bool probe = opts.probe && first == 0;
        j.request = {{"mode", "build"},
                     {"import_roots", s.tree.importRoots},
                     {"flavor", flavor.empty() ? json(nullptr) : json(flavor)},
                     {"family", {{"source", fam.source}, {"builder", fam.builder}}},
                     {"variants", variants},
                     {"probe", probe},
                     {"probe_budget", std::max(1.0, opts.familyBudget / 4)}};
        // A shard's smaller first chunk probes what the unsharded run's first chunk probes.
        if (probe && k < kChunkVariants) j.request["probe_variants"] = variantsJson(vs, 0, std::min(kChunkVariants, vs.size()));
        CacheKeyInput ck{blobs, variants, fam.source, fam.builder, flavor, driver.version, probe};
        j.cacheKey = familyCacheKey(ck);
        jobs.push_back(std::move(j));
      }
    }
  }
  return jobs;
}

using Merged = std::map<std::pair<std::string, bool>, MergedSide>;

// A family of the document: its two sides and its variants paired across revisions by
// (name, target).
emit::Family assembleFamily(const std::string& key, const FamilyPlan& fam, const ChunkPlan& cp, const Merged& merged,
                            const Closures& closures) {
  emit::Family f;
  f.source = fam.source;
  f.path = fam.path;
  f.builder = fam.builder;
  f.producers = fam.producers;
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
    side.closure = closures.at(key)[h];
  }
  // The index of each built variant in its side's merged answer (only this shard's chunks).
  std::vector<size_t> ownedIndex[2];
  for (int h = 0; h < 2; ++h) {
    size_t n = 0;
    for (size_t i = 0; i < (h ? fam.head : fam.base).size(); ++i) ownedIndex[h].push_back(cp.owned(key, i) ? n++ : 0);
  }
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
      if (cp.owned(key, i)) {
        vside = sideOf(vs[i], answers[h], ownedIndex[h][i]);
      } else {
        vside.present = true;
        vside.spec = json::parse(vs[i].spec, nullptr, false);
        vside.otherShard = true;
      }
    }
  }
  for (const auto& k : order) f.variants.push_back(std::move(vars[k]));
  return f;
}

json probeTables(const Plan& plan, const Merged& merged) {
  std::vector<ProbeSides> probes;
  for (const auto& [key, fam] : plan.families) {
    ProbeSides p;
    p.family = key;
    p.shippedAtBase = !fam.base.empty();
    for (bool h : {false, true})
      if (auto it = merged.find({key, h}); it != merged.end()) (h ? p.head : p.base) = it->second.answer.value("probe", json());
    probes.push_back(std::move(p));
  }
  return packTimeTables(probes);
}

}  // namespace

absl::StatusOr<emit::EmitDocument> runEmit(const EmitOptions& opts, EmitStats* statsOut) {
  EmitStats stats;
  auto runDeadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.runBudget));
  auto rv = openRevisions(opts);
  if (!rv.ok()) return rv.status();
  std::string cacheDir = opts.cacheDir.empty() ? defaultCacheDir() : opts.cacheDir;
  if (absl::Status st = cacheOutsideRepo(*rv->repo, cacheDir); !st.ok()) return st;
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
  Side sides[2];
  if (absl::Status st = loadSides(opts, *rv, cacheDir, sides); !st.ok()) return st;

  emit::EmitDocument doc;
  doc.baseTree = emit::treeKey(sides[0].snap);
  doc.headTree = emit::treeKey(sides[1].snap);
  doc.baseCommit = rv->mergeBase;
  doc.headCommit = opts.head.empty() ? "working tree" : rv->headCommit;
  doc.driverVersion = driver->version;
  doc.sandbox = describeConfinement(driver->sandbox);
  FamilyCache cache((fs::path(cacheDir) / "families").string());
  auto flavor = chooseFlavor(*driver, cache, opts, runDeadline, sides, doc);
  if (!flavor) return absl::CancelledError("the emitter run was cancelled");
  doc.flavor = *flavor;

  Plan plan = planVariants(sides[0].facts, sides[1].facts, rv->layout);
  doc.failures.insert(doc.failures.end(), plan.failures.begin(), plan.failures.end());
  doc.notInspected = plan.notInspected;
  ChunkPlan cp = planChunks(plan, opts, doc);
  Closures closures;
  std::vector<Job> jobs = makeJobs(plan, cp, sides, *driver, doc.flavor, opts, closures);
  runJobs(jobs, *driver, cache, doc.flavor, opts, runDeadline, stats);
  if (opts.cancel && opts.cancel->load()) return absl::CancelledError("the emitter run was cancelled");

  std::map<std::pair<std::string, bool>, std::vector<const Job*>> chunks;
  for (const auto& j : jobs) chunks[{j.family, j.head}].push_back(&j);
  Merged merged;
  for (const auto& [k, list] : chunks) merged[k] = mergeChunks(list);
  for (const auto& [key, fam] : plan.families) {
    doc.families.push_back(assembleFamily(key, fam, cp, merged, closures));
    stats.variants += doc.families.back().variants.size();
  }
  stats.families = doc.families.size();
  if (opts.probe) doc.packTime = probeTables(plan, merged);
  if (statsOut) *statsOut = stats;
  return doc;
}

}  // namespace impact::emitter
