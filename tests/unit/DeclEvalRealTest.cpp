// The builder evaluator on the real gfx950 tiled builder (../shared/real-data, read at test
// time): its 18 declarations moved into a module-level helper read as the same list, and a break
// made inside that helper is seen (issue 26: a rewrite alone changes nothing; the same mutation
// still breaks).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

constexpr const char* kTiled = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_tiled_2d.py";
constexpr const char* kEntry = "build_unified_attention_2d_tiled";
constexpr const char* kFirst = "    output = b.param(\n";
constexpr const char* kLast = "    qq_bias_stride0_p = b.param(\"qq_bias_stride_0\", I32)\n";
constexpr const char* kVars =
    "output, query, key, value, sinks, block_tables, seq_lens, alibi_slopes_ptr, qq_bias_ptr, cu_q, scale_p, "
    "k_scale_p, v_scale_p, _out_scale, softcap_p, num_seqs_p, bt_stride_p, qq_bias_stride0_p";

std::string readReal() {
  std::ifstream in(testing::realCorpusDir() + "/" + kTiled);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> sig(const FileFacts& f) {
  for (const PyBuilder& b : f.builders)
    if (b.name == kEntry && !b.abis.empty()) {
      std::vector<std::string> out;
      for (const KernelArg& a : b.abis[0].args)
        out.push_back(a.name + ":" + a.kind + "/" + std::to_string(a.size) + ":" + a.typeClass +
                      (a.conditional ? " if " + a.condition : "") + (a.resolved ? "" : " UNRESOLVED"));
      return out;
    }
  return {"<no builder>"};
}

// The declarations moved into `_declare_params(b, dtype, kv_io_dtype)`, `extra` added at its end.
std::string movedToHelper(std::string src, const std::string& extra = "") {
  size_t from = src.find(kFirst), to = src.find(kLast);
  if (from == std::string::npos || to == std::string::npos) return "";
  to += std::string(kLast).size();
  std::string block = src.substr(from, to - from);
  src.replace(from, to - from, "    " + std::string(kVars) + " = _declare_params(b, dtype, kv_io_dtype)\n");
  std::string helper = "def _declare_params(b, dtype, kv_io_dtype):\n" + block + extra + "    return " + kVars + "\n\n\n";
  size_t def = src.find(std::string("def ") + kEntry + "(");
  src.insert(def, helper);
  return src;
}

TEST(DeclEvalReal, TiledDeclarationsMovedIntoAHelperReadTheSame) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::string real = readReal();
  auto original = sig(extractFile(kTiled, real));
  ASSERT_EQ(original.size(), 18u) << original[0];
  std::string rewritten = movedToHelper(real);
  ASSERT_FALSE(rewritten.empty()) << "the real builder's declarations are no longer where this test expects them";
  EXPECT_EQ(sig(extractFile(kTiled, rewritten)), original);
}

TEST(DeclEvalReal, ABreakInsideTheHelperIsSeen) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::string real = readReal();
  auto original = sig(extractFile(kTiled, real));
  auto mutated = sig(extractFile(kTiled, movedToHelper(real, "    b.param(\"impactd_mut\", I32)\n")));
  ASSERT_EQ(mutated.size(), original.size() + 1);
  EXPECT_EQ(mutated.back(), "impactd_mut:by_value/4:i32");
  // A scalar's type changed at equal size inside the helper.
  std::string swapped = movedToHelper(real);
  size_t at = swapped.find("b.param(\"num_seqs\", I32)");
  ASSERT_NE(at, std::string::npos);
  swapped.replace(at, std::string("b.param(\"num_seqs\", I32)").size(), "b.param(\"num_seqs\", F32)");
  auto typed = sig(extractFile(kTiled, swapped));
  ASSERT_EQ(typed.size(), original.size());
  EXPECT_NE(typed, original);
}

}  // namespace
}  // namespace impact
