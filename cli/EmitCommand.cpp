#include "EmitCommand.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/Paths.h"
#include "emit/Shards.h"
#include "io/DiskRead.h"
#include "geometry/RunGeometry.h"
#include "run/Emit.h"

namespace impact::cli {

namespace {

constexpr const char* kEmitUsage = R"HELP(usage: impact emit --repo DIR --base REV [--head REV] [--out FILE] [--jobs N]
                   [--cache DIR] [--family-timeout SECONDS] [--timeout SECONDS] [--config FILE]
                   [--no-probe] [--shard K/N] [--family-memory GIB] [--require-sandbox]
                   [--unconfined] [--child-per-chunk]
       impact emit --merge SHARD.json... [--out FILE]
       impact emit --sandbox-check [--require-sandbox]

Builds every shipped rocKE variant (the kind: rocke launches of the shipped descriptors) at the
merge base and at the head on the CPU, with the analysed tree's own Python, and writes the emit
document (JSON) that `impact report --emit FILE` folds. See docs/emitter.md.

  --out FILE              write the document there (default: stdout)
  --jobs N                families built in parallel (default: the core count)
  --cache DIR             the emitter's cache (exported trees, family results); default
                          $IMPACT_CACHE_DIR, else $XDG_CACHE_HOME/impactd, else ~/.cache/impactd
  --family-timeout S      budget of one family at one revision (default 300)
  --timeout S             budget of the whole run (default 3600)
  --no-probe              skip the pack-time predicate tables
  --shard K/N             build only shard K of N of the chunks (a family's variants are split
                          into chunks, balanced by variant count, so one big family spreads over
                          the shards; a job matrix runs K = 1..N), recorded in the document
  --family-memory GIB     address space of one child (RLIMIT_AS; default 4)
  --require-sandbox       refuse to run the tree's Python where the kernel offers no confinement
                          (Landlock for the filesystem, a network namespace or seccomp for sockets)
  --unconfined            run the children without Landlock, namespaces or seccomp (the limits
                          stay; stderr and the document say so); for measuring and for kernels
                          where the confinement breaks a tree
  --child-per-chunk       one python3 child per chunk of a family, as before issue 27 (default: one
                          child per job and tree serves its chunks one after another, importing
                          the tree once; for builders that keep state between calls)
  --sandbox-check         print the confinement the children would run in here, and exit
                          (3 with --require-sandbox when it is none)
  --merge FILE...         merge every shard of one run into the document of the unsharded run;
                          refuses mixed trees, schemas or driver versions, a missing or twice-given
                          shard
Exit: 0 the document was written (failures and timeouts are recorded in it); 2 usage; 3 the
emitter could not run, or the shards could not be merged.
)HELP";

int emitUsage(const std::string& msg) {
  std::fprintf(stderr, "impact emit: %s\ntry 'impact --help'\n", msg.c_str());
  return 2;
}

// "K/N" with 1 <= K <= N.
bool shardSpec(const std::string& s, int& k, int& n) {
  size_t slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == s.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != slash && (s[i] < '0' || s[i] > '9')) return false;
  if (s.size() > 12) return false;
  k = std::stoi(s.substr(0, slash));
  n = std::stoi(s.substr(slash + 1));
  return k >= 1 && n >= 1 && k <= n;
}

bool writeOut(const std::string& out, const std::string& text) {
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return true;
  }
  std::ofstream f(out, std::ios::binary);
  f << text;
  if (!f) {
    std::fprintf(stderr, "impact emit: cannot write %s\n", out.c_str());
    return false;
  }
  return true;
}

// impact emit --merge: reads the files, merges them (emit/Shards.h), writes the document.
int mergeCommand(const std::vector<std::string>& files, const std::string& out) {
  std::vector<emit::EmitDocument> docs;
  for (const auto& file : files) {
    auto text = readRegularFile(file, DiskReadLimits::within("/"));
    if (!text.ok()) {
      std::fprintf(stderr, "impact emit: cannot read the shard document %s: %s\n", file.c_str(),
                   notReadMessage(text.status()).c_str());
      return 3;
    }
    auto doc = emit::parseEmitDocument(*text);
    if (!doc.ok()) {
      std::fprintf(stderr, "impact emit: refusing the shard document %s: %s\n", file.c_str(),
                   std::string(doc.status().message()).c_str());
      return 3;
    }
    docs.push_back(std::move(*doc));
  }
  auto merged = emit::mergeShards(docs);
  if (!merged.ok()) {
    std::fprintf(stderr, "impact emit: cannot merge: %s\n", std::string(merged.status().message()).c_str());
    return 3;
  }
  if (!writeOut(out, emit::renderEmitDocument(*merged))) return 3;
  std::fprintf(stderr, "impact emit: merged %zu shards, %zu families\n", docs.size(), merged->families.size());
  return 0;
}

bool number(const std::string& s, double& out) {
  try {
    size_t n = 0;
    out = std::stod(s, &n);
    return n == s.size() && out > 0;
  } catch (...) {
    return false;
  }
}

// impact emit --sandbox-check: what each child would enter on this machine.
int sandboxCheck(const emitter::Limits& limits, bool require) {
  auto c = emitter::sandboxInForce(limits);
  if (!c.ok()) {
    std::fprintf(stderr, "impact emit: %s\n", std::string(c.status().message()).c_str());
    return 3;
  }
  std::printf("sandbox: %s\n%s\n", emitter::confinementSummary(*c).c_str(),
              emitter::describeConfinement(*c).dump().c_str());
  return require && !c->confined() ? 3 : 0;
}

}  // namespace

int emitCommand(const std::vector<std::string>& args) {
  emitter::EmitOptions o;
  std::string out, jobs, ft, rt, shard, memory;
  std::vector<std::string> mergeFiles;
  bool haveBase = false, merge = false, check = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kEmitUsage, stdout);
      return 0;
    }
    auto value = [&](std::string& v) -> bool {
      if (i + 1 >= args.size() || args[i + 1].starts_with("--")) return false;
      v = args[++i];
      return true;
    };
    // A path option: absolute against the working directory (cli/Paths.h).
    auto path = [&](std::string& v) -> bool {
      if (!value(v)) return false;
      v = absolutePath(v);
      return true;
    };
    bool ok = true;
    if (a == "--repo") ok = path(o.repo);
    else if (a == "--base") ok = haveBase = value(o.base);
    else if (a == "--head") ok = value(o.head);
    else if (a == "--out") ok = path(out);
    else if (a == "--jobs") ok = value(jobs);
    else if (a == "--cache") ok = path(o.cacheDir);
    else if (a == "--family-timeout") ok = value(ft);
    else if (a == "--timeout") ok = value(rt);
    else if (a == "--config") ok = path(o.config);
    else if (a == "--no-probe") o.probe = false;
    else if (a == "--probe") o.probe = true;
    else if (a == "--shard") ok = value(shard);
    else if (a == "--family-memory") ok = value(memory);
    else if (a == "--require-sandbox") o.requireSandbox = true;
    else if (a == "--sandbox-check") check = true;
    else if (a == "--unconfined") o.unconfined = true;
    else if (a == "--child-per-chunk") o.childPerChunk = true;
    else if (a == "--merge") {
      merge = true;
      while (i + 1 < args.size() && !args[i + 1].starts_with("--")) mergeFiles.push_back(absolutePath(args[++i]));
      ok = !mergeFiles.empty();
    }
    else return emitUsage("unknown option '" + a + "'");
    if (!ok) return emitUsage(a + " needs a value");
  }
  if (merge) {
    if (!shard.empty()) return emitUsage("--merge and --shard do not go together");
    return mergeCommand(mergeFiles, out);
  }
  double d = 0;
  if (!memory.empty()) {
    if (!number(memory, d) || d < 0.0625) return emitUsage("--family-memory takes a number of GiB (at least 0.0625)");
    o.limits.memoryBytes = uint64_t(d * double(1ull << 30));
  }
  if (check) return sandboxCheck(o.limits, o.requireSandbox);
  if (!haveBase) return emitUsage("--base REV is required");
  if (!shard.empty() && !shardSpec(shard, o.shardIndex, o.shardCount))
    return emitUsage("--shard takes K/N with 1 <= K <= N (e.g. --shard 2/3), not '" + shard + "'");
  if (!jobs.empty()) {
    if (!number(jobs, d) || d != int(d)) return emitUsage("--jobs takes a positive whole number");
    o.jobs = int(d);
  }
  if (!ft.empty() && !number(ft, o.familyBudget)) return emitUsage("--family-timeout takes a positive number of seconds");
  if (!rt.empty() && !number(rt, o.runBudget)) return emitUsage("--timeout takes a positive number of seconds");
  o.progress = ::isatty(2);
  emitter::EmitStats stats;
  auto doc = emitter::runEmit(o, &stats);
  if (!doc.ok()) {
    std::fprintf(stderr, "impact emit: %s\n", std::string(doc.status().message()).c_str());
    return 3;
  }
  if (!writeOut(out, emit::renderEmitDocument(*doc))) return 3;
  std::fprintf(stderr,
               "impact emit: %zu families, %zu variants; %zu family builds ran, %zu from the cache, %zu shared between "
               "base and head, %zu python children; %zu failures%s; sandbox: %s\n",
               stats.families, stats.variants, stats.built, stats.cached, stats.shared, stats.children, doc->failures.size(),
               doc->shard ? (" (shard " + std::to_string(doc->shard->index) + "/" + std::to_string(doc->shard->count) + ")").c_str() : "",
               stats.sandbox.c_str());
  return 0;
}

std::shared_ptr<const emit::EmitDocument> loadEmitDocument(const std::string& file) {
  auto text = readRegularFile(file, DiskReadLimits::within("/"));
  if (!text.ok()) {
    std::fprintf(stderr, "impact: cannot read the emit document %s: %s\n", file.c_str(),
                 notReadMessage(text.status()).c_str());
    return nullptr;
  }
  auto doc = emit::parseEmitDocument(*text);
  if (!doc.ok()) {
    std::fprintf(stderr, "impact: refusing the emit document %s: %s\n", file.c_str(),
                 std::string(doc.status().message()).c_str());
    return nullptr;
  }
  if (doc->shard) {
    std::fprintf(stderr, "impact: refusing the emit document %s: it is shard %d/%d of a run; merge the shards first "
                 "(impact emit --merge)\n", file.c_str(), doc->shard->index, doc->shard->count);
    return nullptr;
  }
  return std::make_shared<const emit::EmitDocument>(std::move(*doc));
}

absl::StatusOr<std::shared_ptr<const emit::EmitDocument>> autoEmit(const ReportRequest& req, const Report& report,
                                                                  std::string* note) {
  bool shippedPython = false;
  for (const auto& r : report.rows)
    if ((r.contract == "kernel-code" || r.contract == "kernargs") && r.status == Status::Changed &&
        r.python.path.ends_with(".py"))
      shippedPython = true;  // a shipped module's code changed (kernargs rows explain a builder's edits)
  if (!shippedPython) {
    *note = "emitter not run: no Python file of the shipped closure changed in code";
    return std::shared_ptr<const emit::EmitDocument>();
  }
  emitter::EmitOptions o;
  o.repo = req.repo;
  o.base = req.base;
  o.head = req.head;
  o.config = req.config;
  o.progress = ::isatty(2);
  auto doc = emitter::runEmit(o);
  if (!doc.ok()) return doc.status();
  return std::make_shared<const emit::EmitDocument>(std::move(*doc));
}

absl::StatusOr<std::shared_ptr<const emit::GeometryDocument>> runGeometryFor(const ReportRequest& req, const Report& report,
                                                                            bool always, std::string* note,
                                                                            ExtractCache* extractCache) {
  bool changed = false;
  for (const auto& r : report.rows)
    if ((r.contract == "launch-surface:grid" || r.contract == "launch-surface:block") && r.status == Status::Changed)
      changed = true;
  if (!always && !changed) {
    *note = "geometry not evaluated: no launch-surface grid or block row changed";
    return std::shared_ptr<const emit::GeometryDocument>();
  }
  emitter::GeometryOptions o;
  o.repo = req.repo;
  o.head = req.head;
  o.base = req.base;
  o.config = req.config;
  o.extractCache = extractCache;
  emitter::GeometryStats stats;
  auto doc = emitter::runGeometry(o, &stats);
  if (!doc.ok()) return doc.status();
  std::fprintf(stderr,
               "impact: geometry: %zu families, %zu variants (%zu families at the merge base too); %zu harnesses "
               "compiled, %zu from the cache; %zu Python evaluations ran, %zu from the cache; %.2f s; UBSan on %zu of "
               "%zu harnesses%s\n",
               stats.families, stats.variants, stats.baseFamilies, stats.compiled, stats.cachedBinaries, stats.ranPython,
               stats.cachedPython, stats.seconds, stats.sanitized, stats.compiled + stats.cachedBinaries,
               stats.noUbsan.empty() ? "" : (" (not available: " + stats.noUbsan + ")").c_str());
  return std::make_shared<const emit::GeometryDocument>(std::move(*doc));
}

}  // namespace impact::cli
