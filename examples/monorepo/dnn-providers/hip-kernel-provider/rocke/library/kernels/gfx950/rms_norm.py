"""gfx950 RMS normalisation."""

from dataclasses import dataclass

from rocke.core.ir import IRBuilder, PtrType, I32, F32


@dataclass(frozen=True)
class Gfx950RmsNormSpec:
    dtype: str = "bf16"
    hidden: int = 4096
    with_residual: bool = False


def rms_norm_signature(spec):
    from rocke.helpers.spec import SignatureBuilder

    sig = SignatureBuilder().ptr("x_ptr", spec.dtype).ptr("weight_ptr", spec.dtype).ptr("y_ptr", spec.dtype)
    if spec.with_residual:
        sig = sig.ptr("residual_ptr", spec.dtype)
    sig = sig.scalar("rows", "i32").scalar("eps", "f32")
    return sig.build()


def build_rms_norm(spec, *, arch="gfx950"):
    b = IRBuilder("rms_norm")
    b.param("x_ptr", PtrType(F32, "global"), readonly=True)
    b.param("weight_ptr", PtrType(F32, "global"), readonly=True)
    b.param("y_ptr", PtrType(F32, "global"), writeonly=True)
    if spec.with_residual:
        b.param("residual_ptr", PtrType(F32, "global"), readonly=True)
    b.param("rows", I32)
    b.param("eps", F32)
    return b.finish()
