#!/usr/bin/env bash
# Emitter benchmark (not a test): `impact emit` on the bundled example (cold and warm cache), on a
# generated tree of FAMILIES x VARIANTS (default 100 x 10) with 1 and 2 jobs, the number of family
# builds after a one-file edit, and the real case: the real rocKE subset of ../shared/real-data
# with REAL_VARIANTS (default 880) shipped variants of the real gfx950 dense builder and an
# IR-preserving refactor, cold and warm, beside its floor (one python3 per revision that imports
# the tree once and builds and lowers every variant).
# Usage: bash scripts/bench-emitter.sh [--real] [FAMILIES] [VARIANTS]   (--real: the real case only)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$here/${IMPACT_BUILD_DIR:-build}"
impact="$build/bin/impact"
real_only=0
if [ "${1:-}" = "--real" ]; then real_only=1; shift; fi
families="${1:-100}"
variants="${2:-10}"
work="$(mktemp -d /tmp/impact-bench-emitter-XXXXXX)"
trap 'rm -rf "$work"' EXIT
g() { git -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false "$@"; }
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>"$work/err"; e=$(date +%s.%N); echo "$e - $s" | bc; }

if [ "$real_only" = 0 ]; then

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
fi

# 3. the real case: real rocKE, REAL_VARIANTS shipped variants of the real gfx950 dense builder
real="$here/../shared/real-data/rocke-cpu"
[ -d "$real" ] || real="/work/shared/real-data/rocke-cpu"
if [ ! -d "$real" ]; then
  echo "real rocKE: skipped (../shared/real-data/rocke-cpu is absent)"
  exit 0
fi
count="${REAL_VARIANTS:-880}"
rr="$work/real" && mkdir -p "$rr" && cp -R "$real/." "$rr/" && cd "$rr"
provider=dnn-providers/hip-kernel-provider
dense="$provider/rocke/library/kernels/gfx950/attention_dense.py"
kdp="$provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/gfx950_attention_dense.kdp.json"
# COUNT distinct specs in the builder's own fields (AttentionDenseSpec: batch, seqlen_q, seqlen_kv,
# num_query_heads, num_kv_heads, head_size, causal, dtype), each one its __post_init__ accepts.
python3 - "$count" "$kdp" <<'PY'
import itertools, json, os, sys
count, path = int(sys.argv[1]), sys.argv[2]
specs = []
for seqlen, hq, d, causal, dtype, kvdiv in itertools.product(
        [256 * k for k in range(1, 12)], (4, 8, 16, 32, 64), (64, 128), (True, False), ("bf16", "fp16"), (1, 4)):
    specs.append({"batch": 1, "seqlen_q": seqlen, "seqlen_kv": seqlen, "num_query_heads": hq,
                  "num_kv_heads": hq // kvdiv, "head_size": d, "causal": causal, "dtype": dtype})
assert len(specs) >= count, len(specs)
ukds = [{"version": 1, "id": f"dense_{i:04d}", "name": f"dense_{i:04d}",
         "kernel_source": {"kind": "rocke", "source": "kernels/gfx950/attention_dense.py",
                           "builder": "build_attention_dense", "spec": s}} for i, s in enumerate(specs[:count])]
os.makedirs(os.path.dirname(path), exist_ok=True)
json.dump({"version": 1, "id": "gfx950_attention_dense", "name": "gfx950_attention_dense", "arch": ["gfx950"],
           "kernelDescriptors": ukds}, open(path, "w"), indent=1)
PY
g init -q -b main && g add -A && g commit -q -m "real rocKE, $count dense variants" && g checkout -q -b feature
# An IR-preserving refactor of the builder (as tests/e2e/EmitRealRockeTest.cpp).
python3 - "$dense" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "    B = spec.batch\n    Sq = spec.seqlen_q\n"
assert old in s
open(p, "w").write(s.replace(old, "    # batch and query length\n    B, Sq = spec.batch, spec.seqlen_q\n", 1))
PY
g commit -q -am "refactor build_attention_dense"
cold=$(secs "$impact" emit --repo "$rr" --base main --head feature --jobs 2 --cache "$work/r1" --out "$work/r.json")
echo "real rocKE, $count variants, --jobs 2, cold: $cold s ($(tail -1 "$work/err"))"
warm=$(secs "$impact" emit --repo "$rr" --base main --head feature --jobs 2 --cache "$work/r1" --out "$work/r.json")
echo "real rocKE, warm: $warm s ($(tail -1 "$work/err"))"
verdict=$("$impact" report --repo "$rr" --base main --head feature --emit "$work/r.json" 2>/dev/null | tail -1)
echo "real rocKE, report with the document: $verdict"
# The floor: one python3 per revision (the two side by side, as --jobs 2), each importing the
# exported tree once and building and lowering every variant with the flavor the emitter chose.
flavor=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["flavor"])' "$work/r.json")
cat >"$work/floor.py" <<'PY'
import dataclasses, hashlib, json, sys, typing
roots, kdp, flavor = sys.argv[1:3], sys.argv[3], sys.argv[4]
sys.path[:0] = roots
import kernels.gfx950.attention_dense as m
from rocke.core.lower_llvm import lower_kernel_to_llvm
cls = typing.get_type_hints(m.build_attention_dense)["spec"]
n = 0
for d in json.load(open(kdp))["kernelDescriptors"]:
    k = m.build_attention_dense(cls(**d["kernel_source"]["spec"]), arch="gfx950")
    hashlib.sha256(lower_kernel_to_llvm(k, llvm_flavor=flavor, arch="gfx950").encode()).hexdigest()
    n += 1
print(n, "variants")
PY
for rev in main feature; do
  mkdir -p "$work/floor-$rev" && g -C "$rr" archive "$rev" "$provider/rocke" | tar -x -C "$work/floor-$rev"
done
floor_run() {
  local pids=() rev
  for rev in main feature; do
    env -i PATH="$PATH" HOME="$work" LANG=C.UTF-8 ROCKE_BACKEND=python ROCKE_LLVM_FLAVOR="$flavor" PYTHONHASHSEED=0 \
      python3 -s -S -B "$work/floor.py" "$work/floor-$rev/$provider/rocke/library" \
      "$work/floor-$rev/$provider/rocke/platform/python" "$rr/$kdp" "$flavor" >"$work/floor-$rev.out" &
    pids+=($!)
  done
  wait "${pids[@]}"
}
floor=$(secs floor_run)
echo "real rocKE, floor (one python3 per revision, side by side): $floor s"
echo "real rocKE, cold / floor: $(echo "scale=3; $cold / $floor" | bc)x (goal <= 1.1x); warm $warm s (goal <= 1 s)"
# Sharded as a CI matrix would (docs/ci.md): REAL_SHARDS jobs (default 4), each on an empty cache
# with --jobs 2, one after the other here; each shard's wall-clock and family builds, then the
# merge, whose report must give the same verdict as the unsharded document's.
shards="${REAL_SHARDS:-4}"
files=()
for k in $(seq 1 "$shards"); do
  t=$(secs "$impact" emit --repo "$rr" --base main --head feature --jobs 2 --cache "$work/s$k" --shard "$k/$shards" --out "$work/s$k.json")
  echo "real rocKE, shard $k/$shards: $t s ($(tail -1 "$work/err"))"
  files+=("$work/s$k.json")
done
"$impact" emit --merge "${files[@]}" --out "$work/merged.json" 2>/dev/null
echo "real rocKE, merged shards, report: $("$impact" report --repo "$rr" --base main --head feature --emit "$work/merged.json" 2>/dev/null | tail -1)"
