// The fold (core/emit/Fold) as a pure function: rows and a document in, rows out.
#include <gtest/gtest.h>

#include "emit/EmitDocument.h"
#include "emit/Fold.h"

namespace impact::emit {
namespace {

const std::string kMod = "lib/kernels/gfx950/x.py";
const std::string kHelper = "lib/kernels/common/tiles.py";

KernelRecord kernel(const std::string& ir, const std::string& opt = "-O3", uint32_t alphaSize = 4) {
  return {"k", {{"x_ptr", "global_buffer", "ptr<bf16,global>", 8}, {"alpha", "by_value", "f32", alphaSize}}, ir,
          nlohmann::json{{"isa", "amdgcn-amd-amdhsa--gfx950"}, {"options", {opt}}, {"fresh_process", "False"}}};
}

EmitDocument docWith(KernelRecord base, KernelRecord head) {
  EmitDocument d;
  Family f;
  f.source = "kernels/gfx950/x.py";
  f.path = kMod;
  f.builder = "build_x";
  f.base = {"ok", "", true, {kMod, kHelper}};
  f.head = {"ok", "", true, {kMod, kHelper}};
  Variant v;
  v.name = "x_1";
  v.arch = "gfx950";
  v.base = {true, nlohmann::json::object(), "", {base}};
  v.head = {true, nlohmann::json::object(), "", {head}};
  f.variants.push_back(v);
  d.families.push_back(f);
  return d;
}

Row changedRow(const std::string& path) {
  Row r;
  r.contract = "kernel-code";
  r.status = Status::Changed;
  r.python.path = path;
  r.archs = {"gfx950"};
  return r;
}

FoldContext changed(std::set<std::string> paths) {
  FoldContext c;
  c.changedPaths = std::move(paths);
  return c;
}

TEST(EmitFoldUnit, EqualFamilyFoldsEveryModuleItImports) {
  std::vector<Row> rows = {changedRow(kMod), changedRow(kHelper), changedRow("lib/kernels/other.py")};
  auto out = foldRows(rows, docWith(kernel("aa"), kernel("aa")), changed({kMod, kHelper}));
  EXPECT_EQ(out.folded, 2u);
  EXPECT_EQ(rows[0].status, Status::Inert);
  EXPECT_NE(rows[0].message.find("equal for all 1 shipped variant of 1 family"), std::string::npos) << rows[0].message;
  EXPECT_EQ(rows[1].status, Status::Inert);
  EXPECT_EQ(rows[2].status, Status::Changed);  // no built family imports it
}

TEST(EmitFoldUnit, DifferentIrOptionsOrArgumentsKeepTheRowChanged) {
  for (auto [base, head, why] : std::vector<std::tuple<KernelRecord, KernelRecord, std::string>>{
           {kernel("aa"), kernel("bb"), "IR differs"},
           {kernel("aa"), kernel("aa", "-O2"), "compile inputs differ"},
           {kernel("aa"), kernel("aa", "-O3", 2), "arguments differ"}}) {
    std::vector<Row> rows = {changedRow(kMod)};
    auto out = foldRows(rows, docWith(base, head), changed({kMod}));
    EXPECT_EQ(rows[0].status, Status::Changed) << why;
    bool said = false;
    for (const auto& n : out.notes) said = said || n.find(why) != std::string::npos;
    EXPECT_TRUE(said) << why;
  }
}

TEST(EmitFoldUnit, TimedOutFailedOrOneSidedFamiliesNeverFold) {
  auto timedOut = docWith(kernel("aa"), kernel("aa"));
  timedOut.families[0].head.status = "timed_out";
  auto failed = docWith(kernel("aa"), kernel("aa"));
  failed.failures.push_back({"kernels/gfx950/x.py:build_x", "two variants named x_1"});
  auto oneSided = docWith(kernel("aa"), kernel("aa"));
  oneSided.families[0].variants[0].base.present = false;
  for (const EmitDocument* d : {&timedOut, &failed, &oneSided}) {
    std::vector<Row> rows = {changedRow(kMod)};
    foldRows(rows, *d, changed({kMod}));
    EXPECT_EQ(rows[0].status, Status::Changed);
  }
}

TEST(EmitFoldUnit, CodeAfterLoweringDvcPointersAndChangedCopiesNeverFold) {
  const std::string compile = "p/rocke/helpers/compile.py", runtime = "p/rocke/runtime/comgr.py";
  auto d = docWith(kernel("aa"), kernel("aa"));
  d.families[0].head.closure = {kMod, compile, runtime};
  std::vector<Row> rows = {changedRow(compile), changedRow(runtime)};
  foldRows(rows, d, changed({compile, runtime}));
  EXPECT_EQ(rows[0].status, Status::Changed);
  EXPECT_EQ(rows[1].status, Status::Changed);

  rows = {changedRow(kMod)};
  auto out = foldRows(rows, d, changed({kMod, "lib/aot_catalog/family.json.dvc"}));
  EXPECT_EQ(rows[0].status, Status::Changed);
  EXPECT_EQ(out.folded, 0u);

  Row pair = changedRow(kMod);
  pair.contract = "kernargs";
  pair.mirror.path = "src/packs/XNative.cpp";
  rows = {pair};
  foldRows(rows, d, changed({kMod, "src/packs/XNative.cpp"}));
  EXPECT_EQ(rows[0].status, Status::Changed);
}

TEST(EmitFoldUnit, MergedRowsFoldOnlyWhenTheGuardHolds) {
  auto d = docWith(kernel("aa"), kernel("aa"));
  Row merged = changedRow(kMod);
  merged.view = "merged";
  std::vector<Row> rows = {merged};
  FoldContext c = changed({kMod});
  c.mergedGuardWhy = "the target tip changed x since the base";
  foldRows(rows, d, c);
  EXPECT_EQ(rows[0].status, Status::Changed);
  rows = {merged};
  c.mergedGuard = true;
  c.mergedGuardWhy.clear();
  foldRows(rows, d, c);
  EXPECT_EQ(rows[0].status, Status::Inert);
}

TEST(EmitFoldUnit, ACopyAgreeingWithNoEmittedKernelOfAChangedFamilyIsAMismatch) {
  auto d = docWith(kernel("aa"), kernel("bb", "-O3", 2));
  Row pair;
  pair.contract = "kernargs";
  pair.status = Status::Changed;
  pair.python = {kMod, 10, "build_x", {}, {}};
  pair.mirror.path = "src/packs/XNative.cpp";
  pair.key = "kernargs|copy";
  FoldContext c = changed({kMod});
  c.copyArgs["kernargs|copy"] = {{"x_ptr", "global_buffer", "", 8}, {"alpha", "by_value", "", 4}};
  std::vector<Row> rows = {pair};
  auto out = foldRows(rows, d, c);
  EXPECT_EQ(rows[0].status, Status::Mismatch);
  EXPECT_EQ(out.mismatches, 1u);
  // A copy that states the new size agrees: no mismatch (it stays changed: the family differs).
  c.copyArgs["kernargs|copy"][1].size = 2;
  rows = {pair};
  foldRows(rows, d, c);
  EXPECT_EQ(rows[0].status, Status::Changed);
}

TEST(EmitDocumentUnit, RoundTripsAndRefusesOtherSchemas) {
  auto d = docWith(kernel("aa"), kernel("bb"));
  d.baseTree = "t1";
  d.headTree = "worktree:abc";
  d.flavor = "llvm22";
  auto back = parseEmitDocument(renderEmitDocument(d));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->headTree, "worktree:abc");
  EXPECT_EQ(back->families[0].variants[0].head.kernels[0], d.families[0].variants[0].head.kernels[0]);
  auto j = toJson(d);
  j["schema"]["name"] = "impact-emit-py";
  auto other = parseEmitDocument(j.dump());
  ASSERT_FALSE(other.ok());
  EXPECT_NE(std::string(other.status().message()).find("this impact reads impactd-emit version 2"), std::string::npos);
}

// An AOT catalog family (issue 39) the emitter could not run is a row saying so, never silence;
// a family only descriptors ship keeps its failure in the fold's notes, as before.
TEST(EmitFoldUnit, AnAotFamilyThatDidNotRunIsARowNamingWhy) {
  EmitDocument d = docWith(kernel("aa"), kernel("aa"));
  d.families[0].producers = {"aot/gfx1151/x/produce_x_co.py"};
  d.families[0].head = {"failed", "ModuleNotFoundError: No module named 'rocke.helpers.io'", true, {kMod}};
  std::vector<Row> rows = {changedRow(kMod)};
  foldRows(rows, d, changed({kMod}));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, Status::Changed);  // a family that failed proves nothing
  EXPECT_EQ(rows[1].contract, "emit");
  EXPECT_EQ(rows[1].status, Status::Outside);
  EXPECT_EQ(rows[1].python.path, kMod);
  EXPECT_EQ(rows[1].python.symbol, "build_x");
  EXPECT_EQ(rows[1].message,
            "emitter: AOT catalog kernels of aot/gfx1151/x/produce_x_co.py: not run at the head: ModuleNotFoundError: "
            "No module named 'rocke.helpers.io'");
  // One kernel the reading could not build again: counted, the first named.
  EmitDocument one = docWith(kernel("aa"), kernel("aa"));
  one.families[0].producers = {"aot/gfx1151/x/produce_x_co.py"};
  one.families[0].variants[0].head.error = "not run: the spec field eps is not known to the reading: a float";
  one.families[0].variants[0].head.kernels.clear();
  rows = {changedRow(kMod)};
  foldRows(rows, one, changed({kMod}));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_NE(rows[1].message.find("1 of 2 kernel builds did not run (x_1 at the head: not run: the spec field eps"),
            std::string::npos)
      << rows[1].message;
  // Not an AOT family: no row.
  EmitDocument pack = docWith(kernel("aa"), kernel("aa"));
  pack.families[0].head = {"failed", "ImportError", true, {kMod}};
  rows = {changedRow(kMod)};
  foldRows(rows, pack, changed({kMod}));
  EXPECT_EQ(rows.size(), 1u);
}

}  // namespace
}  // namespace impact::emit
