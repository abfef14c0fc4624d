// Name-keyed checks of a recipe's launch plan (issue 16 form 7): the extractor on the real
// rocKE SDPA recipe files (../shared/real-data/rocke-cpu, read at test time) and on fixtures
// written in the forms of the real monorepo; the order-free comparison with a builder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "extract/Extract.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

constexpr const char* kHkp = "dnn-providers/hip-kernel-provider/";
constexpr const char* kNative = "src/engines/kernel_ingestor_engine/packs/RockeSdpaNative.cpp";
constexpr const char* kStandalone =
    "src/integration_tests/kernel_ingestor_engine/fixtures/rocke_recipe/test_native_sdpa.cpp";
constexpr const char* kBuilder = "rocke/library/kernels/gfx950/attention_dense.py";

std::string realFile(const std::string& rel) {
  std::string shared = testing::sharedDir();
  if (shared.empty()) return "";
  std::ifstream in(shared + "/real-data/rocke-cpu/" + kHkp + rel);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

#define REQUIRE_ROCKE_CPU(text)                                                              \
  do {                                                                                       \
    if ((text).empty()) GTEST_SKIP() << "../shared/real-data/rocke-cpu is absent: real recipe files not checked"; \
  } while (0)

std::vector<const CppArgList*> nameKeyed(const FileFacts& f) {
  std::vector<const CppArgList*> out;
  for (const auto& l : f.lists)
    if (l.form == CppArgList::Form::NameKeyed) out.push_back(&l);
  return out;
}

// "name kind/size ROCKE_ARG_X[ required]" per accepted name.
std::vector<std::string> described(const CppArgList& l) {
  std::vector<std::string> out;
  for (const auto& a : l.args)
    out.push_back(a.name + " " + kindSize(a) + " " + (a.typeText.empty() ? "-" : a.typeText) +
                  (a.required ? " required" : ""));
  return out;
}

using V = std::vector<std::string>;

TEST(NameKeyedExtract, RealNativeHandlerLaunchChecksPointersByMapAndScaleByName) {
  std::string src = realFile(kNative);
  REQUIRE_ROCKE_CPU(src);
  FileFacts f = extractFile(std::string(kHkp) + kNative, src);
  ASSERT_TRUE(f.ok) << f.error;
  auto lists = nameKeyed(f);
  ASSERT_EQ(lists.size(), 1u);
  const CppArgList& l = *lists[0];
  EXPECT_EQ(l.symbol, "Handler::launch");
  // The pointer names are the keys of `pointers`, filled by `pointers.emplace(name, …)` in the
  // range-for over the four literals; scale is named in the else branch's check.
  EXPECT_EQ(described(l), (V{"q_ptr global_buffer/8 ROCKE_ARG_POINTER", "k_ptr global_buffer/8 ROCKE_ARG_POINTER",
                             "v_ptr global_buffer/8 ROCKE_ARG_POINTER", "o_ptr global_buffer/8 ROCKE_ARG_POINTER",
                             "scale by_value/4 ROCKE_ARG_F32"}));
  EXPECT_EQ(l.rejects.at("pointer"), "unknown SDPA pointer argument");
  EXPECT_EQ(l.rejects.at("scalar"), "unknown SDPA scalar argument");
  // Each name's range is the literal that states it.
  const auto& q = l.args[0].range;
  std::string line;
  std::istringstream in(src);
  for (uint32_t i = 0; i <= q.line; ++i) std::getline(in, line);
  EXPECT_EQ(line.substr(q.col, q.endCol - q.col), "\"q_ptr\"");
  // No launch call and no static list: the plan is the only restatement.
  EXPECT_EQ(f.lists.size(), 1u);
}

TEST(NameKeyedExtract, RealStandaloneTestIsASecondCopyWithItsOwnMapAndSizeofOfAParameter) {
  std::string src = realFile(kStandalone);
  REQUIRE_ROCKE_CPU(src);
  FileFacts f = extractFile(std::string(kHkp) + kStandalone, src);
  ASSERT_TRUE(f.ok) << f.error;
  auto lists = nameKeyed(f);
  ASSERT_EQ(lists.size(), 1u);
  const CppArgList& l = *lists[0];
  EXPECT_EQ(l.symbol, "Prepared::execute");
  // Pointer names: the keys of the namespace-scope `operand_uids` map; `sizeof(scale)` is the
  // size of execute's `float scale` parameter.
  EXPECT_EQ(described(l), (V{"q_ptr global_buffer/8 ROCKE_ARG_POINTER", "k_ptr global_buffer/8 ROCKE_ARG_POINTER",
                             "v_ptr global_buffer/8 ROCKE_ARG_POINTER", "o_ptr global_buffer/8 ROCKE_ARG_POINTER",
                             "scale by_value/4 ROCKE_ARG_F32"}));
  EXPECT_EQ(l.rejects.at("pointer"), "unbound pointer argument");
  EXPECT_EQ(l.rejects.at("scalar"), "unbound scalar argument");
}

// The name-first chain with a required-set check, written in the real file's idiom (its
// `check` helper, `rocke_launch_plan_arg`, `arg->kind`/`arg->size`, `std::memcpy` fills).
const char* kNameFirst = R"cpp(
namespace
{
void check(bool condition, const std::string& message)
{
    if(!condition)
        throw HipdnnPluginException(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, message);
}
class Handler : public IKernelDispatchHandler<Handle>
{
public:
    void launch(const Handle& handle, const PreparedDispatch& prepared,
                const hipdnnPluginDeviceBuffer_t* buffers, uint32_t numBuffers, void*) const override
    {
        const auto& state = dynamic_cast<const PreparedSdpa&>(prepared);
        const auto* plan = state.recipe.plan();
        size_t size = rocke_launch_plan_kernarg_size(plan);
        std::vector<unsigned char> args(size, 0);
        std::set<std::string> seen;
        for(int i = 0; i < rocke_launch_plan_num_args(plan); ++i)
        {
            const auto* arg = rocke_launch_plan_arg(plan, i);
            check(arg && arg->name && arg->offset <= size && arg->size <= size - arg->offset,
                  "invalid recipe argument layout");
            const std::string name = arg->name;
            if(name == "q_ptr" || name == "k_ptr" || name == "v_ptr" || name == "o_ptr")
                check(arg->kind == ROCKE_ARG_POINTER && arg->size == sizeof(void*),
                      "invalid SDPA pointer argument");
            else if(name == "scale")
                check(arg->kind == ROCKE_ARG_F32 && arg->size == sizeof(float),
                      "invalid SDPA scale argument");
            else
                check((name == "batch" || name == "seqlen_q" || name == "seqlen_kv")
                          && arg->kind == ROCKE_ARG_I32 && arg->size == sizeof(int32_t),
                      "unknown SDPA argument");
            seen.insert(name);
        }
        for(const char* required : {"q_ptr", "k_ptr", "v_ptr", "o_ptr", "scale"})
            check(seen.count(required) == 1, "missing SDPA argument");
        state.recipe.launch(extra, handle.getStream());
    }
};
} // namespace
)cpp";

TEST(NameKeyedExtract, NameFirstChainWithRequiredSet) {
  FileFacts f = extractFile(std::string(kHkp) + kNative, kNameFirst);
  ASSERT_TRUE(f.ok) << f.error;
  auto lists = nameKeyed(f);
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(described(*lists[0]),
            (V{"q_ptr global_buffer/8 ROCKE_ARG_POINTER required", "k_ptr global_buffer/8 ROCKE_ARG_POINTER required",
               "v_ptr global_buffer/8 ROCKE_ARG_POINTER required", "o_ptr global_buffer/8 ROCKE_ARG_POINTER required",
               "scale by_value/4 ROCKE_ARG_F32 required", "batch by_value/4 ROCKE_ARG_I32",
               "seqlen_q by_value/4 ROCKE_ARG_I32", "seqlen_kv by_value/4 ROCKE_ARG_I32"}));
  // An unknown name of either kind falls to the final else.
  EXPECT_EQ(lists[0]->rejects.at("pointer"), "unknown SDPA argument");
  EXPECT_EQ(lists[0]->rejects.at("scalar"), "unknown SDPA argument");
}

// The same chain with its names and messages held by constants: a namespace-scope `constexpr
// const char*` per name (in a nested namespace, used qualified), the required set a `constexpr
// std::array` of them, a size `sizeof` of a local. What it checks is the same: the same list is read.
TEST(NameKeyedExtract, NamesAndSizesThroughConstantsReadTheSame) {
  std::string text = kNameFirst;
  auto replaceAll = [&](const std::string& from, const std::string& to) {
    size_t n = 0;
    for (size_t p = text.find(from); p != std::string::npos; p = text.find(from, p + to.size()), ++n)
      text.replace(p, from.size(), to);
    return n;
  };
  const std::string names[] = {"q_ptr", "k_ptr", "v_ptr", "o_ptr", "scale", "batch", "seqlen_q", "seqlen_kv"};
  std::string decls = "namespace names {\n";
  for (const auto& n : names) {
    ASSERT_GT(replaceAll("\"" + n + "\"", "names::k_" + n), 0u) << n;
    decls += "constexpr const char* k_" + n + " = \"" + n + "\";\n";
  }
  decls += "} // namespace names\nconstexpr std::array<const char*, 5> kRequired{names::k_q_ptr, names::k_k_ptr, "
           "names::k_v_ptr, names::k_o_ptr, names::k_scale};\n";
  ASSERT_EQ(replaceAll("{names::k_q_ptr, names::k_k_ptr, names::k_v_ptr, names::k_o_ptr, names::k_scale})", "kRequired)"), 1u);
  ASSERT_EQ(replaceAll("sizeof(float)", "sizeof(scaleValue)"), 1u);
  ASSERT_EQ(replaceAll("            const std::string name = arg->name;\n",
                       "            const std::string name = arg->name;\n            const float scaleValue = 0.0F;\n"),
            1u);
  text = decls + text;
  FileFacts original = extractFile(std::string(kHkp) + kNative, kNameFirst);
  FileFacts rewritten = extractFile(std::string(kHkp) + kNative, text);
  ASSERT_TRUE(rewritten.ok) << rewritten.error;
  auto a = nameKeyed(original), b = nameKeyed(rewritten);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u) << text;
  EXPECT_EQ(described(*b[0]), described(*a[0])) << text;
  EXPECT_EQ(b[0]->rejects, a[0]->rejects);
}

TEST(NameKeyedExtract, PlanWalkWithoutANameTestIsNoCopy) {
  // rocke_recipe.h's own documentation loop: fills every argument, checks no name.
  const char* src = R"cpp(
void fill(const rocke_launch_plan_t* plan, std::vector<unsigned char>& kernarg)
{
    for(int i = 0; i < rocke_launch_plan_num_args(plan); i++)
    {
        const rocke_arg_desc_t* a = rocke_launch_plan_arg(plan, i);
        memcpy(kernarg.data() + a->offset, value_for(a->name), a->size);
    }
}
)cpp";
  FileFacts f = extractFile(std::string(kHkp) + kNative, src);
  EXPECT_TRUE(nameKeyed(f).empty());
}

// ---- comparison ------------------------------------------------------------------------------

// The real gfx950 dense builder's first five parameters, in its own form.
std::string builderSource(const std::string& extra = "", const std::string& scaleType = "F32") {
  return "from rocke.core.ir import F32, I32, IRBuilder, PtrType\n\n\n"
         "def build_attention_dense(spec, *, arch=\"gfx950\"):\n"
         "    dtype = spec.dtype_ir\n"
         "    b = IRBuilder(spec.kernel_name())\n"
         "    q = b.param(\n        \"q_ptr\", PtrType(dtype, \"global\"), noalias=True, readonly=True, align=16\n    )\n"
         "    k = b.param(\n        \"k_ptr\", PtrType(dtype, \"global\"), noalias=True, readonly=True, align=16\n    )\n"
         "    v = b.param(\n        \"v_ptr\", PtrType(dtype, \"global\"), noalias=True, readonly=True, align=16\n    )\n"
         "    o = b.param(\n        \"o_ptr\", PtrType(dtype, \"global\"), noalias=True, writeonly=True, align=16\n    )\n"
         "    scale = b.param(\"scale\", " + scaleType + ")\n" + extra +
         "    return b.finish()\n";
}

Comparison compare(const std::string& py, const char* cpp = kNameFirst) {
  static std::vector<std::unique_ptr<FileFacts>> keep;  // the Comparison points into the facts
  keep.push_back(std::make_unique<FileFacts>(extractFile(std::string(kHkp) + kBuilder, py)));
  keep.push_back(std::make_unique<FileFacts>(extractFile(std::string(kHkp) + kNative, cpp)));
  const FileFacts& p = *keep[keep.size() - 2];
  const FileFacts& c = *keep.back();
  EXPECT_EQ(p.builders.size(), 1u);
  auto lists = nameKeyed(c);
  EXPECT_EQ(lists.size(), 1u);
  if (p.builders.empty() || lists.empty()) return {};
  return compareCopy(p.builders[0], *lists[0]);
}

TEST(NameKeyedCompare, TheFiveArgumentBuilderAgrees) {
  Comparison c = compare(builderSource());
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  EXPECT_EQ(c.pairs.size(), 5u);
}

TEST(NameKeyedCompare, OrderIsNeverCompared) {
  std::string py = builderSource();
  // scale first, o_ptr before q_ptr
  std::string scale = "    scale = b.param(\"scale\", F32)\n";
  py.erase(py.find(scale), scale.size());
  py.insert(py.find("    q = b.param("), scale);
  Comparison c = compare(py);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
}

TEST(NameKeyedCompare, AnAcceptedScalarTheBuilderAddsAgrees) {
  Comparison c = compare(builderSource("    batch = b.param(\"batch\", I32)\n"));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
}

TEST(NameKeyedCompare, AScalarTheCheckDoesNotAcceptIsAMismatch) {
  Comparison c = compare(builderSource("    window = b.param(\"window_left\", I32)\n"));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "builder argument window_left (i32 by_value/4) at #5 is not accepted by the name-keyed check "
                       "(\"unknown SDPA argument\")");
}

TEST(NameKeyedCompare, AScalarTypeTheCheckChecksOtherwiseIsAMismatchAtEqualSize) {
  Comparison c = compare(builderSource("", "I32"));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "scale: builder i32 by_value/4, the check accepts f32 by_value/4 (ROCKE_ARG_F32)");
}

TEST(NameKeyedCompare, APointerTheCheckTakesForAScalarIsAMismatch) {
  std::string py = builderSource("    batch = b.param(\"batch\", PtrType(I32, \"global\"))\n");
  Comparison c = compare(py);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "batch: builder global_buffer/8, the check accepts i32 by_value/4 (ROCKE_ARG_I32)");
}

TEST(NameKeyedCompare, ARequiredNameTheBuilderLacksIsAMismatch) {
  std::string py = builderSource();
  std::string o = "    o = b.param(\n        \"o_ptr\", PtrType(dtype, \"global\"), noalias=True, writeonly=True, align=16\n    )\n";
  py.erase(py.find(o), o.size());
  Comparison c = compare(py);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "the check requires o_ptr, which the builder does not declare");
}

TEST(NameKeyedCompare, AConditionalArgumentTheCheckDoesNotAcceptIsChangedNotMismatch) {
  Comparison c = compare(builderSource("    if spec.use_sinks:\n        sink = b.param(\"sink_ptr\", PtrType(dtype, \"global\"))\n"));
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_EQ(c.message, "the name-keyed check does not accept the conditional argument sink_ptr (if spec.use_sinks)");
}

}  // namespace
}  // namespace impact
