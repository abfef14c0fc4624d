def scale_signature(spec):
    from rocke.helpers.spec import SignatureBuilder

    sig = SignatureBuilder().ptr("x_ptr", spec.dtype).ptr("y_ptr", spec.dtype)
    for name in ("m", "n"):
        sig = sig.scalar(name, "i32")
    return sig.build()


def build_scale(spec):
    b = IRBuilder("scale")
    for entry in scale_signature(spec):
        b.param(entry["name"], _ir_type(entry["type"]))
    return b.finish()
