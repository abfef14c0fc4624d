// The verdict (SPEC R3.3) and the NONE rule: a change that is inert everywhere is NONE, whatever
// was already wrong at the base; a pre-existing mismatch on a file changed in code still asks for
// a device run.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "extract/Extract.h"
#include "judge/Judge.h"
#include "model/Report.h"
#include "parse/Syntax.h"

namespace impact {
namespace {

Row preexisting(bool inertTouch, std::vector<std::string> archs = {}) {
  Row r;
  r.contract = "launch-surface:grid";
  r.status = Status::Mismatch;
  r.preexisting = true;
  r.inertTouch = inertTouch;
  r.archs = std::move(archs);
  return r;
}

Row inert() {
  Row r;
  r.status = Status::Inert;
  return r;
}

TEST(Rollup, PreexistingMismatchOnInertlyTouchedFilesIsNone) {
  EXPECT_EQ(rollUp({preexisting(true), inert()}).line(), "Runtime impact: NONE");
  EXPECT_EQ(rollUp({preexisting(true)}).line(), "Runtime impact: NONE");
}

TEST(Rollup, PreexistingMismatchOnFilesChangedInCodeNeedsADevice) {
  EXPECT_EQ(rollUp({preexisting(false, {"gfx950"}), inert()}).line(), "Runtime impact: NEEDS-DEVICE gfx950");
  EXPECT_EQ(rollUp({preexisting(true), preexisting(false)}).line(), "Runtime impact: NEEDS-DEVICE all-ingestor-archs");
}

struct Side {
  TreeFacts facts;
  std::map<std::string, FileRef> refs;
  explicit Side(const std::map<std::string, std::string>& files) {
    for (const auto& [p, c] : files) {
      facts.files[p] = std::make_shared<const FileFacts>(extractFile(p, c));
      refs[p] = FileRef{std::to_string(fnv1a(c)), nullptr};
    }
  }
  Revision rev() const {
    return Revision{facts, [this](const std::string& p) -> const FileRef* {
                      auto it = refs.find(p);
                      return it == refs.end() ? nullptr : &it->second;
                    }, nullptr};
  }
};

const std::string kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_x.profile.yaml";
const std::string kPack = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950XNative.cpp";

// A surface naming a module the tree does not hold: a mismatch at the base already.
std::string profile(const std::string& comment) {
  return "# " + comment + "\narch: gfx950\nlaunch_surface:\n  - name: spec_resolution\n"
         "    python_source: kernels/common/missing.py:resolve\n    cpp_mirror: " + kPack + ":prepare\n";
}

std::vector<Row> judged(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after) {
  Side b(before), h(after);
  return judge(b.rev(), h.rev(), Layout{});
}

const Row* preexistingRow(const std::vector<Row>& rows) {
  for (const auto& r : rows)
    if (r.status == Status::Mismatch && r.preexisting) return &r;
  return nullptr;
}

TEST(Rollup, JudgeMarksAPreexistingMismatchWhoseFilesChangedOnlyInComments) {
  const std::string cpp = "void prepare(int n) {\n  // validate\n  (void)n;\n}\n";
  std::map<std::string, std::string> before = {{kProfile, profile("v1")}, {kPack, cpp}};
  auto comments = before;
  comments[kProfile] = profile("v2: reworded");
  comments[kPack] = "void prepare(int n) {\n  // validate the extent\n  (void)n;\n}\n";
  std::vector<Row> rows = judged(before, comments);
  const Row* r = preexistingRow(rows);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->inertTouch);
  EXPECT_EQ(rollUp(rows).verdict, "NONE");

  auto code = before;
  code[kPack] = "void prepare(int n) {\n  // validate\n  (void)(n + 1);\n}\n";
  rows = judged(before, code);
  r = preexistingRow(rows);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->inertTouch);
  EXPECT_EQ(rollUp(rows).verdict, "NEEDS-DEVICE");
}

}  // namespace
}  // namespace impact
