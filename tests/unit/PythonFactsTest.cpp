// Python builder extraction (DOMAIN.md §2, SPEC R2.1–R2.3): b.param lists, type resolution,
// conditional parameters, early returns, SignatureBuilder chains, robustness.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "extract/Extract.h"
#include "extract/PythonFacts.h"
#include "extract/python/DeclEval.h"
#include "parse/Syntax.h"

namespace impact {
namespace {

constexpr const char* kPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/x.py";

FileFacts run(const std::string& src) { return extractFile(kPath, src); }

const PyBuilder* find(const FileFacts& f, const std::string& name,
                      PyBuilder::Style style = PyBuilder::Style::Params) {
  for (const PyBuilder& b : f.builders)
    if (b.name == name && b.style == style) return &b;
  return nullptr;
}

std::vector<std::string> names(const PyAbi& a) {
  std::vector<std::string> out;
  for (const KernelArg& k : a.args) out.push_back(k.name);
  return out;
}

// The real code's style: attention_dense with an aliased conditional and an early return.
const char* kAttentionDense = R"PY(
"""Dense attention for gfx950."""
from dataclasses import dataclass

from rocke.core.ir import IRBuilder, PtrType, I32, I64, F32
from rocke.core import ir


@dataclass(frozen=True)
class AttentionDenseSpec:
    head_size: int = 128
    persistent: bool = False
    use_sinks: bool = False


def _build_attention_dense_persistent(spec):
    b = IRBuilder("attention_dense_persistent")
    dtype = spec.dtype_ir
    b.param("q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True)
    b.param("num_tiles", I32)
    return b.finish()


def build_attention_dense(spec, *, arch="gfx950"):
    if spec.persistent:
        return _build_attention_dense_persistent(spec)
    b = IRBuilder("attention_dense")
    dtype = spec.dtype_ir
    b.param("q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True)
    b.param("scale", F32)
    b.param("batch", I32)
    b.param("seqlen", ir.I64)
    use_sinks = spec.use_sinks
    if use_sinks:
        b.param("sink_ptr", PtrType(F32, "global"))
    b.param("heads", I32)
    return b.finish()
)PY";

TEST(PythonFacts, BuilderParamsInDeclarationOrder) {
  FileFacts f = run(kAttentionDense);
  EXPECT_TRUE(f.ok) << f.error;
  const PyBuilder* b = find(f, "build_attention_dense");
  ASSERT_NE(b, nullptr);
  ASSERT_GE(b->abis.size(), 1u);
  EXPECT_EQ(b->abis[0].origin, "build_attention_dense");
  EXPECT_EQ(b->abis[0].guard, "");
  EXPECT_EQ(names(b->abis[0]), (std::vector<std::string>{"q_ptr", "k_ptr", "v_ptr", "o_ptr", "scale", "batch",
                                                         "seqlen", "sink_ptr", "heads"}));
  const auto& a = b->abis[0].args;
  EXPECT_EQ(a[0].kind, "global_buffer");
  EXPECT_EQ(a[0].size, 8u);
  EXPECT_TRUE(a[0].resolved);
  EXPECT_EQ(a[0].typeText, "PtrType(dtype, \"global\")");
  EXPECT_EQ(a[4].kind, "by_value");
  EXPECT_EQ(a[4].size, 4u);
  EXPECT_EQ(a[4].typeText, "F32");
  EXPECT_EQ(a[5].size, 4u);
  EXPECT_EQ(a[6].kind, "by_value");
  EXPECT_EQ(a[6].size, 8u);  // ir.I64
  // Ranges: the def's name, the whole def, each b.param call (0-based).
  EXPECT_EQ(b->range.line, 26u);
  EXPECT_EQ(b->range.col, 4u);
  EXPECT_EQ(b->range.endCol, 4u + std::string("build_attention_dense").size());
  EXPECT_EQ(b->bodyRange.line, 26u);
  EXPECT_EQ(b->bodyRange.col, 0u);
  EXPECT_EQ(b->bodyRange.endLine, 42u);
  EXPECT_EQ(a[0].range.line, 31u);
  EXPECT_EQ(a[0].range.col, 4u);
  EXPECT_EQ(a[0].range.endLine, 31u);
  EXPECT_EQ(a[4].range.line, 35u);
  EXPECT_EQ(a[4].range.endCol, 4u + std::string("b.param(\"scale\", F32)").size());
  // the persistent body is a builder of its own too
  const PyBuilder* p = find(f, "_build_attention_dense_persistent");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->abis.size(), 1u);
  EXPECT_EQ(p->abis[0].args.size(), 5u);
}

TEST(PythonFacts, ConditionalParamWithAliasResolved) {
  FileFacts f = run(kAttentionDense);
  const PyBuilder* b = find(f, "build_attention_dense");
  ASSERT_NE(b, nullptr);
  const auto& a = b->abis[0].args;
  ASSERT_EQ(a.size(), 9u);
  EXPECT_TRUE(a[7].conditional);
  EXPECT_EQ(a[7].condition, "spec.use_sinks");
  EXPECT_EQ(a[7].kind, "global_buffer");
  for (size_t i = 0; i < a.size(); ++i)
    if (i != 7) EXPECT_FALSE(a[i].conditional) << a[i].name;
}

TEST(PythonFacts, EarlyReturnAddsTargetAbi) {
  FileFacts f = run(kAttentionDense);
  const PyBuilder* b = find(f, "build_attention_dense");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);
  EXPECT_EQ(b->abis[1].origin, "_build_attention_dense_persistent");
  EXPECT_EQ(b->abis[1].guard, "spec.persistent");
  EXPECT_EQ(names(b->abis[1]), (std::vector<std::string>{"q_ptr", "k_ptr", "v_ptr", "o_ptr", "num_tiles"}));
  for (const PyAbi& a : b->abis) EXPECT_TRUE(a.tailHelper.empty()) << "no list is open: both are of this module";
  // fingerprint covers the target: editing only the persistent body changes it
  std::string edited = kAttentionDense;
  auto at = edited.find("b.param(\"num_tiles\", I32)");
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, std::string("b.param(\"num_tiles\", I32)").size(), "b.param(\"num_tiles\", I64)");
  FileFacts g = run(edited);
  const PyBuilder* b2 = find(g, "build_attention_dense");
  ASSERT_NE(b2, nullptr);
  EXPECT_NE(b->fingerprint, b2->fingerprint);
  EXPECT_EQ(b2->abis[1].args[4].size, 8u);
  // a comment-only edit keeps it
  std::string commented = std::string(kAttentionDense) + "\n# trailing comment\n";
  auto c = commented.find("    use_sinks = spec.use_sinks");
  commented.insert(c, "    # sinks are optional\n");
  FileFacts h = run(commented);
  const PyBuilder* b3 = find(h, "build_attention_dense");
  ASSERT_NE(b3, nullptr);
  EXPECT_EQ(b->fingerprint, b3->fingerprint);
}

// An early return to another module's function is a second list of the builder, under the
// return's condition, open at that function (read through it when the tree holds the module).
TEST(PythonFacts, EarlyReturnToAnotherModuleIsAListOpenThere) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32
from kernels.common.attention_unified import build_unified_fallback


def build_x(spec):
    if spec.fallback:
        return build_unified_fallback(spec)
    b = IRBuilder("x")
    b.param("a_ptr", PtrType(spec.dtype_ir, "global"))
    b.param("n", I32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);
  EXPECT_EQ(names(b->abis[0]), (std::vector<std::string>{"a_ptr", "n"}));
  EXPECT_TRUE(b->abis[0].tailHelper.empty());
  EXPECT_TRUE(b->abis[1].args.empty());
  EXPECT_EQ(b->abis[1].tailHelper, "build_unified_fallback");
  EXPECT_EQ(b->abis[1].tailModule, "kernels/common/attention_unified.py");
  EXPECT_EQ(b->abis[1].origin, "build_unified_fallback");
  EXPECT_EQ(pyextract::guardText(b->abis[1].when), "spec.fallback");
  EXPECT_EQ(pyextract::guardText(b->abis[0].when), "not spec.fallback");
}

TEST(PythonFacts, DispatcherWithoutOwnParamsAndCycles) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, I32, I64


def _build_small(spec):
    b = IRBuilder("small")
    b.param("n", I32)
    return b.finish()


def _build_large(spec):
    b = IRBuilder("large")
    b.param("n", I64)
    b.param("m", I64)
    return b.finish()


def build_dispatch(spec):
    if spec.large:
        return _build_large(spec)
    return _build_small(spec)


def ping(spec):
    if spec.a:
        return pong(spec)
    return build_dispatch(spec)


def pong(spec):
    return ping(spec)


def not_a_builder(spec):
    return helper(spec)
)PY");
  const PyBuilder* d = find(f, "build_dispatch");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->abis.size(), 2u);
  EXPECT_EQ(d->abis[0].origin, "_build_large");
  EXPECT_EQ(d->abis[0].guard, "spec.large");
  EXPECT_EQ(d->abis[1].origin, "_build_small");
  EXPECT_EQ(d->abis[1].guard, "");
  EXPECT_EQ(d->abis[1].args[0].size, 4u);
  // ping -> pong -> ping: the cycle terminates, named: ping is not read (its recursion), never an
  // empty list or left out.
  const PyBuilder* p = find(f, "ping");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->abis.empty());
  EXPECT_NE(p->notRead.find("recursion: ping calls itself"), std::string::npos) << p->notRead;
  EXPECT_EQ(find(f, "not_a_builder"), nullptr);
}

TEST(PythonFacts, TypesResolveThroughAliasesImportsAndModules) {
  FileFacts f = run(R"PY(
import rocke.core.ir
import rocke.core.ir as rir
from rocke.core.ir import IRBuilder, PtrType, F16
from rocke.core.ir import I32 as INT32
from rocke.core.ir import I64
from rocke.core import ir as irm
from kernels.common.types import ACC_FROM_ELSEWHERE

ACC_T = INT32
WIDE_T = ACC_T
HALF_T = F16 if True else F16


def build_types(spec, *, arch="gfx950"):
    b = ir.IRBuilder("types")
    acc = F32
    alias = acc
    ptr_t = PtrType(spec.dtype_ir, "global")
    dtype = spec.dtype_ir
    b.param("p", ptr_t)
    b.param("a", acc)
    b.param("a2", alias)
    b.param("m", ACC_T)
    b.param("w", WIDE_T)
    b.param("i", INT32)
    b.param("l", I64)
    b.param("x", rocke.core.ir.F32)
    b.param("y", rir.BF16)
    b.param("z", irm.I8)
    b.param("h", HALF_T)
    b.param("d", dtype)
    b.param("e", ACC_FROM_ELSEWHERE)
    b.param("g", NOT_BOUND_ANYWHERE)
    b.param("s", spec.scale_t)
    b.param("f8", FP8E4M3)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_types");
  ASSERT_NE(b, nullptr);
  const auto& a = b->abis[0].args;
  ASSERT_EQ(a.size(), 16u);
  auto expect = [&](size_t i, const char* name, const char* kind, uint32_t size) {
    EXPECT_EQ(a[i].name, name);
    EXPECT_EQ(a[i].kind, kind) << name;
    EXPECT_EQ(a[i].size, size) << name;
    EXPECT_TRUE(a[i].resolved) << name << ": " << a[i].unresolvedReason;
  };
  expect(0, "p", "global_buffer", 8);
  expect(1, "a", "by_value", 4);
  expect(2, "a2", "by_value", 4);
  expect(3, "m", "by_value", 4);
  expect(4, "w", "by_value", 4);
  expect(5, "i", "by_value", 4);
  expect(6, "l", "by_value", 8);
  expect(7, "x", "by_value", 4);
  expect(8, "y", "by_value", 2);
  expect(9, "z", "by_value", 1);
  expect(10, "h", "by_value", 2);
  expect(15, "f8", "by_value", 1);
  // never guessed
  EXPECT_FALSE(a[11].resolved);
  EXPECT_EQ(a[11].kind, "");
  EXPECT_EQ(a[11].size, 0u);
  EXPECT_EQ(a[11].unresolvedReason, "type 'dtype' could not be resolved (assigned from spec.dtype_ir)");
  EXPECT_FALSE(a[12].resolved);
  EXPECT_NE(a[12].unresolvedReason.find("ACC_FROM_ELSEWHERE"), std::string::npos);
  EXPECT_NE(a[12].unresolvedReason.find("kernels.common.types"), std::string::npos);
  EXPECT_FALSE(a[13].resolved);
  EXPECT_NE(a[13].unresolvedReason.find("never bound"), std::string::npos);
  EXPECT_FALSE(a[14].resolved);
  EXPECT_EQ(a[14].unresolvedReason, "type 'spec.scale_t' could not be resolved");
}

TEST(PythonFacts, TypeAssignedDifferentlyOnTwoPathsIsNotGuessed) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, F16, F32, I32


def build_acc(spec):
    b = IRBuilder("acc")
    if spec.fp32_acc:
        acc = F32
    else:
        acc = F16
    b.param("acc", acc)
    idx = I32
    if spec.wide:
        idx = I32
    b.param("idx", idx)
    acc = F32
    b.param("acc2", acc)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_acc");
  ASSERT_NE(b, nullptr);
  const auto& a = b->abis[0].args;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_FALSE(a[0].resolved);
  EXPECT_EQ(a[0].size, 0u);
  EXPECT_NE(a[0].unresolvedReason.find("depends on spec.fp32_acc"), std::string::npos) << a[0].unresolvedReason;
  // Not guessed, but kept: F32 where spec.fp32_acc, F16 where not (a variant's spec picks one).
  ASSERT_EQ(a[0].choices.size(), 2u);
  EXPECT_EQ(a[0].choices[0].size, 4u);
  EXPECT_EQ(a[0].choices[1].size, 2u);
  EXPECT_TRUE(a[1].resolved);  // both paths agree
  EXPECT_EQ(a[1].size, 4u);
  EXPECT_TRUE(a[2].resolved);  // the later unconditional assignment holds
  EXPECT_EQ(a[2].size, 4u);
}

TEST(PythonFacts, LoopOverLiteralNamesIsUnrolled) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, I64

_SCALARS = ["m", "n", "k"]


def build_gemm(spec):
    b = IRBuilder("gemm")
    for n in ("a_ptr", "b_ptr", "c_ptr"):
        b.param(n, PtrType(spec.dtype_ir, "global"), noalias=True)
    for s in _SCALARS:
        b.param(s, I32)
    for name, ty in (("lda", I64), ("ldb", I64)):
        b.param(name, ty)
    for i in range(spec.extra):
        b.param(f"extra{i}", I32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_gemm");
  ASSERT_NE(b, nullptr);
  const auto& a = b->abis[0].args;
  EXPECT_EQ(names(b->abis[0]), (std::vector<std::string>{"a_ptr", "b_ptr", "c_ptr", "m", "n", "k", "lda", "ldb",
                                                         "f\"extra{i}\""}));
  ASSERT_EQ(a.size(), 9u);
  EXPECT_EQ(a[1].kind, "global_buffer");
  EXPECT_EQ(a[3].size, 4u);
  EXPECT_EQ(a[6].size, 8u);
  EXPECT_EQ(a[6].typeText, "I64");
  for (size_t i = 0; i < 8; ++i) EXPECT_TRUE(a[i].resolved) << a[i].name << ": " << a[i].unresolvedReason;
  EXPECT_FALSE(a[8].resolved);
  EXPECT_NE(a[8].unresolvedReason.find("not a literal"), std::string::npos);
  EXPECT_EQ(a[8].kind, "by_value");  // the type is still known
  // every unrolled arg points at the one b.param call
  EXPECT_EQ(a[0].range, a[2].range);
}

TEST(PythonFacts, WithTryIfTrueAreNotConditional_ElseAndNestedAre) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, I64, F32


def build_cond(spec, *, arch="gfx950"):
    b = IRBuilder("cond")
    causal = spec.mask == "causal"
    ragged = spec.ragged
    with b.scope("args"):
        b.param("w", I32)
    try:
        b.param("t", I32)
    except ValueError:
        b.param("e", I32)
    finally:
        b.param("fin", I32)
    if True:
        b.param("always", I32)
    if causal:
        b.param("c", I32)
    else:
        b.param("nc", I32)
    if ragged:
        if spec.paged:
            b.param("pg", PtrType(I32, "global"))
        elif arch == "gfx942":
            b.param("old", I32)
    if True:
        if not ragged:
            with open("x"):
                b.param("nr", F32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_cond");
  ASSERT_NE(b, nullptr);
  const auto& a = b->abis[0].args;
  ASSERT_EQ(names(b->abis[0]),
            (std::vector<std::string>{"w", "t", "e", "fin", "always", "c", "nc", "pg", "old", "nr"}));
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(a[i].conditional) << a[i].name;
    EXPECT_EQ(a[i].condition, "") << a[i].name;
  }
  EXPECT_TRUE(a[5].conditional);
  EXPECT_EQ(a[5].condition, "spec.mask == \"causal\"");
  EXPECT_EQ(a[6].condition, "not (spec.mask == \"causal\")");
  EXPECT_EQ(a[7].condition, "spec.ragged and spec.paged");
  EXPECT_EQ(a[8].condition, "spec.ragged and not spec.paged and arch == \"gfx942\"");
  EXPECT_EQ(a[9].condition, "not spec.ragged");
  EXPECT_TRUE(a[9].conditional);
}

TEST(PythonFacts, MethodsAndFunctionsUnderModuleLevelBlocks) {
  FileFacts f = run(R"PY(
import rocke.core.ir as ir

try:
    from rocke.core.ir import BF16
except ImportError:
    BF16 = ir.BF16

if ir is not None:
    def build_guarded(spec):
        builder = ir.IRBuilder("guarded")
        builder.param("x_ptr", ir.PtrType(BF16, "global"))
        builder.param("n", BF16)
        return builder.finish()


class Gfx950Tuning:
    def launch_block(self):
        return (256, 1, 1)

    @staticmethod
    def build(spec):
        kb = rocke.core.ir.IRBuilder("tuning")
        kb.param("y", ir.F16)
        return kb.finish()


with open(__file__):
    def build_in_with(spec):
        b = ir.IRBuilder("w")
        b.param("z", ir.I1)
        return b.finish()
)PY");
  const PyBuilder* g = find(f, "build_guarded");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(names(g->abis[0]), (std::vector<std::string>{"x_ptr", "n"}));
  EXPECT_EQ(g->abis[0].args[0].kind, "global_buffer");
  EXPECT_EQ(g->abis[0].args[1].size, 2u);  // both import paths agree: BF16
  EXPECT_TRUE(g->abis[0].args[1].resolved) << g->abis[0].args[1].unresolvedReason;
  const PyBuilder* m = find(f, "Gfx950Tuning.build");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->abis[0].args[0].name, "y");
  EXPECT_EQ(m->abis[0].args[0].size, 2u);
  EXPECT_EQ(find(f, "Gfx950Tuning.launch_block"), nullptr);
  const PyBuilder* w = find(f, "build_in_with");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->abis[0].args[0].size, 1u);
}

TEST(PythonFacts, WithAsBuilderLoopTypesAndMethodEarlyReturn) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, I64, F32


def build_with(spec):
    with IRBuilder("w") as kb:
        for t in spec.types:
            kb.param("t", t)
        kb.param("s", F32 if spec.fp32 else I64)
        kb.param("u", F32 if spec.fp32 else F32)
        return kb.finish()


class Attention:
    def _persistent(self, spec):
        b = IRBuilder("p")
        b.param("tiles", I32)
        return b.finish()

    def build(self, spec):
        if spec.persistent:
            return self._persistent(spec)
        b = IRBuilder("a")
        b.param("q_ptr", PtrType(F32, "global"))
        return b.finish()
)PY");
  const PyBuilder* w = find(f, "build_with");
  ASSERT_NE(w, nullptr);
  const auto& a = w->abis[0].args;
  ASSERT_EQ(names(w->abis[0]), (std::vector<std::string>{"t", "s", "u"}));
  EXPECT_FALSE(a[0].resolved);
  EXPECT_EQ(a[0].unresolvedReason,
            "type 't' could not be resolved (bound by a for loop over spec.types); declared in a loop over "
            "spec.types, whose length is not known");
  EXPECT_FALSE(a[0].conditional);  // a loop is not a condition
  EXPECT_FALSE(a[1].resolved);
  EXPECT_NE(a[1].unresolvedReason.find("depends on spec.fp32"), std::string::npos);
  EXPECT_TRUE(a[2].resolved);
  EXPECT_EQ(a[2].size, 4u);
  const PyBuilder* m = find(f, "Attention.build");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->abis.size(), 2u);
  EXPECT_EQ(m->abis[1].origin, "Attention._persistent");
  EXPECT_EQ(m->abis[1].guard, "spec.persistent");
  EXPECT_EQ(names(m->abis[1]), (std::vector<std::string>{"tiles"}));
}

TEST(PythonFacts, ParamOnSomethingElseIsNotABuilder) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, I32


def helper(b, spec):
    b.param("n", I32)


def also_not(spec):
    parser = argparse.ArgumentParser()
    parser.param("n", I32)
)PY");
  EXPECT_TRUE(f.builders.empty());
}

TEST(PythonFacts, SignatureBuilderChain) {
  FileFacts f = run(R"PY(
from rocke.core.ir import BF16

_COMMON = [
    {"name": "o_ptr", "type": "ptr<bf16,global>"},
    {"name": "stride_o", "type": "i64"},
]


def attention_dense_signature(spec):
    from rocke.helpers.spec import SignatureBuilder

    dtype = spec.dtype
    sig = (
        SignatureBuilder()
        .ptr("q_ptr", dtype)
        .ptr("k_ptr", dtype)
        .scalar("scale", "f32")
        .scalar("batch", "i32")
    )
    if spec.use_sinks:
        sig = sig.ptr("sink_ptr", "f32")
    sig = sig.scalar("seqlen", "i64").scalar("h", "f16").scalar("hb", "bf16").scalar("acc", BF16)
    sig.extend([("lse_ptr", "ptr<f32,global>"), ("flag", "i8")])
    sig.extend(_COMMON)
    sig.extend(spec.extra_args)
    return sig.build()


def gemm_signature(spec):
    from rocke.helpers import spec as spec_helpers
    return spec_helpers.SignatureBuilder().ptr("a", "bf16").scalar("m", "i32").build()
)PY");
  EXPECT_TRUE(f.ok) << f.error;
  const PyBuilder* s = find(f, "attention_dense_signature", PyBuilder::Style::SignatureBuilder);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->abis.size(), 1u);
  EXPECT_EQ(s->abis[0].origin, "attention_dense_signature");
  EXPECT_EQ(names(s->abis[0]),
            (std::vector<std::string>{"q_ptr", "k_ptr", "scale", "batch", "sink_ptr", "seqlen", "h", "hb", "acc",
                                      "lse_ptr", "flag", "o_ptr", "stride_o", "spec.extra_args"}));
  const auto& a = s->abis[0].args;
  auto expect = [&](size_t i, const char* kind, uint32_t size) {
    EXPECT_EQ(a[i].kind, kind) << a[i].name;
    EXPECT_EQ(a[i].size, size) << a[i].name;
    EXPECT_TRUE(a[i].resolved) << a[i].name << ": " << a[i].unresolvedReason;
  };
  expect(0, "global_buffer", 8);
  expect(1, "global_buffer", 8);
  expect(2, "by_value", 4);
  expect(3, "by_value", 4);
  expect(4, "global_buffer", 8);
  expect(5, "by_value", 8);
  expect(6, "by_value", 2);
  expect(7, "by_value", 2);
  expect(8, "by_value", 2);
  expect(9, "global_buffer", 8);
  expect(10, "by_value", 1);
  expect(11, "global_buffer", 8);
  expect(12, "by_value", 8);
  EXPECT_FALSE(a[13].resolved);
  EXPECT_TRUE(a[4].conditional);
  EXPECT_EQ(a[4].condition, "spec.use_sinks");
  EXPECT_FALSE(a[5].conditional);
  EXPECT_EQ(a[2].typeText, "f32");
  EXPECT_EQ(a[13].unresolvedReason, "extend(spec.extra_args) of a list it cannot read");
  // an entry's range is where its name is written
  EXPECT_EQ(a[2].range.line, 17u);
  EXPECT_EQ(a[2].range.col, 16u);
  EXPECT_EQ(a[2].range.endLine, 17u);
  EXPECT_EQ(find(f, "attention_dense_signature"), nullptr);  // no Params-style builder

  const PyBuilder* g = find(f, "gemm_signature", PyBuilder::Style::SignatureBuilder);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(names(g->abis[0]), (std::vector<std::string>{"a", "m"}));
  EXPECT_EQ(g->abis[0].args[1].size, 4u);
}

// A restatement is what the function returns, however it builds it: a list of entries appended
// in a loop over a table, one under a condition, entries made by a helper; beside a builder that
// declares the same names itself it is a copy (the stop-35 reader took only a literal list).
TEST(PythonFacts, ARestatementBuiltInALoopIsACopyWithItsConditions) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16, I32, I64

_ARGS = (("q_ptr", "ptr<bf16,global>"), ("n", "i32"))


def _entry(name, ty):
    return {"name": name, "type": ty}


def x_signature(spec):
    out = []
    for name, ty in _ARGS:
        out.append(_entry(name, ty))
    if spec.wide:
        out.append({"name": "w", "type": "i64"})
    return out


def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    b.param("n", I32)
    if spec.wide:
        b.param("w", I64)
    b.ret()
    return b.kernel
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& c = f.lists[0];
  EXPECT_EQ(c.symbol, "x_signature");
  ASSERT_EQ(c.args.size(), 3u);
  EXPECT_EQ(c.args[0].name, "q_ptr");
  EXPECT_EQ(c.args[0].kind, "global_buffer");
  EXPECT_EQ(c.args[1].size, 4u);
  EXPECT_EQ(c.args[2].name, "w");
  EXPECT_EQ(c.args[2].size, 8u);
  EXPECT_TRUE(c.args[2].conditional);
  EXPECT_EQ(c.args[2].condition, "spec.wide");
  EXPECT_FALSE(c.args[1].conditional);
  EXPECT_EQ(compareCopy(*b, c).outcome, Comparison::Outcome::Agree);
}

TEST(PythonFacts, ExtendWithDictEntries) {
  FileFacts f = run(R"PY(
from rocke.helpers.spec import SignatureBuilder


def reduce_signature(spec):
    sig = SignatureBuilder()
    sig = sig.extend([
        {"name": "partial_ptr", "type": "ptr<f32,global>"},
        {"name": "out_ptr", "type": "ptr<bf16,global>"},
        {"name": "num_splits", "type": "i32"},
        {"name": "weird", "type": "vec4<f32>"},
    ])
    if spec.with_lse:
        sig = sig.extend([("lse_ptr", "ptr<f32,global>")])
    return sig.build()
)PY");
  const PyBuilder* s = find(f, "reduce_signature", PyBuilder::Style::SignatureBuilder);
  ASSERT_NE(s, nullptr);
  const auto& a = s->abis[0].args;
  ASSERT_EQ(names(s->abis[0]),
            (std::vector<std::string>{"partial_ptr", "out_ptr", "num_splits", "weird", "lse_ptr"}));
  EXPECT_EQ(a[0].kind, "global_buffer");
  EXPECT_EQ(a[2].kind, "by_value");
  EXPECT_EQ(a[2].size, 4u);
  EXPECT_FALSE(a[3].resolved);
  EXPECT_EQ(a[3].size, 0u);
  EXPECT_TRUE(a[4].conditional);
  EXPECT_EQ(a[4].condition, "spec.with_lse");
  EXPECT_EQ(a[0].range.line, 7u);  // the entry's name
  EXPECT_EQ(a[0].range.col, 17u);
}

TEST(PythonFacts, CallsDirectlyOnATree) {
  auto tree = SyntaxTree::parse(Lang::Python, R"PY(
from rocke.core.ir import IRBuilder, I32
def build_one(spec):
    b = IRBuilder("one")
    b.param(name="n", type=I32)
    return b.finish()
)PY");
  FileFacts f;
  extractPython(*tree, f);
  ASSERT_EQ(f.builders.size(), 1u);
  EXPECT_EQ(f.builders[0].name, "build_one");
  ASSERT_EQ(f.builders[0].abis[0].args.size(), 1u);
  EXPECT_EQ(f.builders[0].abis[0].args[0].name, "n");
  EXPECT_EQ(f.builders[0].abis[0].args[0].size, 4u);
  EXPECT_EQ(f.builders[0].fingerprint, f.builders[0].fingerprint);
  EXPECT_NE(f.builders[0].fingerprint, 0u);
}

TEST(PythonFacts, SyntaxErrorsStillExtractWhatTheyCan) {
  FileFacts f = run(R"PY(
from rocke.core.ir import IRBuilder, I32, F32


def build_ok(spec):
    b = IRBuilder("ok")
    b.param("n", I32)
    b.param("s", F32)
    return b.finish()


def broken(spec:
    x = = 3
)PY");
  EXPECT_FALSE(f.ok);
  const PyBuilder* b = find(f, "build_ok");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(names(b->abis[0]), (std::vector<std::string>{"n", "s"}));
}

TEST(PythonFacts, GarbageAndDeepNestingNeverCrash) {
  std::vector<std::string> inputs = {
      "",
      "def",
      "b.param(",
      "def f(:\n  b = IRBuilder(\n  b.param('x', \n",
      "\x01\x02 def ((((( ]]]] b.param b.param",
      "for n in n: b.param(n, n)\n",
      "def f(s):\n    a = a\n    b = IRBuilder()\n    b.param('x', a)\n",
      "def f(s):\n    x = y\n    y = x\n    b = IRBuilder()\n    b.param(x, y)\n",
  };
  // deep nesting: expressions, ifs, alias chains
  std::string deepExpr = "def f(s):\n    b = IRBuilder('d')\n    b.param('x', " + std::string(3000, '(') + "I32" +
                         std::string(3000, ')') + ")\n";
  inputs.push_back(deepExpr);
  std::string deepIf = "def f(s):\n    b = IRBuilder('d')\n";
  for (int i = 0; i < 300; ++i) deepIf += std::string(4 * (i + 1), ' ') + "if s.c" + std::to_string(i) + ":\n";
  deepIf += std::string(4 * 301, ' ') + "b.param('deep', I32)\n";
  inputs.push_back(deepIf);
  std::string chain = "from rocke.helpers.spec import SignatureBuilder\ndef s_signature(spec):\n"
                      "    sig = SignatureBuilder()\n";
  for (int i = 0; i < 2000; ++i)
    chain += "    if spec.f" + std::to_string(i) + ":\n        sig = sig.scalar('a" + std::to_string(i) + "', 'i32')\n";
  chain += "    return sig.build()\n";
  inputs.push_back(chain);
  std::string aliases = "from rocke.core.ir import IRBuilder, I32\nT0 = I32\n";
  for (int i = 1; i < 1000; ++i) aliases += "T" + std::to_string(i) + " = T" + std::to_string(i - 1) + "\n";
  aliases += "def build_a(s):\n    b = IRBuilder('a')\n    b.param('x', T999)\n    b.param('y', T5)\n";
  inputs.push_back(aliases);
  std::string bigLoop = "from rocke.core.ir import IRBuilder, I32\ndef build_l(s):\n    b = IRBuilder('l')\n"
                        "    for a in (" ;
  for (int i = 0; i < 100; ++i) bigLoop += "'a" + std::to_string(i) + "',";
  bigLoop += "):\n        for c in (";
  for (int i = 0; i < 100; ++i) bigLoop += "'c" + std::to_string(i) + "',";
  bigLoop += "):\n            for d in ('x', 'y', 'z', 'w', 'v', 'u'):\n                b.param(a + c + d, I32)\n";
  inputs.push_back(bigLoop);
  std::string blowup = "from rocke.core.ir import IRBuilder, I32\ndef build_b(spec):\n    x0 = spec.flag\n";
  for (int i = 1; i < 40; ++i)
    blowup += "    x" + std::to_string(i) + " = x" + std::to_string(i - 1) + " and x" + std::to_string(i - 1) + "\n";
  blowup += "    b = IRBuilder('b')\n    if x39:\n        b.param('c', I32)\n";
  inputs.push_back(blowup);
  for (const std::string& in : inputs) {
    FileFacts f = run(in);
    EXPECT_EQ(f.kind, FileKind::Python);
    for (const PyBuilder& b : f.builders) EXPECT_FALSE(b.name.empty());
  }
  // the long chain still reads its arguments, each conditional
  FileFacts c = run(chain);
  const PyBuilder* s = find(c, "s_signature", PyBuilder::Style::SignatureBuilder);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->abis[0].args.size(), 2000u);
  EXPECT_EQ(s->abis[0].args[1999].condition, "spec.f1999");
  EXPECT_EQ(s->abis[0].args[1999].size, 4u);
  FileFacts al = run(aliases);
  const PyBuilder* ab = find(al, "build_a");
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(ab->abis[0].args[1].size, 4u);  // a short chain resolves
}

}  // namespace
}  // namespace impact
