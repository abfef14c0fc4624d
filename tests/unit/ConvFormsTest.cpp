// The forms of the gfx950 conv forward generation (rocm-libraries, AOT conv ABI), on own fixtures
// written in the real forms: a builder whose trailing arguments a helper declares from a list
// (`emit_param_block(b, conv_fwd_problem_block(...))`), a launch whose trailing arguments are a
// parameter pack a lambda expands (`std::visit` over a std::variant of per-family arrays, then
// `std::apply`), and their comparison (only what both state is compared; the rest is said).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "contracts/kernargs/OpenTails.h"
#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kBuilderPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_implicit_gemm.py";
constexpr const char* kPackPath =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdNative.cpp";

// The real builder's form: three pointers, the hook, the byte triple, then the helper's block.
const std::string kBuilder = R"py(
from typing import Callable, Optional

from rocke.core.ir import I32, IRBuilder, PtrType

from kernels.common.conv_abi import conv_fwd_problem_block
from kernels.common._conv_implicit_gemm_common import (  # noqa: F401
    emit_param_block,
)


def _build_implicit_gemm_conv_impl(
    spec,
    *,
    arch: str = "gfx950",
    extra_params: Optional[Callable[[IRBuilder], object]] = None,
):
    p = spec.problem
    b = IRBuilder(spec.kernel_name())
    A = b.param(
        "A", PtrType(spec.dtype_a, "global"), noalias=True, readonly=True, align=16
    )
    Bp = b.param(
        "B", PtrType(spec.dtype_b, "global"), noalias=True, readonly=True, align=16
    )
    D = b.param(
        "D", PtrType(spec.dtype_d, "global"), noalias=True, writeonly=True, align=16
    )
    extra_context = extra_params(b) if extra_params is not None else None
    A_bytes = b.param("A_bytes", I32)
    B_bytes = b.param("B_bytes", I32)
    D_bytes = b.param("D_bytes", I32)
    params = emit_param_block(b, conv_fwd_problem_block(is_3d=p.is_3d))
    p_N = params["p_N"]
    return b.build()
)py";

// The helper's own module, in the form the brief names: b.param over a list given to it.
const std::string kHelperModule = R"py(
from typing import Dict, List, Tuple

from rocke.core.ir import I32, IRBuilder, Value


def emit_param_block(b: IRBuilder, names: List[Tuple[str, str]]) -> Dict[str, Value]:
    out: Dict[str, Value] = {}
    for name, _ty in names:
        out[name] = b.param(name, I32)
    return out
)py";

// The Native's launch, in the real form (ConvFwdDispatchHandler::launch).
const std::string kNative = R"cpp(
#include <array>
#include <variant>

namespace hipdnn_plugin {
namespace {

using ConvKernargs = std::variant<conv::ImplicitGemmKernargs, conv::DirectKernargs>;

class PreparedConvFwd : public PreparedDispatch
{
public:
    const std::array<int32_t, 3>& bytes() const
    {
        return _bytes;
    }
    const ConvKernargs& kernargs() const
    {
        return _kernargs;
    }

private:
    std::array<int32_t, 3> _bytes;
    ConvKernargs _kernargs;
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
        const auto& kernel = convPrepared.kernelForStream(handle.getStream());
        std::visit(
            [&](const auto& kernargs) {
                std::apply(
                    [&](const auto&... values) {
                        kernel.launch(handle.getStream(),
                                      a.ptr,
                                      b.ptr,
                                      d.ptr,
                                      bytes[0],
                                      bytes[1],
                                      bytes[2],
                                      values...);
                    },
                    kernargs);
            },
            convPrepared.kernargs());
    }
};

// A forwarding wrapper: the pack is its own parameters, its callers pass the arguments.
template <typename... Args>
void launchForwarded(Kernel& kernel, hipStream_t stream, Args&&... args)
{
    kernel.launch(stream, args...);
}

} // namespace
} // namespace hipdnn_plugin
)cpp";

const PyBuilder* find(const FileFacts& f, const std::string& name) {
  for (const auto& b : f.builders)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<const CppArgList*> launches(const FileFacts& f) {
  std::vector<const CppArgList*> out;
  for (const auto& l : f.lists)
    if (l.form == CppArgList::Form::Launch) out.push_back(&l);
  return out;
}

std::vector<std::string> names(const std::vector<KernelArg>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) out.push_back(a.name);
  return out;
}

TEST(ConvForms, AHelperGivenTheBuilderEndsTheListItDeclares) {
  FileFacts f = extractFile(kBuilderPath, kBuilder);
  ASSERT_TRUE(f.ok) << f.error;
  const PyBuilder* b = find(f, "_build_implicit_gemm_conv_impl");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 1u);
  const PyAbi& abi = b->abis[0];
  // The six leading arguments are read (Bp pairs by its string, "B"); the hook extra_params is a
  // parameter of the builder, not a helper; emit_param_block declares the rest.
  EXPECT_EQ(names(abi.args), (std::vector<std::string>{"A", "B", "D", "A_bytes", "B_bytes", "D_bytes"}));
  EXPECT_EQ(abi.args[1].kind, "global_buffer");
  EXPECT_EQ(abi.args[3].kind, "by_value");
  EXPECT_EQ(abi.args[3].size, 4u);
  EXPECT_EQ(abi.tailHelper, "emit_param_block");
  EXPECT_EQ(abi.tailModule, "kernels/common/_conv_implicit_gemm_common.py");
}

TEST(ConvForms, TheHelpersOwnModuleIsNoBuilder) {
  // `b` is the helper's parameter, not an IRBuilder the module makes: no builder, no helper.
  FileFacts f = extractFile("dnn-providers/hip-kernel-provider/rocke/library/kernels/common/_conv_implicit_gemm_common.py",
                            kHelperModule);
  ASSERT_TRUE(f.ok) << f.error;
  EXPECT_EQ(find(f, "emit_param_block"), nullptr);
}

TEST(ConvForms, ACallPassingTheHookIsNotAHelper) {
  // The hook alone (no emit_param_block): the list is the b.param calls, closed.
  std::string src = kBuilder;
  src.replace(src.find("    params = emit_param_block"), std::string("    params = emit_param_block(b, conv_fwd_problem_block(is_3d=p.is_3d))\n").size(), "");
  FileFacts f = extractFile(kBuilderPath, src);
  const PyBuilder* b = find(f, "_build_implicit_gemm_conv_impl");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->abis[0].args.size(), 6u);
  EXPECT_EQ(b->abis[0].tailHelper, "");
}

TEST(ConvForms, ALaunchExpandingAVariantsArrayIsACopyWithAnOpenTail) {
  FileFacts f = extractFile(kPackPath, kNative);
  ASSERT_TRUE(f.ok) << f.error;
  auto l = launches(f);
  // The wrapper passing its own pack is not a copy; the handler's launch is.
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0]->symbol, "ConvFwdDispatchHandler::launch");
  EXPECT_EQ(names(l[0]->args),
            (std::vector<std::string>{"a.ptr", "b.ptr", "d.ptr", "bytes[0]", "bytes[1]", "bytes[2]"}));
  EXPECT_EQ(l[0]->args[0].kind, "global_buffer");
  EXPECT_EQ(l[0]->openTail, "the trailing parameter pack values... (from a std::variant)");
}

TEST(ConvForms, APackFromStdApplyOverALocalIsSaidAsSuch) {
  std::string src = kNative;
  const std::string visit = "        std::visit(\n            [&](const auto& kernargs) {\n";
  src.replace(src.find(visit), visit.size(), "        {\n            {\n                const auto& kernargs = convPrepared.kernargs();\n");
  src.replace(src.find("            },\n            convPrepared.kernargs());"),
              std::string("            },\n            convPrepared.kernargs());").size(), "            }\n        }");
  FileFacts f = extractFile(kPackPath, src);
  auto l = launches(f);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0]->openTail, "the trailing parameter pack values... (from std::apply over 'kernargs')");
}

// Comparison of open lists (hand-built facts).
KernelArg ptr(std::string n) { return {std::move(n), "global_buffer", 8}; }
KernelArg i32(std::string n) { return {std::move(n), "by_value", 4}; }

PyBuilder openBuilder(std::vector<KernelArg> args) {
  PyBuilder b;
  b.name = "_build_implicit_gemm_conv_impl";
  PyAbi abi;
  abi.origin = b.name;
  abi.args = std::move(args);
  abi.tailHelper = "emit_param_block";
  abi.tailModule = "kernels/common/_conv_implicit_gemm_common.py";
  b.abis.push_back(abi);
  return b;
}

CppArgList launch(std::vector<KernelArg> args, std::string tail) {
  CppArgList l;
  l.form = CppArgList::Form::Launch;
  l.args = std::move(args);
  l.openTail = std::move(tail);
  return l;
}

std::vector<KernelArg> six() { return {ptr("A"), ptr("B"), ptr("D"), i32("A_bytes"), i32("B_bytes"), i32("D_bytes")}; }
const std::string kPack = "the trailing parameter pack values... (from a std::variant)";

TEST(ConvFormsCompare, TheKnownPrefixesAgreeAndTheRestIsSaid) {
  const PyBuilder builder = openBuilder(six());  // c.abi points into it
  Comparison c = compareCopy(builder, launch(six(), kPack));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  EXPECT_EQ(kernargs_detail::notComparedParts(*c.abi, launch(six(), kPack), 0),
            (std::vector<std::string>{"arguments after #6 are declared by emit_param_block "
                                      "(kernels/common/_conv_implicit_gemm_common.py, not in the tree)",
                                      kPack}));
  EXPECT_EQ(c.notCompared.size(), 2u);
}

TEST(ConvFormsCompare, AnArgumentAddedBeforeTheHelperIsAMismatch) {
  auto seven = six();
  seven.push_back(i32("extra_flag"));
  Comparison c = compareCopy(openBuilder(seven), launch(six(), kPack));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "copy has 6 arguments, builder has 7: missing extra_flag (by_value/4) at #6");
}

TEST(ConvFormsCompare, ADroppedOrWidenedLaunchSlotIsAMismatch) {
  auto five = six();
  five.pop_back();
  EXPECT_EQ(compareCopy(openBuilder(six()), launch(five, kPack)).outcome, Comparison::Outcome::Disagree);
  auto wide = six();
  wide[3].size = 8;
  Comparison c = compareCopy(openBuilder(six()), launch(wide, kPack));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#3 A_bytes: copy by_value/8, builder by_value/4");
}

TEST(ConvFormsCompare, AClosedCopyIsComparedUpToTheBuildersHelper) {
  // A closed copy of all 45 arguments against a builder known up to #6: the first six are
  // compared, the rest is said; a closed copy shorter than six is a count difference.
  std::vector<KernelArg> all = six();
  for (int i = 0; i < 39; ++i) all.push_back(i32("p_" + std::to_string(i)));
  CppArgList closed = launch(all, "");
  closed.form = CppArgList::Form::Static;
  Comparison c = compareCopy(openBuilder(six()), closed);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  ASSERT_EQ(c.notCompared.size(), 1u);
  CppArgList shorter = launch({ptr("A"), ptr("B")}, "");
  shorter.form = CppArgList::Form::Static;
  EXPECT_EQ(compareCopy(openBuilder(six()), shorter).outcome, Comparison::Outcome::Disagree);
}

// Issue 36 item 2: the builder's list open at a call it cannot follow given the IRBuilder (no
// module named: a kernel callback such as emit_wavelet_kloop_dynamic once the helper module is in
// the tree and lacks it), after the helper's block was read (45 known arguments), against the
// launch's six and its trailing pack: the part both state is compared (they agree), never a
// "copy has 6 arguments, builder has 45" mismatch; the same opening with a wrong sixth argument
// is still a mismatch.
TEST(ConvFormsCompare, BothOpenTheBuilderAtACallItCannotFollowComparesThePartBothState) {
  std::vector<KernelArg> all = six();
  for (int i = 0; i < 39; ++i) all.push_back(i32("p_" + std::to_string(i)));
  PyBuilder builder = openBuilder(all);
  builder.abis[0].tailHelper = "emit_wavelet_kloop_dynamic (a call it cannot follow: not known)";
  builder.abis[0].tailModule.clear();
  Comparison c = compareCopy(builder, launch(six(), kPack));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  EXPECT_EQ(c.notCompared.size(), 2u);
  auto wide = six();
  wide[5].size = 8;
  Comparison w = compareCopy(builder, launch(wide, kPack));
  EXPECT_EQ(w.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(w.message, "#5 D_bytes: copy by_value/8, builder by_value/4");
}

}  // namespace
}  // namespace impact
