// impact: the command-line tool. `impact report` prints the contract rows and the rollup.
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "EmitCommand.h"
#include "cli/CheckCommand.h"
#include "cli/HugePages.h"
#include "analysis/Analysis.h"
#include "cache/DiskCache.h"
#include "cli/Paths.h"
#include "cli/Terminal.h"
#include "io/DiskRead.h"
#include "report/FactsJson.h"
#include "model/Version.h"
#include "report/Render.h"
#include "report/GithubAnnotations.h"
#include "report/Sarif.h"

#include <fstream>
#include <sstream>

namespace {

constexpr const char* kUsage = R"HELP(usage: impact report --repo DIR --base REV [--head REV] [--target-tip REV]
                     [--format text|json|sarif|github] [--fail-on breaks|needs-device]
                     [--generic-targets PATH] [--config FILE] [--emit FILE|auto]
                     [--geometry] [--cache DIR | --no-cache] [--stats]
       impact emit --repo DIR --base REV [--head REV] [--out FILE] [--jobs N] [--shard K/N]  (impact emit --help)
       impact emit --merge SHARD.json... [--out FILE]
       impact check [--repo DIR] [--head REV] [--format text|json] [PATH...]  (impact check --help)
       impact facts FILE [--as PATH]
       impact --help | --version

Compares every hand-kept copy of a rocKE kernel's contracts (kernel argument lists in C++
packs, test pins and launch calls) with the Python builder, at the merge base and at the head.

  --repo DIR          the repository (any folder inside it; default: .)
  --base REV          the target: the merge base of REV and the head is the base
  --head REV          a commit; without it the head is the working tree (HEAD, the index,
                      uncommitted and untracked files)
  --target-tip REV    also analyse the merged view: the head merged into REV in memory
                      (nothing written), so that a copy REV gained after the merge base is
                      compared too. Rows found only there are marked [merged]; rows reading
                      a file that conflicts are dropped and one merge-conflict row names the
                      conflicted files. A working-tree head merges HEAD's commit with the
                      uncommitted changes merged in too
  --format text|json|sarif|github
                      text (default): one line per row, then the rollup; json: see
                      docs/report-json.md; sarif: SARIF 2.1.0 for code scanning; github:
                      GitHub Actions workflow commands that annotate the diff (docs/ci.md)
  --generic-targets PATH
                      the generic-target table (JSON: generic name -> member archs; the file
                      name ends in generic_targets.json), repository-relative; default:
                      dnn-providers/hip-kernel-provider/descriptor-packaging/generic_targets.json
  --config FILE       where things live, when the tree is not laid out like the monorepo
                      (YAML: provider_root, library_root, python_roots, cpp_roots,
                      manifest_roots, descriptor_roots, import_roots, generic_target_table,
                      packs_dir, geometry); default: .impactd.yaml at the work tree's root if present
  --emit FILE|auto    fold an emit document (impact emit): a changed row on a shipped module
                      becomes inert when every family importing it emitted equal arguments, IR
                      and compile inputs at both revisions (docs/emitter.md); refused (exit 3)
                      when made for other trees, of another schema, or malformed. auto: run
                      the emitter first when a shipped Python module changed in code
  --geometry          evaluate each profile's grid/block on every shipped variant: the Python
                      functions (the emitter's sandboxed child) and the header-only C++
                      geometry through the pack's call site (a generated harness compiled with
                      $IMPACT_CXX, $CXX, c++, g++ or clang++); a disagreement is a mismatch,
                      agreement folds the rows to inert, else "not checked: why" (docs/contracts.md,
                      Geometry). --emit auto does it when a grid or block row changed
  --cache DIR         where extracted facts persist between runs (shared with impactd and
                      other impact processes); default: $XDG_CACHE_HOME/impactd, else
                      ~/.cache/impactd. Bounded (1 GiB, least recently used out first)
  --no-cache          extract every file, read and write no cache
  --stats             print to stderr how many files were extracted and how many came from
                      the cache
  --fail-on WHAT      exit 1 when the verdict is BREAKS (breaks), or BREAKS or NEEDS-DEVICE
                      (needs-device)

Rows: STATUS CONTRACT PYTHON-SIDE <-> COPY MESSAGE [device: ARCHS]
  mismatch   the two sides disagree at the head; "(pre-existing)": already so at the merge
             base (reported, not counted as a break)
  changed    a side changed in code and they still agree, a copy lacks only a conditional
             argument, or a surface file could not be read: a device run on the listed archs
             would settle it
  inert      only comments, whitespace, docstrings (or no JSON/YAML value) changed
  outside    a rocKE module no shipped variant (nor the packer) reaches
  [merged]   after the status: found only in the merged view (--target-tip)
Contracts (see docs/contracts.md):
  kernargs             a builder's argument list vs one copy (C++ list, test pin, launch
                       call, packed descriptor signature, catalog args_signature)
  launch-surface:NAME  a manifest launch_surface entry (grid, block, matcher, ...): its
                       python_source symbol and what it reaches vs its cpp_mirror
  catalog-geometry     an AOT catalog's grid/block vs its module's *_grid/*_block functions
  symbols              a descriptor symbol string vs the pack's constants
  kmd-fields           a KMD field the C++ reads vs the manifest and KMD schema
  removed-symbol       a Python name removed or re-signed while a reader still uses it
  kernel-code          a rocKE module changed outside the compared lists
  copy-file, manifest, descriptor   a surface file changed outside any compared contract
  sdk-header, generated-header      a plugin SDK header in the loader's include closure; a
                       flatc header changed without its schema or flag file
  build                CMake, flatc inputs, CI test categories (label BUILD); requirements,
                       pyproject (label DEPS): left to those lanes, never "no impact"
  merge-conflict       the files that conflict with --target-tip (one row)
Last line: Runtime impact: BREAKS | NEEDS-DEVICE <archs> | NONE | N/A, then
"; BUILD, DEPS left to their lanes" when such rows exist.

impact check prints what impactd understood of the tree: every builder with its arguments, every
copy with what paired it, every "not read / not compared" with why; exit 1 when any is left.

impact facts FILE prints, as JSON, the builders and argument lists impactd reads in one file
(--as: the repository path to classify it by, when FILE lies elsewhere).

Exit: 0 the analysis ran; 1 --fail-on matched; 2 usage error; 3 the analysis could not run
(not a git repository, unknown revision, no merge base, unreadable object).
)HELP";

// A usage error: one line naming it, and where the help is (as git and clang do).
int usage(const std::string& msg) {
  std::fprintf(stderr, "impact: %s\ntry 'impact --help'\n", msg.c_str());
  return 2;
}

}  // namespace

// The report is printed and the disk cache flushed: the process ends without freeing the
// analysis' tables one object at a time (the system takes the whole address space back). Output
// streams are flushed first; a failed flush (a full disk, a closed pipe) is exit 3.
int finish(int rc) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "impact: the report could not be written: %s\n", std::strerror(errno));
    rc = 3;
  }
  std::fflush(stderr);
  std::_Exit(rc);
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("no command");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (args[0] == "--version") {
    std::printf("%s %s\n", impact::kToolName, impact::kToolVersion);
    return 0;
  }
  impact::cli::heapOnHugePages();  // every command below reads a tree or a file
  if (args[0] == "facts") {
    if (args.size() < 2) return usage("facts needs a FILE");
    std::string as = args.size() >= 4 && args[2] == "--as" ? args[3] : args[1];
    // The guarded read (io/DiskRead.h): `impact facts /dev/zero` says why, it does not read forever.
    auto text = impact::readRegularFile(args[1], impact::DiskReadLimits::within("/"));
    if (!text.ok()) {
      std::fprintf(stderr, "impact: cannot read %s: %s\n", args[1].c_str(),
                   impact::notReadMessage(text.status()).c_str());
      return 3;
    }
    std::string out = impact::renderFactsJson(impact::extractFile(as, *text));
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  if (args[0] == "emit") return impact::cli::emitCommand({args.begin() + 1, args.end()});
  if (args[0] == "check") return impact::cli::checkCommand({args.begin() + 1, args.end()});
  if (args[0] != "report") return usage("unknown command '" + args[0] + "'");

  impact::ReportRequest req;
  std::string format = "text", failOn, genericTargets, emitFile;
  std::string cacheDir;
  bool haveBase = false, noCache = false, stats = false, geometry = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    auto value = [&](std::string& out) -> bool {
      if (i + 1 >= args.size() || args[i + 1].starts_with("--")) return false;
      out = args[++i];
      return true;
    };
    // A path option: absolute against the working directory (cli/Paths.h).
    auto path = [&](std::string& out) -> bool {
      if (!value(out)) return false;
      if (out != "auto") out = impact::cli::absolutePath(out);  // --emit auto is no path
      return true;
    };
    bool ok = true;
    if (a == "--repo") ok = path(req.repo);
    else if (a == "--base") ok = haveBase = value(req.base);
    else if (a == "--head") ok = value(req.head);
    else if (a == "--target-tip") ok = value(req.targetTip);
    else if (a == "--format") ok = value(format);
    else if (a == "--fail-on") ok = value(failOn);
    else if (a == "--generic-targets") ok = value(genericTargets);
    else if (a == "--config") ok = path(req.config);
    else if (a == "--emit") ok = path(emitFile);
    else if (a == "--cache") ok = path(cacheDir);
    else if (a == "--no-cache") noCache = true;
    else if (a == "--geometry") geometry = true;
    else if (a == "--stats") stats = true;
    else return usage("unknown option '" + a + "'");
    if (!ok) return usage(a + " needs a value");
  }
  if (!haveBase) return usage("--base REV is required");
  if (format != "text" && format != "json" && format != "sarif" && format != "github")
    return usage("--format is text, json, sarif or github, not '" + format + "'");
  if (!failOn.empty() && failOn != "breaks" && failOn != "needs-device")
    return usage("--fail-on is breaks or needs-device, not '" + failOn + "'");

  impact::Layout layout;
  if (!genericTargets.empty()) {
    if (!genericTargets.ends_with("generic_targets.json") && !genericTargets.ends_with("generic-targets.json"))
      return usage("--generic-targets: the table's file name ends in generic_targets.json");
    req.genericTargets = genericTargets;
  }
  if (!emitFile.empty() && emitFile != "auto") {
    req.emit = impact::cli::loadEmitDocument(emitFile);
    if (!req.emit) return 3;
  }
  // The analysis' tables live until the process exits, which frees them at once (see finish).
  std::vector<std::shared_ptr<const void>> kept;
  req.keepAlive = &kept;
  impact::ExtractCache cache;
  std::shared_ptr<impact::DiskCache> disk;
  if (!noCache && !(cacheDir.empty() && (cacheDir = impact::DiskCache::defaultDir()).empty())) {
    disk = std::make_shared<impact::DiskCache>(cacheDir);
    cache.setStore(disk);
  }
  auto report = impact::runReport(req, layout, cache);
  if (report.ok() && emitFile == "auto") {
    std::string note;
    auto doc = impact::cli::autoEmit(req, *report, &note);
    if (!doc.ok()) {
      std::fprintf(stderr, "impact: the emitter could not run: %s\n", std::string(doc.status().message()).c_str());
      return 3;
    }
    if (*doc) {
      req.emit = *doc;
      report = impact::runReport(req, layout, cache);
    } else {
      report->notes.push_back(note);
    }
  }
  if (report.ok() && (geometry || emitFile == "auto")) {
    std::string note;
    auto doc = impact::cli::runGeometryFor(req, *report, geometry, &note, &cache);
    if (!doc.ok()) {
      std::fprintf(stderr, "impact: the geometry differential could not run: %s\n",
                   std::string(doc.status().message()).c_str());
      return 3;
    }
    if (*doc) {
      req.geometry = *doc;
      report = impact::runReport(req, layout, cache);
    } else {
      report->notes.push_back(note);
    }
  }
  if (disk) disk->flush();
  if (disk && disk->stats().writes) disk->trim();
  if (stats) {
    std::string from = disk ? "from the cache " + disk->dir() : "(no cache)";
    auto s = disk ? disk->stats() : impact::DiskCache::Stats{};
    std::fprintf(stderr, "impact: facts of %zu files: %zu extracted, %zu %s; %zu written, %zu corrupt entries replaced\n",
                 cache.size(), cache.extractions(), cache.fromStore(), from.c_str(), s.writes, s.corrupt);
  }
  if (!report.ok()) {
    std::string msg(report.status().message());
    if (req.emit && msg.starts_with("the emit document")) msg = "refusing " + msg;
    std::fprintf(stderr, "impact: %s\n", msg.c_str());
    return 3;
  }
  std::string out = format == "json"    ? impact::renderJson(*report)
                    : format == "sarif" ? impact::renderSarif(*report)
                    : format == "github" ? impact::renderGithub(*report)
                                        : impact::renderText(*report, impact::cli::textStyleForStdout());
  std::fwrite(out.data(), 1, out.size(), stdout);
  const std::string& v = report->rollup.verdict;
  if (failOn == "breaks" && v == "BREAKS") return finish(1);
  if (failOn == "needs-device" && (v == "BREAKS" || v == "NEEDS-DEVICE")) return finish(1);
  return finish(0);
}
