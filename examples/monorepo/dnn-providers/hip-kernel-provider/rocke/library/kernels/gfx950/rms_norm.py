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


def _ir_type(name):
    if name.startswith("ptr<"):
        return PtrType(F32, "global")
    return {"i32": I32, "f32": F32}[name]


def build_rms_norm(spec, *, arch="gfx950"):
    b = IRBuilder("rms_norm")
    for entry in rms_norm_signature(spec):
        b.param(entry["name"], _ir_type(entry["type"]))
    return b.finish()
