// A gfx950 dense attention builder module in the form of the newest real one
// (ROCm/rocm-libraries dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/
// attention_dense.py): a persistent body returned early; `batch, seqlen_q, seqlen_kv` declared
// unconditionally after `scale`; `sink_ptr` under `if use_sinks` (an alias of spec.use_sinks),
// `cu_seqlens_*` under `if varlen`, the paged-KV arguments under `if spec.paged`; and its
// SignatureBuilder restatement, itself conditional: `sig = SignatureBuilder()...`, then
// `if _has_shape_params(spec): sig = sig.scalar("batch", "i32")...`, `if spec.use_sinks: ...`.
// Written for these tests in that form (shorter bodies); not the real file.
#pragma once

namespace impact::testing {

inline constexpr const char* kGfx950DenseNewestPath =
    "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";

inline constexpr const char* kGfx950DenseNewest = R"PY(
"""Dense flash-attention prefill for gfx950."""
from typing import Tuple

from rocke.core.ir import F32, I32, I64, IRBuilder, KernelDef, PtrType

from .attention_spec import AttentionDenseSpec

LOG2E = 1.4426950408889634


def _build_attention_dense_persistent(spec: AttentionDenseSpec) -> KernelDef:
    """Persistent (grid-stride) variant: no shape params."""
    dtype = spec.dtype_ir
    use_sinks = spec.use_sinks

    b = IRBuilder(spec.kernel_name())
    b.kernel.attrs["max_workgroup_size"] = spec.num_waves * 64

    q = b.param(
        "q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    k = b.param(
        "k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    v = b.param(
        "v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    o = b.param(
        "o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True, align=16
    )
    scale = b.param("scale", F32)
    if use_sinks:
        sinks = b.param(
            "sink_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
        )
    qk_scale = b.fmul(scale, b.const_f32(LOG2E))
    b.ret()
    return b.kernel


def build_attention_dense(
    spec: AttentionDenseSpec, *, arch: str = "gfx950"
) -> KernelDef:
    """Emit the dense flash-attention prefill kernel described by ``spec``."""
    if arch != "gfx950":
        raise NotImplementedError(f"attention_dense is gfx950-only (got {arch})")

    if spec.persistent:
        return _build_attention_dense_persistent(spec)

    dtype = spec.dtype_ir
    varlen = spec.varlen
    use_sinks = spec.use_sinks

    b = IRBuilder(spec.kernel_name())
    b.kernel.attrs["max_workgroup_size"] = spec.num_waves * 64

    q = b.param(
        "q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    k = b.param(
        "k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    v = b.param(
        "v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
    )
    o = b.param(
        "o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True, align=16
    )
    scale = b.param("scale", F32)
    # Problem shape as kernel params, right after scale.
    batch_p = b.param("batch", I32)
    seqlen_q_p = b.param("seqlen_q", I32)
    seqlen_kv_p = b.param("seqlen_kv", I32)
    if use_sinks:
        sinks = b.param(
            "sink_ptr", PtrType(dtype, "global"), noalias=True, readonly=True, align=16
        )
    if varlen:
        cu_q = b.param(
            "cu_seqlens_q", PtrType(I32, "global"), noalias=True, readonly=True, align=4
        )
        cu_kv = b.param(
            "cu_seqlens_kv",
            PtrType(I32, "global"),
            noalias=True,
            readonly=True,
            align=4,
        )
    block_tables = kv_lens = bt_stride = None
    if spec.paged:
        block_tables = b.param(
            "block_tables", PtrType(I32, "global"), noalias=True, readonly=True, align=4
        )
        kv_lens = b.param(
            "kv_lens", PtrType(I32, "global"), noalias=True, readonly=True, align=4
        )
        bt_stride = b.param("block_table_stride", I32)
    qk_scale = b.fmul(scale, b.const_f32(LOG2E))
    b.ret()
    return b.kernel


def attention_dense_grid(spec: AttentionDenseSpec) -> Tuple[int, int, int]:
    if spec.persistent:
        return (spec.num_persistent, 1, 1)
    nqb = (spec.seqlen_q + spec.block_m - 1) // spec.block_m
    return (nqb, spec.num_query_heads, spec.batch)


def _has_shape_params(spec: AttentionDenseSpec) -> bool:
    """Whether the body for ``spec`` takes batch/seqlen_q/seqlen_kv as kernargs."""
    return not spec.persistent


def attention_dense_signature(spec: AttentionDenseSpec):
    """ABI signature for :class:`KernelLauncher`."""
    from rocke.helpers.spec import SignatureBuilder

    sig = (
        SignatureBuilder()
        .ptr("q_ptr", spec.dtype)
        .ptr("k_ptr", spec.dtype)
        .ptr("v_ptr", spec.dtype)
        .ptr("o_ptr", spec.dtype)
        .scalar("scale", "f32")
    )
    if _has_shape_params(spec):
        # Mirrors the batch/seqlen_q/seqlen_kv params declared right after scale.
        sig = (
            sig.scalar("batch", "i32")
            .scalar("seqlen_q", "i32")
            .scalar("seqlen_kv", "i32")
        )
    if spec.use_sinks:
        sig = sig.ptr("sink_ptr", spec.dtype)
    if spec.varlen:
        sig = sig.ptr("cu_seqlens_q", "i32").ptr("cu_seqlens_kv", "i32")
    if spec.paged:
        sig = (
            sig.ptr("block_tables", "i32")
            .ptr("kv_lens", "i32")
            .scalar("block_table_stride", "i32")
        )
    return sig.build()
)PY";

}  // namespace impact::testing
