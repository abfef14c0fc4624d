// Python restatements of a builder's ABI (SPEC R2.1–R2.3): in a module with a b.param builder, a
// function returning a SignatureBuilder chain or a literal list of {name, type} dicts is a copy of
// that builder, extracted as an argument list and paired with the module's own builder.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kDense = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/attention_dense.py";
constexpr const char* kOther = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";

// The real gfx942 module's shape: a public builder delegating to a helper that declares the
// parameters, and `attention_dense_signature`, a SignatureBuilder chain restating them.
const char* kModule = R"PY(
from rocke.core.ir import F32, I32, IRBuilder, PtrType

_DTYPE_IR = {"bf16": BF16}


def build_attention_dense(spec, *, arch="gfx942"):
    ok, why = supports_attention_dense(spec, arch=arch)
    if not ok:
        raise ValueError(why)
    return _build_attention_dense_single_buffer(spec)


def _build_attention_dense_single_buffer(spec):
    dtype = _DTYPE_IR[spec.dtype]
    b = IRBuilder("attention_dense")
    q = b.param("q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16)
    k = b.param("k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16)
    o = b.param("o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True, align=16)
    scale = b.param("scale", F32)
    b.ret()
    return b.kernel


def attention_dense_signature(spec):
    """ABI signature: q/k/o pointers + f32 scale."""
    from rocke.helpers.spec import SignatureBuilder

    return (
        SignatureBuilder()
        .ptr("q_ptr", spec.dtype)
        .ptr("k_ptr", spec.dtype)
        .ptr("o_ptr", spec.dtype)
        .scalar("scale", "f32")
        .build()
    )


def attention_dense_args(spec):
    return [
        {"name": "q_ptr", "type": "ptr<bf16,global>"},
        {"name": "k_ptr", "type": "ptr"},
        {"name": "o_ptr", "type": "ptr<bf16,global>"},
        {"name": "scale", "type": "f32"},
        {"name": "rows", "type": "i32"},
        {"name": "stride", "type": "i64"},
    ]


def attention_dense_grid(spec):
    return [spec.batch, 1, 1]


def attention_dense_meta(spec):
    return [{"kind": "q"}, {"kind": "k"}]
)PY";

const CppArgList* list(const FileFacts& f, const std::string& symbol) {
  for (const auto& l : f.lists)
    if (l.symbol == symbol) return &l;
  return nullptr;
}

std::vector<std::string> kinds(const CppArgList& l) {
  std::vector<std::string> out;
  for (const auto& a : l.args) out.push_back(a.name + ":" + kindSize(a));
  return out;
}

TEST(PythonCopies, SignatureChainInABuildersModuleIsACopyNotABuilder) {
  FileFacts f = extractFile(kDense, kModule);
  ASSERT_TRUE(f.ok) << f.error;
  const CppArgList* sig = list(f, "attention_dense_signature");
  ASSERT_NE(sig, nullptr);
  EXPECT_TRUE(sig->named);
  EXPECT_EQ(sig->range.line, 24u);  // the def's name (0-based)
  EXPECT_EQ(kinds(*sig), (std::vector<std::string>{"q_ptr:global_buffer/8", "k_ptr:global_buffer/8",
                                                    "o_ptr:global_buffer/8", "scale:by_value/4"}));
  for (const auto& b : f.builders) EXPECT_NE(b.name, "attention_dense_signature") << "a copy, not a builder";
  // Both b.param builders are still builders.
  std::vector<std::string> builders;
  for (const auto& b : f.builders) builders.push_back(b.name);
  EXPECT_EQ(builders, (std::vector<std::string>{"build_attention_dense", "_build_attention_dense_single_buffer"}));
}

TEST(PythonCopies, LiteralListOfNameTypeDictsIsACopyWithTypesFromTheStrings) {
  FileFacts f = extractFile(kDense, kModule);
  const CppArgList* args = list(f, "attention_dense_args");
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(kinds(*args),
            (std::vector<std::string>{"q_ptr:global_buffer/8", "k_ptr:global_buffer/8", "o_ptr:global_buffer/8",
                                      "scale:by_value/4", "rows:by_value/4", "stride:by_value/8"}));
  EXPECT_EQ(args->args[0].range.line, 40u);  // the dict element
  // Lists that are not {name, type} entries are no copies.
  EXPECT_EQ(list(f, "attention_dense_grid"), nullptr);
  EXPECT_EQ(list(f, "attention_dense_meta"), nullptr);
  EXPECT_EQ(f.lists.size(), 2u);
}

TEST(PythonCopies, SignatureFactoryWithoutABuilderInItsModuleStaysABuilder) {
  FileFacts f = extractFile(kOther, R"PY(
from rocke.helpers.spec import SignatureBuilder


def gemm_signature(spec):
    return SignatureBuilder().ptr("a", "bf16").scalar("m", "i32").build()


def gemm_args(spec):
    return [{"name": "a", "type": "ptr"}]
)PY");
  EXPECT_TRUE(f.lists.empty());
  ASSERT_EQ(f.builders.size(), 1u);
  EXPECT_EQ(f.builders[0].name, "gemm_signature");
  EXPECT_EQ(f.builders[0].style, PyBuilder::Style::SignatureBuilder);
}

TEST(PythonCopies, ABuilderDerivingItsListFromTheSignatureLeavesTheSignatureTheDefinition) {
  // `for entry in sig(spec): b.param(entry["name"], ...)`: the builder restates nothing; the
  // SignatureBuilder factory stays the builder that copies pair with (R2.3).
  FileFacts f = extractFile(kOther, R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, F32


def rms_norm_signature(spec):
    from rocke.helpers.spec import SignatureBuilder

    return SignatureBuilder().ptr("x_ptr", spec.dtype).scalar("rows", "i32").build()


def build_rms_norm(spec):
    b = IRBuilder("rms_norm")
    for entry in rms_norm_signature(spec):
        b.param(entry["name"], PtrType(F32, "global"))
    return b.finish()
)PY");
  EXPECT_TRUE(f.lists.empty());
  bool sigBuilder = false;
  for (const auto& b : f.builders)
    sigBuilder = sigBuilder || (b.name == "rms_norm_signature" && b.style == PyBuilder::Style::SignatureBuilder);
  EXPECT_TRUE(sigBuilder);
}

TreeFacts tree(std::vector<std::pair<std::string, std::string>> files) {
  TreeFacts t;
  for (auto& [p, c] : files) t.files[p] = std::make_shared<FileFacts>(extractFile(p, c));
  return t;
}

TEST(PythonCopies, PairsWithItsOwnModulesBuilderAndComparesLikeACppCopy) {
  // Another module's builder with the same names must not claim the copy.
  const char* other = R"PY(
from rocke.core.ir import F32, IRBuilder, PtrType, BF16


def build_attention_dense(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    b.param("k_ptr", PtrType(BF16, "global"))
    b.param("o_ptr", PtrType(BF16, "global"))
    b.param("scale", F32)
    return b.kernel
)PY";
  std::string grown = kModule;
  grown.replace(grown.find("    scale = b.param(\"scale\", F32)\n"), 0, "    window = b.param(\"window_left\", I32)\n");
  TreeFacts t = tree({{kOther, other}, {kDense, grown}});
  auto pairs = pairKernargs(t, Layout{});
  const KernargsPair* sig = nullptr;
  for (const auto& p : pairs)
    if (p.copy.list->symbol == "attention_dense_signature") sig = &p;
  ASSERT_NE(sig, nullptr);
  ASSERT_TRUE(sig->builder);
  EXPECT_EQ(sig->builder->path, kDense);
  EXPECT_EQ(sig->builder->builder->name, "build_attention_dense");
  Comparison c = compareCopy(*sig->builder->builder, *sig->copy.list);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "copy has 4 arguments, builder has 5: missing window_left (by_value/4) at #3");
}

}  // namespace
}  // namespace impact
