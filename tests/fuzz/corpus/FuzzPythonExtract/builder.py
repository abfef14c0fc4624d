from rocke.core.ir import IRBuilder, PtrType, I32, F32


def build_scale(spec, *, arch="gfx950"):
    b = IRBuilder("scale")
    b.param("x_ptr", PtrType(F32, "global"))
    b.param("y_ptr", PtrType(F32, "global"))
    if spec.with_bias:
        b.param("bias_ptr", PtrType(F32, "global"))
    b.param("n", I32)
    if spec.fast:
        return b.finish()
    b.param("alpha", F32)
    return b.finish()
