// A builder whose arguments go on in a helper of another module of the tree is read through it
// (core/analysis/CrossModule, issue 26); a helper not in the tree stays an open end, named.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis/CrossModule.h"
#include "extract/Extract.h"

namespace impact {
namespace {

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kBuilder = kLib + "kernels/gfx950/conv.py";
const std::string kHelper = kLib + "kernels/common/_conv_params.py";

const char* kBuilderSrc = R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, BF16
from kernels.common._conv_params import emit_problem_params

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("B", PtrType(BF16, "global"))
    problem = emit_problem_params(b, ("N", "C", "H"))
    return b.finish()
)PY";

const char* kHelperSrc = R"PY(
from rocke.core.ir import I32

def emit_problem_params(b, names):
    out = {}
    for n in names:
        out[n] = b.param(f"p_{n}", I32)
    return out
)PY";

std::vector<std::string> names(const TreeFacts& t) {
  std::vector<std::string> out;
  for (const PyBuilder& b : t.find(kBuilder)->builders)
    if (b.name == "build_conv")
      for (const KernelArg& a : b.abis.at(0).args) out.push_back(a.name + (a.resolved ? "" : "?"));
  return out;
}

TEST(CrossModule, AHelperOfAnotherModuleInTheTreeIsFollowed) {
  std::map<std::string, std::string> files{{kBuilder, kBuilderSrc}, {kHelper, kHelperSrc}};
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  const PyAbi& before = t.find(kBuilder)->builders.at(0).abis.at(0);
  ASSERT_EQ(before.tailHelper, "emit_problem_params");  // per file: the list is open there
  followModules(t, [&](const std::string& p) -> std::optional<std::string> {
    auto it = files.find(p);
    if (it == files.end()) return std::nullopt;
    return it->second;
  });
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B", "p_N", "p_C", "p_H"}));
  EXPECT_TRUE(t.find(kBuilder)->builders.at(0).abis.at(0).tailHelper.empty());
  // The helper's declarations sit at the builder's call of it.
  ASSERT_EQ(before.args.size(), 2u);
  EXPECT_EQ(t.find(kBuilder)->builders.at(0).abis.at(0).args[2].range.line, before.args[1].range.line + 1);
  // A changed helper is followed again from the file as extracted.
  files[kHelper] = std::string(kHelperSrc).replace(std::string(kHelperSrc).find("I32)"), 4, "I32)\n    b.param(\"extra\", I32)");
  followModules(t, [&](const std::string& p) -> std::optional<std::string> {
    auto it = files.find(p);
    if (it == files.end()) return std::nullopt;
    return it->second;
  });
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B", "p_N", "p_C", "p_H", "extra"}));
}

TEST(CrossModule, AHelperNotInTheTreeStaysAnOpenEnd) {
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  followModules(t, [&](const std::string& p) -> std::optional<std::string> {
    if (p == kBuilder) return std::string(kBuilderSrc);
    return std::nullopt;
  });
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(t.find(kBuilder)->builders.at(0).abis.at(0).tailModule, "kernels/common/_conv_params.py");
}

}  // namespace
}  // namespace impact
