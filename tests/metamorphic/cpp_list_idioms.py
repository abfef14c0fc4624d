"""The C++ list idioms of the metamorphic engine (issue 36 item 6): a pack's KernelArgument list
built by appends (`v.push_back({kind, size, offset, name}); offset += size;`, written once or as a
loop over a literal list of names, as the real gfx950 conv pack does) rewritten so that each chunk
of 1..4 appended arguments is made by another C++ form: an X-macro list, a helper returning a
std::array or a std::vector inserted whole, designated initializers, emplace_back, a struct filled
field by field, a using or typedef alias, a constexpr table walked by a loop (over its rows, by an
index, or as std::tuple rows bound by a structured binding), a loop over a literal list. Equivalence is checked by compile_check: the original function and the rewrite compiled
together with the machine's c++ against a stand-in KernelArgument, run, and their lists compared
field by field (kind, size, offset, name).
"""

import os
import random
import re
import subprocess
import tempfile
import zlib

LOOP = re.compile(r'for\s*\(\s*const\s+auto\s*\*?\s*(\w+)\s*:\s*\{([^{}]*)\}\s*\)\s*\{\s*(\w+)\.push_back\(\{\s*([^,{}]+?)\s*,'
                  r'\s*([^,{}]+?)\s*,\s*(\w+)\s*,\s*\1\s*\}\);\s*\6\s*\+=\s*\5\s*;\s*\}')
PLAIN = re.compile(r'(\w+)\.push_back\(\{\s*([^,{}]+?)\s*,\s*([^,{}]+?)\s*,\s*(\w+)\s*,\s*("[^"]*")\s*\}\);\s*\4\s*\+=\s*\3\s*;')


def _units(body, at):
    """Append units from `at` in `body`: [(start, end, v, o, [(kind, size, name)])], consecutive."""
    out = []
    i = at
    while True:
        m = None
        j = len(body) - len(body[i:].lstrip())
        for rx in (LOOP, PLAIN):
            mm = rx.match(body, j)
            if mm:
                m = (rx, mm)
                break
        if not m:
            return out
        rx, mm = m
        if rx is LOOP:
            names = [n.strip() for n in mm.group(2).split(",") if n.strip()]
            if not all(n.startswith('"') for n in names):
                return out
            out.append((j, mm.end(), mm.group(3), mm.group(6), [(mm.group(4), mm.group(5), n) for n in names]))
        else:
            out.append((j, mm.end(), mm.group(1), mm.group(4), [(mm.group(2), mm.group(3), mm.group(5))]))
        if len({(u[2], u[3]) for u in out}) > 1:
            return out[:-1]
        i = mm.end()


def i_unrolled(es, v, o, t, ind, consts):
    return "", "".join("%s%s.push_back({%s, %s, %s, %s});\n%s%s += %s;\n" % (ind, v, k, s, o, n, ind, o, s) for k, s, n in es)


def i_emplace(es, v, o, t, ind, consts):
    return "", "".join("%s%s.emplace_back(%s, %s, %s, %s);\n%s%s += %s;\n" % (ind, v, k, s, o, n, ind, o, s) for k, s, n in es)


def i_designated(es, v, o, t, ind, consts):
    return "", "".join("%s%s.push_back(KernelArgument{.kind = %s, .size = %s, .offset = %s, .name = %s});\n%s%s += %s;\n"
                       % (ind, v, k, s, o, n, ind, o, s) for k, s, n in es)


def i_xmacro(es, v, o, t, ind, consts):
    rows = "".join(" \\\n    X(%s, %s, %s)" % e for e in es)
    text = "#define IMPACTD_MM_LIST_%s(X)%s\n" % (t, rows)
    text += "#define IMPACTD_MM_APPEND_%s(kind, size, name) %s.push_back({kind, size, %s, name}); %s += size;\n" % (t, v, o, o)
    return "", text + "%sIMPACTD_MM_LIST_%s(IMPACTD_MM_APPEND_%s)\n" % (ind, t, t)


def i_fields(es, v, o, t, ind, consts):
    out = ""
    for x, (k, s, n) in enumerate(es):
        a = "impactdMmArg%s_%d" % (t, x)
        out += ("%sKernelArgument %s;\n%s%s.kind = %s;\n%s%s.size = %s;\n%s%s.offset = %s;\n%s%s.name = %s;\n%s%s.push_back(%s);\n"
                "%s%s += %s;\n") % (ind, a, ind, a, k, ind, a, s, ind, a, o, ind, a, n, ind, v, a, ind, o, s)
    return "", out


def i_using(es, v, o, t, ind, consts):
    a = "ImpactdMmArg%s" % t
    return "", "%susing %s = KernelArgument;\n" % (ind, a) + "".join(
        "%s%s.push_back(%s{%s, %s, %s, %s});\n%s%s += %s;\n" % (ind, v, a, k, s, o, n, ind, o, s) for k, s, n in es)


def i_typedef(es, v, o, t, ind, consts):
    a = "ImpactdMmT%s" % t
    return "", "%stypedef KernelArgument %s;\n" % (ind, a) + "".join(
        "%s%s.push_back(%s{%s, %s, %s, %s});\n%s%s += %s;\n" % (ind, v, a, k, s, o, n, ind, o, s) for k, s, n in es)


def _sizes(es):
    return " + ".join("(%s)" % s for _, s, _ in es)


def i_array_helper(es, v, o, t, ind, consts):
    elems, run = [], []
    for k, s, n in es:
        off = "offset" + "".join(" + (%s)" % r for r in run)
        elems.append("        KernelArgument{%s, %s, %s, %s}," % (k, s, off, n))
        run.append(s)
    helper = "std::array<KernelArgument, %d> impactdMmHelper%s(uint32_t offset)\n{\n%s    return {{\n%s\n    }};\n}\n\n" % (
        len(es), t, consts, "\n".join(elems))
    h = "impactdMmH%s" % t
    body = "%sauto %s = impactdMmHelper%s(%s);\n%s%s.insert(%s.end(), %s.begin(), %s.end());\n%s%s += %s;\n" % (
        ind, h, t, o, ind, v, v, h, h, ind, o, _sizes(es))
    return helper, body


def i_vector_helper(es, v, o, t, ind, consts):
    appends = "".join("    s.push_back({%s, %s, offset, %s});\n    offset += %s;\n" % (k, s, n, s) for k, s, n in es)
    helper = "std::vector<KernelArgument> impactdMmPart%s(uint32_t offset)\n{\n%s    std::vector<KernelArgument> s;\n%s    return s;\n}\n\n" % (
        t, consts, appends)
    h = "impactdMmP%s" % t
    body = "%sauto %s = impactdMmPart%s(%s);\n%s%s.insert(%s.end(), %s.begin(), %s.end());\n%s%s += %s;\n" % (
        ind, h, t, o, ind, v, v, h, h, ind, o, _sizes(es))
    return helper, body


def i_table(es, v, o, t, ind, consts):
    rows = ", ".join("{%s, %s, %s}" % e for e in es)
    return "", ("%sstruct ImpactdMmRow%s { const char* kind; uint32_t size; const char* name; };\n"
                "%sstatic constexpr ImpactdMmRow%s impactdMmTable%s[] = {%s};\n"
                "%sfor(const auto& r : impactdMmTable%s)\n%s{\n%s    %s.push_back({r.kind, r.size, %s, r.name});\n%s    %s += r.size;\n%s}\n") % (
        ind, t, ind, t, t, rows, ind, t, ind, ind, v, o, ind, o, ind)


def i_table_indexed(es, v, o, t, ind, consts):
    """The table walked by an index over its std::size."""
    rows = ", ".join("{%s, %s, %s}" % e for e in es)
    tb = "impactdMmITable%s" % t
    return "", ("%sstruct ImpactdMmIRow%s { const char* kind; uint32_t size; const char* name; };\n"
                "%sstatic constexpr ImpactdMmIRow%s %s[] = {%s};\n"
                "%sfor(size_t i = 0; i < std::size(%s); ++i)\n%s{\n%s    %s.push_back({%s[i].kind, %s[i].size, %s, %s[i].name});\n"
                "%s    %s += %s[i].size;\n%s}\n") % (
        ind, t, ind, t, tb, rows, ind, tb, ind, ind, v, tb, tb, o, tb, ind, o, tb, ind)


def i_tuple_bindings(es, v, o, t, ind, consts):
    """A table of std::tuple rows walked with a structured binding."""
    rows = ", ".join("{%s, %s, %s}" % e for e in es)
    tb = "impactdMmTuples%s" % t
    return "", ("%sstatic constexpr std::tuple<const char*, uint32_t, const char*> %s[] = {%s};\n"
                "%sfor(const auto& [rowKind, rowSize, rowName] : %s)\n%s{\n%s    %s.push_back({rowKind, rowSize, %s, rowName});\n"
                "%s    %s += rowSize;\n%s}\n") % (ind, tb, rows, ind, tb, ind, ind, v, o, ind, o, ind)


def i_loop(es, v, o, t, ind, consts):
    """One loop per run of arguments of the same kind and size."""
    out, i = "", 0
    while i < len(es):
        j = i
        while j < len(es) and es[j][:2] == es[i][:2]:
            j += 1
        k, s, _ = es[i]
        out += "%sfor(const auto* name : {%s})\n%s{\n%s    %s.push_back({%s, %s, %s, name});\n%s    %s += %s;\n%s}\n" % (
            ind, ", ".join(n for _, _, n in es[i:j]), ind, ind, v, k, s, o, ind, o, s, ind)
        i = j
    return "", out


LIST = [("list: appends unrolled", i_unrolled), ("list: emplace_back", i_emplace),
        ("list: designated initializers", i_designated), ("list: X-macro", i_xmacro),
        ("list: a struct filled field by field", i_fields), ("list: using alias of KernelArgument", i_using),
        ("list: typedef of KernelArgument", i_typedef), ("list: std::array returned by a helper, inserted", i_array_helper),
        ("list: std::vector of a helper, inserted", i_vector_helper), ("list: constexpr table and a loop", i_table),
        ("list: loop over a literal list of names", i_loop),
        ("list: constexpr table walked by an index", i_table_indexed),
        ("list: std::tuple table with a structured binding", i_tuple_bindings)]


def catalogue():
    return [l for l, _ in LIST]


def _function(src, line):
    """(head start, body open brace, body close brace) of the function whose head or body holds 1-based line."""
    lines = src.split("\n")
    start = sum(len(l) + 1 for l in lines[:line - 1])
    brace = src.find("{", start)
    if brace < 0:
        return None
    depth, i = 0, brace
    while i < len(src):
        c = src[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    # The head: the lines above the brace up to a blank, comment, or statement end.
    hl = src.count("\n", 0, brace)
    while hl > 0:
        prev = lines[hl - 1].strip()
        if not prev or prev.startswith(("//", "/*", "*", "#")) or prev.endswith((";", "}", "{")):
            break
        hl -= 1
    return sum(len(l) + 1 for l in lines[:hl]), brace, i


def rewrite_list(src, line, seed, pool=None, force=None):
    """The append run of the function at 1-based `line` rewritten; {"source", "idioms", "function", "rewritten"} or {"error"}."""
    fn = _function(src, line)
    if not fn:
        return {"error": "no function at line %d" % line}
    head, open_at, close_at = fn
    body = src[open_at + 1:close_at]
    consts = "".join(l + "\n" for l in body.split("\n") if re.match(r"\s*constexpr\s", l))
    units = []
    for m in re.finditer(r"\n", body):  # the first run of at least one unit
        units = _units(body, m.end())
        if units:
            break
    if not units:
        return {"error": "no appended KernelArgument run in the function"}
    v, o = units[0][2], units[0][3]
    es = [e for u in units for e in u[4]]
    run_start, run_end = units[0][0], units[-1][1]
    ind = re.match(r"[ \t]*", body[body.rfind("\n", 0, run_start) + 1:]).group(0)
    rng = random.Random("%s:%d:list" % (seed, line))
    labels = [l for l, _ in LIST if pool is None or l in pool]
    helpers, text, used, i, k = "", "", [], 0, 0
    while i < len(es):
        n = len(es) - i if force else rng.randint(1, min(4, len(es) - i))
        label = force or rng.choice(labels)
        fnc = dict(LIST)[label]
        tag = "%x_%d" % (zlib.crc32(("%s:%d" % (seed, line)).encode()) & 0xffff, k)
        h, b = fnc(es[i:i + n], v, o, tag, ind, consts)
        helpers += h
        text += b
        used.append(label)
        i += n
        k += 1
    new_body = body[:run_start] + text.lstrip(" \t") + body[run_end:].lstrip("\n")
    function = src[head:close_at + 1]
    rewritten = helpers + src[head:open_at + 1] + new_body + "}"
    out = src[:head] + rewritten + src[close_at + 1:]
    return {"source": out, "idioms": sorted(set(used)), "function": function, "rewritten": rewritten}


HARNESS = r'''
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>
struct KernelArgument { std::string kind; uint32_t size = 0; uint32_t offset = 0; std::string name; };
'''


def _call_args(function):
    params = function[function.find("(", function.find("KernelArgument>")) + 1:function.find(")", function.find("KernelArgument>"))]
    if not params.strip():
        return ""
    if "std::array<std::string_view" in params:
        return 'std::array<std::string_view, 2>{"impactd_n0", "impactd_n1"}'
    return None


def compile_check(res, cxx="c++"):
    """The original function and its rewrite compiled together and run: "same" when they build the
    same list; what differs otherwise; "not compiled: ..." when the function takes other parameters."""
    fn = res["function"]
    name = re.search(r"(\w+)\s*\(", fn[fn.find("KernelArgument>"):]).group(1)
    args = _call_args(fn)
    if args is None:
        return "not compiled: the function takes parameters the stand-in cannot give"
    prog = HARNESS + "namespace orig {\n%s\n}\nnamespace rw {\n%s\n}\n" % (fn, res["rewritten"])
    prog += ("int main() {\n  auto a = orig::%s(%s);\n  auto b = rw::%s(%s);\n  if (a.size() != b.size()) { std::printf(\"differ: %%zu vs %%zu\\n\", a.size(), b.size()); return 1; }\n"
             "  for (size_t i = 0; i < a.size(); ++i)\n    if (a[i].kind != b[i].kind || a[i].size != b[i].size || a[i].offset != b[i].offset || a[i].name != b[i].name) {\n"
             "      std::printf(\"differ at #%%zu: %%s vs %%s\\n\", i + 1, a[i].name.c_str(), b[i].name.c_str()); return 1; }\n"
             "  std::printf(\"same\\n\");\n}\n") % (name, args, name, args)
    with tempfile.TemporaryDirectory() as d:
        cpp, exe = os.path.join(d, "list.cpp"), os.path.join(d, "list")
        open(cpp, "w").write(prog)
        c = subprocess.run([cxx, "-std=c++20", "-o", exe, cpp], capture_output=True, text=True)
        if c.returncode != 0:
            return "does not compile: " + c.stderr[-1500:] + "\n" + prog
        r = subprocess.run([exe], capture_output=True, text=True)
        return r.stdout.strip() if r.stdout.strip() == "same" else r.stdout.strip() + "\n" + prog
