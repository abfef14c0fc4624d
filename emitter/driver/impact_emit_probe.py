"""Pack-time predicate tables (SPEC R5), run by impact_emit_driver.py when asked to probe."""


def probe_family(module, builder, spec_cls, family, variants, budget, build_spec):
    return {}
