#!/usr/bin/env python3
"""The metamorphic engine's rewriter (issue 36 item 6). Standard library only; the `ast` module
finds the declarations and checks every generated text parses.

  metamorph.py py FILE SEED [--count N]    rewrite the b.param runs of a Python module
  metamorph.py cpp FILE LINE SEED          rewrite the launch call on 1-based LINE of a C++ file
  metamorph.py cpp-list FILE LINE SEED [--pool POOL] [--only IDIOM]
                                           rewrite the KernelArgument appends of the function at LINE;
                                           "check": the original and the rewrite compiled and run
  metamorph.py cpp-check                   compile and run the C++ idioms on a stand-in launch
  metamorph.py catalogue                   the idioms, one a line ("py: ..." / "cpp: ...")

`py` prints JSON {"source", "idioms", "runs", "check"}: the rewritten module, the idioms it used,
how many runs of declarations it rewrote and the equivalence check ("same" when every run declares
the same calls, in the same order, bound to the same variables, as the original, executed against
a recording stand-in IRBuilder; else what differs). The choice of idioms depends only on SEED and
the run's index, so the same seed rewrites a mutated module the same way.
"""

import ast
import json
import os
import random
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import py_idioms  # noqa: E402
import cpp_idioms  # noqa: E402
import cpp_list_idioms  # noqa: E402

BUILTINS = set(dir(__builtins__)) if isinstance(__builtins__, dict) is False else set(__builtins__)


def is_param_stmt(st):
    """`v = R.param(...)` or `R.param(...)`: (var or None, call) else None."""
    call, var = None, None
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        call, var = st.value, st.targets[0].id
    elif isinstance(st, ast.Expr):
        call = st.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "param"
            and isinstance(call.func.value, ast.Name)):
        return None
    if not call.args:
        return None
    return var, call


def runs_of(tree):
    """Maximal runs of param statements on one receiver inside function bodies (and their blocks)."""
    out = []

    def scan(body, top):
        cur = []
        for st in body + [None]:
            p = is_param_stmt(st) if st is not None else None
            if p and (not cur or cur[0][2].func.value.id == p[1].func.value.id):
                cur.append((st, p[0], p[1]))
                continue
            if cur:
                out.append((cur, top))
            cur = [(st, p[0], p[1])] if p else []
        for st in body:
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(st, field, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt) and not isinstance(st, ast.ClassDef):
                    scan(sub, top)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            scan(node.body, node)
    return out


def row_of(call, src):
    seg = lambda n: ast.get_source_segment(src, n)
    pos = [("*" + seg(a.value)) if isinstance(a, ast.Starred) else seg(a) for a in call.args[1:]]
    kw = [(k.arg, seg(k.value)) for k in call.keywords]
    return {"name": seg(call.args[0]), "pos": pos, "kw": kw}


def free_names(nodes, bound=()):
    loads, stores = [], set(bound)
    for n in nodes:
        for x in ast.walk(n):
            if isinstance(x, ast.Name):
                if isinstance(x.ctx, ast.Load):
                    loads.append(x.id)
                else:
                    stores.add(x.id)
    seen, out = set(), []
    for n in loads:
        if n not in stores and n not in BUILTINS and n not in seen:
            seen.add(n)
            out.append(n)
    return out


STANDIN = r'''
class _Free:
    def __init__(s, n): s._n = n
    def __getattr__(s, a):
        if a.startswith("__"): raise AttributeError(a)
        return _Free(s._n + "." + a)
    def __call__(s, *a, **k):
        return _Free("%s(%s)" % (s._n, ", ".join([repr(x) for x in a] + ["%s=%r" % kv for kv in sorted(k.items())])))
    def __repr__(s): return s._n
    def __eq__(s, o): return isinstance(o, _Free) and o._n == s._n
    def __hash__(s): return hash(s._n)
    def __getitem__(s, i): return _Free("%s[%r]" % (s._n, i))
class _Recorder:
    def __init__(s): s.calls = []
    def param(s, *a, **k):
        s.calls.append((a, tuple(sorted(k.items()))))
        return _Free("handle%d" % len(s.calls))
'''


def equivalence(orig_src, new_src, module_code, var_names, b, frees):
    """Runs both against the recording stand-in; "same" or what differs."""
    args = "".join(", " + f for f in frees)
    prog = STANDIN + "\n" + module_code + "\n"
    ret = "    return {%s}\n" % ", ".join("%r: %s" % (v, v) for v in var_names)
    prog += "def _original(%s%s):\n%s%s" % (b, args, textwrap.indent(orig_src, "    "), ret)
    prog += "def _rewrite(%s%s):\n%s%s" % (b, args, textwrap.indent(new_src, "    "), ret)
    ns = {}
    try:
        exec(compile(prog, "<check>", "exec"), ns)
        x, y = ns["_Recorder"](), ns["_Recorder"]()
        fv = [ns["_Free"](f) for f in frees]
        vx, vy = ns["_original"](x, *fv), ns["_rewrite"](y, *fv)
    except Exception as e:  # noqa: BLE001 - the message is the finding
        return "the check raised %s: %s\n%s" % (type(e).__name__, e, prog)
    if x.calls != y.calls or vx != vy:
        return "differ:\n original %r\n rewrite  %r\n%s" % (x.calls, y.calls, prog)
    return "same"


def rewrite_py(src, seed, pool=None, only=None):
    """pool: the idiom labels allowed (None: all); only: one idiom forced on every chunk/declaration."""
    stmt_pool = py_idioms.STATEMENT
    if pool is not None:
        stmt_pool = [s for s in py_idioms.STATEMENT if s[0] in pool] or [py_idioms.PLAIN]
    expr_only = None
    if only is not None:
        forced = [s for s in py_idioms.STATEMENT if s[0] == only]
        stmt_pool = forced or [py_idioms.PLAIN]
        expr_only = None if forced else only
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    offs = [0]
    for l in lines:
        offs.append(offs[-1] + len(l))
    edits, used, checks = [], [], []
    runs = runs_of(tree)
    for ri, (run, top) in enumerate(runs):
        rng = random.Random("%s:%d" % (seed, ri))
        stmts = [s for s, _, _ in run]
        first, last = stmts[0], stmts[-1]
        indent = lines[first.lineno - 1][:first.col_offset]
        orig_src = textwrap.dedent("".join(lines[first.lineno - 1:last.end_lineno]))
        b = run[0][2].func.value.id
        vars_all = [v for _, v, _ in run]
        frees = [f for f in free_names(stmts) if f != b]
        # Chunks of 1..4 declarations, each its own statement idiom (combination).
        i, new_src, module = 0, "", ""
        k = 0
        while i < len(run):
            n = rng.randint(1, min(4, len(run) - i))
            chunk = run[i:i + n]
            for attempt in range(8):
                crng = random.Random("%s:%d:%d:%d" % (seed, ri, k, attempt))
                u = "_mm%d_%d_" % (ri, k)
                c_used = []
                if expr_only is not None:
                    rows = [row_of(c, src) for _, _, c in chunk]
                    for r in rows:
                        if py_idioms.force_part(r, expr_only, crng):
                            c_used.append(expr_only)
                else:
                    rows = [py_idioms.rewrite_parts(row_of(c, src), crng, c_used, pool) for _, _, c in chunk]
                label, fn = crng.choice(stmt_pool)
                mod, st = fn(rows, [v for _, v, _ in chunk], u, b, frees)
                try:  # compile, not only parse: the symbol table refuses some forms (a walrus in a comprehension's iterable)
                    compile(mod, "<module>", "exec")
                    compile("def _f():\n" + textwrap.indent(new_src + st, "    "), "<run>", "exec")
                except SyntaxError:
                    continue
                break
            else:
                return None
            used.extend(([label] if fn is not py_idioms.s_plain else []) + c_used)
            module += mod + ("\n\n" if mod else "")
            new_src += st
            i += n
            k += 1
        checks.append(equivalence(orig_src, new_src, module, [v for v in vars_all if v], b, frees))
        top_line = top.lineno - 1 - len(top.decorator_list)
        edits.append((first.lineno - 1, last.end_lineno, textwrap.indent(new_src, indent), top_line, module))
    # Splice from the bottom: the run's lines, then its module code before the top-level def.
    out = lines[:]
    for start, end, text, top_line, module in sorted(edits, key=lambda e: -e[0]):
        out[start:end] = [text] + [""] * (end - start - 1)  # indices of the other lines stay
    inserts = {}
    for _, _, _, top_line, module in edits:
        if module:
            inserts.setdefault(top_line, []).append(module)
    for top_line in sorted(inserts, reverse=True):
        out[top_line:top_line] = ["".join(inserts[top_line]) + "\n"]
    text = "".join(out)
    ast.parse(text)
    bad = [c for c in checks if c != "same"]
    return {"source": text, "idioms": sorted(set(used)), "runs": len(runs), "check": bad[0] if bad else "same"}


def main(argv):
    if argv[1] == "catalogue":
        for n in py_idioms.catalogue():
            print("py: " + n)
        for n in cpp_idioms.catalogue() + cpp_list_idioms.catalogue():
            print("cpp: " + n)
        return 0
    if argv[1] == "py":
        src = open(argv[2], encoding="utf-8").read()
        pool = only = None
        if "--pool" in argv:  # a file of idiom labels, one a line
            pool = [l.strip() for l in open(argv[argv.index("--pool") + 1], encoding="utf-8") if l.strip()]
        if "--only" in argv:
            only = argv[argv.index("--only") + 1]
        res = rewrite_py(src, argv[3], pool, only)
        if res is None:
            print(json.dumps({"error": "no idiom applies"}))
            return 2
        print(json.dumps(res))
        return 0
    if argv[1] == "cpp":
        src = open(argv[2], encoding="utf-8").read()
        res = cpp_idioms.rewrite_launch(src, int(argv[3]), argv[4])
        print(json.dumps(res))
        return 0 if "source" in res else 2
    if argv[1] == "cpp-list":
        src = open(argv[2], encoding="utf-8").read()
        pool = only = None
        if "--pool" in argv:
            pool = [l.strip() for l in open(argv[argv.index("--pool") + 1], encoding="utf-8") if l.strip()]
        if "--only" in argv:
            only = argv[argv.index("--only") + 1]
        res = cpp_list_idioms.rewrite_list(src, int(argv[3]), argv[4], pool, only)
        if "source" in res:
            res["check"] = cpp_list_idioms.compile_check(res)
        print(json.dumps(res))
        return 0 if "source" in res else 2
    if argv[1] == "cpp-check":
        res = cpp_idioms.compile_check()
        print(json.dumps(res))
        return 0 if res.get("check") == "same" else 1
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
