#include "cli/CheckCommand.h"

#include <cstdio>

#include "analysis/Check.h"
#include "cache/DiskCache.h"
#include "cli/Paths.h"

namespace impact::cli {
namespace {

constexpr const char* kCheckUsage = R"HELP(usage: impact check [--repo DIR] [--head REV] [--config FILE] [--format text|json]
                    [--cache DIR | --no-cache] [PATH...]

Prints what impactd understood of the tree (the working tree, or the commit --head names), as
clangd --check does for a file: per family, the builder and its evaluated argument lists with
their guards, every copy found and the declaration that paired it with its comparison, and every
builder whose arguments were not read and every copy not compared, each with why; lists a test
builds for its checks are shown as "not copies" with why. PATH (repository-relative) narrows it to
the families whose builder or a copy lies under PATH. Ends with the coverage line.

Exit: 0 everything is read and compared; 1 something on the surface is not read or not compared;
2 usage error; 3 the check could not run (not a git repository, unknown revision).
)HELP";

int checkUsage(const std::string& msg) {
  std::fprintf(stderr, "impact check: %s\ntry 'impact check --help'\n", msg.c_str());
  return 2;
}

}  // namespace

int checkCommand(const std::vector<std::string>& args) {
  CheckRequest req;
  std::string format = "text", cacheDir;
  bool noCache = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) -> bool {
      if (i + 1 >= args.size() || args[i + 1].starts_with("--")) return false;
      out = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--help" || a == "-h") {
      std::fputs(kCheckUsage, stdout);
      return 0;
    } else if (a == "--repo") {
      ok = value(req.repo);
      if (ok) req.repo = absolutePath(req.repo);
    } else if (a == "--head") ok = value(req.head);
    else if (a == "--config") {
      ok = value(req.config);
      if (ok) req.config = absolutePath(req.config);
    } else if (a == "--format") ok = value(format);
    else if (a == "--cache") {
      ok = value(cacheDir);
      if (ok) cacheDir = absolutePath(cacheDir);
    } else if (a == "--no-cache") noCache = true;
    else if (a.starts_with("--")) return checkUsage("unknown option '" + a + "'");
    else req.paths.push_back(a);
    if (!ok) return checkUsage(a + " needs a value");
  }
  if (format != "text" && format != "json") return checkUsage("--format is text or json, not '" + format + "'");
  ExtractCache cache;
  std::shared_ptr<DiskCache> disk;
  if (!noCache && !(cacheDir.empty() && (cacheDir = DiskCache::defaultDir()).empty())) {
    disk = std::make_shared<DiskCache>(cacheDir);
    cache.setStore(disk);
  }
  auto result = runCheck(req, Layout{}, cache);
  if (disk) disk->flush();
  if (!result.ok()) {
    std::fprintf(stderr, "impact: %s\n", std::string(result.status().message()).c_str());
    return 3;
  }
  Accounting a = filterAccounting(result->accounting, req.paths);
  std::string out = format == "json" ? renderCheckJson(*result, a) : renderCheckText(*result, a);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return a.unaccounted() ? 1 : 0;
}

}  // namespace impact::cli
