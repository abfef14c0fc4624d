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
#include <iostream>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include "support/CopyRewrites.h"
#include "support/Mutation.h"

namespace impact::testing {
namespace {

struct Line {
  std::string tree, builder, mutation;
  size_t copies = 0, expected = 0, caught = 0;
};

std::string shortPath(const std::string& s) {
  const std::string hkp = "dnn-providers/hip-kernel-provider/";
  return s.rfind(hkp, 0) == 0 ? s.substr(hkp.size()) : s;
}

// A KernelArgument list of a C++ file (KernelArgument states no scalar type).
bool untypedCppList(const std::string& copy, const std::string& row) {
  const std::string path = copy.substr(0, copy.find(' '));
  const bool cpp = path.ends_with(".cpp") || path.ends_with(".hpp") || path.ends_with(".h");
  return cpp && !copy.ends_with("launch(...)") && row.find("name-keyed check") == std::string::npos &&
         row.find("names array") == std::string::npos;
}

std::string report(SharedTreeRepo& repo, const std::string& base, const std::string& head) {
  RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base " + base + " --head " + head);
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
    if (facts.exitCode != 0) {
      ADD_FAILURE() << "impact facts " << p.file << ": " << facts.err;
      continue;
    }
    std::string why;
    std::vector<Decl> decls = locateDecls(facts.out, p.function, source, why);
    if (decls.empty()) {
      // A names list (`conv_arg_names`: a function returning argument names, compared with a C++
      // names array by core/contracts/kernargs/NameLists) declares no b.param: it is no builder to
      // mutate here, and the facts say it is a names list. Anything else not located is a failure.
      bool namesList = facts.out.find("\"name_lists\"") != std::string::npos &&
                       facts.out.find("\"function\": \"" + p.function + "\"") != std::string::npos;
      if (namesList) {
        std::cout << "[mutation " << sub << "] " << p.function << ": a names list, not a b.param builder: not mutated\n";
        continue;
      }
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
        // A name-keyed check (the copy walks the kernel's own argument plan at run time and binds
        // each argument by its name, refusing a name or type it does not know) does not depend
        // on the order of the arguments nor require any of them to be present: a swap or a drop
        // is not a break for it, and the report must not call it one (a false BREAKS). Append
        // (an argument it does not know) and retype (a type it refuses) must mismatch.
        const bool nameKeyed = p.untouchedRow.at(copy).find("name-keyed check") != std::string::npos;
        // A launch states values, not names (`launch(stream, q.ptr, k.ptr, ...)`): two arguments of the
        // same kind and size swapped in the builder leave every slot's kind and size as they were, so
        // the launch cannot tell; only a copy that states names can (the signature copies do).
        const bool unnamedLaunch = copy.ends_with("launch(...)") && m.label.starts_with("swap same-kind");
        // A C++ KernelArgument list states kind, size, offset and name ({kind, size, offset, name}:
        // no scalar type), and so does the signature check the pack runs on it: a scalar retyped at
        // equal size passes that check, so it is no break of that copy (the launch notices).
        const bool untypedList = untypedCppList(copy, p.untouchedRow.at(copy)) && m.label.starts_with("retype");
        const bool mustMismatch = !unnamedLaunch && !untypedList &&
                                  !(nameKeyed && (m.label.starts_with("swap") || m.label.starts_with("drop")));
        const ReportRow* hit = nullptr;
        const ReportRow* seen = nullptr;
        for (const auto& r : rows) {
          if (r.contract != "kernargs" || r.python != p.file + " " + p.function || r.copy != copy) continue;
          seen = &r;
          if (r.status == "mismatch") hit = &r;
        }
        if (unnamedLaunch) continue;
        if (!mustMismatch) {
          EXPECT_FALSE(hit) << "[" << sub << "] " << p.function << " / " << m.label
                            << ": a copy this mutation does not break (name-keyed, or a KernelArgument list at equal size) read as a mismatch:\n  " << hit->line;
          continue;
        }
        ++line.expected;
        if (hit) ++line.caught;
        EXPECT_TRUE(hit) << "[" << sub << "] " << p.function << " / " << m.label << ": copy not reported as mismatch: "
                         << shortPath(copy) << "\n  its row: " << (seen ? seen->line : std::string("(none)"));
      }
      table.push_back(line);
    }
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[mutation %s] %-58s %-34s %6s %8s %6s\n", sub.c_str(), "builder", "mutation", "copies", "expected",
              "caught");
  for (const auto& l : table)
    std::printf("[mutation %s] %-58s %-34s %6zu %8zu %6zu\n", sub.c_str(), l.builder.c_str(), l.mutation.c_str(),
                l.copies, l.expected, l.caught);
  std::printf("[mutation %s] %zu mutations in %lld ms\n", sub.c_str(), table.size(), static_cast<long long>(ms));
  return table;
}


// Whether the report gives `copy` (paired with builder `p`) a mismatch row; its row, if any.
const ReportRow* rowFor(const std::vector<ReportRow>& rows, const BuilderPairs& p, const std::string& copy) {
  for (const auto& r : rows)
    if (r.contract == "kernargs" && r.python == p.file + " " + p.function && r.copy == copy) return &r;
  return nullptr;
}

// Metamorphic: each equivalent rewrite (support/Mutation.h rewritesOf), checked against the
// recording stand-in with python3, must give the same rows as the untouched tree (no copy a
// mismatch, every copy still compared), and the same mutations applied before rewriting must
// still give every paired copy a mismatch (name-keyed copies: append and retype only).
// Only the rewrites that move the declarations' helper to another module of the tree run here
// (the engine in tests/metamorphic rewrites within the module); the second module is written at
// its place under the builder's `rocke/library/`.
void writeSecondModule(SharedTreeRepo& repo, const std::string& builderFile, const Rewrite& rw) {
  if (rw.modulePath.empty()) return;
  const std::string lib = "rocke/library/";
  size_t at = builderFile.rfind(lib);
  ASSERT_NE(at, std::string::npos) << builderFile;
  repo.write(builderFile.substr(0, at + lib.size()) + rw.modulePath, rw.moduleSource);
}

void metamorphicTree(const std::string& sub) {
  SharedTreeRepo repo(sub);
  if (!repo.ok()) {
    ADD_FAILURE() << "../shared/real-data/" << sub << " is absent";
    return;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::vector<BuilderPairs> pairs = pairsFromReport(report(repo, repo.empty, repo.all));
  struct Result {
    std::string builder, rewrite;
    bool sameCalls = false;
    size_t copies = 0, agree = 0, mutations = 0, expected = 0, caught = 0;
  };
  std::vector<Result> results;
  auto declsOf = [&](const BuilderPairs& p, const std::string& text) {
    repo.write(p.file, text);
    RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + p.file) + " --as " + shellQuote(p.file));
    std::string why;
    return locateDecls(facts.out, p.function, text, why);
  };
  for (const auto& p : pairs) {
    repo.git("checkout -q -f " + repo.untouched);
    const std::string source = repo.read(p.file);
    std::vector<Decl> decls = declsOf(p, source);
    std::vector<Rewrite> rewrites = rewritesOf(source, decls);
    if (rewrites.empty()) continue;  // not a b.param builder (the conv names ABI): no rewrite here
    std::vector<Mutation> muts = mutationsOf(source, decls);
    for (const Rewrite& rw : rewrites) {
      // The in-module rewrites are the metamorphic engine's now (tests/metamorphic: its catalogue
      // holds every one of them and more, applied at random and in combination, ctest -L
      // metamorphic); kept here is what the engine does not write: a second module of the tree.
      if (rw.modulePath.empty()) continue;
      Result res{shortPath(p.file) + " " + p.function, rw.label};
      res.copies = p.copies.size();
      // The recording stand-in: original and rewrite declare the same calls.
      std::string py = repo.dir() + "/../impactd_check_" + std::to_string(::getpid()) + ".py";
      {
        FILE* f = std::fopen(py.c_str(), "w");
        std::fwrite(rw.check.data(), 1, rw.check.size(), f);
        std::fclose(f);
      }
      RunResult ran = run("python3 " + shellQuote(py));
      std::remove(py.c_str());
      res.sameCalls = ran.exitCode == 0 && ran.out.rfind("same", 0) == 0;
      EXPECT_TRUE(res.sameCalls) << p.function << " / " << rw.label << ": the rewrite is not equivalent:\n"
                                 << ran.out << ran.err << "\n" << rw.check;
      // The rewrite alone: the same rows.
      repo.git("checkout -q -f " + repo.untouched);
      repo.write(p.file, rw.source);
      writeSecondModule(repo, p.file, rw);
      std::string head = repo.commit("rewrite: " + p.function + " " + rw.label);
      std::vector<ReportRow> rows = parseRows(report(repo, repo.untouched, head));
      for (const auto& copy : p.copies) {
        const ReportRow* r = rowFor(rows, p, copy);
        bool same = r && r->status != "mismatch";
        if (same) ++res.agree;
        EXPECT_TRUE(same) << "[" << sub << "] " << p.function << " / rewrite " << rw.label
                          << ": the rewrite alone changes the row of " << shortPath(copy) << ":\n  "
                          << (r ? r->line : std::string("(no row: the copy is no longer compared)"));
      }
      // The mutations, then the same rewrite.
      for (const Mutation& m : muts) {
        if (m.source.empty()) continue;
        repo.git("checkout -q -f " + repo.untouched);
        std::vector<Decl> md = declsOf(p, m.source);
        std::string text;
        const Rewrite* twin = nullptr;
        std::vector<Rewrite> again = rewritesOf(m.source, md);
        for (const Rewrite& r2 : again)
          if (r2.label == rw.label) text = r2.source, twin = &r2;
        ++res.mutations;
        if (text.empty()) {
          ADD_FAILURE() << p.function << " / " << rw.label << " / " << m.label << ": rewrite not applicable";
          continue;
        }
        repo.write(p.file, text);
        writeSecondModule(repo, p.file, *twin);
        std::string mh = repo.commit("rewrite+mutation: " + p.function + " " + rw.label + " " + m.label);
        std::vector<ReportRow> mrows = parseRows(report(repo, repo.untouched, mh));
        for (const auto& copy : p.copies) {
          const bool nameKeyed = p.untouchedRow.at(copy).find("name-keyed check") != std::string::npos;
          if (nameKeyed && (m.label.starts_with("swap") || m.label.starts_with("drop"))) continue;
          if (copy.ends_with("launch(...)") && m.label.starts_with("swap same-kind")) continue;  // see RealMutation
          if (untypedCppList(copy, p.untouchedRow.at(copy)) && m.label.starts_with("retype")) continue;  // ditto
          ++res.expected;
          const ReportRow* r = rowFor(mrows, p, copy);
          bool hit = r && r->status == "mismatch";
          if (hit) ++res.caught;
          EXPECT_TRUE(hit) << "[" << sub << "] " << p.function << " / rewrite " << rw.label << " + " << m.label
                           << ": copy not reported as mismatch: " << shortPath(copy) << "\n  its row: "
                           << (r ? r->line : std::string("(none)"));
        }
      }
      results.push_back(res);
    }
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[metamorphic %s] %-58s %-28s %5s %6s %6s %9s %8s %6s\n", sub.c_str(), "builder", "rewrite", "calls",
              "copies", "agree", "mutations", "expected", "caught");
  for (const auto& r : results)
    std::printf("[metamorphic %s] %-58s %-28s %5s %6zu %6zu %9zu %8zu %6zu\n", sub.c_str(), r.builder.c_str(),
                r.rewrite.c_str(), r.sameCalls ? "same" : "DIFF", r.copies, r.agree, r.mutations, r.expected,
                r.caught);
  std::printf("[metamorphic %s] %zu rewrites in %lld ms\n", sub.c_str(), results.size(), static_cast<long long>(ms));
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

namespace impact::testing {
namespace {

// Metamorphic, the C++ side: each launch copy of each builder rewritten (support/CopyRewrites.h:
// its arguments through `const auto` locals, through a struct's fields), and each name-keyed check
// (its names through named constants, through a constexpr array, its sizes through sizeof of a
// local). The rewrite alone must leave the copy compared and every row of the builder a
// non-mismatch; each mutation of the builder, with the rewritten copy, must still make that copy a
// mismatch (a same-kind swap excepted for a launch, a swap or a drop for a name-keyed check, as in
// RealMutation).
void metamorphicCopies(const std::string& sub, size_t minLaunches, size_t minNameKeyed) {
  SharedTreeRepo repo(sub);
  if (!repo.ok()) {
    ADD_FAILURE() << "../shared/real-data/" << sub << " is absent";
    return;
  }
  std::vector<BuilderPairs> pairs = pairsFromReport(report(repo, repo.empty, repo.all));
  size_t launches = 0, nameKeyedChecks = 0;
  for (const auto& p : pairs) {
    repo.git("checkout -q -f " + repo.untouched);
    const std::string builderSource = repo.read(p.file);
    RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + p.file) + " --as " + shellQuote(p.file));
    std::string why;
    std::vector<Decl> decls = locateDecls(facts.out, p.function, builderSource, why);
    if (decls.empty()) continue;  // a names list, not a b.param builder (RealMutation says so)
    std::vector<std::string> names;
    for (const Decl& d : decls) names.push_back(d.name);
    std::vector<Mutation> muts = mutationsOf(builderSource, decls);
    for (const auto& copy : p.copies) {
      const std::string& row = p.untouchedRow.at(copy);
      const bool launch = copy.ends_with("launch(...)");
      const bool nameKeyed = row.find("name-keyed check") != std::string::npos;
      if (!launch && !nameKeyed) continue;
      const std::string path = copy.substr(0, copy.find(' '));
      repo.git("checkout -q -f " + repo.untouched);
      const std::string packSource = repo.read(path);
      std::vector<CopyRewrite> rewrites;
      if (launch) {
        size_t at = row.find(path + ":");
        ASSERT_NE(at, std::string::npos) << row;
        rewrites = launchRewritesOf(packSource, std::atoi(row.c_str() + at + path.size() + 1), why);
        ++launches;
      } else {
        rewrites = nameKeyedRewritesOf(packSource, names, why);
        ++nameKeyedChecks;
      }
      ASSERT_FALSE(rewrites.empty()) << copy << ": " << why;
      for (const CopyRewrite& rw : rewrites) {
        repo.git("checkout -q -f " + repo.untouched);
        repo.write(path, rw.source);
        std::vector<ReportRow> rows = parseRows(report(repo, repo.untouched, repo.commit("rewrite: " + rw.label)));
        EXPECT_TRUE(rowFor(rows, p, copy)) << "[" << sub << "] " << rw.label << " alone: " << shortPath(copy)
                                           << " is no longer compared";
        for (const auto& c : p.copies) {
          const ReportRow* r = rowFor(rows, p, c);
          EXPECT_TRUE(!r || r->status != "mismatch")
              << "[" << sub << "] " << rw.label << " alone: a mismatch on " << shortPath(c) << ":\n  " << r->line;
          // Every argument still read: no type the original states is lost to the rewrite.
          const bool unreadNow = r && r->line.find("type not resolved") != std::string::npos;
          EXPECT_EQ(unreadNow, p.untouchedRow.at(c).find("type not resolved") != std::string::npos)
              << "[" << sub << "] " << rw.label << " alone: " << (r ? r->line : std::string("(no row)"));
        }
        size_t expected = 0, caught = 0;
        for (const Mutation& m : muts) {
          if (m.source.empty() || (launch && m.label.starts_with("swap same-kind"))) continue;
          if (nameKeyed && (m.label.starts_with("swap") || m.label.starts_with("drop"))) continue;
          repo.git("checkout -q -f " + repo.untouched);
          repo.write(path, rw.source);
          repo.write(p.file, m.source);
          std::vector<ReportRow> mrows =
              parseRows(report(repo, repo.untouched, repo.commit("rewrite + mutation: " + m.label)));
          const ReportRow* r = rowFor(mrows, p, copy);
          ++expected;
          if (r && r->status == "mismatch") ++caught;
          EXPECT_TRUE(r && r->status == "mismatch")
              << "[" << sub << "] " << p.function << " / " << rw.label << " + " << m.label
              << ": the copy is not a mismatch:\n  " << (r ? r->line : std::string("(no row)"));
        }
        std::printf("[copy rewrites %s] %-48s %-34s %-32s caught %zu of %zu\n", sub.c_str(), shortPath(copy).c_str(),
                    rw.label.c_str(), p.function.c_str(), caught, expected);
      }
    }
  }
  EXPECT_GE(launches, minLaunches);
  EXPECT_GE(nameKeyedChecks, minNameKeyed);
}

TEST(RealMetamorphic, RocmLibrariesLaunches) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  // The gfx950 tiled launch (18 arguments, comments between them), the gfx942 dense launch (5),
  // the gfx950 conv launch (6, then a parameter pack).
  metamorphicCopies("rocm-libraries", 3, 0);
}

TEST(RealMetamorphic, RockeCpuNameKeyedChecks) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  // The SDPA pack's check in Handler::launch and the recipe test's in Prepared::execute.
  metamorphicCopies("rocke-cpu", 0, 2);
}

TEST(RealMetamorphic, RocmLibrariesTree) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  metamorphicTree("rocm-libraries");
}

TEST(RealMetamorphic, RockeCpuTree) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  metamorphicTree("rocke-cpu");
}

}  // namespace
}  // namespace impact::testing
