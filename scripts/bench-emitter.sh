#!/usr/bin/env bash
# Emitter benchmark (not a test): `impact emit` on the bundled example (cold and warm cache), on a
# generated tree of FAMILIES x VARIANTS (default 100 x 10) with 1 and 2 jobs, and the number of
# family builds after a one-file edit. Usage: bash scripts/bench-emitter.sh [FAMILIES] [VARIANTS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$here/${IMPACT_BUILD_DIR:-build}"
impact="$build/bin/impact"
families="${1:-100}"
variants="${2:-10}"
work="$(mktemp -d /tmp/impact-bench-emitter-XXXXXX)"
trap 'rm -rf "$work"' EXIT
g() { git -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false "$@"; }
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>"$work/err"; e=$(date +%s.%N); echo "$e - $s" | bc; }

# 1. the bundled example (examples/rocke-platform and its refactor)
ex="$work/example"
mkdir -p "$ex" && cp -R "$here/examples/rocke-platform/." "$ex/" && cd "$ex"
g init -q -b main && g add -A && g commit -q -m base && g checkout -q -b feature
g apply "$here/examples/emitter-refactor.patch" && g commit -q -am refactor
echo "example cold: $(secs "$impact" emit --repo "$ex" --base main --head feature --cache "$work/c1" --out "$work/e.json") s ($(tail -1 "$work/err"))"
echo "example warm: $(secs "$impact" emit --repo "$ex" --base main --head feature --cache "$work/c1" --out "$work/e.json") s ($(tail -1 "$work/err"))"

# 2. a generated tree: FAMILIES modules in the shape of scale.py, VARIANTS specs each
gen="$work/generated"
mkdir -p "$gen" && cp -R "$here/examples/rocke-platform/." "$gen/" && cd "$gen"
python3 - "$families" "$variants" <<'PY'
import json, sys
families, variants = int(sys.argv[1]), int(sys.argv[2])
lib = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/"
src = open(lib + "scale.py").read()
ukds = []
for f in range(families):
    name = f"fam{f:03d}"
    open(lib + name + ".py", "w").write(src.replace("build_scale", "build_" + name).replace("supports_scale", "supports_" + name).replace('f"scale_n', f'f"{name}_n'))
    for v in range(variants):
        ukds.append({"version": 1, "id": f"{name}_{v}", "name": f"{name}_{v}",
                     "kernel_source": {"kind": "rocke", "source": f"kernels/gfx950/{name}.py", "builder": "build_" + name,
                                       "spec": {"n": 256 * (v + 1), "block": 256}}})
kdp = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_generated/"
import os
os.makedirs(kdp, exist_ok=True)
json.dump({"version": 1, "id": "gen", "name": "gen", "arch": ["gfx950"], "kernelDescriptors": ukds},
          open(kdp + "gfx950_generated.kdp.json", "w"), indent=1)
PY
g init -q -b main && g add -A && g commit -q -m base && g checkout -q -b feature
# every family imports rocke/helpers/tiling.py: an IR-preserving edit there rebuilds both revisions
sed -i 's|    return (n + block - 1) // block|    return -(-n // block)|' dnn-providers/hip-kernel-provider/rocke/platform/python/rocke/helpers/tiling.py
g commit -q -am "tiles by negation"
for jobs in 1 2; do
  echo "generated ${families}x${variants}, --jobs $jobs, cold: $(secs "$impact" emit --repo "$gen" --base main --head feature --jobs $jobs --cache "$work/g$jobs" --out "$work/g.json") s ($(tail -1 "$work/err"))"
done
echo "generated, warm (--jobs 2): $(secs "$impact" emit --repo "$gen" --base main --head feature --jobs 2 --cache "$work/g2" --out "$work/g.json") s ($(tail -1 "$work/err"))"
sed -i 's|    b.param("n", I32)|    b.param("n", I32)  # element count|; s|    count = 0|    count = 0|' dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/fam007.py
sed -i 's|    for t in range(tiles(spec.n, spec.block)):|    tiles_n = tiles(spec.n, spec.block)\n    for t in range(tiles_n):|' dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/fam007.py
g commit -q -am "fam007 refactor"
echo "after a one-file edit (fam007.py), --jobs 2: $(secs "$impact" emit --repo "$gen" --base main --head feature --jobs 2 --cache "$work/g2" --out "$work/g.json") s ($(tail -1 "$work/err"))"
