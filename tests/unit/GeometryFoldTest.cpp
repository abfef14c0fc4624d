// The geometry differential's judgement (core/emit/Geometry.h), a pure function: per variant and
// axis; a disagreement or a throw is a mismatch, agreement folds a changed row to inert, and
// anything not evaluated leaves it changed, saying why.
#include <gtest/gtest.h>

#include "analysis/Analysis.h"
#include "emit/Geometry.h"
#include "emit/TreeKey.h"

namespace impact::emit {
namespace {

GeometrySide side(std::vector<int64_t> grid, std::vector<int64_t> block) { return {true, grid, block, ""}; }

GeometryFamily family() {
  GeometryFamily f;
  f.manifest = "configs/x.profile.yaml";
  f.module = "lib/kernels/x.py";
  f.gridFunction = "x_grid";
  f.blockFunction = "x_block";
  f.header = "packs/XGeometry.hpp";
  f.headerFunction = "xGeometry";
  f.pack = "packs/XNative.cpp";
  f.inputs = {f.manifest, f.module, f.header, f.pack};
  f.plan = {"blockM <- metadata block_m"};
  f.variants.push_back({"a", side({2, 8, 1}, {512, 1, 1}), side({2, 8, 1}, {512, 1, 1}), ""});
  f.variants.push_back({"b", side({4, 8, 2}, {256, 1, 1}), side({4, 8, 2}, {256, 1, 1}), ""});
  return f;
}

Row row(const std::string& name) {
  Row r;
  r.contract = "launch-surface:" + name;
  r.status = Status::Changed;
  r.python = Location{"lib/kernels/x.py", 1, "x_" + name, {}, {}};
  r.mirror = Location{"packs/XGeometry.hpp", 1, "xGeometry", {}, {}};
  r.message = "python side changed: x_" + name + " changed";
  return r;
}

TEST(GeometryFold, AgreementFoldsTheChangedRowsToInert) {
  GeometryDocument doc;
  doc.families.push_back(family());
  std::vector<Row> rows = {row("grid"), row("block")};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(out.folded, 2u);
  EXPECT_EQ(rows[0].status, Status::Inert);
  EXPECT_NE(rows[0].message.find("agree on every axis for all 2 shipped variants"), std::string::npos) << rows[0].message;
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_NE(out.notes[0].find("grid agrees on all 2 shipped variants"), std::string::npos) << out.notes[0];
}

TEST(GeometryFold, ADisagreementNamesTheAxesTheCountAndBothValues) {
  GeometryDocument doc;
  doc.families.push_back(family());
  doc.families[0].variants[1].cpp.grid = {8, 4, 2};
  std::vector<Row> rows = {row("grid"), row("block")};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(out.mismatches, 1u);
  EXPECT_EQ(rows[0].status, Status::Mismatch);
  EXPECT_NE(rows[0].message.find("grid axis x, y differs on 1 shipped variant of 2 (b: Python (4, 8, 2), C++ (8, 4, 2))"),
            std::string::npos) << rows[0].message;
  EXPECT_NE(rows[0].message.find("arguments: blockM <- metadata block_m"), std::string::npos);
  EXPECT_EQ(rows[1].status, Status::Inert);
}

TEST(GeometryFold, AThrowOnAShippedVariantIsAMismatchAndARowIsAddedWhenNoneWasMade) {
  GeometryDocument doc;
  doc.families.push_back(family());
  doc.families[0].variants[0].cpp = {false, {}, {}, "kernel 'a' declares a non-positive block_m"};
  std::vector<Row> rows;
  auto out = foldGeometry(rows, doc, {});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, Status::Mismatch);
  EXPECT_TRUE(rows[0].preexisting);  // none of its inputs changed
  EXPECT_NE(rows[0].message.find("xGeometry throws on 1 shipped variant (a: kernel 'a' declares a non-positive block_m)"),
            std::string::npos) << rows[0].message;
}

TEST(GeometryFold, NotCheckedLeavesTheRowChangedSayingWhy) {
  GeometryDocument doc;
  doc.families.push_back(family());
  doc.families[0].notChecked = "no C++ compiler";
  doc.families.push_back(family());
  doc.families[1].module = "lib/kernels/y.py";
  doc.families[1].variants[0].python = {false, {}, {}, "TypeError: spec: no field zzz in XSpec"};
  Row y = row("grid");
  y.python.path = "lib/kernels/y.py";
  std::vector<Row> rows = {row("grid"), y};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py", "lib/kernels/y.py"});
  EXPECT_EQ(rows[0].status, Status::Changed);
  EXPECT_NE(rows[0].message.find("geometry not checked: no C++ compiler"), std::string::npos);
  EXPECT_EQ(rows[1].status, Status::Changed);
  EXPECT_NE(rows[1].message.find("Python raised on 1 shipped variant (a: TypeError: spec: no field zzz in XSpec)"),
            std::string::npos) << rows[1].message;
  EXPECT_EQ(out.folded, 0u);
}

// A header function returning an empty optional for a shipped variant: when the pack's launch has
// another path (the conv pack's direct family, through directLaunchGeometry), that variant is not
// compared and the row says so; when it has none, prepare() cannot serve it: a mismatch.
TEST(GeometryFold, ADeclinedVariantIsNotComparedWhenTheLaunchHasAnotherPathAndAMismatchWhenNot) {
  GeometryDocument doc;
  doc.families.push_back(family());
  GeometrySide declined{false, {}, {}, "returns no value (an empty optional)", true};
  doc.families[0].variants[1].cpp = declined;
  doc.families[0].otherPaths = {"`conv::directLaunchGeometry(...)` in directLaunch"};
  std::vector<Row> rows = {row("grid"), row("block")};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(out.mismatches, 0u);
  EXPECT_EQ(rows[0].status, Status::Changed);
  EXPECT_NE(rows[0].message.find("geometry not checked: xGeometry declines 1 shipped variant (b), which the pack may launch "
                                 "through `conv::directLaunchGeometry(...)` in directLaunch"),
            std::string::npos) << rows[0].message;

  doc.families[0].otherPaths.clear();
  rows = {row("grid"), row("block")};
  out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(rows[0].status, Status::Mismatch);
  EXPECT_NE(rows[0].message.find("xGeometry throws on 1 shipped variant (b: returns no value (an empty optional))"),
            std::string::npos) << rows[0].message;
}

// UBSan reporting undefined behaviour while the header evaluates a shipped variant: a mismatch
// naming the first report, however the values compare; a variant the runtime stopped on (no
// values) is not compared but still counted; the grid/block values of the others still are.
TEST(GeometryFold, UndefinedBehaviourOnAShippedVariantIsAMismatchAndTheValuesAreStillCompared) {
  GeometryDocument doc;
  doc.families.push_back(family());
  doc.families[0].variants[1].cpp.ub = "packs/XGeometry.hpp:12:30: runtime error: signed integer overflow";
  std::vector<Row> rows = {row("grid"), row("block")};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(out.mismatches, 2u);
  EXPECT_EQ(rows[0].status, Status::Mismatch);
  EXPECT_NE(rows[0].message.find("geometry: xGeometry has undefined behaviour on 1 shipped variant (first: b: "
                                 "packs/XGeometry.hpp:12:30: runtime error: signed integer overflow): the values it "
                                 "returned cannot be trusted; arguments: blockM <- metadata block_m"),
            std::string::npos) << rows[0].message;
  EXPECT_EQ(rows[0].message.find("differs"), std::string::npos) << rows[0].message;

  doc.families[0].variants[0].cpp = GeometrySide{};
  doc.families[0].variants[0].cpp.ub = "packs/XGeometry.hpp:20:5: runtime error: execution reached an unreachable program point";
  doc.families[0].variants[1].cpp.grid = {5, 8, 2};
  rows = {row("grid"), row("block")};
  foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_NE(rows[0].message.find("grid axis x differs on 1 shipped variant of 2 (b: Python (4, 8, 2), C++ (5, 8, 2))"),
            std::string::npos) << rows[0].message;
  EXPECT_NE(rows[0].message.find("xGeometry has undefined behaviour on 2 shipped variants (first: a: packs/XGeometry.hpp:20:5"),
            std::string::npos) << rows[0].message;
  EXPECT_EQ(rows[0].message.find("throws"), std::string::npos) << rows[0].message;
  EXPECT_TRUE(geometryDisagrees(doc.families[0]));
}

TEST(GeometryFold, AHarnessBuiltWithoutUbsanSaysWhyInTheNote) {
  GeometryDocument doc;
  doc.families.push_back(family());
  doc.families[0].noUbsan = "/usr/bin/ld: cannot find -lubsan: No such file or directory";
  std::vector<Row> rows = {row("grid"), row("block")};
  auto out = foldGeometry(rows, doc, {"lib/kernels/x.py"});
  EXPECT_EQ(rows[0].status, Status::Inert);
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_NE(out.notes[0].find("block agrees on all 2 shipped variants; UBSan not available: /usr/bin/ld: cannot find -lubsan"),
            std::string::npos) << out.notes[0];
}

}  // namespace
}  // namespace impact::emit

// The one function that applies a document to a head (impact report --geometry, the language
// server): refused, rows untouched, unless the document was made for that head.
namespace impact {
namespace {

TEST(ApplyGeometry, ADocumentForAnotherHeadIsRefusedAndTheRowsStay) {
  Snapshot base, head;
  base.overlay("lib/kernels/x.py", "def x_grid(s): return (1, 1, 1)\n");
  head.overlay("lib/kernels/x.py", "def x_grid(s): return (1, 1, 1)  # refactored\n");
  emit::GeometryDocument doc;
  doc.families.push_back(emit::family());
  doc.headTree = "worktree:another";
  std::vector<Row> rows = {emit::row("grid")};
  auto out = applyGeometry(rows, doc, base, head, emit::treeKey(head));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("for another head (worktree:another)"), std::string::npos) << out.status();
  EXPECT_EQ(rows[0].status, Status::Changed);
}

TEST(ApplyGeometry, ADocumentForThisHeadIsFoldedWithItsNotes) {
  Snapshot base, head;
  base.overlay("lib/kernels/x.py", "def x_grid(s): return (1, 1, 1)\n");
  head.overlay("lib/kernels/x.py", "def x_grid(s): return (1, 1, 1)  # refactored\n");
  emit::GeometryDocument doc;
  doc.families.push_back(emit::family());
  doc.headTree = emit::treeKey(head);
  std::vector<Row> rows = {emit::row("grid"), emit::row("block")};
  auto out = applyGeometry(rows, doc, base, head, emit::treeKey(head));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(rows[0].status, Status::Inert);
  EXPECT_EQ(rows[1].status, Status::Inert);
  ASSERT_EQ(out->size(), 1u);
  EXPECT_NE((*out)[0].find("grid agrees on all 2 shipped variants"), std::string::npos) << (*out)[0];
}

}  // namespace
}  // namespace impact
