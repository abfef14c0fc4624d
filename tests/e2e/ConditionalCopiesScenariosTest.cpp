// `impact report` on a builder module in the newest real gfx950 dense form, whose SignatureBuilder
// restatement is conditional too (SPEC R2.2; issue 16 form 6): compared per assignment of the
// guards. The fixture repository is laid out like the monorepo.
#include <gtest/gtest.h>

#include "support/FixtureRepo.h"
#include "support/Gfx950DenseNewest.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

class DenseRepo : public FixtureRepo {
 public:
  DenseRepo() {
    write(kGfx950DenseNewestPath, kGfx950DenseNewest);
    commit("gfx950 dense attention");
    git("checkout -q -b feature");
  }
  void edit(const std::string& from, const std::string& to) { replace(kGfx950DenseNewestPath, from, to); }
  std::vector<std::string> sigRows(const RunResult& r, const char* status) {
    int line = lineOf(kGfx950DenseNewestPath, "def attention_dense_signature");
    return rowsWith(r.out, {status, "kernargs", std::string(kGfx950DenseNewestPath) + ":" + std::to_string(line)});
  }
};

constexpr const char* kSeqlenKv = "    seqlen_kv_p = b.param(\"seqlen_kv\", I32)\n";
constexpr const char* kPagedEnd = "        bt_stride = b.param(\"block_table_stride\", I32)\n";
constexpr const char* kSigPagedEnd = "            .scalar(\"block_table_stride\", \"i32\")\n        )\n";

TEST(ConditionalCopiesScenarios, BodyOnlyEditOfTheNewestDenseFormHasNoMismatch) {
  DenseRepo repo;
  repo.edit("    qk_scale = b.fmul(scale, b.const_f32(LOG2E))\n    b.ret()\n    return b.kernel\n\n\ndef attention_dense_grid",
            "    qk_scale = b.fmul(scale, b.const_f32(LOG2E * 2.0))\n    b.ret()\n    return b.kernel\n\n\ndef attention_dense_grid");
  repo.commit("body only");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  auto rows = repo.sigRows(r, "changed");
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("agrees (14 arguments)"), std::string::npos) << rows[0];
  EXPECT_NE(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

TEST(ConditionalCopiesScenarios, NewUnconditionalArgumentTheConditionalCopyLacksBreaks) {
  DenseRepo repo;
  repo.edit(kSeqlenKv, std::string(kSeqlenKv) + "    kv_stride_p = b.param(\"kv_stride\", I32)\n");
  repo.commit("kv_stride");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = repo.sigRows(r, "mismatch");
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("copy leaves out the unconditional argument kv_stride under every assignment of its guards"),
            std::string::npos)
      << rows[0];
}

TEST(ConditionalCopiesScenarios, ReorderOfUnconditionalArgumentsTheOrderedCopyDoesNotFollowBreaks) {
  DenseRepo repo;
  repo.edit("    batch_p = b.param(\"batch\", I32)\n    seqlen_q_p = b.param(\"seqlen_q\", I32)\n",
            "    seqlen_q_p = b.param(\"seqlen_q\", I32)\n    batch_p = b.param(\"batch\", I32)\n");
  repo.commit("reorder");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  auto rows = repo.sigRows(r, "mismatch");
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("the arguments both sides declare under every guard"), std::string::npos) << rows[0];
}

TEST(ConditionalCopiesScenarios, ConditionalOnBothSidesUnderTheSameGuardAgrees) {
  DenseRepo repo;
  repo.edit(kPagedEnd, std::string(kPagedEnd) +
                           "    if spec.use_alibi:\n        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  repo.edit(kSigPagedEnd, std::string(kSigPagedEnd) + "    if spec.use_alibi:\n        sig = sig.ptr(\"alibi_slopes\", \"f32\")\n");
  repo.commit("alibi on both sides");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"mismatch"}).empty()) << r.out;
  auto rows = repo.sigRows(r, "changed");
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_NE(rows[0].find("agrees (15 arguments)"), std::string::npos) << rows[0];
}

// or / parentheses / in / a call read through (`_has_shape_params(spec)` is `not
// spec.persistent`): the same guard written two ways agrees; a narrower one is not settled.
TEST(ConditionalCopiesScenarios, GuardsWithOrParenthesesInAndCallsAreReadAsStructure) {
  DenseRepo repo;
  repo.edit(kPagedEnd, std::string(kPagedEnd) +
                           "    if (spec.use_alibi or spec.bias in (\"alibi\", \"slopes\")) and not spec.persistent:\n"
                           "        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  repo.edit(kSigPagedEnd, std::string(kSigPagedEnd) +
                              "    if _has_shape_params(spec) and (spec.bias in (\"slopes\", \"alibi\") or spec.use_alibi):\n"
                              "        sig = sig.ptr(\"alibi_slopes\", \"f32\")\n");
  repo.commit("alibi, one guard written two ways");
  RunResult same = report(repo);
  ASSERT_EQ(same.exitCode, 0) << same.err;
  auto rows = repo.sigRows(same, "changed");
  ASSERT_EQ(rows.size(), 1u) << same.out;
  EXPECT_NE(rows[0].find("agrees (15 arguments)"), std::string::npos) << rows[0];

  repo.edit("spec.bias in (\"slopes\", \"alibi\") or spec.use_alibi", "spec.bias in (\"slopes\",)");
  repo.commit("the copy's guard narrower");
  RunResult narrower = report(repo);
  ASSERT_EQ(narrower.exitCode, 0) << narrower.err;
  EXPECT_TRUE(rowsWith(narrower.out, {"mismatch"}).empty()) << narrower.out;
  rows = repo.sigRows(narrower, "changed");
  ASSERT_EQ(rows.size(), 1u) << narrower.out;
  EXPECT_NE(rows[0].find("copy and builder declare different conditional arguments when"), std::string::npos) << rows[0];
}

// A call that is not a one-return helper (a method of the spec) is opaque: the same call on both
// sides is the same guard; another call is not settled.
TEST(ConditionalCopiesScenarios, AnOpaqueCallIsTheSameGuardWhenItsTextIsTheSame) {
  DenseRepo repo;
  repo.edit(kPagedEnd, std::string(kPagedEnd) +
                           "    if spec.alibi_enabled(arch_tag=\"gfx950\"):\n"
                           "        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  repo.edit(kSigPagedEnd, std::string(kSigPagedEnd) + "    if spec.alibi_enabled(arch_tag=\"gfx950\"):\n"
                                                      "        sig = sig.ptr(\"alibi_slopes\", \"f32\")\n");
  repo.commit("alibi under one opaque call on both sides");
  RunResult same = report(repo);
  ASSERT_EQ(same.exitCode, 0) << same.err;
  EXPECT_TRUE(rowsWith(same.out, {"mismatch"}).empty()) << same.out;
  auto rows = repo.sigRows(same, "changed");
  ASSERT_EQ(rows.size(), 1u) << same.out;
  EXPECT_NE(rows[0].find("agrees (15 arguments)"), std::string::npos) << rows[0];

  repo.edit("    if spec.alibi_enabled(arch_tag=\"gfx950\"):\n        sig = ", "    if spec.alibi_wanted():\n        sig = ");
  repo.commit("the copy's guard another call");
  RunResult other = report(repo);
  ASSERT_EQ(other.exitCode, 0) << other.err;
  EXPECT_TRUE(rowsWith(other.out, {"mismatch"}).empty()) << other.out;
  rows = repo.sigRows(other, "changed");
  ASSERT_EQ(rows.size(), 1u) << other.out;
  EXPECT_NE(rows[0].find("copy and builder declare different conditional arguments when"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("spec.alibi_wanted()"), std::string::npos) << rows[0];
}

}  // namespace
}  // namespace impact::testing
