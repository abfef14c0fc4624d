#include "support/Scenarios.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

#include "support/RealCorpus.h"
#include "support/RecipeCorpus.h"
#include "support/ReportText.h"

namespace fs = std::filesystem;

namespace impact::testing {
namespace {

const std::string kProvider = "dnn-providers/hip-kernel-provider/";

// The fixture of a tree, and the directory that must exist for it ("" when absent).
std::unique_ptr<FixtureRepo> fixtureOf(const std::string& tree, std::string* absent) {
  if (tree == "rocm-libraries") {
    if (realCorpusDir().empty()) *absent = "../shared/real-data/rocm-libraries";
    return absent->empty() ? std::make_unique<RealCorpusFixture>() : nullptr;
  }
  if (tree == "rocke-cpu") {
    if (recipeCorpusDir().empty()) *absent = "../shared/real-data/rocke-cpu";
    return absent->empty() ? std::make_unique<RecipeCorpusFixture>() : nullptr;
  }
  return nullptr;
}

std::string withoutProvider(std::string s) {
  for (size_t at; (at = s.find(kProvider)) != std::string::npos;) s.erase(at, kProvider.size());
  return s;
}

// `path:12 symbol` -> `path symbol`.
std::string withoutLine(const std::string& side) {
  auto colon = side.find(':');
  if (colon == std::string::npos) return side;
  size_t end = colon + 1;
  while (end < side.size() && std::isdigit(static_cast<unsigned char>(side[end]))) ++end;
  return end == colon + 1 ? side : side.substr(0, colon) + side.substr(end);
}

struct PrintedRow {
  std::string status, contract, python, mirror, message, line;
};

// Rows of a text report: `status  contract  python  <->  mirror  message`.
std::vector<PrintedRow> rowsOf(const std::string& out) {
  std::vector<PrintedRow> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("note:") || line.starts_with("Coverage:") ||
        line.starts_with("Runtime impact:"))
      continue;
    std::vector<std::string> f = rowFields(line);
    PrintedRow r;
    r.line = line;
    if (f.size() >= 5 && f[3] == "<->") {
      r.status = f[0];
      r.contract = f[1];
      r.python = withoutProvider(f[2]);
      r.mirror = withoutProvider(f[4]);
      for (size_t i = 5; i < f.size(); ++i) r.message += (i > 5 ? "  " : "") + withoutProvider(f[i]);
    } else {
      r.status = "unparsed: " + line;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string shape(const PrintedRow& r) {
  return r.status + " | " + r.contract + " | " + withoutLine(r.python) + " | " + withoutLine(r.mirror);
}

class Runner {
 public:
  Runner(const ScenarioCase& c, const YAML::Node& doc, FixtureRepo& repo) : c_(c), repo_(repo) {
    if (doc["files"])
      for (const auto& kv : doc["files"]) files_[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }

  // A file key of `files:`, or a path.
  std::string path(const YAML::Node& n) const {
    std::string s = n.as<std::string>();
    auto it = files_.find(s);
    return it == files_.end() ? s : it->second;
  }

  // `{{line:KEY|NEEDLE}}` -> the 1-based line of NEEDLE in the file KEY names.
  std::string expand(std::string s) const {
    for (size_t at; (at = s.find("{{line:")) != std::string::npos;) {
      size_t bar = s.find('|', at), end = s.find("}}", at);
      if (bar == std::string::npos || end == std::string::npos || bar > end) {
        ADD_FAILURE() << c_.file << ": malformed placeholder in `" << s << "` (want {{line:KEY|NEEDLE}})";
        return s;
      }
      std::string key = s.substr(at + 7, bar - at - 7), needle = s.substr(bar + 1, end - bar - 1);
      auto it = files_.find(key);
      std::string file = it == files_.end() ? key : it->second;
      s.replace(at, end + 2 - at, std::to_string(repo_.lineOf(file, needle)));
    }
    return s;
  }

  void step(const YAML::Node& st) {
    if (st["replace"]) {
      repo_.replace(path(st["replace"]), st["find"].as<std::string>(), st["with"].as<std::string>());
    } else if (st["append"]) {
      std::string p = path(st["append"]);
      repo_.write(p, repo_.read(p) + st["text"].as<std::string>());
    } else if (st["write"]) {
      repo_.write(path(st["write"]), st["text"].as<std::string>());
    } else if (st["remove"]) {
      repo_.remove(path(st["remove"]));
    } else if (st["commit"]) {
      repo_.commit(st["commit"].as<std::string>());
    } else if (st["git"]) {
      repo_.git(st["git"].as<std::string>());
    } else if (st["report"]) {
      check(st["report"]);
    } else {
      ADD_FAILURE() << c_.file << ": scenario " << c_.name << ": a step that is none of replace, append, write, "
                    << "remove, commit, git, report";
    }
  }

 private:
  const ScenarioCase& c_;
  FixtureRepo& repo_;
  std::map<std::string, std::string> files_;

  // One `report:` step: runs `impact report` and checks what it expects.
  void check(const YAML::Node& want) {
    std::string extra = want["args"] ? want["args"].as<std::string>() : "";
    RunResult r = report(repo_, extra);
    ASSERT_EQ(r.exitCode, want["exit"] ? want["exit"].as<int>() : 0) << r.err << r.out;
    if (want["verdict"]) EXPECT_EQ(lastLine(r.out), want["verdict"].as<std::string>()) << r.out;
    std::vector<PrintedRow> rows = rowsOf(r.out);
    if (want["rows"]) {
      std::vector<std::string> got, expected;
      for (const auto& row : rows) got.push_back(shape(row));
      for (const auto& w : want["rows"]) expected.push_back(expand(w.as<std::string>()));
      if (want["any_order"] && want["any_order"].as<bool>()) {
        std::sort(got.begin(), got.end());
        std::sort(expected.begin(), expected.end());
      }
      EXPECT_EQ(got, expected) << r.out;
    }
    if (want["kernargs"]) checkKernargs(want["kernargs"], rows, r.out);
    if (want["lines"])
      for (const auto& l : want["lines"]) checkLines(l, r.out);
    if (want["contains"])
      for (const auto& n : want["contains"]) EXPECT_NE(r.out.find(expand(n.as<std::string>())), std::string::npos) << r.out;
    if (want["lacks"])
      for (const auto& n : want["lacks"]) EXPECT_EQ(r.out.find(expand(n.as<std::string>())), std::string::npos) << r.out;
  }

  // `lines: [{with: [NEEDLE...], starts: TEXT, is: LINE, count: N}]`: exactly N lines (default 1)
  // start with TEXT, equal LINE and hold every needle; a first needle that is a status must start
  // the line.
  void checkLines(const YAML::Node& want, const std::string& out) {
    std::vector<std::string> needles;
    if (want["with"])
      for (const auto& n : want["with"]) needles.push_back(expand(n.as<std::string>()));
    const int count = want["count"] ? want["count"].as<int>() : 1;
    const std::string starts = want["starts"] ? expand(want["starts"].as<std::string>()) : "";
    const bool whole = static_cast<bool>(want["is"]);
    const std::string is = whole ? expand(want["is"].as<std::string>()) : "";
    static const std::vector<std::string> kStatuses = {"mismatch", "mismatch (pre-existing)", "changed", "inert",
                                                       "outside"};
    const bool status = !needles.empty() && std::find(kStatuses.begin(), kStatuses.end(), needles[0]) != kStatuses.end();
    int got = 0;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      bool all = (!status || line.starts_with(needles[0])) && line.starts_with(starts) && (!whole || line == is);
      for (const auto& n : needles) all = all && line.find(n) != std::string::npos;
      got += all;
    }
    std::string shown;
    for (const auto& n : needles) shown += "[" + n + "] ";
    if (!starts.empty()) shown += "starting [" + starts + "]";
    if (whole) shown += "equal to [" + is + "]";
    EXPECT_EQ(got, count) << "lines with " << shown << "\n" << out;
  }

  // The kernargs rows in order, each field given compared exactly (sides with their lines).
  void checkKernargs(const YAML::Node& want, const std::vector<PrintedRow>& rows, const std::string& out) {
    std::vector<const PrintedRow*> k;
    for (const auto& r : rows)
      if (r.contract == "kernargs") k.push_back(&r);
    ASSERT_EQ(k.size(), want.size()) << out;
    for (size_t i = 0; i < k.size(); ++i) {
      const YAML::Node& w = want[i];
      if (w["status"]) EXPECT_EQ(k[i]->status, w["status"].as<std::string>()) << "kernargs row " << i << "\n" << out;
      if (w["python"]) EXPECT_EQ(k[i]->python, expand(w["python"].as<std::string>())) << "kernargs row " << i << "\n" << out;
      if (w["mirror"]) EXPECT_EQ(k[i]->mirror, expand(w["mirror"].as<std::string>())) << "kernargs row " << i << "\n" << out;
      if (w["message"]) EXPECT_EQ(k[i]->message, expand(w["message"].as<std::string>())) << "kernargs row " << i << "\n" << out;
    }
  }
};

}  // namespace

std::vector<ScenarioCase> loadScenarioCases(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); ++it)
    if (it->path().extension() == ".yaml") files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  std::vector<ScenarioCase> out;
  for (const std::string& f : files) {
    ScenarioCase base;
    base.file = f;
    base.family = fs::path(f).stem().string();
    try {
      YAML::Node doc = YAML::LoadFile(f);
      base.tree = doc["tree"] ? doc["tree"].as<std::string>() : "";
      if (base.tree.empty()) throw std::runtime_error("no `tree:` (rocm-libraries or rocke-cpu)");
      const YAML::Node& list = doc["scenarios"];
      if (!list || !list.IsSequence() || list.size() == 0) throw std::runtime_error("no `scenarios:` list");
      for (size_t i = 0; i < list.size(); ++i) {
        ScenarioCase c = base;
        c.index = static_cast<int>(i);
        c.name = list[i]["name"] ? list[i]["name"].as<std::string>() : "";
        if (c.name.empty()) c.error = "scenario #" + std::to_string(i) + " has no `name:`";
        out.push_back(std::move(c));
      }
    } catch (const std::exception& e) {
      base.error = e.what();
      out.push_back(std::move(base));
    }
  }
  return out;
}

std::string scenarioTestName(const ScenarioCase& c) {
  std::string s;
  for (char ch : c.family + "_" + (c.name.empty() ? "file" : c.name))
    s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return s;
}

void PrintTo(const ScenarioCase& c, std::ostream* os) { *os << c.family << ": " << (c.name.empty() ? c.error : c.name); }

void runScenario(const ScenarioCase& c) {
  SCOPED_TRACE(c.file + ": scenario " + c.name);
  ASSERT_TRUE(c.error.empty()) << c.file << ": " << c.error;
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(c.file);
  } catch (const std::exception& e) {
    FAIL() << c.file << ": " << e.what();
  }
  std::string absent;
  std::unique_ptr<FixtureRepo> repo = fixtureOf(c.tree, &absent);
  if (!absent.empty()) GTEST_SKIP() << absent << " is absent: the real family " << c.family << " not checked";
  ASSERT_TRUE(repo) << c.file << ": unknown tree `" << c.tree << "` (rocm-libraries or rocke-cpu)";
  Runner runner(c, doc, *repo);
  const YAML::Node& steps = doc["scenarios"][c.index]["steps"];
  ASSERT_TRUE(steps && steps.IsSequence()) << c.file << ": scenario " << c.name << " has no `steps:` list";
  try {
    for (const auto& st : steps) {
      runner.step(st);
      if (::testing::Test::HasFatalFailure()) return;
    }
  } catch (const YAML::Exception& e) {
    FAIL() << c.file << ": scenario " << c.name << ": " << e.what();
  }
}

}  // namespace impact::testing
