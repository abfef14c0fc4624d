// Pack-time predicate tables (SPEC R5) through impact emit and impact report --emit.
#include <gtest/gtest.h>

#include "support/EmitFixture.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using E = EmitFixture;

// A module with two predicates: supports_norm lets a non-positive rows through, the fused one does not.
const char* kNorm = R"PY("""gfx950 row norm, plain and fused."""
from dataclasses import dataclass
from typing import Tuple

from rocke.core.ir import BF16, I32, IRBuilder, KernelDef, PtrType


@dataclass(frozen=True)
class NormSpec:
    rows: int
    cols: int = 256


def supports_norm(spec: NormSpec, *, arch: str = "gfx950") -> Tuple[bool, str]:
    if spec.cols > 4096:
        return False, "cols too large"
    return True, ""


def supports_norm_fused(spec: NormSpec, *, arch: str = "gfx950") -> Tuple[bool, str]:
    if spec.rows <= 0:
        return False, "rows must be positive"
    return True, ""


def build_norm(spec: NormSpec, *, arch: str = "gfx950") -> KernelDef:
    b = IRBuilder(f"norm_c{spec.cols}")
    x = b.param("x_ptr", PtrType(BF16, "global"))
    b.param("rows", I32)
    b.store(x, 0, b.load(x, 0))
    return b.build()
)PY";

const char* kNormUkd = R"({"kind": "rocke", "source": "kernels/gfx950/norm.py", "builder": "build_norm", "spec": {"rows": 64}})";

std::string lineBefore(const std::string& out, const std::string& last) {
  auto at = out.rfind("\n" + last);
  if (at == std::string::npos) return "";
  auto start = out.rfind('\n', at - 1);
  return out.substr(start == std::string::npos ? 0 : start + 1, at - (start == std::string::npos ? 0 : start + 1));
}

TEST(EmitPackTime, PreExistingFindingsReadClean) {
  E repo;
  repo.refactorScale();
  repo.commit("refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // build_scale divides by block: block=0 passes supports_scale and raises, at both revisions.
  EXPECT_NE(r.out.find("note: pack-time pre-existing: kernels/gfx950/scale.py:build_scale: supports_scale accepts "
                       "block=0 and the builder raises: ZeroDivisionError"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(lineBefore(r.out, "Runtime impact: NONE"), "Pack-time: CLEAN") << r.out;
}

TEST(EmitPackTime, NewBuilderFindingIsCountedAndChangesNoRow) {
  E repo;
  repo.replace(std::string(E::kLib) + "kernels/gfx950/softmax.py", "    b = IRBuilder(f\"softmax_r{spec.rows}_c{spec.cols}\")\n",
               "    if spec.rows > 128:\n        raise ValueError(\"rows above 128 need the persistent softmax\")\n"
               "    b = IRBuilder(f\"softmax_r{spec.rows}_c{spec.cols}\")\n");
  repo.commit("softmax refuses tall inputs");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  bool found = false;
  for (const auto& f : doc["pack_time"]["findings"])
    if (f["kind"] == "builder" && f["field"] == "rows" && f["value"] == 256) {
      found = true;
      EXPECT_EQ(f["status"], "new");
      EXPECT_EQ(f["family"], "kernels/gfx950/softmax.py:build_softmax");
    }
  EXPECT_TRUE(found) << doc["pack_time"].dump(1);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("note: pack-time new: kernels/gfx950/softmax.py:build_softmax: supports_softmax accepts rows=256 "
                       "and the builder raises: ValueError: rows above 128 need the persistent softmax"),
            std::string::npos)
      << r.out;
  // The shipped variants are built as before: the row folds; the finding does not change it.
  EXPECT_EQ(rowsWith(r.out, {"inert", "kernel-code", "kernels/gfx950/softmax.py", "emitter:"}).size(), 1u) << r.out;
  EXPECT_EQ(lineBefore(r.out, "Runtime impact: NONE"), "Pack-time: NEW 1, FIRST-SHIPPED 0") << r.out;
}

TEST(EmitPackTime, SignFindingOfANewlyShippedFamilyIsFirstShipped) {
  E repo;
  repo.write(std::string(E::kLib) + "kernels/gfx950/norm.py", kNorm);
  repo.addUkd("norm_64", kNormUkd);
  repo.commit("ship norm");
  ASSERT_EQ(repo.emit().exitCode, 0);
  auto doc = repo.doc();
  ASSERT_EQ(doc["pack_time"]["first_shipped"], 1) << doc["pack_time"].dump(1);
  size_t signs = 0;
  for (const auto& f : doc["pack_time"]["findings"])
    if (f["kind"] == "sign") {
      ++signs;
      EXPECT_EQ(f["status"], "first-shipped");
      EXPECT_EQ(f["family"], "kernels/gfx950/norm.py:build_norm");
    }
  EXPECT_EQ(signs, 1u) << doc["pack_time"].dump(1);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("pack-time first-shipped: kernels/gfx950/norm.py:build_norm: supports_norm accepts the "
                       "non-positive rows=0 that supports_norm_fused refuses (sign finding)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Pack-time: NEW 0, FIRST-SHIPPED 1\nRuntime impact:"), std::string::npos) << r.out;
}

TEST(EmitPackTime, SignFindingTheBaseHadIsPreExisting) {
  E repo;
  repo.git("checkout -q main");
  repo.write(std::string(E::kLib) + "kernels/gfx950/norm.py", kNorm);
  repo.addUkd("norm_64", kNormUkd);
  repo.commit("ship norm");
  repo.git("checkout -q -B feature");
  repo.replace(std::string(E::kLib) + "kernels/gfx950/norm.py", "    b.store(x, 0, b.load(x, 0))\n",
               "    v = b.load(x, 0)\n    b.store(x, 0, v)\n");
  repo.commit("norm refactor");
  ASSERT_EQ(repo.emit().exitCode, 0);
  RunResult r = repo.report();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("pack-time pre-existing: kernels/gfx950/norm.py:build_norm: supports_norm accepts the non-positive rows=0"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(lineBefore(r.out, "Runtime impact: NONE"), "Pack-time: CLEAN") << r.out;
}

TEST(EmitPackTime, AProbeThatNeverReturnsCostsOnlyItsTables) {
  E repo;
  // Shipped specs build; a varied one (n=2048, twice the shipped n) hangs the builder.
  repo.replace(E::kScale, "    b = IRBuilder(f\"scale_n{spec.n}_b{spec.block}\")\n",
               "    while spec.n == 2048:\n        pass\n    b = IRBuilder(f\"scale_n{spec.n}_b{spec.block}\")\n");
  repo.commit("a builder that hangs on one spec");
  RunResult e = repo.emit("--family-timeout 8");
  ASSERT_EQ(e.exitCode, 0) << e.err;
  auto doc = repo.doc();
  const auto* scale = repo.family(doc, "kernels/gfx950/scale.py");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ((*scale)["head"]["status"], "ok") << scale->dump(1);
  EXPECT_EQ(doc["pack_time"]["timed_out"], nlohmann::json::array({"kernels/gfx950/scale.py:build_scale"}))
      << doc["pack_time"].dump(1);
}

}  // namespace
}  // namespace impact::testing
