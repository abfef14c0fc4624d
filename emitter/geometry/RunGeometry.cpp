#include "geometry/RunGeometry.h"

#include <filesystem>
#include <functional>
#include <set>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "analysis/Analysis.h"
#include "analysis/TreeFacts.h"
#include "cache/FamilyCache.h"
#include "emit/TreeKey.h"
#include "geometry/GeometryPlan.h"
#include "geometry/Harness.h"
#include "git/Repository.h"
#include "python/ModuleGraph.h"
#include "run/DriverCall.h"
#include "run/Emit.h"
#include "tree/TreeExport.h"

namespace impact::emitter {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::vector<int64_t> triple(const json& j) {
  std::vector<int64_t> out;
  if (j.is_array())
    for (const auto& v : j)
      if (v.is_number_integer()) out.push_back(v.get<int64_t>());
  return out;
}

// The blob ids the Python side's answer depends on: the module's import closure and every data
// file below the import roots (as the emitter's family cache key, cache/FamilyCache.h).
std::map<std::string, std::string> closureBlobs(const Snapshot& snap, const ModuleGraph& graph, const Layout& layout,
                                                const std::string& module) {
  std::map<std::string, std::string> blobs;
  for (const auto& [p, ref] : snap.files) {
    if (p.ends_with(".py")) continue;
    for (const auto& r : layout.importRoots)
      if (p.starts_with(r.ends_with("/") ? r : r + "/")) blobs[p] = ref.id;
  }
  for (const auto& p : graph.importClosure(module))
    if (const FileRef* r = snap.find(p)) blobs[p] = r->id;
  blobs[module] = snap.find(module) ? snap.find(module)->id : "absent";
  return blobs;
}

// The Python side: the driver's geometry mode, one call for every variant of the family; its
// answer is cached by the closure's blobs, the variants, the functions and the driver.
void evaluatePython(const GeometryFamilyPlan& plan, const Driver& driver, const std::atomic<bool>* cancel,
                    const ExportedTree& tree,
                    const FamilyCache& cache, const std::map<std::string, std::string>& blobs,
                    Clock::time_point deadline, emit::GeometryFamily& f, bool& cached) {
  json variants = json::array();
  for (const auto& v : plan.variants) variants.push_back({{"name", v.name}, {"spec", v.spec}});
  json functions = {{"grid", f.gridFunction}};
  if (!f.blockFunction.empty()) functions["block"] = f.blockFunction;
  json req = {{"mode", "geometry"},
              {"import_roots", tree.importRoots},
              {"family", {{"source", plan.source}, {"builder", plan.builder}}},
              {"functions", functions},
              {"variants", variants}};
  std::string key = familyCacheKey({blobs, variants, plan.source, plan.builder, "geometry " + functions.dump(),
                                    driver.version, false});
  DriverOutcome o;
  if (auto hit = cache.get(key)) {
    cached = true;
    o.status = "ok";
    o.answer = *hit;
  } else {
    o = callDriver(driver, req, "", deadline, cancel);
    if (o.status == "ok") cache.put(key, o.answer);
  }
  if (o.status != "ok") {
    f.notChecked = absl::StrCat("the Python side of ", plan.source, " could not be evaluated: ", o.error);
    return;
  }
  const json& answers = o.answer.value("variants", json::array());
  for (size_t i = 0; i < f.variants.size(); ++i) {
    emit::GeometrySide& py = f.variants[i].python;
    const json* a = i < answers.size() ? &answers[i] : nullptr;
    if (!a || !a->is_object()) {
      py.error = "no answer";
      continue;
    }
    if (a->contains("error")) {
      py.error = (*a)["error"].is_string() ? (*a)["error"].get<std::string>() : "error";
      continue;
    }
    py.grid = triple(a->value("grid", json()));
    py.block = f.blockFunction.empty() ? std::vector<int64_t>{} : triple(a->value("block", json()));
    py.ok = py.grid.size() == 3;
    if (!py.ok) py.error = "no grid";
  }
}

// The C++ side: the harness, built (or taken from the cache) and run once with every variant.
void evaluateCpp(const GeometryFamilyPlan& plan, const Snapshot& head, const std::optional<Compiler>& cxx,
                 const Confinement& jail, const std::string& cacheDir, Clock::time_point deadline,
                 emit::GeometryFamily& f, GeometryStats& stats) {
  if (!cxx) {
    f.notChecked = "no C++ compiler to build the header with ($IMPACT_CXX, $CXX, c++, g++ or clang++ on PATH)";
    return;
  }
  std::vector<std::string> lines;
  std::vector<size_t> fed;
  for (size_t i = 0; i < plan.variants.size(); ++i) {
    std::string why;
    std::string line = harnessLine(plan, plan.variants[i], &why);
    if (line.empty()) {
      f.variants[i].notEvaluable = why;
      continue;
    }
    lines.push_back(line);
    fed.push_back(i);
  }
  HarnessBuild b = buildHarness(plan, head, *cxx, jail, cacheDir, deadline);
  if (b.binary.empty()) {
    f.notChecked = b.error;
    return;
  }
  (b.cached ? stats.cachedBinaries : stats.compiled)++;
  f.cachedBinary = b.cached;
  f.noUbsan = b.noUbsan;
  if (b.ubsan) stats.sanitized++;
  else if (stats.noUbsan.empty()) stats.noUbsan = b.noUbsan;
  if (lines.empty()) return;
  HarnessRun r = runHarness(b.binary, lines, jail, deadline);
  if (!r.error.empty()) {
    f.notChecked = "the geometry harness failed: " + r.error;
    return;
  }
  for (size_t k = 0; k < fed.size(); ++k) {
    emit::GeometrySide& cc = f.variants[fed[k]].cpp;
    const json& a = r.answers[k];
    if (a.contains("ub") && a["ub"].is_string()) cc.ub = a["ub"].get<std::string>();
    if (a.contains("error")) {
      cc.error = a["error"].is_string() ? a["error"].get<std::string>() : "error";
      continue;
    }
    if (a.value("declined", false)) {
      cc.declined = true;
      cc.error = "returns no value (an empty optional)";
      continue;
    }
    cc.grid = triple(a.value("grid", json()));
    cc.block = triple(a.value("block", json()));
    cc.ok = cc.grid.size() == 3 && cc.block.size() == 3;
  }
}

// Everything one tree's evaluation shares.
struct Run {
  const GeometryOptions& opts;
  const Layout& layout;
  const Driver& driver;
  const std::optional<Compiler>& cxx;
  const FamilyCache& pyCache;
  std::string cacheDir;
  GeometryStats& stats;
};

emit::GeometryFamily evaluateFamily(const Run& run, const GeometryFamilyPlan& plan, const Snapshot& snap,
                                    const ModuleGraph& graph, const ExportedTree& tree) {
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(run.opts.familyBudget));
  emit::GeometryFamily f = plan.family;
  for (const auto& v : plan.variants) f.variants.push_back({v.name, {}, {}, ""});
  if (f.notChecked.empty()) {
    emit::GeometryFamily py = f, cc = f;
    // The Python child and the compile run side by side (two processes): the compile dominates.
    // Each side runs when it can, so a family not checked says every reason there is.
    auto blobs = closureBlobs(snap, graph, run.layout, f.module);
    bool pyCached = false;
    std::thread python(
        [&] { evaluatePython(plan, run.driver, run.opts.cancel, tree, run.pyCache, blobs, deadline, py, pyCached); });
    if (plan.cppWhy.empty()) evaluateCpp(plan, snap, run.cxx, run.driver.sandbox, run.cacheDir, deadline, cc, run.stats);
    else cc.notChecked = plan.cppWhy;
    python.join();
    (pyCached ? run.stats.cachedPython : run.stats.ranPython)++;
    for (size_t i = 0; i < f.variants.size(); ++i) {
      f.variants[i].python = py.variants[i].python;
      f.variants[i].cpp = cc.variants[i].cpp;
      f.variants[i].notEvaluable = cc.variants[i].notEvaluable;
    }
    f.cachedBinary = cc.cachedBinary;
    f.noUbsan = cc.noUbsan;
    f.notChecked = py.notChecked.empty()   ? cc.notChecked
                   : cc.notChecked.empty() ? py.notChecked
                                           : absl::StrCat(py.notChecked, "; and ", cc.notChecked);
  }
  f.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return f;
}

// One tree's families; only those `wanted` accepts (by manifest) are evaluated.
// progress: the head's families reported as they start (the base's are not).
absl::StatusOr<std::vector<emit::GeometryFamily>> evaluateTree(const Run& run, const Snapshot& snap,
                                                               const std::function<bool(const std::string&)>& wanted,
                                                               bool progress) {
  ExtractCache own;
  TreeFacts facts = collectFacts(snap, run.layout, run.opts.extractCache ? *run.opts.extractCache : own);
  std::vector<GeometryFamilyPlan> plans = planGeometry(snap, facts, run.layout);
  std::vector<emit::GeometryFamily> out;
  bool any = false;
  for (const auto& p : plans) any = any || wanted(p.family.manifest);
  if (!any) return out;
  auto tree = exportTree(snap, run.layout, run.cacheDir);
  if (!tree.ok()) return tree.status();
  ModuleGraph graph(facts, run.layout);
  auto report = [&](const std::string& module) {
    if (progress && run.opts.onProgress) run.opts.onProgress(out.size(), plans.size(), module);
  };
  for (const auto& plan : plans) {
    if (run.opts.cancel && run.opts.cancel->load()) return absl::CancelledError("the geometry run was cancelled");
    if (!wanted(plan.family.manifest)) continue;
    report(plan.family.module);
    out.push_back(evaluateFamily(run, plan, snap, graph, *tree));
  }
  report("");
  return out;
}

}  // namespace

absl::StatusOr<emit::GeometryDocument> runGeometry(const GeometryOptions& opts, GeometryStats* statsOut) {
  GeometryStats stats;
  auto start = Clock::now();
  auto repo = Repository::open(opts.repo);
  if (!repo.ok()) return repo.status();
  ReportRequest rr;
  rr.repo = opts.repo;
  rr.config = opts.config;
  auto layout = layoutFor(rr, **repo, Layout{});
  if (!layout.ok()) return layout.status();
  auto headCommit = (*repo)->resolve(opts.head.empty() ? "HEAD" : opts.head);
  if (!headCommit.ok()) return headCommit.status();
  auto snap = opts.head.empty() ? (*repo)->workdirSnapshot() : (*repo)->commitSnapshot(*headCommit);
  if (!snap.ok()) return snap.status();
  emit::GeometryDocument doc;
  doc.headTree = emit::treeKey(*snap);
  std::string cacheDir = opts.cacheDir.empty() ? defaultCacheDir() : opts.cacheDir;
  auto driver = installDriver(cacheDir, opts.limits, opts.unconfined);
  if (!driver.ok()) return driver.status();
  std::optional<Compiler> cxx = findCompiler();
  FamilyCache pyCache((std::filesystem::path(cacheDir) / "geometry" / "python").string());
  Run run{opts, *layout, *driver, cxx, pyCache, cacheDir, stats};
  auto head = evaluateTree(run, *snap, [](const std::string&) { return true; }, true);
  if (!head.ok()) return head.status();
  if (opts.cancel && opts.cancel->load()) return absl::CancelledError("the geometry run was cancelled");
  doc.families = std::move(*head);
  stats.families = doc.families.size();
  for (const auto& f : doc.families) stats.variants += f.variants.size();
  // The base, only for the families that disagree at the head: pre-existing or new.
  std::set<std::string> disagreeing;
  for (const auto& f : doc.families)
    if (emit::geometryDisagrees(f)) disagreeing.insert(f.manifest);
  if (!disagreeing.empty() && !opts.base.empty()) {
    auto baseTip = (*repo)->resolve(opts.base);
    if (!baseTip.ok()) return baseTip.status();
    auto mb = (*repo)->mergeBase(*baseTip, *headCommit);
    if (!mb.ok()) return mb.status();
    auto baseSnap = (*repo)->commitSnapshot(*mb);
    if (!baseSnap.ok()) return baseSnap.status();
    auto base = evaluateTree(run, *baseSnap, [&](const std::string& m) { return disagreeing.count(m) > 0; }, false);
    if (!base.ok()) return base.status();
    doc.baseFamilies = std::move(*base);
    stats.baseFamilies = doc.baseFamilies.size();
  }
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (statsOut) *statsOut = stats;
  return doc;
}

}  // namespace impact::emitter
