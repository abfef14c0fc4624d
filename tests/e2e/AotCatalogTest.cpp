// Issue 39: the AOT catalog engine, on the real gfx1151 rmsnorm2d family of ../shared/real-data/
// aot-catalog (copied into a fresh fixture repository at test time). `impact check` pairs every
// catalog entry with the builder and spec its producer script builds it with, and the adapter and
// the tests' hand-built bindings with the entries; a mutation table (builder arguments added,
// removed, retyped, reordered; an entry edited alone; a binding dropped or renamed; the producer
// turning a conditional on) must give a mismatch on every copy it breaks.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "support/FixtureRepo.h"
#include "support/Mutation.h"

namespace impact::testing {
namespace {

const std::string kHkp = "dnn-providers/hip-kernel-provider/";
const std::string kFamily = kHkp + "rocke/aot_catalog/gfx1151/rmsnorm2d/";
const std::string kStatic = kHkp + "rocke/platform/python/rocke/instances/common/rmsnorm2d.py";
const std::string kDynamic = kHkp + "rocke/platform/python/rocke/instances/common/rmsnorm2d_dynamic.py";
const std::string kAdapter = kHkp + "src/engines/aot_catalog_engine/ops/RmsNormAdapter.cpp";

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

// `from` replaced by `to`, once; "" when `from` is not in the text (the mutation does not apply).
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  if (at == std::string::npos) return "";
  return text.substr(0, at) + to + text.substr(at + from.size());
}

TEST(AotCatalog, CheckPairsEveryEntryThroughItsProducer) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok()) << "../shared/real-data/aot-catalog is absent";
  RunResult r = impact("check --repo " + shellQuote(repo.dir()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Every one of the 18 entries pairs with the builder its producer called, under that spec.
  EXPECT_EQ(count(r.out, "paired by producer " + kFamily + "produce_rmsnorm2d_co.py builds rocke_rmsnorm2d_fwd_"), 18u)
      << r.out;
  EXPECT_EQ(count(r.out, "with build_rmsnorm2d(RMSNorm2DSpec)"), 14u) << r.out;
  EXPECT_EQ(count(r.out, "with build_rmsnorm2d_dynamic(RMSNorm2DDynamicSpec)"), 4u) << r.out;
  EXPECT_EQ(r.out.find("family.json:32 catalog entry rocke_rmsnorm2d_fwd_f16_N2048_b256_v4 args_signature\n    not compared"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("no module"), std::string::npos) << r.out;
  // save_inv_rms=False for every shipped spec: each entry agrees with the 6-argument list.
  EXPECT_EQ(count(r.out, "agrees (6 arguments)"), 18u) << r.out;
  // The family, its producer, and the name-keyed bindings of the adapter and of both tests.
  EXPECT_NE(r.out.find("aot family " + kFamily + "\n  catalog " + kFamily + "family.json: 18 entries, op_kind rmsnorm"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("producer " + kFamily + "produce_rmsnorm2d_co.py: 18 kernels built by"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bindings " + kAdapter + ":210 RmsNormAdapter::buildBindings bindings (6 names; paired by op kind rmsnorm"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("bindings " + kFamily + "TestRmsNormNumericParity.cpp:117"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "bindings " + kFamily + "TestRmsNormSelection.cpp:"), 2u) << r.out;
  EXPECT_EQ(count(r.out, "binds every name the entries need, as LaunchAbi packs it"), 4u) << r.out;
  // How each binding is packed is read from the tree's LaunchAbi.cpp (bindArgs, packArgs).
  EXPECT_EQ(count(r.out, "LaunchAbi's rules read from " + kHkp + "src/engines/aot_catalog_engine/launch/LaunchAbi.cpp"), 4u)
      << r.out;
}

// Without LaunchAbi.cpp in the tree, impactd's table of its rules decides, and every binding set says so.
TEST(AotCatalog, WithoutLaunchAbiTheTableDecidesAndSaysSo) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok());
  repo.git("rm -q " + kHkp + "src/engines/aot_catalog_engine/launch/LaunchAbi.cpp");
  repo.commit("no LaunchAbi.cpp");
  RunResult r = impact("check --repo " + shellQuote(repo.dir()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(count(r.out, "binds every name the entries need, as LaunchAbi packs it"), 4u) << r.out;
  EXPECT_EQ(count(r.out, "LaunchAbi's rules are impactd's table (no aot_catalog_engine/launch/LaunchAbi.cpp in the tree)"), 4u)
      << r.out;
}

// The producers' runs are kept beside the extraction cache: a second report with the cache says
// the same without running them; a builder edit (a module the run read) runs the producer again.
TEST(AotCatalog, ProducerRunsKeptInTheCacheAreReusedOnlyWhileTheirReadsReadTheSame) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok());
  std::string cache = repo.dir() + "-cache";
  std::string report = "report --repo " + shellQuote(repo.dir()) + " --cache " + shellQuote(cache) + " --base " + repo.empty;
  RunResult first = impact(report + " --head " + repo.all);
  RunResult second = impact(report + " --head " + repo.all);
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_EQ(second.out, first.out);
  size_t kept = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(cache))
    if (e.path().parent_path().filename() == "producers") ++kept;
  EXPECT_EQ(kept, 1u);  // the one producer of the tree
  repo.write(kStatic, replaced(repo.read(kStatic), "    _ = b.param(\"N\", I32)  # noqa: F841\n",
                               "    _ = b.param(\"N\", I32)  # noqa: F841\n    ldx = b.param(\"ldx\", I32)\n"));
  std::string edited = repo.commit("build_rmsnorm2d gains ldx");
  RunResult after = impact("report --repo " + shellQuote(repo.dir()) + " --cache " + shellQuote(cache) + " --base " +
                            repo.untouched + " --head " + edited);
  ASSERT_EQ(after.exitCode, 0) << after.err;
  size_t entries = 0;  // the 14 static entries (the module's own SignatureBuilder restatement mismatches too)
  for (const auto& row : parseRows(after.out))
    if (row.status == "mismatch" && row.line.find(kFamily + "family.json") != std::string::npos) ++entries;
  EXPECT_EQ(entries, 14u) << after.out;
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
}

struct Mutation {
  std::string label, file;
  std::function<std::string(const std::string&)> edit;
  std::string contract;  // the rows that must read mismatch
  std::string copyPrefix;  // their copy side starts with it
  size_t expected;
};

TEST(AotCatalog, MutationTable) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok());
  // The untouched family: every file added on top of an empty commit; nothing mismatches.
  RunResult whole = impact("report --repo " + shellQuote(repo.dir()) + " --base " + repo.empty + " --head " + repo.all);
  for (const auto& row : parseRows(whole.out)) EXPECT_NE(row.status, "mismatch") << row.line;

  const std::string M = "    M = b.param(\"M\", I32)  # noqa: F841\n";
  const std::string N = "    _ = b.param(\"N\", I32)  # noqa: F841\n";
  const std::string catalog = kFamily + "family.json";
  std::vector<Mutation> table = {
      {"builder argument added", kStatic, [&](const std::string& s) { return replaced(s, N, N + "    ldx = b.param(\"ldx\", I32)\n"); },
       "kernargs", catalog, 14},
      {"builder argument removed", kStatic, [&](const std::string& s) { return replaced(s, M, ""); }, "kernargs", catalog, 14},
      {"builder argument retyped at equal size", kDynamic,
       [&](const std::string& s) { return replaced(s, "eps = b.param(\"eps\", F32)", "eps = b.param(\"eps\", I32)"); },
       "kernargs", catalog, 4},
      // The last argument before the builder's open end (make_lds_view of a helpers module the
      // tree does not hold, imported relatively from the platform package): its call is as at the
      // base, so the list is read as the copies stated it there, and the drop is found.
      {"builder's last argument removed", kStatic,
       [&](const std::string& s) { return replaced(s, "    eps = b.param(\"eps\", F32)\n", "    eps = F32\n"); }, "kernargs",
       catalog, 14},
      {"builder arguments reordered", kStatic, [&](const std::string& s) { return replaced(s, M + N, N + M); }, "kernargs",
       catalog, 14},
      {"catalog entry edited alone", catalog,
       [&](const std::string& s) {
         auto at = s.find("\"name\": \"eps\",");
         auto ty = s.find("\"type\": \"f32\"", at);
         return at == std::string::npos || ty == std::string::npos ? "" : s.substr(0, ty) + "\"type\": \"i32\"" + s.substr(ty + 13);
       },
       "kernargs", catalog, 1},
      {"entry edited alone: its bindings", catalog,
       [&](const std::string& s) {
         auto at = s.find("\"name\": \"eps\",");
         auto ty = s.find("\"type\": \"f32\"", at);
         return at == std::string::npos || ty == std::string::npos ? "" : s.substr(0, ty) + "\"type\": \"i32\"" + s.substr(ty + 13);
       },
       "catalog-bindings", "", 4},
      {"adapter binding dropped", kAdapter,
       [&](const std::string& s) {
         return replaced(s, "    bindings.scalars.emplace(\"eps\", catalog::ScalarValue{*eps});\n", "");
       },
       "catalog-bindings", kAdapter, 1},
      {"test binding renamed", kFamily + "TestRmsNormNumericParity.cpp",
       [&](const std::string& s) { return replaced(s, "pointerUids.emplace(\"Gamma\", 2)", "pointerUids.emplace(\"gamma\", 2)"); },
       "catalog-bindings", kFamily + "TestRmsNormNumericParity.cpp", 1},
      {"producer turns save_inv_rms on", kFamily + "produce_rmsnorm2d_co.py",
       [&](const std::string& s) {
         std::string out = s, from = "save_inv_rms=False,", to = "save_inv_rms=True,";
         for (auto at = out.find(from); at != std::string::npos; at = out.find(from, at)) out.replace(at, from.size(), to);
         return out == s ? "" : out;
       },
       "kernargs", catalog, 18},
      // LaunchAbi's rules are read from its code: packing an i32 from std::get<float> makes every
      // int64_t binding of M and N (the adapter's and the tests' three sets) throw at launch.
      {"LaunchAbi packs i32 from float", kHkp + "src/engines/aot_catalog_engine/launch/LaunchAbi.cpp",
       [&](const std::string& s) {
         return replaced(s, "static_cast<int32_t>(std::get<int64_t>(value))", "static_cast<int32_t>(std::get<float>(value))");
       },
       "catalog-bindings", "", 4},
  };
  std::printf("[aot-catalog] %-42s %-17s %8s %6s\n", "mutation", "contract", "expected", "caught");
  for (const Mutation& m : table) {
    repo.git("checkout -q -f " + repo.untouched);
    std::string source = m.edit(repo.read(m.file));
    ASSERT_FALSE(source.empty()) << m.label << ": the mutation does not apply to " << m.file;
    repo.write(m.file, source);
    std::string head = repo.commit("mutation: " + m.label);
    RunResult r = impact("report --repo " + shellQuote(repo.dir()) + " --base " + repo.untouched + " --head " + head);
    EXPECT_NE(r.out.find("Runtime impact: BREAKS"), std::string::npos) << m.label << ": the report must say BREAKS\n"
                                                                        << r.out << r.err;
    size_t caught = 0;
    for (const auto& row : parseRows(r.out))
      if (row.contract == m.contract && row.status == "mismatch" && row.copy.rfind(m.copyPrefix, 0) == 0) ++caught;
    std::printf("[aot-catalog] %-42s %-17s %8zu %6zu\n", m.label.c_str(), m.contract.c_str(), m.expected, caught);
    EXPECT_EQ(caught, m.expected) << m.label << "\n" << r.out;
  }
}

}  // namespace
}  // namespace impact::testing
