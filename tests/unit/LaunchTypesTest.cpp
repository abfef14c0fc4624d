// Launch arguments typed through the file's own declarations (SPEC R2.1; issue 16, form 4) and
// type identity on both sides (form 5): `auto` locals bound to the file's methods, `std::array`
// and C array elements, fields reached through accessors, casts that change the size; the type
// class of every slot (f32 / i32 / u32 / i64 / bf16, a pointer's element) on the C++ and the
// Python side, and the comparison that reads it. Fixtures are in the real packs' forms (the
// older six-argument gfx950 conv forward Native, the gfx942 dense handler); the real conv
// Native of ../shared/real-data is read at test time.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "contracts/kernargs/ArgListDiff.h"
#include "extract/Extract.h"
#include "extract/cpp/ArgumentKinds.h"
#include "extract/cpp/Context.h"
#include "parse/Syntax.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

constexpr const char* kPackPath =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdNative.cpp";
constexpr const char* kPyPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/attention_dense.py";

const CppArgList* onlyLaunch(const FileFacts& f) {
  const CppArgList* out = nullptr;
  for (const auto& l : f.lists)
    if (l.form == CppArgList::Form::Launch) {
      EXPECT_EQ(out, nullptr) << "more than one launch";
      out = &l;
    }
  return out;
}

// The older gfx950 conv forward Native's form: the prepared dispatch holds the byte counts
// behind an accessor returning `const std::array<int32_t, 3>&`, the handler's `launch` binds
// `const auto& bytes = convPrepared.bytes();` and passes its elements.
const std::string kConv = R"cpp(#include "IngestorKernelCode.hpp"
#include "packs/Gfx950ConvFwdGeometry.hpp"

#include <array>

namespace hip_kernel_provider::kernel_ingestor_engine {
namespace {

struct Binding
{
    int64_t x = 0;
    int64_t w = 0;
    int64_t y = 0;
    float alpha = 1.0F;
    uint32_t groups = 1;
};

class PreparedConvFwd : public PreparedDispatch
{
public:
    PreparedConvFwd(IngestorKernelCode code, Binding binding, std::array<int32_t, 3> bytes)
        : _code(std::move(code))
        , _binding(binding)
        , _bytes(bytes)
    {
    }

    const compilation::IRunnableKernel& kernel() const
    {
        return *_code.kernel;
    }
    const Binding& binding() const
    {
        return _binding;
    }
    const std::array<int32_t, 3>& bytes() const
    {
        return _bytes;
    }
    const int64_t* strides() const;

private:
    IngestorKernelCode _code;
    Binding _binding;
    std::array<int32_t, 3> _bytes;
    int32_t _extents[4];
};

class ConvFwdDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    void launch(const Handle& handle,
                const PreparedDispatch& prepared,
                const hipdnnPluginDeviceBuffer_t* deviceBuffers,
                uint32_t numDeviceBuffers,
                void* /*workspace*/) const override
    {
        const auto& convPrepared = dynamic_cast<const PreparedConvFwd&>(prepared);
        const auto& binding = convPrepared.binding();
        const auto a
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.x, deviceBuffers, numDeviceBuffers);
        const auto b
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.w, deviceBuffers, numDeviceBuffers);
        const auto d
            = hipdnn_plugin_sdk::findDeviceBuffer(binding.y, deviceBuffers, numDeviceBuffers);
        const auto& bytes = convPrepared.bytes();
        // build_implicit_gemm_conv, conv_implicit_gemm.py: A*, B*, D*, A_bytes:i32,
        // B_bytes:i32, D_bytes:i32. These are storage byte sizes, not element counts.
        convPrepared.kernel().launch(
            handle.getStream(), a.ptr, b.ptr, d.ptr, bytes[0], bytes[1], bytes[2]);
    }
};

} // namespace
} // namespace hip_kernel_provider::kernel_ingestor_engine
)cpp";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(LaunchTypes, ElementsOfAnArrayReturnedByTheFilesOwnAccessorAreI32) {
  FileFacts f = extractFile(kPackPath, kConv);
  ASSERT_TRUE(f.ok) << f.error;
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->symbol, "ConvFwdDispatchHandler::launch");
  ASSERT_EQ(l->args.size(), 6u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(l->args[i].kind, "global_buffer") << i;
    EXPECT_EQ(l->args[i].size, 8u) << i;
    EXPECT_EQ(l->args[i].typeClass, "") << i;  // a `.ptr` member states no element type
  }
  for (size_t i = 3; i < 6; ++i) {
    EXPECT_EQ(l->args[i].name, "bytes[" + std::to_string(i - 3) + "]");
    EXPECT_TRUE(l->args[i].resolved) << l->args[i].unresolvedReason;
    EXPECT_EQ(l->args[i].kind, "by_value") << i;
    EXPECT_EQ(l->args[i].size, 4u) << i;
    EXPECT_EQ(l->args[i].typeClass, "s32") << i;  // int32_t: a signed 32-bit integer
  }
}

TEST(LaunchTypes, ACastOfAnElementChangesItsSizeAndClass) {
  FileFacts f = extractFile(kPackPath, replaced(kConv, "bytes[0], bytes[1]", "static_cast<int64_t>(bytes[0]), bytes[1]"));
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), 6u);
  EXPECT_EQ(l->args[3].kind, "by_value");
  EXPECT_EQ(l->args[3].size, 8u);
  EXPECT_EQ(l->args[3].typeClass, "s64");
  f = extractFile(kPackPath, replaced(kConv, "bytes[0], bytes[1]", "static_cast<uint32_t>(bytes[0]), bytes[1]"));
  l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->args[3].size, 4u);
  EXPECT_EQ(l->args[3].typeClass, "u32");
}

TEST(LaunchTypes, FieldsReachedThroughAnAccessorHaveTheirClassesDeclaredType) {
  // binding() returns `const Binding&`: its fields, not any field of that name elsewhere.
  FileFacts f = extractFile(kPackPath, replaced(kConv, "bytes[0], bytes[1], bytes[2]",
                                                "bytes[0], bytes[1], bytes[2], binding.alpha, "
                                                "convPrepared.binding().groups, binding.missing"));
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), 9u);
  EXPECT_EQ(l->args[6].kind, "by_value");
  EXPECT_EQ(l->args[6].size, 4u);
  EXPECT_EQ(l->args[6].typeClass, "f32");
  EXPECT_EQ(l->args[7].size, 4u);
  EXPECT_EQ(l->args[7].typeClass, "u32");
  EXPECT_FALSE(l->args[8].resolved);
  EXPECT_EQ(l->args[8].unresolvedReason, "no field 'missing' in `Binding`");
}

TEST(LaunchTypes, ADeclarationTypedByDecltypeHasItsExpressionsType) {
  // A local struct whose fields are typed `std::decay_t<decltype(E)>` (and a local typed
  // `decltype(E)`): each has E's type; one that names nothing declared says so.
  FileFacts f = extractFile(
      kPackPath,
      replaced(kConv, "        convPrepared.kernel().launch(\n            handle.getStream(), a.ptr, b.ptr, d.ptr, bytes[0], bytes[1], bytes[2]);",
               "        struct Args {\n"
               "            std::decay_t<decltype(a.ptr)> a;\n"
               "            std::remove_cvref_t<decltype(static_cast<int64_t>(bytes[0]))> n;\n"
               "            std::decay_t<decltype(binding.alpha)> alpha;\n"
               "            std::decay_t<decltype(missing)> m;\n"
               "        };\n"
               "        const Args args{a.ptr, bytes[0], binding.alpha, 0};\n"
               "        decltype(bytes[1]) second = bytes[1];\n"
               "        convPrepared.kernel().launch(\n"
               "            handle.getStream(), args.a, args.n, args.alpha, second, args.m);"));
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), 5u);
  EXPECT_EQ(l->args[0].kind, "global_buffer");
  EXPECT_EQ(l->args[0].size, 8u);
  EXPECT_EQ(l->args[1].size, 8u);
  EXPECT_EQ(l->args[1].typeClass, "s64");
  EXPECT_EQ(l->args[2].size, 4u);
  EXPECT_EQ(l->args[2].typeClass, "f32");
  EXPECT_EQ(l->args[3].size, 4u);
  EXPECT_EQ(l->args[3].typeClass, "s32");
  EXPECT_FALSE(l->args[4].resolved);
  EXPECT_NE(l->args[4].unresolvedReason.find("declared as the type of missing"), std::string::npos)
      << l->args[4].unresolvedReason;
}

TEST(LaunchTypes, CArrayElementsAndPointerElementsAreTyped) {
  const std::string src = R"cpp(
class Gfx950DenseDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    void launch(const Handle& handle, const PreparedDispatch& prepared, void* /*workspace*/) const override
    {
        int32_t extents[4] = {1, 2, 3, 4};
        const float* scales = nullptr;
        const __hip_bfloat16* q = nullptr;
        kernel.launch(handle.getStream(), extents[2], scales[0], q, *scales, 7u, 7L, true);
    }
};
)cpp";
  FileFacts f = extractFile(kPackPath, src);
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), 7u);
  EXPECT_EQ(l->args[0].size, 4u);
  EXPECT_EQ(l->args[0].typeClass, "s32");
  EXPECT_EQ(l->args[1].size, 4u);
  EXPECT_EQ(l->args[1].typeClass, "f32");
  EXPECT_EQ(l->args[2].kind, "global_buffer");
  EXPECT_EQ(l->args[2].typeClass, "bf16");  // a pointer states its element
  EXPECT_EQ(l->args[3].typeClass, "f32");
  EXPECT_EQ(l->args[4].typeClass, "u32");
  EXPECT_EQ(l->args[5].size, 8u);
  EXPECT_EQ(l->args[5].typeClass, "s64");
  EXPECT_EQ(l->args[6].typeClass, "i1");
}

TEST(LaunchTypes, AFieldOfAStructDeclaredElsewhereIsSaidOnceWithWhereItWouldBe) {
  // The bundled example's form: the launch reads fields of a parameter whose struct this file
  // does not declare (issue 18): one reason for every such slot, naming the struct and the
  // includes where its declaration would be.
  const std::string src = R"cpp(#include "IngestorKernelCode.hpp"
#include "packs/Gfx950AttentionDenseGeometry.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

void launchAttentionDense(const IRunnableKernel& kernel,
                          hipStream_t stream,
                          const AttentionBuffers& q,
                          const AttentionShape& shape)
{
    kernel.launch(stream, q.ptr, shape.scale, shape.batch, shape.seqlenQ);
}
)cpp";
  FileFacts f = extractFile(kPackPath, src);
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), 4u);
  const std::string why =
      "fields of `shape`, an `AttentionShape` not declared in this file: its declaration would be in one of "
      "its includes (IngestorKernelCode.hpp, packs/Gfx950AttentionDenseGeometry.hpp)";
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_FALSE(l->args[i].resolved) << i;
    EXPECT_EQ(l->args[i].unresolvedReason, why) << i;
  }
  EXPECT_EQ(kernargs_detail::unresolvedLaunchSlots(l->args),
            (std::vector<std::string>{"launch arguments #1\u2013#3 (" + why + ")"}));
}

// --- the comparison: type identity (R2.1) -------------------------------------------------

KernelArg slot(std::string name, std::string kind, uint32_t size, std::string cls) {
  KernelArg a{std::move(name), std::move(kind), size};
  a.typeClass = std::move(cls);
  return a;
}

PyBuilder denseBuilder(const std::string& scaleClass) {
  PyBuilder b;
  b.name = "build_attention_dense";
  std::vector<KernelArg> args;
  for (const char* n : {"q_ptr", "k_ptr", "v_ptr", "o_ptr"}) args.push_back(slot(n, "global_buffer", 8, ""));
  args.push_back(slot("scale", "by_value", 4, scaleClass));
  b.abis.push_back({b.name, "", args});
  return b;
}

CppArgList launchOf(std::vector<KernelArg> args) {
  CppArgList l;
  l.form = CppArgList::Form::Launch;
  l.named = true;
  l.args = std::move(args);
  return l;
}

TEST(LaunchTypes, AFloatPassedWhereTheBuilderDeclaresI32IsAMismatchNamingBothTypes) {
  std::vector<KernelArg> launch;
  for (const char* e : {"q.ptr", "k.ptr", "v.ptr", "o.ptr"}) launch.push_back(slot(e, "global_buffer", 8, ""));
  launch.push_back(slot("binding.scale", "by_value", 4, "f32"));
  EXPECT_EQ(compareCopy(denseBuilder("f32"), launchOf(launch)).outcome, Comparison::Outcome::Agree);
  Comparison c = compareCopy(denseBuilder("i32"), launchOf(launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#4 scale: builder i32, copy f32");
  EXPECT_EQ(c.focusCopy, 4);
  // Unknown on either side: not compared.
  EXPECT_EQ(compareCopy(denseBuilder(""), launchOf(launch)).outcome, Comparison::Outcome::Agree);
  launch[4].typeClass.clear();
  EXPECT_EQ(compareCopy(denseBuilder("i32"), launchOf(launch)).outcome, Comparison::Outcome::Agree);
}

TEST(LaunchTypes, SignednessCountsOnlyWhereBothSidesStateIt) {
  using kernargs_detail::diffLists;
  std::vector<KernelArg> signless{slot("n", "by_value", 4, "i32")};
  std::vector<KernelArg> sgn{slot("n", "by_value", 4, "s32")};
  std::vector<KernelArg> uns{slot("n", "by_value", 4, "u32")};
  std::vector<KernelArg> f{slot("n", "by_value", 4, "f32")};
  EXPECT_TRUE(diffLists(signless, sgn, false).parts.empty());  // rocKE's I32 states no sign
  EXPECT_TRUE(diffLists(signless, uns, false).parts.empty());
  EXPECT_EQ(kernargs_detail::joinDiff(diffLists(uns, sgn, false)), "#0 n: builder u32, copy i32");
  EXPECT_EQ(kernargs_detail::joinDiff(diffLists(signless, f, false)), "#0 n: builder i32, copy f32");
  // bf16 and f16 have one size and two classes; a pointer's element where both state it.
  EXPECT_EQ(kernargs_detail::joinDiff(diffLists({slot("x", "by_value", 2, "bf16")}, {slot("x", "by_value", 2, "f16")}, false)),
            "#0 x: builder bf16, copy f16");
  EXPECT_EQ(kernargs_detail::joinDiff(
                diffLists({slot("q_ptr", "global_buffer", 8, "bf16")}, {slot("q_ptr", "global_buffer", 8, "f16")}, false)),
            "#0 q_ptr: builder ptr<bf16>, copy ptr<f16>");
  EXPECT_TRUE(diffLists({slot("q_ptr", "global_buffer", 8, "bf16")}, {slot("q_ptr", "global_buffer", 8, "")}, false)
                  .parts.empty());
}

TEST(LaunchTypes, ADroppedSlotIsAMismatchThoughOtherSlotsAreUntyped) {
  std::vector<KernelArg> launch;
  for (const char* e : {"q.ptr", "k.ptr", "v.ptr"}) launch.push_back(slot(e, "global_buffer", 8, ""));
  KernelArg untyped{"shape.scale", "", 0};
  untyped.resolved = false;
  untyped.unresolvedReason = "fields of `shape`, a `Shape` not declared in this file: its declaration would be in x.hpp";
  launch.push_back(untyped);
  Comparison c = compareCopy(denseBuilder("f32"), launchOf(launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("copy has 4 arguments, builder has 5"), std::string::npos) << c.message;
  ASSERT_EQ(c.unresolved.size(), 1u);
  // An untyped slot among typed ones: the typed ones are still compared.
  launch.insert(launch.begin() + 3, slot("o.ptr", "global_buffer", 8, ""));
  launch[4] = slot("count", "by_value", 4, "s32");
  launch[0].resolved = false;
  launch[0].kind.clear();
  launch[0].size = 0;
  c = compareCopy(denseBuilder("f32"), launchOf(launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#4 scale: builder f32, copy i32");
}

// --- the Python side: b.param types and SignatureBuilder strings ------------------------------

const char* kDensePy = R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, F32, BF16, F16

_DTYPE_IR = {"bf16": BF16, "fp16": F16}
ACC = BF16


def _build_attention_dense_single_buffer(spec, *, arch):
    dtype = _DTYPE_IR[spec.dtype]
    b = IRBuilder("attention_dense")
    q = b.param(
        "q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    k = b.param("k_ptr", PtrType(BF16, "global"), noalias=True, readonly=True, align=16)
    v = b.param("v_ptr", PtrType(ACC, "global"), noalias=True, readonly=True, align=16)
    scale = b.param("scale", F32)
    n = b.param("n", I32)
    return b.finish()


def build_attention_dense(spec, *, arch="gfx942"):
    return _build_attention_dense_single_buffer(spec, arch=arch)


def attention_dense_signature(spec):
    from rocke.helpers.spec import SignatureBuilder

    return (
        SignatureBuilder()
        .ptr("q_ptr", spec.dtype)
        .ptr("k_ptr", "bf16")
        .ptr("v_ptr", "bf16")
        .scalar("scale", "f32")
        .scalar("n", "u32")
        .build()
    )
)PY";

TEST(LaunchTypes, PythonTypesStateTheirClassAndAPointersElementOnlyWhenResolved) {
  FileFacts f = extractFile(kPyPath, kDensePy);
  ASSERT_TRUE(f.ok) << f.error;
  const PyBuilder* params = nullptr;
  for (const auto& b : f.builders)
    if (b.style == PyBuilder::Style::Params && !b.abis.empty() && b.abis[0].args.size() == 5) params = &b;
  // The SignatureBuilder chain restates the b.param builder of its module: a copy.
  const CppArgList* sig = nullptr;
  for (const auto& l : f.lists)
    if (l.symbol == "attention_dense_signature") sig = &l;
  ASSERT_NE(params, nullptr);
  ASSERT_FALSE(params->abis.empty());
  const auto& a = params->abis[0].args;
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].typeClass, "");      // PtrType(dtype) with dtype = _DTYPE_IR[spec.dtype]: not resolved
  EXPECT_EQ(a[1].typeClass, "bf16");  // PtrType(BF16, ...)
  EXPECT_EQ(a[2].typeClass, "bf16");  // through a module variable
  EXPECT_EQ(a[3].typeClass, "f32");
  EXPECT_EQ(a[4].typeClass, "i32");
  ASSERT_NE(sig, nullptr);
  const auto& s = sig->args;
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].typeClass, "");  // spec.dtype: a run-time string
  EXPECT_EQ(s[1].typeClass, "bf16");
  EXPECT_EQ(s[3].typeClass, "f32");
  EXPECT_EQ(s[4].typeClass, "u32");
}

// --- the real gfx950 conv forward Native (../shared/real-data) --------------------------------

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The explicit slots of the file's launch call(s), each typed as the extractor types them (the
// trailing parameter pack `values...` is not a slot this reads).
std::vector<cpp::InferredKind> explicitSlots(const std::string& src) {
  auto tree = SyntaxTree::parse(Lang::Cpp, src);
  cpp::Ctx c(*tree);
  cpp::collect(c);
  cpp::DeclaredTypes types(c);
  std::vector<cpp::InferredKind> out;
  for (const auto& m : c.matches[QueryId::CppLaunchCall]) {
    TSNode method = m.get("method"), args = m.get("args"), call = m.get("call");
    if (cpp::isNull(method) || c.text(method) != "launch") continue;
    int fn = c.functionOf(call);
    types.prepare(fn);
    auto a = cpp::items(args);
    for (size_t i = 1; i < a.size(); ++i)
      if (!is(a[i], "parameter_pack_expansion")) out.push_back(types.infer(a[i], fn));
  }
  return out;
}

TEST(LaunchTypes, RealConvNativesExplicitSlotsResolveAndAWideningCastIsAMismatch) {
  IMPACT_REQUIRE_REAL_CORPUS();
  const std::string src = readAll(testing::realCorpusDir() + "/" + kPackPath);
  ASSERT_FALSE(src.empty());
  auto slots = explicitSlots(src);
  ASSERT_EQ(slots.size(), 6u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(slots[i].kind, "global_buffer") << i;
  for (size_t i = 3; i < 6; ++i) {
    EXPECT_TRUE(slots[i].known()) << slots[i].why;
    EXPECT_EQ(slots[i].kind, "by_value") << i;
    EXPECT_EQ(slots[i].size, 4u) << i;
    EXPECT_EQ(slots[i].cls, "s32") << i;
  }
  // The builder's six leading arguments (conv_implicit_gemm.py: A, B, D pointers, then the
  // three byte counts as I32) against the slots: agree; a widening cast: a mismatch.
  PyBuilder b;
  b.name = "_build_implicit_gemm_conv_impl";
  std::vector<KernelArg> leading;
  for (const char* n : {"A", "B", "D"}) leading.push_back(slot(n, "global_buffer", 8, ""));
  for (const char* n : {"A_bytes", "B_bytes", "D_bytes"}) leading.push_back(slot(n, "by_value", 4, "i32"));
  b.abis.push_back({b.name, "", leading});
  auto asLaunch = [](const std::vector<cpp::InferredKind>& s) {
    std::vector<KernelArg> args;
    for (const auto& k : s) args.push_back(slot(k.typeText, k.kind, k.size, k.cls));
    return launchOf(args);
  };
  EXPECT_EQ(compareCopy(b, asLaunch(slots)).outcome, Comparison::Outcome::Agree);
  std::string wide = src;
  size_t at = wide.find("                                      bytes[0],");
  ASSERT_NE(at, std::string::npos);
  wide.replace(at, std::string("                                      bytes[0],").size(),
               "                                      static_cast<int64_t>(bytes[0]),");
  auto wideSlots = explicitSlots(wide);
  ASSERT_EQ(wideSlots.size(), 6u);
  EXPECT_EQ(wideSlots[3].size, 8u);
  Comparison c = compareCopy(b, asLaunch(wideSlots));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#3 A_bytes: copy by_value/8, builder by_value/4");
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

// The gfx950 dense Native's form at ROCm/rocm-libraries 161aa58b: the receiver is itself a call
// that takes the stream (`preparedDense.kernelForStream(handle.getStream()).launch(handle.getStream(), …)`);
// the stream is the launch's first argument only, and is not a kernel argument.
TEST(LaunchTypes, AReceiverThatIsACallTakingTheStreamLeavesTheArgumentsAlone) {
  constexpr const char* kDensePath =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp";
  const char* text = R"CPP(
namespace {
struct Binding { int64_t q, k, v, o; float scale; };
class Gfx950AttentionDenseDispatchHandler : public IKernelDispatchHandler<Handle> {
public:
    void launch(const Handle& handle, const PreparedDispatch& prepared, const TensorMap& tensors) const override
    {
        const auto& preparedDense = static_cast<const PreparedDense&>(prepared);
        const Binding& binding = preparedDense.binding();
        const auto q = find(binding.q);
        const auto k = find(binding.k);
        const auto v = find(binding.v);
        const auto o = find(binding.o);
        preparedDense.kernelForStream(handle.getStream())
            .launch(handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr, binding.scale);
    }
};
}
)CPP";
  FileFacts f = extractFile(kDensePath, text);
  ASSERT_TRUE(f.ok) << f.error;
  const CppArgList* l = onlyLaunch(f);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->symbol, "Gfx950AttentionDenseDispatchHandler::launch");
  ASSERT_EQ(l->args.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(l->args[i].kind, "global_buffer") << i;
  EXPECT_EQ(l->args[4].kind, "by_value");
  EXPECT_EQ(l->args[4].size, 4u);
  EXPECT_EQ(l->args[4].typeClass, "f32");
}

}  // namespace
}  // namespace impact
