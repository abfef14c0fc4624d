#include "geometry/RunGeometry.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "analysis/Analysis.h"
#include "analysis/TreeFacts.h"
#include "emit/TreeKey.h"
#include "geometry/GeometryPlan.h"
#include "geometry/Harness.h"
#include "git/Repository.h"
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

// The Python side: the driver's geometry mode, one call for every variant of the family.
void evaluatePython(const GeometryFamilyPlan& plan, const Driver& driver, const ExportedTree& tree,
                    Clock::time_point deadline, emit::GeometryFamily& f) {
  json variants = json::array();
  for (const auto& v : plan.variants) variants.push_back({{"name", v.name}, {"spec", v.spec}});
  json functions = {{"grid", f.gridFunction}};
  if (!f.blockFunction.empty()) functions["block"] = f.blockFunction;
  json req = {{"mode", "geometry"},
              {"import_roots", tree.importRoots},
              {"family", {{"source", plan.source}, {"builder", plan.builder}}},
              {"functions", functions},
              {"variants", variants}};
  DriverOutcome o = callDriver(driver, req, "", deadline, nullptr);
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
  if (lines.empty()) return;
  HarnessRun r = runHarness(b.binary, lines, jail, deadline);
  if (!r.error.empty()) {
    f.notChecked = "the geometry harness failed: " + r.error;
    return;
  }
  for (size_t k = 0; k < fed.size(); ++k) {
    emit::GeometrySide& cc = f.variants[fed[k]].cpp;
    const json& a = r.answers[k];
    if (a.contains("error")) {
      cc.error = a["error"].is_string() ? a["error"].get<std::string>() : "error";
      continue;
    }
    cc.grid = triple(a.value("grid", json()));
    cc.block = triple(a.value("block", json()));
    cc.ok = cc.grid.size() == 3 && cc.block.size() == 3;
  }
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
  absl::StatusOr<Snapshot> snap = opts.head.empty() ? (*repo)->workdirSnapshot() : absl::StatusOr<Snapshot>();
  if (!opts.head.empty()) {
    auto commit = (*repo)->resolve(opts.head);
    if (!commit.ok()) return commit.status();
    snap = (*repo)->commitSnapshot(*commit);
  }
  if (!snap.ok()) return snap.status();
  ExtractCache cache;
  TreeFacts facts = collectFacts(*snap, *layout, cache);
  emit::GeometryDocument doc;
  doc.headTree = emit::treeKey(*snap);
  std::vector<GeometryFamilyPlan> plans = planGeometry(*snap, facts, *layout);
  if (plans.empty()) {
    if (statsOut) *statsOut = stats;
    return doc;
  }
  std::string cacheDir = opts.cacheDir.empty() ? defaultCacheDir() : opts.cacheDir;
  auto driver = installDriver(cacheDir, opts.limits, opts.unconfined);
  if (!driver.ok()) return driver.status();
  auto tree = exportTree(*snap, *layout, cacheDir);
  if (!tree.ok()) return tree.status();
  std::optional<Compiler> cxx = findCompiler();
  for (auto& plan : plans) {
    auto t0 = Clock::now();
    auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.familyBudget));
    emit::GeometryFamily f = plan.family;
    for (const auto& v : plan.variants) f.variants.push_back({v.name, {}, {}, ""});
    if (f.notChecked.empty()) {
      emit::GeometryFamily py = f, cc = f;
      // The Python child and the compile run side by side (two processes): the compile dominates.
      // Each side runs when it can, so a family not checked says every reason there is.
      std::thread python([&] { evaluatePython(plan, *driver, *tree, deadline, py); });
      if (plan.cppWhy.empty()) evaluateCpp(plan, *snap, cxx, driver->sandbox, cacheDir, deadline, cc, stats);
      else cc.notChecked = plan.cppWhy;
      python.join();
      for (size_t i = 0; i < f.variants.size(); ++i) {
        f.variants[i].python = py.variants[i].python;
        f.variants[i].cpp = cc.variants[i].cpp;
        f.variants[i].notEvaluable = cc.variants[i].notEvaluable;
      }
      f.cachedBinary = cc.cachedBinary;
      f.notChecked = py.notChecked.empty()   ? cc.notChecked
                     : cc.notChecked.empty() ? py.notChecked
                                             : absl::StrCat(py.notChecked, "; and ", cc.notChecked);
    }
    f.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    stats.variants += f.variants.size();
    doc.families.push_back(std::move(f));
  }
  stats.families = doc.families.size();
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (statsOut) *statsOut = stats;
  return doc;
}

}  // namespace impact::emitter
