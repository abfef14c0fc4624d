// Running the geometry harness (geometry/Harness.h): confined, every variant's line on its stdin,
// one JSON answer per variant on its stdout, UBSan's reports on its stderr after each variant's
// marker line.
#include <stdlib.h>

#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "geometry/Harness.h"
#include "geometry/HarnessChild.h"

namespace impact::emitter {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

constexpr const char* kVariantMarker = "@impact-variant@";  // printed by harnessSource's loop
constexpr const char* kRuntimeError = ": runtime error: ";
// One line per report, on stderr (a log file would need a writable path the jail does not give),
// no stack trace (nor a symbolizer to start), no summary, and never halting on a recoverable check.
constexpr const char* kUbsanOptions = "print_stacktrace=0:halt_on_error=0:print_summary=0:symbolize=0";

// The first line of the harness's stderr that is neither empty nor a marker.
std::string stderrLine(const std::string& err) {
  std::stringstream ss(err);
  std::string line;
  while (std::getline(ss, line))
    if (!line.empty() && line != kVariantMarker) return line;
  return "";
}

std::vector<json> readAnswers(const std::string& out) {
  std::vector<json> answers;
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line)) {
    auto j = json::parse(line, nullptr, false);
    answers.push_back(j.is_object() ? j : json{{"error", "unreadable harness output: " + line}});
  }
  return answers;
}

}  // namespace

std::vector<std::string> ubReportsByVariant(const std::string& err, size_t variants) {
  std::vector<std::string> reports(variants);
  std::stringstream ss(err);
  std::string line;
  size_t seen = 0;  // markers so far: the variant being evaluated is seen - 1
  while (std::getline(ss, line)) {
    if (line == kVariantMarker) {
      ++seen;
      continue;
    }
    if (seen == 0 || seen > variants || line.find(kRuntimeError) == std::string::npos) continue;
    std::string& r = reports[seen - 1];
    // The compiler ran in the build folder, which stages the tree's files under src/.
    if (r.empty()) r = line.starts_with("src/") ? line.substr(4) : line;
  }
  return reports;
}

HarnessRun runHarness(const std::string& binary, const std::vector<std::string>& lines, const Confinement& c,
                      Clock::time_point deadline) {
  HarnessRun out;
  char tmpl[] = "/tmp/impact-home-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    out.error = "cannot make a temp HOME";
    return out;
  }
  for (size_t start = 0; start < lines.size();) {
    std::vector<std::string> rest(lines.begin() + long(start), lines.end());
    ChildResult r = confinedChild({binary}, absl::StrJoin(rest, "\n") + "\n", c, {binary}, tmpl, deadline,
                                  {{"UBSAN_OPTIONS", kUbsanOptions}});
    ++out.processes;
    if (!r.spawnError.empty() || r.timedOut) {
      out.error = r.timedOut ? "the harness did not finish before its deadline" : r.spawnError;
      break;
    }
    std::vector<json> answers = readAnswers(r.out);
    std::vector<std::string> reports = ubReportsByVariant(r.err, rest.size());
    size_t k = 0;
    while (k < reports.size() && reports[k].empty()) ++k;
    if (k < reports.size() && k <= answers.size()) {
      // The variants before it are answered; it has its report (and no values when the runtime
      // stopped on it); the rest go on in a new process, whose runtime reports every location again.
      out.answers.insert(out.answers.end(), answers.begin(), answers.begin() + long(k));
      json a = k < answers.size() ? answers[k] : json::object();
      a["ub"] = reports[k];
      out.answers.push_back(std::move(a));
      start += k + 1;
      continue;
    }
    if (r.exitCode != 0) {
      out.error = absl::StrCat("the harness exited ", r.exitCode, r.signal ? absl::StrCat(" (signal ", r.signal, ")") : "",
                               ": ", stderrLine(r.err));
      break;
    }
    out.answers.insert(out.answers.end(), answers.begin(), answers.end());
    if (answers.size() != rest.size())
      out.error = absl::StrCat("the harness answered ", out.answers.size(), " of ", lines.size(), " variants");
    break;
  }
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return out;
}

}  // namespace impact::emitter
