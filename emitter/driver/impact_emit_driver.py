"""impactd's emitter driver: builds and lowers one family of shipped rocKE variants on the CPU.

Run by `impact emit` as `python3 -s -S -B impact_emit_driver.py` with a JSON request on stdin; writes
one JSON answer on stdout. Standard library only. The analysed tree's import roots are the only
repository entries on sys.path; anything the tree's own code prints goes to stderr.

Run with `--serve` (a persistent child, one per job and tree: docs/emitter.md, "One child per job"),
it reads requests one per line on stdin and writes one answer line each, importing the tree once;
the answer then carries "serve": {"exits": true} when the child will not take another request (a
request failed, a thread the tree started is still running, a request for another tree).

Requests:
  {"mode": "flavors", "import_roots": [...]}
      -> {"ladder": ["llvm23", "llvm22"], "source": "rocke.core.lower_llvm"}  (newest first)
  {"mode": "build", "import_roots": [...], "flavor": "llvm23",
   "family": {"source": "kernels/gfx950/x.py", "builder": "build_x"},
   "variants": [{"name": ..., "arch": "gfx950", "spec": {...}}], "probe": false}
      (an AOT catalog kernel's variant adds "aot": {"producer", "spec_class": {"module", "name"},
       "call": {"args", "kwargs"}} -- built as its producer called the builder -- or
       {"producer", "not_run": why})
      -> {"variants": [{"name": ..., "kernels": [...]} | {"name": ..., "error": "..."}],
          "error": "..." (the family could not be set up), "probe": {...} (pack-time tables)}
  {"mode": "geometry", "import_roots": [...], "family": {"source": ..., "builder": ...},
   "functions": {"grid": "attention_dense_grid", "block": "Spec.block"},
   "variants": [{"name": ..., "spec": {...}}]}
      -> {"variants": [{"name": ..., "grid": [x, y, z], "block": [x, y, z]} | {"name": ..., "error": "..."}],
          "error": "..." (the module does not import, a function is not there)}
"""

import dataclasses
import errno
import hashlib
import importlib
import json
import os
import sys
import threading
import traceback
import typing

DRIVER_VERSION = "1"

_SIZES = {"i1": 1, "i8": 1, "u8": 1, "fp8e4m3": 1, "bf8e5m2": 1, "i16": 2, "f16": 2, "bf16": 2,
          "i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8, "f64": 8}


def _short_error(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1] if text else type(exc).__name__


def _limit_hit(exc):
    """Did the sandbox's limits refuse something (memory, file size, processes, open files)?
    Such a failure is the family's, not one variant's: the emitter names the limit."""
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, OSError) and exc.errno in (errno.EFBIG, errno.EAGAIN, errno.EMFILE, errno.ENOMEM):
        return True
    return isinstance(exc, RuntimeError) and "can't start new thread" in str(exc)


def _module_of(source):
    """"kernels/gfx950/attention_dense.py" -> "kernels.gfx950.attention_dense"."""
    path = source[:-3] if source.endswith(".py") else source
    return ".".join(p for p in path.split("/") if p)


def _type_name(t):
    name = getattr(t, "name", None)
    return name if isinstance(name, str) else repr(t)


def _arg_record(param):
    t = getattr(param, "type", None)
    name = _type_name(t)
    if hasattr(t, "pointee") or name.startswith("ptr<"):
        kind, size = "global_buffer", 8
    else:
        kind, size = "by_value", _SIZES.get(name, 0)
        count = getattr(t, "count", None)
        elem = getattr(t, "elem", None)
        if isinstance(count, int) and elem is not None:
            size = _SIZES.get(_type_name(elem), 0) * count
    return {"name": str(getattr(param, "name", "")), "kind": kind, "size": size, "type": name}


def build_spec(cls, data, where="spec"):
    """Builds a spec dataclass from a dict, recursively; refuses unknown keys (as the packer does)."""
    if not dataclasses.is_dataclass(cls):
        return data
    if not isinstance(data, dict):
        raise TypeError(f"{where}: expected an object for {cls.__name__}")
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - a hint that does not resolve: take the values as they are
        hints = {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise TypeError(f"{where}: {cls.__name__} has no field {', '.join(unknown)}")
    kwargs = {}
    for key, value in data.items():
        hint = hints.get(key)
        if dataclasses.is_dataclass(hint) and isinstance(value, dict):
            value = build_spec(hint, value, f"{where}.{key}")
        kwargs[key] = value
    return cls(**kwargs)


def _kernels_of(result):
    if hasattr(result, "params") and hasattr(result, "name"):
        return [result]
    if hasattr(result, "kernels"):
        return list(result.kernels)
    if isinstance(result, (list, tuple)):
        out = []
        for item in result:
            out.extend(_kernels_of(item))
        return out
    raise TypeError(f"builder returned {type(result).__name__}, not a kernel")


def _lookup(module_name, attr):
    try:
        module = importlib.import_module(module_name)
    except Exception:  # noqa: BLE001 - private names move between revisions
        return None
    return getattr(module, attr, None)


def _compile_inputs(kernel, arch):
    isa = "unknown"
    arch_target = _lookup("rocke.core.arch", "ArchTarget")
    if arch_target is not None:
        try:
            isa = str(arch_target.from_gfx(arch).isa_triple)
        except Exception:  # noqa: BLE001
            isa = "unknown"
    options = "unknown"
    opts_fn = _lookup("rocke.helpers.compile", "_comgr_options_for_kernel")
    if opts_fn is not None:
        try:
            options = [str(o) for o in opts_fn(kernel)]
        except Exception:  # noqa: BLE001
            options = "unknown"
    fresh = "absent"
    for name in ("COMPILE_IN_FRESH_PROCESS", "_COMPILE_IN_FRESH_PROCESS", "FRESH_PROCESS", "_FRESH_PROCESS"):
        value = _lookup("rocke.helpers.compile", name)
        if value is not None:
            fresh = repr(value)
            break
    return {"isa": isa, "options": options, "fresh_process": fresh}


def _lower(kernel, flavor, arch):
    lower = importlib.import_module("rocke.core.lower_llvm").lower_kernel_to_llvm
    ir = lower(kernel, llvm_flavor=flavor, arch=arch)
    if not isinstance(ir, str):
        raise TypeError("lower_kernel_to_llvm returned no text")
    return ir


def _build_variant(builder, spec_cls, variant, flavor):
    arch = variant.get("arch") or "gfx950"
    spec = build_spec(spec_cls, variant.get("spec") or {})
    kernels = _kernels_of(builder(spec, arch=arch))
    out = []
    for k in kernels:
        ir = _lower(k, flavor, arch)
        out.append({"name": str(k.name), "args": [_arg_record(p) for p in k.params],
                    "ir_sha256": hashlib.sha256(ir.encode("utf-8")).hexdigest(),
                    "compile": _compile_inputs(k, arch)})
    return out


def _spec_class(builder):
    import inspect
    params = list(inspect.signature(builder).parameters)
    if not params:
        raise TypeError(f"{builder.__name__} takes no spec")
    hints = typing.get_type_hints(builder)
    if params[0] not in hints:
        raise TypeError(f"{builder.__name__}'s first parameter has no type hint")
    return hints[params[0]]


class _NotRun(Exception):
    """A kernel the reading of its producer cannot build again (its message says why)."""


def _decode(value, spec):
    """A value of an AOT kernel's recorded call or spec: {"$spec": true} is the spec, {"$tuple": [...]}
    a tuple (core/contracts/AotProducers)."""
    if isinstance(value, dict):
        if len(value) == 1 and value.get("$spec") is True:
            return spec
        if len(value) == 1 and isinstance(value.get("$tuple"), list):
            return tuple(_decode(v, spec) for v in value["$tuple"])
        return {k: _decode(v, spec) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v, spec) for v in value]
    return value


def _aot_spec(aot, fields):
    """The spec object an AOT producer built, made again from the fields its static reading
    recorded: the class's init fields passed, every recorded attribute then checked against the
    object (a value the reading got wrong is this variant's error, never a silent other spec)."""
    sc = aot.get("spec_class")
    if not sc:
        return None
    cls = getattr(importlib.import_module(sc["module"]), sc["name"])
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{sc['name']} is not a dataclass: its object is not made again")
    values = {k: _decode(v, None) for k, v in (fields or {}).items()}
    init = {f.name for f in dataclasses.fields(cls) if f.init}
    spec = cls(**{k: v for k, v in values.items() if k in init})
    missing = object()
    for key, value in values.items():
        actual = getattr(spec, key, missing)
        if actual is missing or actual != value:
            shown = "absent" if actual is missing else repr(actual)
            raise ValueError(f"the producer's spec as read does not build: {sc['name']}.{key} is {shown}, "
                             f"the reading has {value!r}")
    return spec


def _build_aot(builder, variant, flavor):
    """An AOT catalog kernel, built as its producer's call builds it (its arguments as read)."""
    aot = variant["aot"]
    if aot.get("not_run"):
        raise _NotRun(f"not run: {aot['not_run']}")
    arch = variant.get("arch") or "gfx950"
    spec = _aot_spec(aot, variant.get("spec"))
    call = aot.get("call") or {}
    args = [_decode(a, spec) for a in call.get("args", [])]
    kwargs = {k: _decode(v, spec) for k, v in call.get("kwargs", {}).items()}
    out = []
    for k in _kernels_of(builder(*args, **kwargs)):
        ir = _lower(k, flavor, arch)
        out.append({"name": str(k.name), "args": [_arg_record(p) for p in k.params],
                    "ir_sha256": hashlib.sha256(ir.encode("utf-8")).hexdigest(),
                    "compile": _compile_inputs(k, arch)})
    return out


def do_build(req):
    family = req["family"]
    answer = {"variants": []}
    variants = req.get("variants", [])
    spec_cls = None
    try:
        module = importlib.import_module(_module_of(family["source"]))
        builder = getattr(module, family["builder"])
        # An AOT catalog kernel names its own spec class; a descriptor's variant takes the
        # builder's first parameter's hint, as the packer does.
        if any("aot" not in v for v in variants):
            spec_cls = _spec_class(builder)
    except Exception as exc:  # noqa: BLE001 - the family cannot be set up
        answer["error"] = _short_error(exc)
        return answer
    for variant in variants:
        rec = {"name": variant.get("name", "")}
        try:
            if "aot" in variant:
                rec["kernels"] = _build_aot(builder, variant, req["flavor"])
            else:
                rec["kernels"] = _build_variant(builder, spec_cls, variant, req["flavor"])
        except Exception as exc:  # noqa: BLE001 - one variant's failure is recorded, not fatal
            if _limit_hit(exc):
                answer["error"] = _short_error(exc)
                return answer
            rec["error"] = str(exc) if isinstance(exc, _NotRun) else _short_error(exc)
        answer["variants"].append(rec)
    probe_variants = [v for v in req.get("probe_variants", variants) if "aot" not in v]
    if req.get("probe") and spec_cls is not None and probe_variants:
        from impact_emit_probe import probe_family  # noqa: E402 - beside this file
        answer["probe"] = probe_family(module, builder, spec_cls, family, probe_variants,
                                       float(req.get("probe_budget", 20.0)), build_spec)
    return answer


def _dataclass_params(fn):
    """[(name, class, has_default)] of fn's parameters whose type hint is a dataclass."""
    import inspect
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - an unresolvable hint: no routing through it
        hints = {}
    out = []
    for name, p in inspect.signature(fn).parameters.items():
        cls = hints.get(name)
        if isinstance(cls, type) and dataclasses.is_dataclass(cls):
            out.append((name, cls, p.default is not inspect.Parameter.empty))
    return out


def _geometry_function(module, spec_cls, name):
    """A module-level function, or a method of the builder's spec class ("Spec.grid" or "grid")."""
    fn = getattr(module, name, None)
    if callable(fn):
        return fn, False
    method = name.rsplit(".", 1)[-1]
    fn = getattr(spec_cls, method, None) if spec_cls is not None else None
    if callable(fn):
        return fn, True
    raise AttributeError(f"{module.__name__} has no function {name} (nor has {getattr(spec_cls, '__name__', 'its spec class')})")


def _route(spec, classes, where="spec"):
    """Routes each key of a shipped spec to every dataclass that has the field (a KDP spec can carry
    a second dataclass's tuning fields); a key no class has is an error, never dropped."""
    fields = {cls: {f.name for f in dataclasses.fields(cls)} for cls in classes}
    parts = {cls: {} for cls in classes}
    unknown = []
    for key, value in spec.items():
        owners = [cls for cls in classes if key in fields[cls]]
        if not owners:
            unknown.append(key)
        for cls in owners:
            parts[cls][key] = value
    if unknown:
        names = ", ".join(c.__name__ for c in classes)
        raise TypeError(f"{where}: no field {', '.join(sorted(unknown))} in {names}")
    return parts


def _triple(value, what):
    if not isinstance(value, (tuple, list)) or len(value) != 3:
        raise TypeError(f"{what} returned {value!r}, not 3 values")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{what} returned {value!r}, not 3 integers")
        out.append(int(v))
    return out


def _call_geometry(fn, is_method, params, instances, spec_cls, what):
    kwargs = {}
    for name, cls, has_default in params:
        if instances[cls] is not None:
            kwargs[name] = instances[cls]
        elif not has_default:
            kwargs[name] = build_spec(cls, {})
    # A method of the spec class: the spec is self (its parameter has no hint, so it is not in params).
    return _triple(fn(instances[spec_cls], **kwargs) if is_method else fn(**kwargs), what)


def do_geometry(req):
    family = req["family"]
    answer = {"variants": []}
    try:
        module = importlib.import_module(_module_of(family["source"]))
        builder = getattr(module, family["builder"])
        spec_cls = _spec_class(builder)
        fns = {}
        for axis, name in sorted(req.get("functions", {}).items()):
            fn, is_method = _geometry_function(module, spec_cls, name)
            fns[axis] = (name, fn, is_method, _dataclass_params(fn))
    except Exception as exc:  # noqa: BLE001 - the family cannot be set up
        answer["error"] = _short_error(exc)
        return answer
    classes = [spec_cls]
    for _, cls, _ in _dataclass_params(builder) + [p for f in fns.values() for p in f[3]]:
        if cls not in classes:
            classes.append(cls)
    for variant in req.get("variants", []):
        rec = {"name": variant.get("name", "")}
        try:
            parts = _route(variant.get("spec") or {}, classes)
            instances = {cls: (build_spec(cls, parts[cls]) if parts[cls] or cls is spec_cls else None)
                         for cls in classes}
            for axis, (name, fn, is_method, params) in fns.items():
                rec[axis] = _call_geometry(fn, is_method, params, instances, spec_cls, name)
        except Exception as exc:  # noqa: BLE001 - one variant's failure is recorded, not fatal
            if _limit_hit(exc):
                answer["error"] = _short_error(exc)
                return answer
            for axis in fns:
                rec.pop(axis, None)
            rec["error"] = _short_error(exc)
        answer["variants"].append(rec)
    return answer


def do_flavors(req):
    for name in ("rocke.core.llvm_profile", "rocke.core.lower_llvm"):
        ladder = _lookup(name, "_ROCM_FLAVOR_LADDER")
        if ladder is not None:
            flavors = []
            for row in ladder:
                flavor = row[-1] if isinstance(row, (tuple, list)) else row
                if isinstance(flavor, str) and flavor not in flavors:
                    flavors.append(flavor)
            return {"ladder": flavors, "source": name}
    return {"ladder": [], "error": "no _ROCM_FLAVOR_LADDER in rocke.core.llvm_profile or rocke.core.lower_llvm"}


def _answer(req):
    mode = req.get("mode")
    try:
        answer = (do_flavors(req) if mode == "flavors" else do_geometry(req) if mode == "geometry"
                  else do_build(req))
    except Exception as exc:  # noqa: BLE001
        answer = {"error": _short_error(exc)}
    answer["driver_version"] = DRIVER_VERSION
    return answer


def _set_path(roots):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = roots + [p for p in sys.path if p and "-packages" not in p and p != here and p != os.getcwd()] + [here]


def _roots(req):
    return [r for r in req.get("import_roots", []) if isinstance(r, str)]


def _cpu_budget(seconds):
    """A served request's CPU time: what this process has used so far plus the request's budget
    (RLIMIT_CPU's soft limit, below the hard limit the emitter set for the whole child)."""
    import resource
    if not seconds or seconds <= 0:
        return
    use = resource.getrusage(resource.RUSAGE_SELF)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    want = int(use.ru_utime + use.ru_stime + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (want, hard))


def _read_line(fd, pending):
    """The next request line from fd (bytes kept in `pending` between calls); None at the end."""
    while b"\n" not in pending:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None
        pending.extend(chunk)
    i = pending.index(b"\n")
    line = bytes(pending[:i])
    del pending[:i + 1]
    return line


def _write_line(fd, answer):
    data = (json.dumps(answer, sort_keys=True) + "\n").encode("utf-8")
    while data:
        data = data[os.write(fd, data):]


def serve(request_fd, result_fd):
    """Answers requests of one tree one after another; the tree's modules are imported once."""
    pending = bytearray()
    roots = None
    while True:
        line = _read_line(request_fd, pending)
        if line is None:
            break
        try:
            req = json.loads(line)
        except ValueError as exc:
            _write_line(result_fd, {"error": f"not a request: {exc}", "serve": {"exits": True}})
            break
        if roots is None:
            roots = _roots(req)
            _set_path(roots)
        if _roots(req) != roots:  # another tree: never in the same process
            _write_line(result_fd, {"error": "a served child takes one tree's requests", "serve": {"exits": True}})
            break
        _cpu_budget(req.get("cpu_seconds"))
        answer = _answer(req)
        # After a failed request (a limit hit among them) or with a thread of the tree's still
        # running (a probe that never returned), the next request gets a fresh child.
        exits = "error" in answer or threading.active_count() > 1
        answer["serve"] = {"exits": exits}
        _write_line(result_fd, answer)
        if exits:
            break
    os._exit(0)  # threads the tree started must not keep the process alive


def main():
    # Confined as root, the child's real and effective uids differ (docs/emitter.md): the loader
    # then runs it in secure mode and drops TMPDIR. Its scratch folder is its HOME and its TMPDIR.
    if "TMPDIR" not in os.environ and os.environ.get("HOME"):
        os.environ["TMPDIR"] = os.environ["HOME"]
    if "--serve" in sys.argv[1:]:
        # The requests come on stdin and the answers go on stdout; the tree's own code sees
        # /dev/null as its stdin and stderr as its stdout.
        request_fd, result_fd = os.dup(0), os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        serve(request_fd, result_fd)
    req = json.loads(sys.stdin.read())
    _set_path(_roots(req))
    result_fd = os.dup(1)
    os.dup2(2, 1)  # the tree's own prints go to stderr; the answer goes to the saved stdout
    answer = _answer(req)
    with os.fdopen(result_fd, "w", encoding="utf-8") as out:
        json.dump(answer, out, sort_keys=True)
        out.write("\n")
    sys.stdout.flush()
    os._exit(0)  # probe threads that never returned must not keep the process alive


if __name__ == "__main__":
    threading.current_thread().name = "impact-emit-driver"
    main()
