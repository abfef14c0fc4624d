"""The Python idioms of the metamorphic engine (issue 36 item 6): each rewrites a run of
`v = b.param(NAME, TYPE, kw=...)` declarations (or one argument of one declaration) into another
form a kernel author writes, declaring the same arguments in the same order. Standard library only.

A statement idiom gets `rows` (per declaration: its name, positional and keyword parts as source
text), `vars` (the variable each binds, or None), `u` (a unique prefix), `b` (the receiver) and
`frees` (the names the run reads from its scope) and returns (module_code, statements): code put
before the enclosing top-level def, and the statements that replace the run (unindented).
An expression idiom rewrites one part's source text (a name, a type, the keywords).
"""

import random


def _call(b, r):
    parts = [r["name"]] + r["pos"] + [("**" + v if k is None else "%s=%s" % (k, v)) for k, v in r["kw"]]
    return "%s.param(%s)" % (b, ", ".join(parts))


def _table(rows):
    out = []
    for r in rows:
        pos = "(%s)" % "".join(p + ", " for p in r["pos"])
        kw = "{%s}" % ", ".join(("**" + v) if k is None else "%r: %s" % (k, v) for k, v in r["kw"])
        out.append("(%s, %s, %s)" % (r["name"], pos, kw))
    return "(" + "".join(o + ", " for o in out) + ")"


def _bind(vars_, res):
    return "".join("%s = %s[%d]\n" % (v, res, i) for i, v in enumerate(vars_) if v)


def _fp(frees):
    return "".join(", " + f for f in frees)


def _body(lines, n):
    return "".join(" " * n + l + "\n" for l in lines.splitlines() if l.strip())


def _calls_via(fn, rows, u):
    out = ""
    for r in rows:
        parts = [r["name"]] + r["pos"] + [("**" + v if k is None else "%s=%s" % (k, v)) for k, v in r["kw"]]
        out += "%sR.append(%s(%s))\n" % (u, fn, ", ".join(parts))
    return out


# --- statement idioms -------------------------------------------------------------------------

def s_helper(rows, vars_, u, b, frees):
    calls = "".join("    %sR.append(%s)\n" % (u, _call(b, r)) for r in rows)
    mod = "def %sdeclare(%s%s):\n    %sR = []\n%s    return %sR\n" % (u, b, _fp(frees), u, calls, u)
    return mod, "%sR = %sdeclare(%s%s)\n" % (u, u, b, _fp(frees)) + _bind(vars_, u + "R")


def s_closure(rows, vars_, u, b, frees):
    calls = "".join("    %sR.append(%s)\n" % (u, _call(b, r)) for r in rows)
    st = "def %sdeclare():\n    %sR = []\n%s    return %sR\n%sR = %sdeclare()\n" % (u, u, calls, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_for_table(rows, vars_, u, b, frees):
    st = "%sR = []\nfor %sn, %sa, %sk in %s:\n    %sR.append(%s.param(%sn, *%sa, **%sk))\n" % (
        u, u, u, u, _table(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_dict_comprehension(rows, vars_, u, b, frees):
    st = "%sD = {%si: %s.param(%sn, *%sa, **%sk) for %si, (%sn, %sa, %sk) in enumerate(%s)}\n" % (
        u, u, b, u, u, u, u, u, u, u, _table(rows))
    return "", st + _bind(vars_, u + "D")


def s_list_comprehension(rows, vars_, u, b, frees):
    st = "%sR = [%s.param(%sn, *%sa, **%sk) for %sn, %sa, %sk in %s]\n" % (u, b, u, u, u, u, u, u, _table(rows))
    return "", st + _bind(vars_, u + "R")


def s_object(rows, vars_, u, b, frees):
    calls = "".join("        %sR.append(%s)\n" % (u, _call("self.b", r)) for r in rows)
    mod = ("class %sArgs:\n    def __init__(self, b):\n        self.b = b\n\n    def declare(self%s):\n"
           "        %sR = []\n%s        return %sR\n") % (u, _fp(frees), u, calls, u)
    return mod, "%sR = %sArgs(%s).declare(%s)\n" % (u, u, b, ", ".join(frees)) + _bind(vars_, u + "R")


def s_dataclass(rows, vars_, u, b, frees):
    mod = ("import dataclasses as %sdc\n\n\n@%sdc.dataclass(frozen=True)\nclass %sArg:\n"
           "    name: object\n    args: tuple\n    kw: dict\n") % (u, u, u)
    st = "%sR = []\nfor %sr in [%sArg(*%st) for %st in %s]:\n    %sR.append(%s.param(%sr.name, *%sr.args, **%sr.kw))\n" % (
        u, u, u, u, u, _table(rows), u, b, u, u, u)
    return mod, st + _bind(vars_, u + "R")


def s_namedtuple(rows, vars_, u, b, frees):
    mod = "import collections as %scol\n\n%sArg = %scol.namedtuple(\"%sArg\", [\"name\", \"args\", \"kw\"])\n" % (u, u, u, u)
    st = "%sR = []\nfor %sr in map(%sArg._make, %s):\n    %sR.append(%s.param(%sr.name, *%sr.args, **%sr.kw))\n" % (
        u, u, u, _table(rows), u, b, u, u, u)
    return mod, st + _bind(vars_, u + "R")


def s_typed_namedtuple_sorted(rows, vars_, u, b, frees):
    mod = ("import typing as %sty\n\n\nclass %sArg(%sty.NamedTuple):\n    order: int\n    name: object\n"
           "    args: tuple\n    kw: dict\n") % (u, u, u)
    recs = ["%sArg(%d, %s, (%s), %s)" % (u, i, r["name"], "".join(p + ", " for p in r["pos"]),
                                          "{%s}" % ", ".join(("**" + v) if k is None else "%r: %s" % (k, v) for k, v in r["kw"]))
            for i, r in enumerate(rows)]
    recs.reverse()
    st = "%sR = []\nfor %sr in sorted([%s], key=lambda %sx: %sx.order):\n    %sR.append(%s.param(%sr.name, *%sr.args, **%sr.kw))\n" % (
        u, u, ", ".join(recs), u, u, u, b, u, u, u)
    return mod, st + _bind(vars_, u + "R")


def s_map_lambda(rows, vars_, u, b, frees):
    st = "%sR = list(map(lambda %st: %s.param(%st[0], *%st[1], **%st[2]), %s))\n" % (u, u, b, u, u, u, _table(rows))
    return "", st + _bind(vars_, u + "R")


def s_alias(rows, vars_, u, b, frees):
    st = "%sp = %s.param\n%sR = []\n" % (u, b, u) + _calls_via(u + "p", rows, u)
    return "", st + _bind(vars_, u + "R")


def s_partial(rows, vars_, u, b, frees):
    st = "import functools as %sft\n%sp = %sft.partial(%s.param)\n%sR = []\n" % (u, u, u, b, u) + _calls_via(u + "p", rows, u)
    return "", st + _bind(vars_, u + "R")


def s_getattr(rows, vars_, u, b, frees):
    st = "%sR = []\n" % u + _calls_via('getattr(%s, "pa" + "ram")' % b, rows, u)
    return "", st + _bind(vars_, u + "R")


def s_methodcaller(rows, vars_, u, b, frees):
    st = "import operator as %sop\n%sR = []\n" % (u, u)
    for r in rows:
        parts = ['"param"', r["name"]] + r["pos"] + [("**" + v if k is None else "%s=%s" % (k, v)) for k, v in r["kw"]]
        st += "%sR.append(%sop.methodcaller(%s)(%s))\n" % (u, u, ", ".join(parts), b)
    return "", st + _bind(vars_, u + "R")


def s_starmap(rows, vars_, u, b, frees):
    st = ("import itertools as %sit\n%sR = list(%sit.starmap(lambda %sn, %sa, %sk: %s.param(%sn, *%sa, **%sk), %s))\n") % (
        u, u, u, u, u, u, b, u, u, u, _table(rows))
    return "", st + _bind(vars_, u + "R")


def s_while_iter(rows, vars_, u, b, frees):
    st = ("%sR = []\n%si = iter(%s)\nwhile (%sr := next(%si, None)) is not None:\n"
          "    %sR.append(%s.param(%sr[0], *%sr[1], **%sr[2]))\n") % (u, u, _table(rows), u, u, u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_enumerate(rows, vars_, u, b, frees):
    st = "%sR = [None] * %d\nfor %si, %sr in enumerate(%s):\n    %sR[%si] = %s.param(%sr[0], *%sr[1], **%sr[2])\n" % (
        u, len(rows), u, u, _table(rows), u, u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_zip(rows, vars_, u, b, frees):
    names = "(%s)" % "".join(r["name"] + ", " for r in rows)
    rest = _table(rows)
    st = "%sR = []\nfor %sn, (_%sx, %sa, %sk) in zip(%s, %s):\n    %sR.append(%s.param(%sn, *%sa, **%sk))\n" % (
        u, u, u, u, u, names, rest, u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_reversed(rows, vars_, u, b, frees):
    st = "%sR = []\nfor %sr in reversed(list(reversed(%s))):\n    %sR.append(%s.param(%sr[0], *%sr[1], **%sr[2]))\n" % (
        u, u, _table(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_registry(rows, vars_, u, b, frees):
    mod = "%sREGISTRY = {}\n\n\ndef %sregister(name):\n    def deco(fn):\n        %sREGISTRY[name] = fn\n        return fn\n    return deco\n\n\n" % (u, u, u)
    mod += "@%sregister(\"declare\")\ndef %sdeclare(%s%s):\n    %sR = []\n%s    return %sR\n" % (
        u, u, b, _fp(frees), u, "".join("    %sR.append(%s)\n" % (u, _call(b, r)) for r in rows), u)
    return mod, "%sR = %sREGISTRY[\"declare\"](%s%s)\n" % (u, u, b, _fp(frees)) + _bind(vars_, u + "R")


def s_namespace(rows, vars_, u, b, frees):
    st = "import types as %sty\n%sns = %sty.SimpleNamespace(b=%s)\n%sR = []\n" % (u, u, u, b, u)
    st += "".join("%sR.append(%s)\n" % (u, _call(u + "ns.b", r)) for r in rows)
    return "", st + _bind(vars_, u + "R")


def s_staticmethod(rows, vars_, u, b, frees):
    calls = "".join("        %sR.append(%s)\n" % (u, _call(b, r)) for r in rows)
    mod = "class %sDecl:\n    @staticmethod\n    def declare(%s%s):\n        %sR = []\n%s        return %sR\n" % (
        u, b, _fp(frees), u, calls, u)
    return mod, "%sR = %sDecl.declare(%s%s)\n" % (u, u, b, _fp(frees)) + _bind(vars_, u + "R")


def s_classmethod(rows, vars_, u, b, frees):
    calls = "".join("        %sR.append(%s)\n" % (u, _call(b, r)) for r in rows)
    mod = ("class %sDecl:\n    @classmethod\n    def declare(cls, %s%s):\n        %sR = cls.start()\n%s        return %sR\n\n"
           "    @classmethod\n    def start(cls):\n        return []\n") % (u, b, _fp(frees), u, calls, u)
    return mod, "%sR = %sDecl.declare(%s%s)\n" % (u, u, b, _fp(frees)) + _bind(vars_, u + "R")


def s_subclass_super(rows, vars_, u, b, frees):
    cut = max(1, len(rows) // 2)
    first = "".join("        R.append(%s)\n" % _call("self.b", r) for r in rows[:cut])
    rest = "".join("        R.append(%s)\n" % _call("self.b", r) for r in rows[cut:])
    mod = ("class %sBase:\n    def __init__(self, b):\n        self.b = b\n\n    def declare(self%s):\n        R = []\n%s        return R\n\n\n"
           "class %sMore(%sBase):\n    def declare(self%s):\n        R = super().declare(%s)\n%s        return R\n") % (
        u, _fp(frees), first, u, u, _fp(frees), ", ".join(frees), rest)
    return mod, "%sR = %sMore(%s).declare(%s)\n" % (u, u, b, ", ".join(frees)) + _bind(vars_, u + "R")


def s_recursion(rows, vars_, u, b, frees):
    mod = ("def %sdeclare_all(b, rows):\n    if not rows:\n        return []\n"
           "    n, a, k = rows[0]\n    first = b.param(n, *a, **k)\n    return [first] + %sdeclare_all(b, rows[1:])\n") % (u, u)
    return mod, "%sR = %sdeclare_all(%s, %s)\n" % (u, u, b, _table(rows)) + _bind(vars_, u + "R")


def s_reduce(rows, vars_, u, b, frees):
    st = ("import functools as %sft\n%sR = %sft.reduce(lambda %sacc, %sr: %sacc + [%s.param(%sr[0], *%sr[1], **%sr[2])], %s, [])\n") % (
        u, u, u, u, u, u, b, u, u, u, _table(rows))
    return "", st + _bind(vars_, u + "R")


def s_chain(rows, vars_, u, b, frees):
    cut = len(rows) // 2
    st = ("import itertools as %sit\n%sR = []\nfor %sn, %sa, %sk in %sit.chain(%s, %s):\n"
          "    %sR.append(%s.param(%sn, *%sa, **%sk))\n") % (u, u, u, u, u, u, _table(rows[:cut]), _table(rows[cut:]), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_islice(rows, vars_, u, b, frees):
    st = ("import itertools as %sit\n%sR = []\nfor %sn, %sa, %sk in %sit.islice(%s + ((\"unused\", (), {}),), %d):\n"
          "    %sR.append(%s.param(%sn, *%sa, **%sk))\n") % (u, u, u, u, u, u, _table(rows), len(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_filter(rows, vars_, u, b, frees):
    st = ("%sR = []\nfor %sr in filter(lambda %sr: %sr[2] is not None, %s):\n"
          "    %sR.append(%s.param(%sr[0], *%sr[1], **%sr[2]))\n") % (u, u, u, u, _table(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_wraps(rows, vars_, u, b, frees):
    mod = ("import functools as %sft\n\n\ndef %straced(fn):\n    @%sft.wraps(fn)\n    def inner(*a, **k):\n"
           "        return fn(*a, **k)\n    return inner\n\n\n@%straced\ndef %sdeclare(%s%s):\n    %sR = []\n%s    return %sR\n") % (
        u, u, u, u, u, b, _fp(frees), u, "".join("    %sR.append(%s)\n" % (u, _call(b, r)) for r in rows), u)
    return mod, "%sR = %sdeclare(%s%s)\n" % (u, u, b, _fp(frees)) + _bind(vars_, u + "R")


def s_setattr(rows, vars_, u, b, frees):
    st = "import types as %sty\n%sns = %sty.SimpleNamespace()\n" % (u, u, u)
    for i, r in enumerate(rows):
        st += "setattr(%sns, \"a%d\", %s)\n" % (u, i, _call(b, r))
    st += "%sR = [getattr(%sns, \"a%%d\" %% %si) for %si in range(%d) if hasattr(%sns, \"a%%d\" %% %si)]\n" % (
        u, u, u, u, len(rows), u, u)
    return "", st + _bind(vars_, u + "R")


def s_zip_longest(rows, vars_, u, b, frees):
    names = "(%s)" % "".join(r["name"] + ", " for r in rows)
    st = ("import itertools as %sit\n%sR = []\nfor %sn, %st in %sit.zip_longest(%s, %s):\n"
          "    %sR.append(%s.param(%sn, *%st[1], **%st[2]))\n") % (u, u, u, u, u, names, _table(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_itemgetter(rows, vars_, u, b, frees):
    st = ("import operator as %sop\n%sget = %sop.itemgetter(0, 1, 2)\n%sR = []\nfor %sr in %s:\n"
          "    %sn, %sa, %sk = %sget(%sr)\n    %sR.append(%s.param(%sn, *%sa, **%sk))\n") % (
        u, u, u, u, u, _table(rows), u, u, u, u, u, u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_attrgetter(rows, vars_, u, b, frees):
    st = ("import operator as %sop\n%sdecl = %sop.attrgetter(\"param\")(%s)\n%sR = []\n") % (u, u, u, b, u)
    st += _calls_via(u + "decl", rows, u)
    return "", st + _bind(vars_, u + "R")


def s_tuple_assign(rows, vars_, u, b, frees):
    st = "%sR = [%s]\n" % (u, ", ".join(_call(b, r) for r in rows))
    if len(rows) > 1:
        st = "(%s) = (%s,)\n%sR = [%s]\n" % (", ".join("%sx%d" % (u, i) for i in range(len(rows))) + ",",
                                              ", ".join(_call(b, r) for r in rows), u,
                                              ", ".join("%sx%d" % (u, i) for i in range(len(rows))))
    return "", st + _bind(vars_, u + "R")


def s_factory(rows, vars_, u, b, frees):
    mod = ("def %smake_declare(b):\n    param = getattr(b, \"param\")\n\n    def declare(n, *a, **k):\n"
           "        return param(n, *a, **k)\n    return declare\n") % u
    st = "%sdeclare = %smake_declare(%s)\n%sR = []\n" % (u, u, b, u) + _calls_via(u + "declare", rows, u)
    return mod, st + _bind(vars_, u + "R")


def s_literal_get_args(rows, vars_, u, b, frees):
    # The names as a `typing.Literal` type's values, read back with `typing.get_args` (the real
    # gfx950 gdn_decode.py's `GDN_DTYPES = get_args(DType)` over `DType = Literal["f16", "bf16"]`).
    names = ", ".join(r["name"] for r in rows)
    st = ("import typing as %sty\n%sR = []\nfor %sn, %sr in zip(%sty.get_args(%sty.Literal[%s]), %s):\n"
          "    %sR.append(%s.param(%sn, *%sr[1], **%sr[2]))\n") % (
        u, u, u, u, u, u, names, _table(rows), u, b, u, u, u)
    return "", st + _bind(vars_, u + "R")


def s_plain(rows, vars_, u, b, frees):
    return "", "".join("%s%s\n" % ((v + " = ") if v else "", _call(b, r)) for r, v in zip(rows, vars_))


PLAIN = ("the declarations as written", s_plain)

STATEMENT = [
    ("helper function of the module", s_helper),
    ("closure in the builder", s_closure),
    ("for over a table, * and ** spreads", s_for_table),
    ("dict comprehension", s_dict_comprehension),
    ("list comprehension", s_list_comprehension),
    ("object holding b (self.b.param in a method)", s_object),
    ("dataclass records", s_dataclass),
    ("collections.namedtuple records", s_namedtuple),
    ("typing.NamedTuple records sorted by an order field", s_typed_namedtuple_sorted),
    ("map of a lambda", s_map_lambda),
    ("alias p = b.param", s_alias),
    ("functools.partial(b.param)", s_partial),
    ("getattr(b, \"param\") with a computed name", s_getattr),
    ("operator.methodcaller(\"param\", ...)(b)", s_methodcaller),
    ("itertools.starmap", s_starmap),
    ("while over an iterator with the walrus", s_while_iter),
    ("enumerate into a preallocated list", s_enumerate),
    ("zip of names and a table", s_zip),
    ("reversed twice", s_reversed),
    ("registry filled by a decorator", s_registry),
    ("types.SimpleNamespace holding b", s_namespace),
    ("@staticmethod", s_staticmethod),
    ("@classmethod", s_classmethod),
    ("subclass adding arguments after super().declare()", s_subclass_super),
    ("recursion over a list", s_recursion),
    ("functools.reduce", s_reduce),
    ("itertools.chain of two tables", s_chain),
    ("itertools.islice of a longer table", s_islice),
    ("filter", s_filter),
    ("decorator with functools.wraps", s_wraps),
    ("setattr/getattr/hasattr with known names", s_setattr),
    ("itertools.zip_longest", s_zip_longest),
    ("operator.itemgetter", s_itemgetter),
    ("operator.attrgetter(\"param\")(b)", s_attrgetter),
    ("tuple assignment of the calls", s_tuple_assign),
    ("factory returning a closure over getattr(b, \"param\")", s_factory),
    ("names as typing.get_args of a Literal", s_literal_get_args),
]


# --- expression idioms (a string-literal name; a type; the keywords) ---------------------------

def _lit(s):
    return '"%s"' % s


def n_fstring(s, rng):
    k = rng.randint(0, len(s))
    return "f\"{%s}{%s}\"" % (repr(s[:k]), repr(s[k:]))


def n_format(s, rng):
    k = rng.randint(0, len(s))
    return "\"{}{}\".format(%s, %s)" % (_lit(s[:k]), _lit(s[k:]))


def n_join(s, rng):
    parts = s.split("_")
    return "\"_\".join([%s])" % ", ".join(_lit(p) for p in parts)


def n_upper_lower(s, rng):
    return "%s.lower()" % _lit(s.upper()) if s == s.lower() else "%s.upper().upper()" % _lit(s.upper()) if s == s.upper() else None


def n_replace(s, rng):
    return "%s.replace(\"@\", \"\")" % _lit("@" + s)


def n_slice(s, rng):
    return "%s[2:]" % _lit("__" + s)


def n_concat(s, rng):
    k = rng.randint(0, len(s))
    return "%s + %s" % (_lit(s[:k]), _lit(s[k:]))


def n_percent(s, rng):
    return "\"%%s\" %% %s" % _lit(s)


def t_dict_dispatch(t, rng):
    return "{\"a\": None, \"t\": %s}[\"t\"]" % t


def t_conditional(t, rng):
    return "(%s if 1 < 2 else None)" % t


def t_tuple_index(t, rng):
    return "(None, %s)[1]" % t


def t_walrus(t, rng):
    return "(_mm_w := %s)" % t


NAME = [("name by an f-string", n_fstring), ("name by str.format", n_format), ("name by str.join", n_join),
        ("name by str.upper/lower", n_upper_lower), ("name by str.replace", n_replace), ("name by slicing", n_slice),
        ("name by + of strings", n_concat), ("name by %-formatting", n_percent)]
TYPE = [("type by dict dispatch", t_dict_dispatch), ("type by a conditional expression", t_conditional),
        ("type by a tuple index", t_tuple_index), ("type through the walrus", t_walrus)]
KEYWORDS = ["keywords by a ** dict literal", "keywords by ** dict(...)"]
POSITIONAL = ["positional by a * tuple spread"]


def catalogue():
    return ([n for n, _ in STATEMENT] + [n for n, _ in NAME] + [n for n, _ in TYPE] + KEYWORDS + POSITIONAL)


def force_part(row, label, rng):
    """One expression idiom, by label, on a declaration's parts (False: it does not apply)."""
    import ast
    try:
        name = ast.literal_eval(row["name"])
    except Exception:
        name = None
    for l, fn in NAME:
        if l == label:
            if not (isinstance(name, str) and name):
                return False
            t = fn(name, rng)
            if not t:
                return False
            row["name"] = t
            return True
    for l, fn in TYPE:
        if l == label:
            if not row["pos"] or row["pos"][0].startswith("*"):
                return False
            row["pos"][0] = fn(row["pos"][0], rng)
            return True
    plain = [(k, v) for k, v in row["kw"] if k is not None]
    if label in KEYWORDS:
        if not plain or len(plain) != len(row["kw"]):
            return False
        row["kw"] = [(None, ("{%s}" % ", ".join("%r: %s" % (k, v) for k, v in plain)) if label == KEYWORDS[0]
                      else "dict(%s)" % ", ".join("%s=%s" % (k, v) for k, v in plain))]
        return True
    if label in POSITIONAL:
        if not row["pos"] or any(p.startswith("*") for p in row["pos"]):
            return False
        row["pos"] = ["*(%s, )" % ", ".join(row["pos"])]
        return True
    raise KeyError(label)


def rewrite_parts(row, rng, used, pool=None):
    """Expression idioms on one declaration's parts (each with probability 1/3); `pool`: the labels allowed."""
    if pool is not None:
        labels = [l for l in pool if l in [n for n, _ in NAME + TYPE] + KEYWORDS + POSITIONAL]
        if labels and rng.random() < 0.5:
            l = rng.choice(labels)
            if force_part(row, l, rng):
                used.append(l)
        return row
    import ast
    try:
        name = ast.literal_eval(row["name"])
    except Exception:
        name = None
    if isinstance(name, str) and name and rng.random() < 0.34:
        label, fn = rng.choice(NAME)
        text = fn(name, rng)
        if text:
            row["name"] = text
            used.append(label)
    if row["pos"] and not row["pos"][0].startswith("*") and rng.random() < 0.34:
        label, fn = rng.choice(TYPE)
        row["pos"][0] = fn(row["pos"][0], rng)
        used.append(label)
    plain = [(k, v) for k, v in row["kw"] if k is not None]
    if plain and len(plain) == len(row["kw"]) and rng.random() < 0.25:
        if rng.random() < 0.5:
            row["kw"] = [(None, "{%s}" % ", ".join("%r: %s" % (k, v) for k, v in plain))]
            used.append(KEYWORDS[0])
        else:
            row["kw"] = [(None, "dict(%s)" % ", ".join("%s=%s" % (k, v) for k, v in plain))]
            used.append(KEYWORDS[1])
    if row["pos"] and not any(p.startswith("*") for p in row["pos"]) and rng.random() < 0.15:
        row["pos"] = ["*(%s, )" % ", ".join(row["pos"])]
        used.append(POSITIONAL[0])
    return row


__all__ = ["STATEMENT", "catalogue", "rewrite_parts", "random"]
