"""gfx950 dense flash-attention prefill."""

from dataclasses import dataclass

from rocke.core.ir import BF16, F16, F32, I32, IRBuilder, PtrType


@dataclass(frozen=True)
class Gfx950AttentionDenseSpec:
    dtype: str = "bf16"
    head_size: int = 128
    num_query_heads: int = 8
    num_kv_heads: int = 8
    causal: bool = True
    block_m: int = 256
    block_n: int = 64
    persistent: bool = False
    use_sinks: bool = False

    def __post_init__(self):
        if self.block_m % self.block_n != 0:
            raise ValueError("block_m must be a multiple of block_n")

    @property
    def dtype_ir(self):
        return BF16 if self.dtype == "bf16" else F16


AttentionDenseSpec = Gfx950AttentionDenseSpec

GFX950_ROWS_PER_WAVE = 32
GFX950_WAVE_LANES = 64


def supports_attention_dense(spec, *, arch="gfx950"):
    if arch != "gfx950":
        return False, f"unsupported arch {arch}"
    if spec.head_size not in (64, 128):
        return False, "head_size must be 64 or 128"
    return True, ""


def attention_dense_grid(spec, seqlen_q, batch):
    return ((seqlen_q + spec.block_m - 1) // spec.block_m, spec.num_query_heads, batch)


def attention_dense_block(spec):
    return (spec.block_m // GFX950_ROWS_PER_WAVE * GFX950_WAVE_LANES, 1, 1)


def _build_attention_dense_persistent(spec):
    b = IRBuilder("attention_dense_persistent")
    dtype = spec.dtype_ir
    b.param("q_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("k_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("v_ptr", PtrType(dtype, "global"), noalias=True, readonly=True)
    b.param("o_ptr", PtrType(dtype, "global"), noalias=True, writeonly=True)
    b.param("work_items", I32)
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
    b.param("seqlen_q", I32)
    b.param("seqlen_kv", I32)

    use_sinks = spec.use_sinks
    if use_sinks:
        b.param("sink_ptr", PtrType(F32, "global"), noalias=True, readonly=True)

    # The body is elided in this example: the ABI above is what the ingestor restates.
    return b.finish()
