// impact emit + impact report --emit on the rocKE fixture platform: which changed rows fold.
#include <gtest/gtest.h>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

TEST(EmitFold, IrPreservingRefactorFoldsToInertAndVerdictNone) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor build_scale");
  RunResult without = impact("report --repo " + shellQuote(repo.dir()) + " --base main --head feature");
  ASSERT_EQ(without.exitCode, 0) << without.err;
  EXPECT_EQ(lastLine(without.out), "Runtime impact: NEEDS-DEVICE gfx950") << without.out;
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  const auto* scale = repo.family(doc, "kernels/gfx950/scale.py");
  ASSERT_NE(scale, nullptr) << doc.dump(1);
  EXPECT_EQ((*scale)["head"]["status"], "ok");
  EXPECT_EQ(doc["flavor"], "llvm22");
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"inert", "kernel-code", E::kScale,
                               "emitter: arguments, IR and compile inputs equal for all 2 shipped variants"});
  EXPECT_EQ(rows.size(), 1u) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {"changed"}).empty()) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

TEST(EmitFold, IrChangingEditStaysChanged) {
  E repo;
  repo.replace(E::kScale, "        b.store(out, t * spec.block, value)\n",
               "        b.store(out, t * spec.block, b.op(\"fmax\", value, alpha))\n");
  repo.commit("clamp");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", E::kScale}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("kernels/gfx950/scale.py:build_scale variant scale_1024: IR differs"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST(EmitFold, CodeAfterLoweringNeverFolds) {
  E repo;
  // Same options, same launch behaviour: every family emits equal IR and compile inputs.
  repo.replace(std::string(E::kPlatform) + "helpers/compile.py", "    options = [\"-O3\"]", "    options = [\"-O\" + \"3\"]");
  repo.replace(std::string(E::kPlatform) + "runtime/launch.py", "raise RuntimeError(\"launch needs HIP\")",
               "raise RuntimeError(\"launch needs the HIP runtime\")");
  repo.commit("after lowering");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();  // a named document: ranging over a member of a temporary dangles (ASan)
  for (const auto& f : doc["families"]) EXPECT_EQ(f["head"]["status"], "ok") << f.dump();
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", "rocke/helpers/compile.py"}).size(), 1u) << r.out;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", "rocke/runtime/launch.py"}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("runs after lowering"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST(EmitFold, ChangedCompileOptionDoesNotFold) {
  E repo;
  repo.refactorScale();
  repo.replace(std::string(E::kPlatform) + "helpers/compile.py", "    options = [\"-O3\"]", "    options = [\"-O2\"]");
  repo.commit("refactor, and -O2");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", E::kScale}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("compile inputs differ"), std::string::npos) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE gfx950") << r.out;
}

TEST(EmitFold, ChangedDvcPointerDoesNotFold) {
  E repo;
  repo.refactorScale();
  repo.replace(std::string(E::kLib) + "aot_catalog/gfx950/catalog.json.dvc", "5d41402abc4b2a76b9719d911017c592",
               "7d793037a0760186574b0282f2f435e7");
  repo.commit("refactor, and a new catalog");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"changed", "kernel-code", E::kScale}).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("a DVC pointer changed (dnn-providers/hip-kernel-provider/rocke/library/aot_catalog/gfx950/catalog.json.dvc)"),
            std::string::npos) << r.out;
}

TEST(EmitFold, AutoRunsTheEmitterOnlyWhenShippedPythonChangedInCode) {
  E repo;
  repo.replace(E::kScale, "\"\"\"gfx950 elementwise scale: out[i] = x[i] * alpha.\"\"\"",
               "\"\"\"gfx950 elementwise scale: out[i] = x[i] * alpha (bf16 in, bf16 out).\"\"\"");
  repo.commit("docstring");
  std::string env = "IMPACT_CACHE_DIR=" + shellQuote(repo.cacheDir()) + " ";
  RunResult quiet = run(env + shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " report --repo " +
                        shellQuote(repo.dir()) + " --base main --head feature --emit auto");
  ASSERT_EQ(quiet.exitCode, 0) << quiet.err;
  EXPECT_NE(quiet.out.find("emitter not run: no Python file of the shipped closure changed in code"), std::string::npos)
      << quiet.out;
  repo.refactorScale();
  repo.commit("refactor");
  RunResult r = run(env + shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " report --repo " +
                    shellQuote(repo.dir()) + " --base main --head feature --emit auto");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernel-code", E::kScale, "emitter:"}).size(), 1u) << r.out;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NONE") << r.out;
}

}  // namespace
}  // namespace impact::testing
