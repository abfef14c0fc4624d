#include "EmitCommand.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "run/Emit.h"

namespace impact::cli {

namespace {

constexpr const char* kEmitUsage = R"HELP(usage: impact emit --repo DIR --base REV [--head REV] [--out FILE] [--jobs N]
                   [--cache DIR] [--family-timeout SECONDS] [--timeout SECONDS] [--config FILE]
                   [--no-probe]

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
Exit: 0 the document was written (failures and timeouts are recorded in it); 2 usage; 3 the
emitter could not run.
)HELP";

int usage(const std::string& msg) {
  std::fprintf(stderr, "impact emit: %s\n\n%s", msg.c_str(), kEmitUsage);
  return 2;
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

}  // namespace

int emitCommand(const std::vector<std::string>& args) {
  emitter::EmitOptions o;
  std::string out, jobs, ft, rt;
  bool haveBase = false;
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
    bool ok = true;
    if (a == "--repo") ok = value(o.repo);
    else if (a == "--base") ok = haveBase = value(o.base);
    else if (a == "--head") ok = value(o.head);
    else if (a == "--out") ok = value(out);
    else if (a == "--jobs") ok = value(jobs);
    else if (a == "--cache") ok = value(o.cacheDir);
    else if (a == "--family-timeout") ok = value(ft);
    else if (a == "--timeout") ok = value(rt);
    else if (a == "--config") ok = value(o.config);
    else if (a == "--no-probe") o.probe = false;
    else if (a == "--probe") o.probe = true;
    else return usage("unknown option '" + a + "'");
    if (!ok) return usage(a + " needs a value");
  }
  if (!haveBase) return usage("--base REV is required");
  double d = 0;
  if (!jobs.empty()) {
    if (!number(jobs, d) || d != int(d)) return usage("--jobs takes a positive whole number");
    o.jobs = int(d);
  }
  if (!ft.empty() && !number(ft, o.familyBudget)) return usage("--family-timeout takes a positive number of seconds");
  if (!rt.empty() && !number(rt, o.runBudget)) return usage("--timeout takes a positive number of seconds");
  o.progress = ::isatty(2);
  emitter::EmitStats stats;
  auto doc = emitter::runEmit(o, &stats);
  if (!doc.ok()) {
    std::fprintf(stderr, "impact emit: %s\n", std::string(doc.status().message()).c_str());
    return 3;
  }
  std::string text = emit::renderEmitDocument(*doc);
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream f(out, std::ios::binary);
    f << text;
    if (!f) {
      std::fprintf(stderr, "impact emit: cannot write %s\n", out.c_str());
      return 3;
    }
  }
  std::fprintf(stderr,
               "impact emit: %zu families, %zu variants; %zu family builds ran, %zu from the cache, %zu shared between "
               "base and head; %zu failures\n",
               stats.families, stats.variants, stats.built, stats.cached, stats.shared, doc->failures.size());
  return 0;
}

std::shared_ptr<const emit::EmitDocument> loadEmitDocument(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "impact: cannot read the emit document %s\n", file.c_str());
    return nullptr;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto doc = emit::parseEmitDocument(ss.str());
  if (!doc.ok()) {
    std::fprintf(stderr, "impact: refusing the emit document %s: %s\n", file.c_str(),
                 std::string(doc.status().message()).c_str());
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

}  // namespace impact::cli
