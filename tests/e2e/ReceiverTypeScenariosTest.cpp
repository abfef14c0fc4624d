// Receiver types for removed members (SPEC R2.6), end to end through `impact report` on a fixture
// of our own in the real code's style: the dense attention spec moved to a shared module
// (kernels/common/attention_dense_spec.py) and subclassed per arch, with the alias
// `AttentionDenseSpec = Gfx950AttentionDenseSpec`; readers annotated `spec: AttentionDenseSpec`.
#include <gtest/gtest.h>

#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kGfx950 = kLib + "kernels/gfx950/attention_dense.py";
const std::string kGfx942 = kLib + "kernels/gfx942/attention_dense.py";
const std::string kCommon = kLib + "kernels/common/attention_dense_spec.py";

// The gfx950 module at the base: the spec class is its own.
const std::string kGfx950Spec = R"PY(# Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
# SPDX-License-Identifier: MIT

"""Dense flash-attention prefill kernel for gfx950 (CDNA4)."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.core.ir import BF16, F16, F32, IRBuilder, KernelDef, PtrType

_BLOCK_M = 256
_DTYPE_IR = {"bf16": BF16, "fp16": F16}


@dataclass(frozen=True)
class AttentionDenseSpec:
    """Shape and mode of one dense prefill variant."""

    batch: int
    seqlen_q: int
    seqlen_kv: int
    num_query_heads: int
    num_kv_heads: int
    head_size: int
    causal: bool = False
    dtype: str = "bf16"
    block_n: int = 64

    @property
    def gqa(self) -> int:
        return self.num_query_heads // self.num_kv_heads

    def __post_init__(self):
        if self.num_query_heads % self.num_kv_heads:
            raise ValueError("num_query_heads must be a multiple of num_kv_heads")
)PY";

// The readers, the same at the base and the head.
const std::string kGfx950Readers = R"PY(

def supports_attention_dense(spec: AttentionDenseSpec, *, arch: str = "gfx950") -> tuple[bool, str]:
    """Scope gate: dtype, head size and block_n divisibility."""
    if spec.dtype not in _DTYPE_IR:
        return False, f"dtype {spec.dtype} unsupported"
    if spec.head_size not in (64, 128):
        return False, f"head_size {spec.head_size} unsupported"
    if _BLOCK_M % spec.block_n:
        return False, "block_n must divide the query tile"
    return True, ""


def attention_dense_grid(spec: AttentionDenseSpec) -> tuple[int, int, int]:
    """Launch grid: one CTA per (query-block, query-head, batch)."""
    nqb = (spec.seqlen_q + _BLOCK_M - 1) // _BLOCK_M
    return (nqb, spec.num_query_heads, spec.batch)


def build_attention_dense(spec: AttentionDenseSpec, *, arch: str = "gfx950") -> KernelDef:
    """Emit the gfx950 dense flash-attention prefill kernel for ``spec``."""
    ok, why = supports_attention_dense(spec, arch=arch)
    if not ok:
        raise ValueError(f"unsupported gfx950 attention_dense spec: {why}")
    dtype = _DTYPE_IR[spec.dtype]
    b = IRBuilder(f"attention_dense_d{spec.head_size}_g{spec.gqa}")
    q = b.param("q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16)
    k = b.param("k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16)
    v = b.param("v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16)
    o = b.param("o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True, align=16)
    scale = b.param("scale", F32)
    stride_k_tok = spec.num_kv_heads * spec.head_size
    b.ret()
    return b.kernel
)PY";

// The gfx950 module after the move: the spec subclasses the shared base; the alias keeps the name.
const std::string kGfx950Moved = R"PY(# Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
# SPDX-License-Identifier: MIT

"""Dense flash-attention prefill kernel for gfx950 (CDNA4)."""

from __future__ import annotations

from dataclasses import dataclass

from kernels.common.attention_dense_spec import _BLOCK_M, _AttentionDenseSpecBase
from rocke.core.ir import BF16, F16, F32, IRBuilder, KernelDef, PtrType

_DTYPE_IR = {"bf16": BF16, "fp16": F16}


@dataclass(frozen=True)
class Gfx950AttentionDenseSpec(_AttentionDenseSpecBase):
    """gfx950 spec: the shared fields plus the CDNA4-only LDS V-row padding knob."""

    lds_v_row_pad: int = 0


AttentionDenseSpec = Gfx950AttentionDenseSpec
)PY";

// The shared base the fields moved to.
const std::string kCommonSpec = R"PY(# Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
# SPDX-License-Identifier: MIT

"""Arch-neutral fields of the dense attention spec, subclassed per arch."""

from __future__ import annotations

from dataclasses import dataclass

_BLOCK_M = 256


@dataclass(frozen=True)
class _AttentionDenseSpecBase:
    batch: int
    seqlen_q: int
    seqlen_kv: int
    num_query_heads: int
    num_kv_heads: int
    head_size: int
    causal: bool = False
    dtype: str = "bf16"
    block_n: int = 64

    @property
    def gqa(self) -> int:
        return self.num_query_heads // self.num_kv_heads

    def __post_init__(self):
        if self.num_query_heads % self.num_kv_heads:
            raise ValueError("num_query_heads must be a multiple of num_kv_heads")
)PY";

// A gfx942 module reading the gfx950 spec through an import, annotated; a string annotation too.
const std::string kGfx942Module = R"PY(# Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
# SPDX-License-Identifier: MIT

"""Dense flash-attention prefill kernel for gfx942 (CDNA3)."""

from __future__ import annotations

from dataclasses import dataclass

from kernels.gfx950.attention_dense import AttentionDenseSpec


@dataclass(frozen=True)
class Gfx942DenseTuning:
    """gfx942-private codegen knobs for the dense prefill body."""

    block_m: int = 256
    waves_per_eu: int = 0

    def resolved_waves_per_eu(self, spec: AttentionDenseSpec) -> int:
        if self.waves_per_eu:
            return self.waves_per_eu
        return 2 if spec.head_size == 128 and spec.num_kv_heads == 1 else 1


def _tuning_name_tags(spec: AttentionDenseSpec, tuning: "Gfx942DenseTuning") -> str:
    return f"b{spec.batch}_h{spec.num_kv_heads}_m{tuning.block_m}_w{tuning.resolved_waves_per_eu(spec)}"
)PY";

class ClassMove : public FixtureRepo {
 public:
  ClassMove() {
    write(kGfx950, kGfx950Spec + kGfx950Readers);
    write(kGfx942, kGfx942Module);
    commit("dense attention spec per arch");
    git("checkout -q -b feature");
  }
  void moveSpecToCommon() {
    write(kCommon, kCommonSpec);
    write(kGfx950, kGfx950Moved + kGfx950Readers);
  }
};

TEST(ReceiverTypes, SpecMovedToASharedBaseAndAliasedIsNoRemoval) {
  ClassMove repo;
  repo.moveSpecToCommon();
  repo.commit("move the spec's fields to kernels/common, subclass per arch");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {"removed-symbol"}).empty()) << r.out;
  EXPECT_TRUE(rowsStarting(r.out, "mismatch").empty()) << r.out;
  // kernels/common is reached by no arch's descriptor here: all archs.
  EXPECT_EQ(lastLine(r.out), "Runtime impact: NEEDS-DEVICE all-ingestor-archs, gfx950") << r.out;
}

TEST(ReceiverTypes, AMemberTrulyRemovedFromTheSharedBaseIsStillReported) {
  ClassMove repo;
  repo.moveSpecToCommon();
  repo.commit("move the spec's fields to kernels/common, subclass per arch");
  repo.git("checkout -q -B main");
  repo.git("checkout -q -b drop-kv-heads");
  repo.replace(kCommon, "    num_kv_heads: int\n", "");
  repo.replace(kCommon, "        return self.num_query_heads // self.num_kv_heads\n", "        return 1\n");
  repo.replace(kCommon, "        if self.num_query_heads % self.num_kv_heads:\n", "        if self.num_query_heads <= 0:\n");
  repo.commit("drop num_kv_heads");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto rows = rowsWith(r.out, {"removed-symbol"});
  // Every reader of .num_kv_heads on an annotated receiver, in both modules: a mismatch each.
  auto gfx950 = rowsWith(r.out, {"mismatch", "removed-symbol", "build_attention_dense",
                                 "kernels/common/attention_dense_spec.py:_AttentionDenseSpecBase.num_kv_heads was "
                                 "removed",
                                 "reads .num_kv_heads on spec: AttentionDenseSpec, which no longer defines it"});
  EXPECT_EQ(gfx950.size(), 1u) << r.out;
  // One row per reader module: the first reader in gfx942 (a method's annotated parameter).
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "removed-symbol", kGfx942, "Gfx942DenseTuning.resolved_waves_per_eu",
                             "reads .num_kv_heads on spec: AttentionDenseSpec"})
                .size(),
            1u)
      << r.out;
  EXPECT_EQ(rows.size(), 2u) << r.out;  // nothing about the fields that are still there
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

}  // namespace
}  // namespace impact::testing
