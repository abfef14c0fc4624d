// Guards as structure (SPEC R2.2, issue 16 forms 3 and 6): the reader (or / parentheses / in /
// calls / comparison chains / aliases / a one-return helper read through), the relations
// between two guards, a guard against a variant's spec, early-return guards as the `when` of a
// builder's lists, and a builder's hooks; on real conditions of the real files and on a module in
// the newest real gfx950 dense form.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "contracts/Kernargs.h"
#include "contracts/kernargs/Guards.h"
#include "contracts/kernargs/OpenTails.h"
#include "extract/Extract.h"
#include "support/FixtureRepo.h"
#include "support/Gfx950DenseNewest.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

using testing::kGfx950DenseNewest;
using testing::kGfx950DenseNewestPath;

constexpr const char* kPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/guarded.py";

const PyBuilder* builder(const FileFacts& f, const std::string& name) {
  for (const auto& b : f.builders)
    if (b.name == name) return &b;
  return nullptr;
}

const CppArgList* list(const FileFacts& f, const std::string& symbol) {
  for (const auto& l : f.lists)
    if (l.symbol == symbol) return &l;
  return nullptr;
}

const KernelArg* arg(const PyAbi& abi, const std::string& name) {
  for (const auto& a : abi.args)
    if (a.name == name) return &a;
  return nullptr;
}

const KernelArg* arg(const CppArgList& l, const std::string& name) {
  for (const auto& a : l.args)
    if (a.name == name) return &a;
  return nullptr;
}

const char* kGuarded = R"PY(
from rocke.core.ir import BF16, I32, IRBuilder, PtrType


def _gate(spec, arch):
    wide = spec.wide
    return wide and arch == "gfx950"


def build_guarded(spec):
    use_sinks = spec.use_sinks
    mode = spec.mode
    b = IRBuilder("guarded")
    q = b.param("q_ptr", PtrType(BF16, "global"), noalias=True, readonly=True, align=16)
    if (spec.varlen or spec.paged) and spec.dtype in ("bf16", "f16"):
        a0 = b.param("a0", I32)
    if not use_sinks and 0 < spec.window <= 128:
        a1 = b.param("a1", I32)
    if mode != "dense":
        a2 = b.param("a2", I32)
    if spec.dtype not in ("f32",):
        a3 = b.param("a3", I32)
    if _gate(spec, "gfx950") or use_sinks:
        a4 = b.param("a4", I32)
    for n in ("x", "y"):
        if n == "x":
            b.param(n, I32)
    b.ret()
    return b.kernel
)PY";

TEST(GuardReader, ReadsOrParenthesesInComparisonChainsAndAliasesFromTheTree) {
  FileFacts f = extractFile(kPath, kGuarded);
  const PyBuilder* b = builder(f, "build_guarded");
  ASSERT_NE(b, nullptr);
  const PyAbi& abi = b->abis[0];
  auto key = [&](const char* n) {
    const KernelArg* a = arg(abi, n);
    return a ? guardKey(a->guard) : std::string("<no argument ") + n + ">";
  };
  EXPECT_EQ(key("q_ptr"), "True");
  EXPECT_EQ(key("a0"), "((spec.paged or spec.varlen) and spec.dtype in ('bf16', 'f16'))");
  EXPECT_EQ(key("a1"), "(0 < spec.window and not spec.use_sinks and spec.window <= 128)");
  EXPECT_EQ(key("a2"), "spec.mode != 'dense'");
  EXPECT_EQ(key("a3"), "spec.dtype not in ('f32')");
  // _gate is evaluated with its arguments: `wide and arch == "gfx950"` for arch "gfx950" is spec.wide.
  EXPECT_EQ(key("a4"), "(spec.use_sinks or spec.wide)");
  EXPECT_EQ(key("x"), "True");  // the literal loop variable: `n == "x"` holds for "x", unconditionally
  // The texts printed in rows: aliases resolved, a comparison chain as its parts.
  EXPECT_EQ(arg(abi, "a1")->condition, "not spec.use_sinks and 0 < spec.window and spec.window <= 128");
}

TEST(GuardReader, EvaluatesAGuardAgainstAVariantsSpec) {
  FileFacts f = extractFile(kPath, kGuarded);
  const PyAbi& abi = builder(f, "build_guarded")->abis[0];
  auto eval = [&](const char* n, std::map<std::string, std::string> spec) {
    return evalGuard(arg(abi, n)->guard, spec);
  };
  EXPECT_EQ(eval("a0", {{"varlen", "true"}, {"paged", "false"}, {"dtype", "bf16"}}), Truth::True);
  EXPECT_EQ(eval("a0", {{"varlen", "false"}, {"paged", "false"}, {"dtype", "bf16"}}), Truth::False);
  EXPECT_EQ(eval("a0", {{"varlen", "true"}, {"dtype", "f32"}}), Truth::False);
  EXPECT_EQ(eval("a0", {{"dtype", "bf16"}}), Truth::Unknown);  // varlen and paged not stated
  EXPECT_EQ(eval("a1", {{"use_sinks", "false"}, {"window", "64"}}), Truth::True);
  EXPECT_EQ(eval("a1", {{"use_sinks", "false"}, {"window", "256"}}), Truth::False);
  EXPECT_EQ(eval("a1", {{"use_sinks", "true"}}), Truth::False);
  EXPECT_EQ(eval("a2", {{"mode", "dense"}}), Truth::False);
  EXPECT_EQ(eval("a2", {{"mode", "paged"}}), Truth::True);
  EXPECT_EQ(eval("a3", {{"dtype", "f32"}}), Truth::False);
  EXPECT_EQ(eval("a3", {{"dtype", "bf16"}}), Truth::True);
  EXPECT_EQ(eval("a4", {{"use_sinks", "true"}}), Truth::True);
  EXPECT_EQ(eval("a4", {{"use_sinks", "false"}}), Truth::Unknown);  // the call is not evaluated
}

Guard parse(const std::string& cond) {
  std::string src = "from rocke.core.ir import I32, IRBuilder\n\n\ndef build_one(spec):\n    b = IRBuilder(\"one\")\n"
                    "    if " + cond + ":\n        b.param(\"x\", I32)\n    return b.kernel\n";
  FileFacts f = extractFile(kPath, src);
  const PyBuilder* b = builder(f, "build_one");
  if (!b || b->abis.empty() || b->abis[0].args.empty()) return Guard{};
  return b->abis[0].args[0].guard;
}

TEST(GuardRelations, SameImpliedDisjointAndUnknown) {
  EXPECT_EQ(relateGuards(parse("spec.a and spec.b"), parse("spec.b and spec.a")), GuardRelation::Same);
  EXPECT_EQ(relateGuards(parse("spec.x != 'a'"), parse("not spec.x == 'a'")), GuardRelation::Same);
  EXPECT_EQ(relateGuards(parse("not (spec.a or spec.b)"), parse("not spec.a and not spec.b")), GuardRelation::Same);
  EXPECT_EQ(relateGuards(parse("spec.a and spec.b"), parse("spec.a")), GuardRelation::Implies);
  EXPECT_EQ(relateGuards(parse("spec.a"), parse("spec.a or spec.mode in ('x', 'y')")), GuardRelation::Implies);
  EXPECT_EQ(relateGuards(parse("spec.a"), parse("spec.a and helper(spec)")), GuardRelation::ImpliedBy);
  EXPECT_EQ(relateGuards(parse("spec.a"), parse("not spec.a")), GuardRelation::Disjoint);
  EXPECT_EQ(relateGuards(parse("spec.a"), parse("spec.b")), GuardRelation::Unknown);
  // Calls are opaque: the same text is the same guard, another text is unknown.
  EXPECT_EQ(relateGuards(parse("helper(spec)"), parse("helper(spec)")), GuardRelation::Same);
  EXPECT_EQ(relateGuards(parse("helper(spec)"), parse("helper(spec, 2)")), GuardRelation::Unknown);
}

// The newest real gfx950 dense form: the own body's list holds when the persistent early return
// is not taken; _has_shape_params(spec) is read through to `not spec.persistent`; aliases resolved.
TEST(GuardReader, NewestDenseFormEarlyReturnAndOneReturnHelper) {
  FileFacts f = extractFile(kGfx950DenseNewestPath, kGfx950DenseNewest);
  const PyBuilder* b = builder(f, "build_attention_dense");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);
  EXPECT_EQ(guardKey(b->abis[0].when), "not spec.persistent");
  EXPECT_EQ(b->abis[0].guard, "");
  EXPECT_EQ(guardKey(b->abis[1].when), "spec.persistent");
  EXPECT_EQ(b->abis[1].guard, "spec.persistent");
  EXPECT_EQ(b->abis[0].args.size(), 14u);
  EXPECT_EQ(guardKey(arg(b->abis[0], "sink_ptr")->guard), "spec.use_sinks");
  EXPECT_EQ(guardKey(arg(b->abis[0], "cu_seqlens_kv")->guard), "spec.varlen");
  EXPECT_EQ(guardKey(arg(b->abis[0], "block_table_stride")->guard), "spec.paged");
  EXPECT_FALSE(arg(b->abis[0], "seqlen_kv")->conditional);
  const CppArgList* sig = list(f, "attention_dense_signature");
  ASSERT_NE(sig, nullptr);
  ASSERT_EQ(sig->args.size(), 14u);
  EXPECT_EQ(arg(*sig, "batch")->condition, "not spec.persistent");  // the helper's condition, evaluated
  EXPECT_EQ(guardKey(arg(*sig, "batch")->guard), "not spec.persistent");
  EXPECT_EQ(guardKey(arg(*sig, "kv_lens")->guard), "spec.paged");
  EXPECT_FALSE(arg(*sig, "scale")->conditional);
}

std::string realFile(const std::string& rel) {
  std::string shared = testing::sharedDir();
  if (shared.empty()) return "";
  std::ifstream in(shared + "/real-data/" + rel);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The condition of the first `if <cond>:` line of a real file that starts with `prefix`.
std::string realCondition(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t at = line.find_first_not_of(' ');
    if (at == std::string::npos || line.compare(at, prefix.size(), prefix) != 0) continue;
    size_t end = line.rfind(':');
    return line.substr(at + 3, end - at - 3);
  }
  return "";
}

constexpr const char* kCpuDense = "rocke-cpu/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
constexpr const char* kCpuTiled = "rocke-cpu/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_tiled_2d.py";
constexpr const char* kConvGemm =
    "rocm-libraries/dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_implicit_gemm.py";

TEST(GuardReader, RealConditionsOfTheRealFiles) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::string dense = realFile(kCpuDense), tiled = realFile(kCpuTiled), conv = realFile(kConvGemm);
  ASSERT_FALSE(dense.empty() || tiled.empty() || conv.empty());
  struct Case {
    std::string cond, key;
  } cases[] = {
      {realCondition(dense, "if self.dtype not in _DTYPE_IR"), "self.dtype not in _DTYPE_IR"},
      {realCondition(dense, "if self.num_kv_heads == 0 or"),
       "(self.num_kv_heads == 0 or self.num_query_heads % self.num_kv_heads != 0)"},
      {realCondition(dense, "if gqa > 1 and per_hkv"), "(gqa > 1 and per_hkv >= 2 * self.num_persistent)"},
      {realCondition(tiled, "if not (0 <= elem_idx"), "not (0 <= elem_idx and elem_idx < 16)"},
      {realCondition(tiled, "if self.has_softcap or self.use_alibi"),
       "(self.has_softcap or self.use_alibi or self.use_qq_bias)"},
      {realCondition(conv, "if self.groups != 1 and"), "(self.groups != 1 and self.groups != self.problem.groups)"},
      {realCondition(conv, "if self.async_dma and self.lds_k_pad not in"),
       "(self.async_dma and self.lds_k_pad not in (0, None))"},
  };
  for (const Case& c : cases) {
    ASSERT_FALSE(c.cond.empty()) << c.key;
    EXPECT_EQ(guardKey(parse(c.cond)), c.key) << c.cond;
  }
  // `x not in (None, 0)` against a spec, through `self.`: unknown (not the spec object).
  EXPECT_EQ(evalGuard(parse(cases[6].cond), {{"async_dma", "true"}}), Truth::Unknown);
}

TEST(GuardReader, RealGfx950DenseEarlyReturnIsTheOwnListsWhen) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::string dense = realFile(kCpuDense);
  ASSERT_FALSE(dense.empty());
  FileFacts f = extractFile(kGfx950DenseNewestPath, dense);
  const PyBuilder* b = builder(f, "build_attention_dense");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);
  EXPECT_EQ(guardKey(b->abis[0].when), "not spec.persistent");
  EXPECT_EQ(guardKey(b->abis[1].when), "spec.persistent");
  // A persistent descriptor variant picks the persistent list; another the own body's.
  CppArgList copy;
  copy.spec = {{"persistent", "true"}};
  EXPECT_EQ(evalGuard(b->abis[1].when, copy.spec), Truth::True);
  EXPECT_EQ(evalGuard(b->abis[0].when, copy.spec), Truth::False);
}

// Form 3: `extra_context = extra_params(b) if extra_params is not None else None` between the
// b.param groups; `Bp = b.param("B", ...)` is named by its literal.
TEST(BuilderHooks, RealImplicitGemmBuilderHasTheExtraParamsHook) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::string conv = realFile(kConvGemm);
  ASSERT_FALSE(conv.empty());
  FileFacts f = extractFile("dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_implicit_gemm.py", conv);
  const PyBuilder* b = builder(f, "_build_implicit_gemm_conv_impl");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->hooks.size(), 1u);
  EXPECT_EQ(b->hooks[0].name, "extra_params");
  EXPECT_EQ(b->hooks[0].function, "_build_implicit_gemm_conv_impl");
  EXPECT_EQ(b->hooks[0].after, "D");
  // The shipped entry point returns `_build_implicit_gemm_conv_impl(spec, arch=arch)`: the hook is
  // None there, evaluated so, and not called: no hook on its list, which is the b.param calls.
  const PyBuilder* entry = builder(f, "build_implicit_gemm_conv");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(entry->hooks.empty());
  ASSERT_FALSE(entry->abis.empty());
  EXPECT_TRUE(kernargs_detail::hookNotes(*entry, entry->abis[0]).empty());
  EXPECT_EQ(entry->abis[0].args.size(), b->abis[0].args.size());
  ASSERT_FALSE(b->abis.empty());
  std::vector<std::string> names;
  for (const auto& a : b->abis[0].args) names.push_back(a.name);
  ASSERT_GE(names.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 6),
            (std::vector<std::string>{"A", "B", "D", "A_bytes", "B_bytes", "D_bytes"}));
}

TEST(BuilderHooks, OwnHookFormAndLiteralNamesPairing) {
  FileFacts f = extractFile(kPath, R"PY(
from typing import Callable, Optional

from rocke.core.ir import F16, I32, IRBuilder, PtrType


def _build_gemm_impl(spec, *, extra_params: Optional[Callable[[IRBuilder], object]] = None, finish=None):
    b = IRBuilder("gemm")
    A = b.param("A", PtrType(F16, "global"), noalias=True, readonly=True, align=16)
    Bp = b.param("B", PtrType(F16, "global"), noalias=True, readonly=True, align=16)
    D = b.param("D", PtrType(F16, "global"), noalias=True, writeonly=True, align=16)
    extra_context = extra_params(b) if extra_params is not None else None
    A_bytes = b.param("A_bytes", I32)
    log = print(b)
    finish(b)
    b.ret()
    return b.kernel


def build_gemm_hooked(spec):
    return _build_gemm_impl(spec, extra_params=lambda b: b.param("extra", I32))


def build_gemm_none(spec):
    return _build_gemm_impl(spec, extra_params=None)


def build_gemm(spec):
    return _build_gemm_impl(spec)
)PY");
  const PyBuilder* b = builder(f, "_build_gemm_impl");
  ASSERT_NE(b, nullptr);
  // print is no parameter; finish is called after the last b.param
  ASSERT_EQ(b->hooks.size(), 1u);
  EXPECT_EQ(b->hooks[0].name, "extra_params");
  EXPECT_EQ(b->hooks[0].after, "D");
  // Entry points: what each passes for the hook is evaluated. One passing a lambda that declares
  // has that declaration where the hook is called; one passing None, or nothing, has none.
  auto namesOf = [&](const char* fn) {
    std::vector<std::string> out;
    const PyBuilder* e = builder(f, fn);
    if (!e || e->abis.empty()) return std::vector<std::string>{"<none>"};
    for (const auto& a : e->abis[0].args) out.push_back(a.name);
    return out;
  };
  EXPECT_EQ(namesOf("build_gemm_hooked"), (std::vector<std::string>{"A", "B", "D", "extra", "A_bytes"}));
  EXPECT_EQ(namesOf("build_gemm_none"), (std::vector<std::string>{"A", "B", "D", "A_bytes"}));
  EXPECT_EQ(namesOf("build_gemm"), (std::vector<std::string>{"A", "B", "D", "A_bytes"}));
  for (const char* entry : {"build_gemm_hooked", "build_gemm_none", "build_gemm"})
    EXPECT_TRUE(builder(f, entry)->hooks.empty()) << entry;
  EXPECT_EQ(kernargs_detail::hookNotes(*b, b->abis[0]),
            std::vector<std::string>{"builder has a hook extra_params, called with the IRBuilder after D, that can "
                                     "insert arguments there (compared: its b.param calls, what a caller passing no "
                                     "hook declares)"});
  std::vector<std::string> names;
  for (const auto& a : b->abis[0].args) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "D", "A_bytes"}));
  CppArgList copy;
  copy.named = true;
  for (const char* n : {"A", "B", "D"}) {
    KernelArg a;
    a.name = n;
    a.kind = "global_buffer";
    a.size = 8;
    copy.args.push_back(a);
  }
  KernelArg bytes;
  bytes.name = "A_bytes";
  bytes.kind = "by_value";
  bytes.size = 4;
  copy.args.push_back(bytes);
  EXPECT_EQ(compareCopy(*b, copy).outcome, Comparison::Outcome::Agree);
}

// Comparison per assignment of the guards (the SignatureBuilder restatement is conditional too).
struct Dense {
  std::string text = kGfx950DenseNewest;
  void replace(const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  Comparison compare() {
    facts = extractFile(kGfx950DenseNewestPath, text);
    const PyBuilder* b = builder(facts, "build_attention_dense");
    const CppArgList* sig = list(facts, "attention_dense_signature");
    EXPECT_TRUE(b && sig);
    if (!b || !sig) return Comparison{};
    return compareCopy(*b, *sig);
  }
  FileFacts facts;
};

constexpr const char* kOwnSeqlenKv = "    seqlen_kv_p = b.param(\"seqlen_kv\", I32)\n";
constexpr const char* kOwnPagedEnd = "        bt_stride = b.param(\"block_table_stride\", I32)\n";
constexpr const char* kSigPagedEnd = "            .scalar(\"block_table_stride\", \"i32\")\n        )\n";

TEST(ConditionalCopies, UntouchedNewestDenseFormAgrees) {
  Dense d;
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  ASSERT_NE(c.abi, nullptr);
  EXPECT_EQ(c.abi->guard, "");  // the own body's list
}

TEST(ConditionalCopies, NewUnconditionalBuilderArgumentTheCopyLacksIsAMismatch) {
  Dense d;
  d.replace(kOwnSeqlenKv, std::string(kOwnSeqlenKv) + "    kv_stride_p = b.param(\"kv_stride\", I32)\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("copy leaves out the unconditional argument kv_stride under every assignment of its guards"),
            std::string::npos)
      << c.message;
  ASSERT_NE(c.abi, nullptr);
  ASSERT_GE(c.focusBuilder, 0);
  EXPECT_EQ(c.abi->args[c.focusBuilder].name, "kv_stride");
}

TEST(ConditionalCopies, ReorderOfUnconditionalArgumentsIsAMismatch) {
  Dense d;
  d.replace("    batch_p = b.param(\"batch\", I32)\n    seqlen_q_p = b.param(\"seqlen_q\", I32)\n",
            "    seqlen_q_p = b.param(\"seqlen_q\", I32)\n    batch_p = b.param(\"batch\", I32)\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("(the arguments both sides declare under every guard)"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("batch"), std::string::npos) << c.message;
}

TEST(ConditionalCopies, ConditionalOnBothSidesUnderTheSameGuardAgrees) {
  Dense d;
  d.replace(kOwnPagedEnd, std::string(kOwnPagedEnd) +
                              "    if spec.use_alibi:\n        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  d.replace(kSigPagedEnd, std::string(kSigPagedEnd) + "    if spec.use_alibi:\n        sig = sig.ptr(\"alibi_slopes\", \"f32\")\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
}

TEST(ConditionalCopies, ConditionalArgumentUnderAnotherGuardIsNotSettled) {
  Dense d;
  d.replace(kOwnPagedEnd, std::string(kOwnPagedEnd) +
                              "    if spec.use_alibi:\n        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  d.replace(kSigPagedEnd, std::string(kSigPagedEnd) + "    if spec.alibi:\n        sig = sig.ptr(\"alibi_slopes\", \"f32\")\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_NE(c.message.find("copy and builder declare different conditional arguments when"), std::string::npos)
      << c.message;
}

TEST(ConditionalCopies, NewConditionalBuilderArgumentTheCopyLacksIsChanged) {
  Dense d;
  d.replace(kOwnPagedEnd, std::string(kOwnPagedEnd) +
                              "    if spec.use_alibi:\n        alibi = b.param(\"alibi_slopes\", PtrType(F32, \"global\"))\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional) << c.message;
}

TEST(ConditionalCopies, CopyArgumentTheBuilderNeverDeclaresIsAMismatch) {
  Dense d;
  d.replace("        .scalar(\"scale\", \"f32\")\n    )\n",
            "        .scalar(\"scale\", \"f32\")\n        .scalar(\"softcap\", \"f32\")\n    )\n");
  Comparison c = d.compare();
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("copy always declares softcap, which the builder build_attention_dense never declares"),
            std::string::npos)
      << c.message;
}

}  // namespace
}  // namespace impact
