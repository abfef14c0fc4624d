// Issue 26 item 6: prove the Python reading by mutation, on every real tree of ../shared/real-data.
// For every builder the report pairs with a copy on the untouched tree (its "kernargs" rows), the
// builder's declarations are found from `impact facts` (each argument's declaring-call line) and
// four mutations are made to the real source text (support/Mutation.h): an unconditional I32
// appended after the declarations, one scalar retyped at equal size (I32<->F32), two adjacent
// declarations swapped, the last unconditional declaration dropped. Each is one commit on top of
// the untouched tree; the report (base = untouched) must give a `mismatch` kernargs row for
// every copy paired with that builder. A mutation the report misses is a failure here, never an
// expectation weakened to pass. The table (family, builder, copies, mutations, caught) and the
// suite's time are printed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "support/Mutation.h"

namespace impact::testing {
namespace {

struct Line {
  std::string tree, builder, mutation;
  size_t copies = 0, caught = 0;
};

std::string shortPath(const std::string& s) {
  const std::string hkp = "dnn-providers/hip-kernel-provider/";
  return s.rfind(hkp, 0) == 0 ? s.substr(hkp.size()) : s;
}

std::string report(SharedTreeRepo& repo, const std::string& base, const std::string& head) {
  RunResult r = impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + base + " --head " + head);
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
  return r.out;
}

// Runs every mutation of every paired builder of the tree; returns the table's lines.
std::vector<Line> mutateTree(const std::string& sub, size_t minBuilders) {
  std::vector<Line> table;
  SharedTreeRepo repo(sub);
  if (!repo.ok()) {
    ADD_FAILURE() << "../shared/real-data/" << sub << " is absent";
    return table;
  }
  auto t0 = std::chrono::steady_clock::now();
  // The untouched tree: every file added on top of an empty commit, so every contract of the
  // tree is compared. No kernargs row may be a mismatch; every copy's status is listed.
  std::string whole = report(repo, repo.empty, repo.all);
  std::printf("[untouched %s] kernargs rows:\n", sub.c_str());
  for (const auto& r : parseRows(whole)) {
    if (r.contract != "kernargs") continue;
    std::printf("  %-10s %s <-> %s\n", r.status.c_str(), shortPath(r.python).c_str(), shortPath(r.copy).c_str());
    EXPECT_EQ(r.status.rfind("mismatch", 0), std::string::npos) << "untouched tree mismatches:\n" << r.line;
  }
  std::vector<BuilderPairs> pairs = pairsFromReport(whole);
  EXPECT_GE(pairs.size(), minBuilders) << whole;

  for (const auto& p : pairs) {
    std::string source = repo.read(p.file);
    RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + p.file) + " --as " + shellQuote(p.file));
    ASSERT_EQ(facts.exitCode, 0) << facts.err;
    std::string why;
    std::vector<Decl> decls = locateDecls(facts.out, p.function, source, why);
    if (decls.empty()) {
      ADD_FAILURE() << p.file << " " << p.function << ": declarations not located: " << why;
      continue;
    }
    for (const Mutation& m : mutationsOf(source, decls)) {
      Line line{sub, shortPath(p.file) + " " + p.function, m.label, p.copies.size(), 0};
      if (m.source.empty()) {
        ADD_FAILURE() << p.function << ": mutation " << m.label << " not applicable: " << m.note;
        table.push_back(line);
        continue;
      }
      repo.git("checkout -q -f " + repo.untouched);
      repo.write(p.file, m.source);
      std::string head = repo.commit("mutation: " + p.function + " " + m.label);
      std::string out = report(repo, repo.untouched, head);
      std::vector<ReportRow> rows = parseRows(out);
      for (const auto& copy : p.copies) {
        const ReportRow* hit = nullptr;
        const ReportRow* seen = nullptr;
        for (const auto& r : rows) {
          if (r.contract != "kernargs" || r.python != p.file + " " + p.function || r.copy != copy) continue;
          seen = &r;
          if (r.status == "mismatch") hit = &r;
        }
        if (hit) ++line.caught;
        EXPECT_TRUE(hit) << "[" << sub << "] " << p.function << " / " << m.label << ": copy not reported as mismatch: "
                         << shortPath(copy) << "\n  its row: " << (seen ? seen->line : std::string("(none)"));
      }
      table.push_back(line);
    }
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[mutation %s] %-58s %-34s %6s %6s\n", sub.c_str(), "builder", "mutation", "copies", "caught");
  for (const auto& l : table)
    std::printf("[mutation %s] %-58s %-34s %6zu %6zu\n", sub.c_str(), l.builder.c_str(), l.mutation.c_str(), l.copies,
                l.caught);
  std::printf("[mutation %s] %zu mutations in %lld ms\n", sub.c_str(), table.size(), static_cast<long long>(ms));
  return table;
}

TEST(RealMutation, RocmLibrariesTree) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  // gfx950 tiled 2D, gfx942 dense (the launch and the SignatureBuilder copy), gfx950 conv fwd.
  mutateTree("rocm-libraries", 3);
}

TEST(RealMutation, RockeCpuTree) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  // gfx950 dense: the SignatureBuilder copy, the SDPA pack's name-keyed check, the recipe test.
  mutateTree("rocke-cpu", 1);
}

}  // namespace
}  // namespace impact::testing
