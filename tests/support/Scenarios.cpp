#include "support/Scenarios.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

#include "support/FixtureRepo.h"
#include "support/RealCorpus.h"
#include "support/RecipeCorpus.h"
#include "support/ReportText.h"

namespace fs = std::filesystem;

namespace impact::testing {
namespace {

const std::string kProvider = "dnn-providers/hip-kernel-provider/";

// A scenario file that says something the runner cannot do: its case fails with the message.
struct ScenarioError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
  if (tree == "example-monorepo") return std::make_unique<MonorepoFixture>();
  return nullptr;
}

// Every key of a map node is one of `known`.
void onlyKeys(const YAML::Node& n, std::initializer_list<const char*> known, const std::string& where) {
  if (!n.IsMap()) throw ScenarioError(where + " is not a map");
  for (const auto& kv : n) {
    std::string key = kv.first.as<std::string>();
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; })) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw ScenarioError("unknown key `" + key + "` in " + where + " (known: " + list + ")");
    }
  }
}

std::vector<std::string> stringsOf(const YAML::Node& n, const std::string& where) {
  if (!n.IsSequence()) throw ScenarioError(where + " is not a list");
  std::vector<std::string> out;
  for (const auto& s : n) out.push_back(s.as<std::string>());
  return out;
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

// One line of a text report. `row`: the line is a row (not a note, the coverage line, the
// verdict or empty); a row that is not `status  contract  python  <->  mirror  message` has the
// status "unparsed: LINE". The sides and the message without the provider root.
struct PrintedRow {
  std::string status, contract, python, mirror, message, line;
  bool row = false;
};

PrintedRow parseLine(const std::string& line) {
  PrintedRow r;
  r.line = line;
  if (line.empty() || line.starts_with("note:") || line.starts_with("Coverage:") || line.starts_with("Runtime impact:"))
    return r;
  r.row = true;
  std::vector<std::string> f = rowFields(line);
  if (f.size() >= 5 && f[3] == "<->") {
    r.status = f[0];
    r.contract = f[1];
    r.python = withoutProvider(f[2]);
    r.mirror = withoutProvider(f[4]);
    for (size_t i = 5; i < f.size(); ++i) r.message += (i > 5 ? "  " : "") + withoutProvider(f[i]);
  } else {
    r.status = "unparsed: " + line;
  }
  return r;
}

std::vector<PrintedRow> linesOf(const std::string& out) {
  std::vector<PrintedRow> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(parseLine(line));
  return lines;
}

std::string shape(const PrintedRow& r) {
  return r.status + " | " + r.contract + " | " + withoutLine(r.python) + " | " + withoutLine(r.mirror);
}

// A row's field by the name a scenario file gives it.
std::string field(const PrintedRow& r, const std::string& name) {
  if (name == "status") return r.status;
  if (name == "contract") return r.contract;
  if (name == "python") return r.python;
  if (name == "mirror") return r.mirror;
  if (name == "message") return r.message;
  if (name == "shape") return shape(r);
  if (name == "line") return r.line;
  throw ScenarioError("unknown row field `" + name + "` (status, contract, python, mirror, message, shape, line)");
}

const std::vector<std::string> kStatuses = {"mismatch", "mismatch (pre-existing)", "changed", "inert", "outside"};

class Runner {
 public:
  Runner(const YAML::Node& doc, FixtureRepo& repo) : repo_(repo) {
    if (doc["files"])
      for (const auto& kv : doc["files"]) files_[kv.first.as<std::string>()] = kv.second.as<std::string>();
    if (doc["snippets"])
      for (const auto& kv : doc["snippets"]) snippets_[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }

  void step(const YAML::Node& st) {
    if (!st.IsMap() || st.size() == 0) throw ScenarioError("a step that is not a map");
    if (st["replace"]) {
      onlyKeys(st, {"replace", "find", "with"}, "a replace step");
      if (!st["find"] || !st["with"]) throw ScenarioError("a replace step without `find:` and `with:`");
      repo_.replace(path(st["replace"]), text(st["find"]), text(st["with"]));
    } else if (st["append"]) {
      onlyKeys(st, {"append", "text"}, "an append step");
      std::string p = path(st["append"]);
      repo_.write(p, repo_.read(p) + text(st["text"]));
    } else if (st["write"]) {
      onlyKeys(st, {"write", "text"}, "a write step");
      repo_.write(path(st["write"]), text(st["text"]));
    } else if (st["remove"]) {
      onlyKeys(st, {"remove"}, "a remove step");
      repo_.remove(path(st["remove"]));
    } else if (st["commit"]) {
      onlyKeys(st, {"commit"}, "a commit step");
      repo_.commit(st["commit"].as<std::string>());
    } else if (st["git"]) {
      onlyKeys(st, {"git"}, "a git step");
      repo_.git(st["git"].as<std::string>());
    } else if (st["from_empty"]) {
      onlyKeys(st, {"from_empty"}, "a from_empty step");
      fromEmpty(st["from_empty"].as<std::string>());
    } else if (st["report"]) {
      onlyKeys(st, {"report"}, "a report step");
      check(st["report"]);
    } else if (st["check"]) {  // `impact check`: its listing holds (`contains:`) or lacks (`lacks:`) texts; `exit:` (0)
      onlyKeys(st, {"check"}, "a check step");
      const YAML::Node& want = st["check"];
      onlyKeys(want, {"contains", "lacks", "exit"}, "a check step");
      RunResult r = impact("check --repo " + shellQuote(repo_.dir()));
      ASSERT_EQ(r.exitCode, want["exit"] ? want["exit"].as<int>() : 0) << r.err << r.out;
      if (want["contains"])
        for (const auto& n : texts(want["contains"], "`contains:`")) EXPECT_NE(r.out.find(n), std::string::npos) << "[" << n << "]\n" << r.out;
      if (want["lacks"])
        for (const auto& n : texts(want["lacks"], "`lacks:`")) EXPECT_EQ(r.out.find(n), std::string::npos) << "[" << n << "]\n" << r.out;
    } else {
      throw ScenarioError("a step that is none of replace, append, write, remove, commit, git, from_empty, report, check");
    }
  }

 private:
  FixtureRepo& repo_;
  std::map<std::string, std::string> files_;
  std::map<std::string, std::string> snippets_;

  // A file key of `files:`, or a path.
  std::string path(const YAML::Node& n) const {
    std::string s = n.as<std::string>();
    auto it = files_.find(s);
    return it == files_.end() ? s : it->second;
  }

  std::string text(const YAML::Node& n) const {
    if (!n) throw ScenarioError("a step without the text it needs");
    return expand(n.as<std::string>());
  }

  // The 1-based line of the last needle, each needle looked for from the line of the one before.
  int lineOf(const std::string& file, const std::vector<std::string>& needles) const {
    std::istringstream in(repo_.read(file));
    std::string line;
    size_t at = 0;
    for (int n = 1; std::getline(in, line); ++n) {
      while (at < needles.size() && line.find(needles[at]) != std::string::npos) {
        if (++at == needles.size()) return n;
      }
    }
    throw ScenarioError("`" + needles[std::min(at, needles.size() - 1)] + "` not in " + file);
  }

  // The placeholders, wherever a string is read (innermost first; a NEEDLE holds no `|` or `}}`):
  //   {{line:KEY|NEEDLE}}           the 1-based line of NEEDLE in the file KEY names (or a path)
  //   {{line:KEY|FIRST|...|NEEDLE}} the same, NEEDLE looked for from the line of FIRST on
  //   {{path:KEY}}                  the path KEY names
  //   {{snippet:KEY}}               the text of `snippets: KEY` (itself expanded)
  // Other text with braces (C++ `{{"N", p.n}}`) stays as it is.
  std::string expand(std::string s) const {
    static const std::vector<std::string> kOpen = {"{{line:", "{{path:", "{{snippet:"};
    size_t from = 0;
    for (int rounds = 0;; ++rounds) {
      if (rounds > 1000) throw ScenarioError("placeholders expand without end in `" + s.substr(0, 200) + "`");
      size_t end = s.find("}}", from);
      if (end == std::string::npos) {
        for (const auto& o : kOpen)
          if (size_t p = s.find(o); p != std::string::npos)
            throw ScenarioError("a placeholder that does not close: `" + s.substr(p, 80) + "`");
        return s;
      }
      size_t at = std::string::npos;
      std::string open;
      for (const auto& o : kOpen)
        if (size_t p = s.rfind(o, end); p != std::string::npos && p + o.size() <= end && (at == std::string::npos || p > at))
          at = p, open = o;
      if (at == std::string::npos || at < from) {
        from = end + 1;
        continue;
      }
      std::string body = s.substr(at + open.size(), end - at - open.size());
      std::string value;
      if (open == "{{snippet:") {
        auto it = snippets_.find(body);
        if (it == snippets_.end()) throw ScenarioError("no snippet `" + body + "` in `snippets:`");
        value = it->second;
      } else {
        std::vector<std::string> parts = splitOn(body, "|");
        auto it = files_.find(parts[0]);
        std::string file = it == files_.end() ? parts[0] : it->second;
        if (open == "{{path:") {
          if (parts.size() != 1) throw ScenarioError("`{{path:KEY}}` takes a key only: `" + body + "`");
          value = file;
        } else {
          if (parts.size() < 2) throw ScenarioError("`{{line:KEY|NEEDLE}}` without a needle: `" + body + "`");
          value = std::to_string(lineOf(file, std::vector<std::string>(parts.begin() + 1, parts.end())));
        }
      }
      s.replace(at, end + 2 - at, value);
      from = 0;
    }
  }

  std::vector<std::string> texts(const YAML::Node& n, const std::string& where) const {
    std::vector<std::string> out = stringsOf(n, where);
    for (auto& s : out) s = expand(s);
    return out;
  }

  // `from_empty: MESSAGE`: main becomes an empty commit and HEAD the committed tree on top of it
  // (one commit, MESSAGE): a report against main compares every contract of the tree.
  void fromEmpty(const std::string& message) {
    auto trim = [](std::string s) {
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
      return s;
    };
    std::string empty = trim(repo_.git("commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m empty"));
    std::string all = trim(repo_.git("commit-tree HEAD^{tree} -p " + empty + " -m " + shellQuote(message)));
    repo_.git("branch -f main " + empty);
    repo_.git("reset -q --soft " + all);
  }

  // A text matcher: a string (the text is exactly it) or a map of {is, starts, ends, has: [..],
  // has_any: [..], lacks: [..], not}. "" when the text matches, else why not.
  std::string mismatchOf(const YAML::Node& m, const std::string& s) const {
    if (m.IsScalar()) {
      std::string want = expand(m.as<std::string>());
      return s == want ? "" : "is not [" + want + "]";
    }
    onlyKeys(m, {"is", "starts", "ends", "has", "has_any", "lacks", "not"}, "a text matcher");
    if (m["is"] && s != expand(m["is"].as<std::string>())) return "is not [" + expand(m["is"].as<std::string>()) + "]";
    if (m["starts"] && !s.starts_with(expand(m["starts"].as<std::string>())))
      return "does not start with [" + expand(m["starts"].as<std::string>()) + "]";
    if (m["ends"] && !s.ends_with(expand(m["ends"].as<std::string>())))
      return "does not end with [" + expand(m["ends"].as<std::string>()) + "]";
    if (m["not"] && s == expand(m["not"].as<std::string>())) return "is [" + expand(m["not"].as<std::string>()) + "]";
    if (m["has"])
      for (const auto& n : texts(m["has"], "`has:`"))
        if (s.find(n) == std::string::npos) return "lacks [" + n + "]";
    if (m["lacks"])
      for (const auto& n : texts(m["lacks"], "`lacks:`"))
        if (s.find(n) != std::string::npos) return "holds [" + n + "]";
    if (m["has_any"]) {
      std::vector<std::string> any = texts(m["has_any"], "`has_any:`");
      if (std::none_of(any.begin(), any.end(), [&](const std::string& n) { return s.find(n) != std::string::npos; })) {
        std::string list;
        for (const auto& n : any) list += "[" + n + "] ";
        return "holds none of " + list;
      }
    }
    return "";
  }

  // `{FIELD: MATCHER, ...}` against a line: "" when every field matches, else the first that does not.
  std::string rowMismatch(const YAML::Node& fields, const PrintedRow& r) const {
    if (!fields.IsMap()) throw ScenarioError("`where:`/`each:` is not a map of row fields");
    for (const auto& kv : fields) {
      std::string name = kv.first.as<std::string>();
      std::string why = mismatchOf(kv.second, field(r, name));
      if (!why.empty()) return name + " [" + field(r, name) + "] " + why;
    }
    return "";
  }

  // One `report:` step: runs `impact report --base main ARGS` and checks what it expects.
  void check(const YAML::Node& want) {
    onlyKeys(want, {"args", "exit", "verdict", "rows", "any_order", "kernargs", "printed", "lines", "contains", "lacks"},
             "a report step");
    std::string extra = want["args"] ? want["args"].as<std::string>() : "";
    RunResult r = report(repo_, extra);
    ASSERT_EQ(r.exitCode, want["exit"] ? want["exit"].as<int>() : 0) << r.err << r.out;
    if (want["verdict"]) EXPECT_EQ(lastLine(r.out), expand(want["verdict"].as<std::string>())) << r.out;
    std::vector<PrintedRow> lines = linesOf(r.out);
    std::vector<PrintedRow> rows;
    std::copy_if(lines.begin(), lines.end(), std::back_inserter(rows), [](const PrintedRow& l) { return l.row; });
    if (want["rows"]) {
      std::vector<std::string> got, expected = texts(want["rows"], "`rows:`");
      for (const auto& row : rows) got.push_back(shape(row));
      if (want["any_order"] && want["any_order"].as<bool>()) {
        std::sort(got.begin(), got.end());
        std::sort(expected.begin(), expected.end());
      }
      EXPECT_EQ(got, expected) << r.out;
    }
    if (want["printed"]) {
      std::vector<std::string> got;
      for (const auto& row : rows) got.push_back(row.line);
      EXPECT_EQ(got, texts(want["printed"], "`printed:`")) << r.out;
    }
    if (want["kernargs"]) checkKernargs(want["kernargs"], rows, r.out);
    if (want["lines"]) {
      if (!want["lines"].IsSequence()) throw ScenarioError("`lines:` is not a list");
      for (const auto& l : want["lines"]) checkLines(l, lines, r.out);
    }
    if (want["contains"])
      for (const auto& n : texts(want["contains"], "`contains:`")) EXPECT_NE(r.out.find(n), std::string::npos) << "[" << n << "]\n" << r.out;
    if (want["lacks"])
      for (const auto& n : texts(want["lacks"], "`lacks:`")) EXPECT_EQ(r.out.find(n), std::string::npos) << "[" << n << "]\n" << r.out;
  }

  // One `lines:` entry: the lines of the output it selects, then what must hold of them.
  //   with: [NEEDLE...]   the line holds every needle (a first needle that is a status starts it)
  //   without: [NEEDLE...] the line holds none of them
  //   starts: TEXT        the line starts with TEXT
  //   where: {FIELD: MATCHER}  the line is a row whose fields match
  //   count: N (default 1) | at_least: N | are: [LINE...] (exactly these lines, in order)
  //   each: {FIELD: MATCHER}   every line selected matches
  void checkLines(const YAML::Node& want, const std::vector<PrintedRow>& lines, const std::string& out) {
    onlyKeys(want, {"with", "without", "starts", "where", "count", "at_least", "are", "each"}, "a `lines:` entry");
    const int counts = (want["count"] ? 1 : 0) + (want["at_least"] ? 1 : 0) + (want["are"] ? 1 : 0);
    if (counts > 1)
      throw ScenarioError("a `lines:` entry with more than one of count, at_least, are");
    std::vector<std::string> with = want["with"] ? texts(want["with"], "`with:`") : std::vector<std::string>{};
    std::vector<std::string> without = want["without"] ? texts(want["without"], "`without:`") : std::vector<std::string>{};
    const std::string starts = want["starts"] ? expand(want["starts"].as<std::string>()) : "";
    const bool status = !with.empty() && std::find(kStatuses.begin(), kStatuses.end(), with[0]) != kStatuses.end();
    std::vector<const PrintedRow*> selected;
    for (const auto& l : lines) {
      bool in = (!status || l.line.starts_with(with[0])) && l.line.starts_with(starts);
      for (const auto& n : with) in = in && l.line.find(n) != std::string::npos;
      for (const auto& n : without) in = in && l.line.find(n) == std::string::npos;
      if (in && want["where"]) in = l.row && rowMismatch(want["where"], l).empty();
      if (in) selected.push_back(&l);
    }
    std::string shown;
    for (const auto& n : with) shown += "[" + n + "] ";
    for (const auto& n : without) shown += "not [" + n + "] ";
    if (!starts.empty()) shown += "starting [" + starts + "] ";
    if (want["where"]) {
      YAML::Emitter flow;
      flow << YAML::Flow << want["where"];
      shown += std::string("where ") + flow.c_str();
    }
    std::string got;
    for (const auto* l : selected) got += "  " + l->line + "\n";
    if (want["are"]) {
      std::vector<std::string> lineTexts;
      for (const auto* l : selected) lineTexts.push_back(l->line);
      EXPECT_EQ(lineTexts, texts(want["are"], "`are:`")) << "lines with " << shown << "\n" << out;
    } else if (want["at_least"]) {
      EXPECT_GE(selected.size(), want["at_least"].as<size_t>()) << "lines with " << shown << "\n" << out;
    } else {
      EXPECT_EQ(selected.size(), want["count"] ? want["count"].as<size_t>() : 1u)
          << "lines with " << shown << ":\n" << got << "in\n" << out;
    }
    if (want["each"])
      for (const auto* l : selected) {
        std::string why = rowMismatch(want["each"], *l);
        EXPECT_TRUE(why.empty()) << "lines with " << shown << ": " << why << "\n" << out;
      }
  }

  // The kernargs rows in order, each field given compared exactly (sides with their lines).
  void checkKernargs(const YAML::Node& want, const std::vector<PrintedRow>& rows, const std::string& out) {
    if (!want.IsSequence()) throw ScenarioError("`kernargs:` is not a list");
    std::vector<const PrintedRow*> k;
    for (const auto& r : rows)
      if (r.contract == "kernargs") k.push_back(&r);
    ASSERT_EQ(k.size(), want.size()) << out;
    for (size_t i = 0; i < k.size(); ++i) {
      const YAML::Node& w = want[i];
      onlyKeys(w, {"status", "python", "mirror", "message"}, "a `kernargs:` entry");
      for (const char* name : {"status", "python", "mirror", "message"})
        if (w[name]) EXPECT_EQ(field(*k[i], name), expand(w[name].as<std::string>())) << "kernargs row " << i << "\n" << out;
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
      if (!doc.IsMap()) throw std::runtime_error("not a map of tree, files, snippets, scenarios");
      onlyKeys(doc, {"tree", "files", "snippets", "scenarios"}, "the file");
      base.tree = doc["tree"] ? doc["tree"].as<std::string>() : "";
      if (base.tree.empty()) throw std::runtime_error("no `tree:` (rocm-libraries, rocke-cpu or example-monorepo)");
      const YAML::Node& list = doc["scenarios"];
      if (!list || !list.IsSequence() || list.size() == 0) throw std::runtime_error("no `scenarios:` list");
      std::set<std::string> names;
      for (size_t i = 0; i < list.size(); ++i) {
        ScenarioCase c = base;
        c.index = static_cast<int>(i);
        c.name = list[i]["name"] ? list[i]["name"].as<std::string>() : "";
        if (c.name.empty()) c.error = "scenario #" + std::to_string(i) + " has no `name:`";
        else if (!names.insert(c.name).second) c.error = "two scenarios named " + c.name;
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
  ASSERT_TRUE(repo) << c.file << ": unknown tree `" << c.tree << "` (rocm-libraries, rocke-cpu or example-monorepo)";
  const YAML::Node& scenario = doc["scenarios"][c.index];
  try {
    onlyKeys(scenario, {"name", "steps"}, "scenario " + c.name);
    Runner runner(doc, *repo);
    const YAML::Node& steps = scenario["steps"];
    if (!steps || !steps.IsSequence()) throw ScenarioError("no `steps:` list");
    for (const auto& st : steps) {
      runner.step(st);
      if (::testing::Test::HasFatalFailure()) return;
    }
  } catch (const std::exception& e) {
    FAIL() << c.file << ": scenario " << c.name << ": " << e.what();
  }
}

}  // namespace impact::testing
