#include "support/ReportText.h"

#include <sstream>

namespace impact::testing {

RunResult report(const FixtureRepo& repo, const std::string& extra) {
  return impact("report --repo " + shellQuote(repo.dir()) + " --base main " + extra);
}

std::string lastLine(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

std::vector<std::string> rowsStarting(const std::string& out, const std::string& prefix,
                                      std::initializer_list<std::string> needles) {
  std::vector<std::string> found;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(prefix)) continue;
    bool all = true;
    for (const auto& n : needles) all = all && line.find(n) != std::string::npos;
    if (all) found.push_back(line);
  }
  return found;
}

std::vector<std::string> splitOn(const std::string& s, const std::string& sep) {
  std::vector<std::string> f;
  for (size_t from = 0;;) {
    size_t at = s.find(sep, from);
    f.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + sep.size();
  }
  return f;
}

std::vector<std::string> rowFields(const std::string& line) { return splitOn(line, "  "); }

std::vector<std::string> rowsWith(const std::string& out, std::initializer_list<std::string> needles) {
  const std::string first = needles.size() ? *needles.begin() : "";
  const bool status = first == "mismatch" || first == "changed" || first == "inert" || first.starts_with("mismatch (");
  std::vector<std::string> found;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (status && !line.starts_with(first)) continue;
    bool all = true;
    for (const auto& n : needles) all = all && line.find(n) != std::string::npos;
    if (all) found.push_back(line);
  }
  return found;
}

}  // namespace impact::testing
