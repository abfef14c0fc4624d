"""The C++ idioms of the metamorphic engine (issue 36 item 6): a pack's launch call
`x.launch(stream, a1, a2, ...)` rewritten so that each kernel argument (never the stream, never a
parameter pack's expansion `values...`) goes through other C++ forms, one or two layered, chosen
by the seed; or the whole call through `std::apply` of a `std::make_tuple`. Each idiom keeps each
argument's type and value (checked by reading, and by compile_check: the same rewrites of a
stand-in launch compiled with the machine's c++ and run, recording each argument's size and value).
"""

import os
import random
import subprocess
import tempfile
import zlib


def _split_args(s, open_at):
    """Top-level arguments of the call whose '(' is at open_at (comments dropped), and its ')'."""
    depth, quote, cur, args, i = 0, None, "", [], open_at
    while i < len(s):
        c = s[i]
        if quote:
            cur += c
            if c == "\\" and i + 1 < len(s):
                cur += s[i + 1]
                i += 1
            elif c == quote:
                quote = None
            i += 1
            continue
        if s.startswith("//", i):
            i = s.find("\n", i)
            if i < 0:
                return None, None
            continue
        if s.startswith("/*", i):
            i = s.find("*/", i) + 2
            continue
        if c in "\"'":
            quote = c
        if c in "([{":
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return args, i
        elif c == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    return None, None


# Per-argument idioms: (label, fn(arg, name, ind) -> (declarations before the statement, expression)).
def a_local(x, n, ind):
    return "%sconst auto %s = %s;\n" % (ind, n, x), n


def a_struct(x, n, ind):
    return ("%sconst struct { std::decay_t<decltype(%s)> v; } %s{%s};\n" % (ind, x, n, x)), n + ".v"


def a_paren(x, n, ind):
    return "", "(%s)" % x


def a_lambda(x, n, ind):
    return "", "[&] { return %s; }()" % x


def a_ternary(x, n, ind):
    return "", "(true ? (%s) : (%s))" % (x, x)


def a_macro(x, n, ind):
    m = "IMPACTD_MM_" + n.upper()
    return "#define %s (%s)\n" % (m, x), m


def a_fmacro(x, n, ind):
    return "", "IMPACTD_MM_ID(%s)" % x


def a_cref(x, n, ind):
    return "%sconst auto& %s = %s;\n" % (ind, n, x), n


def a_tuple_get(x, n, ind):
    return "%sconst auto %s = std::make_tuple(%s);\n" % (ind, n, x), "std::get<0>(%s)" % n


def a_template_id(x, n, ind):
    return "", "impactdMmId(%s)" % x


def a_static_cast(x, n, ind):
    return "", "static_cast<std::decay_t<decltype(%s)>>(%s)" % (x, x)


def a_pair_first(x, n, ind):
    return "%sconst std::pair<std::decay_t<decltype(%s)>, int> %s{%s, 0};\n" % (ind, x, n, x), n + ".first"


ARG = [("through a const auto local", a_local), ("through a local struct's field", a_struct),
       ("parenthesized", a_paren), ("through an immediately invoked lambda", a_lambda),
       ("through a conditional expression", a_ternary), ("through an object-like macro", a_macro),
       ("through a function-like macro", a_fmacro), ("through a const reference local", a_cref),
       ("through std::get of a std::make_tuple", a_tuple_get), ("through an identity function template", a_template_id),
       ("through static_cast to its own type", a_static_cast), ("through a std::pair's first", a_pair_first)]
WHOLE = "the whole launch through std::apply of a std::make_tuple"
PRELUDE = ("#include <tuple>\n#include <type_traits>\n#include <utility>\n"
           "template <class T> T impactdMmId(T v) { return v; }\n#define IMPACTD_MM_ID(v) (v)\n")


def catalogue():
    return [l for l, _ in ARG] + [WHOLE]


def rewrite_launch(src, line, seed, force=None):
    """The launch call on 1-based `line` rewritten; {"source", "idioms"} or {"error"}."""
    lines = src.split("\n")
    start = sum(len(l) + 1 for l in lines[:line - 1])
    eol = src.find("\n", start)
    at = src.find("launch(", start)
    if at < 0 or (eol >= 0 and at > eol):
        return {"error": "no launch( on line %d" % line}
    open_at = at + len("launch")
    args, close = _split_args(src, open_at)
    if not args or len(args) < 2:
        return {"error": "the launch's argument list does not close or passes no kernel argument"}
    # The statement starts at the line's first non-blank character.
    ind = src[start:len(src[:start]) + len(lines[line - 1]) - len(lines[line - 1].lstrip())]
    rng = random.Random("%s:%d" % (seed, line))
    tag = "%x" % (zlib.crc32(("%s:%d" % (seed, line)).encode()) & 0xffff)
    decls, used, new = "", [], [args[0]]
    for i, x in enumerate(args[1:], 1):
        if x.endswith("..."):
            new.append(x)
            continue
        layers = [force] if force is not None else [rng.randrange(len(ARG)) for _ in range(rng.randint(1, 2))]
        for k, li in enumerate(layers):
            label, fn = ARG[li]
            d, x = fn(x, "impactdMm%s_%d_%d" % (tag, i, k), ind)
            decls += d
            used.append(label)
        new.append(x)
    callee = src[start:open_at].strip()
    stmt_end = src.find(";", close)
    whole = force is None and rng.random() < 0.15 and not any(a.endswith("...") for a in args) and \
        src[start:at].strip().endswith(".") and stmt_end >= 0 and src[close + 1:stmt_end].strip() == ""
    if whole:
        obj = callee[:-len("launch")] if callee.endswith("launch") else callee
        call = "std::apply([&](auto&&... impactdMmA) { %slaunch(%s, impactdMmA...); }, std::make_tuple(%s))" % (
            obj, new[0], ", ".join(new[1:]))
        used.append(WHOLE)
        out = src[:start] + decls + ind + call + src[stmt_end:]
    else:
        out = src[:start] + decls + src[start:open_at] + "(" + ", ".join(new) + src[close:]
    if not out.startswith(PRELUDE):
        out = PRELUDE + out
    return {"source": out, "idioms": sorted(set(used))}


STANDIN = r'''
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
struct Buffer { float* ptr; };
struct Kernel {
  std::vector<std::string> rec;
  template <class... A> void launch(int stream, A... a) { (put(a), ...); }
  template <class T> void put(const T& v) {
    char buf[64];
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    std::string s = std::to_string(sizeof(T)) + ":";
    for (unsigned char c : bytes) { std::snprintf(buf, sizeof buf, "%02x", c); s += buf; }
    rec.push_back(s);
  }
};
struct Prepared { Kernel k; Kernel& kernel() { return k; } };
'''


def compile_check(cxx="c++"):
    """Every per-argument idiom, and seeded combinations, on a stand-in launch, compiled and run:
    each must record the same argument sizes and bytes as the original."""
    body = ("void FN(Prepared& prepared, Buffer& o, int32_t n) {\n"
            "  prepared.kernel().launch(0, o.ptr, 1.0F, static_cast<int32_t>(0), n, int64_t{7});\n}\n")
    funcs, names = [], []
    for k in range(len(ARG) + 6):
        src = body.replace("FN", "f%d" % k)
        res = rewrite_launch(src, 2, "check%d" % k, force=k if k < len(ARG) else None)
        if "error" in res:
            return {"check": res["error"]}
        funcs.append(res["source"].replace(PRELUDE, ""))
        names.append("f%d" % k)
    prog = PRELUDE + STANDIN + body.replace("FN", "orig") + "\n".join(funcs) + "\nint main() {\n"
    prog += "  float x = 0; Buffer o{&x};\n  Prepared p0; orig(p0, o, 5);\n"
    for n in names:
        prog += "  { Prepared p; %s(p, o, 5); if (p.k.rec != p0.k.rec) { std::printf(\"differ %s\\n\"); return 1; } }\n" % (n, n)
    prog += "  std::printf(\"same\\n\");\n  return 0;\n}\n"
    with tempfile.TemporaryDirectory() as d:
        cpp, exe = os.path.join(d, "standin.cpp"), os.path.join(d, "standin")
        open(cpp, "w").write(prog)
        c = subprocess.run([cxx, "-std=c++20", "-o", exe, cpp], capture_output=True, text=True)
        if c.returncode != 0:
            return {"check": "does not compile: " + c.stderr[-2000:], "program": prog}
        r = subprocess.run([exe], capture_output=True, text=True)
        return {"check": r.stdout.strip(), "program": prog if r.stdout.strip() != "same" else ""}
