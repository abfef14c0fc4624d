"""Pack-time predicate tables (SPEC R5), run by impact_emit_driver.py when asked to probe.

Each builder's support predicate (supports_<op> beside build_<op>, as the packer resolves it) is put
to one-field variations of the shipped specs:
  - builder finding: the predicate accepts a varied spec and the builder raises on it;
  - sign finding: a non-positive value that one supports_* predicate of the module accepts and
    another refuses.
Everything runs in one worker thread with a budget: a probe that never returns costs only this
family's tables ("timed_out": true), never its build records.
"""

import dataclasses
import threading
import traceback

_MAX_PROBES = 96


def _short(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1] if text else type(exc).__name__


def _accepts(predicate, spec, arch):
    answer = predicate(spec, arch=arch)
    if isinstance(answer, tuple):
        answer = answer[0] if answer else False
    return bool(answer)


def _variations(value):
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        out = [value * 2, value // 2 if value > 1 else value + 1, 0, -1]
        return [v for i, v in enumerate(out) if v != value and v not in out[:i]]
    return []


def _varied_specs(spec_cls, variants):
    """(variant name, arch, field, value, spec dict), one field changed at a time."""
    seen = set()
    fields = [f.name for f in dataclasses.fields(spec_cls)] if dataclasses.is_dataclass(spec_cls) else []
    for variant in variants:
        base = dict(variant.get("spec") or {})
        arch = variant.get("arch") or "gfx950"
        try:
            defaults = dataclasses.asdict(spec_cls(**base)) if fields else {}
        except Exception:  # noqa: BLE001 - a shipped spec the class refuses: nothing to vary
            continue
        for name in fields:
            for value in _variations(defaults.get(name)):
                varied = dict(base)
                varied[name] = value
                key = (arch, tuple(sorted((k, repr(v)) for k, v in varied.items())))
                if key in seen:
                    continue
                seen.add(key)
                yield variant.get("name", ""), arch, name, value, varied


def _predicates(module, spec_cls):
    out = {}
    for name in sorted(dir(module)):
        fn = getattr(module, name, None)
        if name.startswith("supports_") and callable(fn) and getattr(fn, "__module__", None) == module.__name__:
            out[name] = fn
    return out


def _probe(module, builder, spec_cls, family, variants, build_spec, result):
    op = family["builder"][len("build_"):] if family["builder"].startswith("build_") else family["builder"]
    predicates = _predicates(module, spec_cls)
    own = predicates.get("supports_" + op)
    result["predicate"] = "supports_" + op if own else None
    signs = set()
    for count, (vname, arch, field, value, varied) in enumerate(_varied_specs(spec_cls, variants)):
        if count >= _MAX_PROBES:
            result["truncated"] = True
            break
        try:
            spec = build_spec(spec_cls, varied)
        except Exception:  # noqa: BLE001 - the spec class itself refuses the value
            continue
        verdicts = {}
        for pname, pred in predicates.items():
            try:
                verdicts[pname] = _accepts(pred, spec, arch)
            except Exception:  # noqa: BLE001 - a predicate for another spec type
                continue
        if isinstance(value, int) and not isinstance(value, bool) and value <= 0:
            accepted = sorted(p for p, ok in verdicts.items() if ok)
            refused = sorted(p for p, ok in verdicts.items() if not ok)
            sign = (field, tuple(accepted), tuple(refused))
            if accepted and refused and sign not in signs:  # one finding per field, not per value
                signs.add(sign)
                result["findings"].append({"kind": "sign", "field": field, "value": value, "variant": vname,
                                           "accepted_by": accepted, "refused_by": refused})
        if own is not None and verdicts.get("supports_" + op):
            try:
                builder(spec, arch=arch)
            except Exception as exc:  # noqa: BLE001 - accepted, then the builder raised: a finding
                result["findings"].append({"kind": "builder", "predicate": "supports_" + op, "field": field,
                                           "value": value, "variant": vname, "error": _short(exc)})
        result["probes"] = count + 1


def probe_family(module, builder, spec_cls, family, variants, budget, build_spec):
    result = {"findings": [], "probes": 0, "timed_out": False}
    worker = threading.Thread(target=_probe, args=(module, builder, spec_cls, family, variants, build_spec, result),
                              daemon=True, name="impact-probe")
    worker.start()
    worker.join(budget)
    if worker.is_alive():
        result["timed_out"] = True
        result["findings"] = list(result["findings"])
    return result
