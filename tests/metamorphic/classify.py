#!/usr/bin/env python3
"""How impactd reads a rewritten builder, from `impact facts` of the original and the rewrite:
  exact  every list of the builder is the original's (names, kinds, sizes, type classes, guards);
  open   the builder is "not read" (with its reason), or each list the original has is there, a
         prefix of it, with an open end (a helper it does not follow, an open tail);
  short  anything else: a list shorter or different without an open end that says so (silent).

  classify.py IMPACT FILE_ORIG FILE_REWRITE AS_PATH FUNCTION        -> prints the class and why
                                     (FILE_ORIG may be its `impact facts` JSON, *.json)
  classify.py probe IMPACT AS_PATH FUNCTION FILE [SEED]             -> each idiom alone, classified
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def facts(impact, path, as_path):
    if path.endswith(".json"):  # facts already taken (`impact facts` output)
        return json.load(open(path, encoding="utf-8"))
    r = subprocess.run([impact, "facts", path, "--as", as_path], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else {}


def _arg(a):
    return (a.get("name"), a.get("kind"), a.get("size"), a.get("typeClass"), a.get("condition", ""))


def _open(builder, abi):
    if builder.get("notRead"):
        return True
    if abi.get("tailHelper") or abi.get("tailModule"):
        return True
    return any(k.lower().startswith("open") and v for k, v in abi.items())


def classify(orig, new, function):
    ob = next((b for b in orig.get("builders", []) if b["name"] == function), None)
    nb = next((b for b in new.get("builders", []) if b["name"] == function), None)
    if ob is None:
        return "exact", "not a builder of the original"
    if nb is None:
        return "short", "the rewrite's facts hold no builder %s" % function
    if nb.get("notRead"):
        return "open", "not read: " + nb["notRead"]
    ol = [(a.get("guard", ""), [_arg(x) for x in a["args"]], a.get("tailHelper", "")) for a in ob["abis"]]
    nl = [(a.get("guard", ""), [_arg(x) for x in a["args"]], a.get("tailHelper", "")) for a in nb["abis"]]
    if ol == nl:
        return "exact", ""
    opened = []
    for i, (g, args, tail) in enumerate(ol):
        match = [(j, a) for j, a in enumerate(nb["abis"]) if a.get("guard", "") == g]
        if not match:
            return "short", "the list under %r is gone" % g
        j, na = match[0]
        nargs = [_arg(x) for x in na["args"]]
        if nargs == args and na.get("tailHelper", "") == tail:
            continue
        if _open(nb, na) and nargs == args[:len(nargs)]:
            opened.append("%s open after #%d (%s)" % (g or "own body", len(nargs), na.get("tailHelper") or "open"))
            continue
        diff = next((k for k in range(min(len(nargs), len(args))) if nargs[k] != args[k]), min(len(nargs), len(args)))
        return "short", "list %r: #%d: original %s, rewrite %s%s" % (
            g or "own body", diff, args[diff] if diff < len(args) else "-", nargs[diff] if diff < len(nargs) else "-",
            "" if _open(nb, na) else " (no open end)")
    return "open", "; ".join(opened)


def main(argv):
    if argv[1] == "probe":
        import metamorph
        import py_idioms
        impact, as_path, function, path = argv[2:6]
        seed = argv[6] if len(argv) > 6 else "1"
        src = open(path, encoding="utf-8").read()
        orig = facts(impact, path, as_path)
        labels = [n for n, _ in py_idioms.STATEMENT] + [n for n, _ in py_idioms.NAME + py_idioms.TYPE] + \
            py_idioms.KEYWORDS + py_idioms.POSITIONAL
        for label in labels:
            res = metamorph.rewrite_py(src, seed, only=label)
            if res is None or not res["idioms"]:
                print("%-8s %s: not applicable" % ("-", label))
                continue
            with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
                f.write(res["source"])
            try:
                cls, why = classify(orig, facts(impact, f.name, as_path), function)
            finally:
                os.unlink(f.name)
            print("%-8s %s%s%s" % (cls, label, "" if res["check"] == "same" else " [CHECK " + res["check"][:80] + "]",
                                   (": " + why) if why else ""))
        return 0
    impact, a, b, as_path, function = argv[1:6]
    cls, why = classify(facts(impact, a, as_path), facts(impact, b, as_path), function)
    print(cls + ("\t" + why if why else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
