#!/usr/bin/env bash
# The emitter's demo: a repository built from examples/rocke-platform (a small rocKE platform
# package and three shipped families) whose feature branch refactors a builder without changing
# what it emits (examples/emitter-refactor.patch). Without the emitter the change reads
# NEEDS-DEVICE; with it, NONE.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Installs what is missing and builds the binaries, unless scripts/demo.sh just did.
[ -n "${IMPACT_SETUP_DONE:-}" ] || "$here/scripts/setup.sh" --demo
build="$here/${IMPACT_BUILD_DIR:-build}"
ex="$build/example-emitter-repo"
echo "demo: creating the example repository $ex (examples/rocke-platform; feature/refactor renames a local in build_scale)"
rm -rf "$ex" "$build/example-emitter-cache"
mkdir -p "$ex"
cp -R "$here/examples/rocke-platform/." "$ex/"
cd "$ex"
g() { git -c user.name=impactd -c user.email=impactd@example.invalid -c commit.gpgsign=false "$@"; }
g init -q -b main
g add -A
g commit -q -m "rocKE platform with scale, softmax and reduce shipped on gfx950"
g checkout -q -b feature/refactor
g apply "$here/examples/emitter-refactor.patch"
g commit -q -am "build_scale: name the tile offset"
impact="$build/bin/impact"
echo "\$ impact report --repo $ex --base main"
"$impact" report --repo "$ex" --base main
echo
echo "\$ impact emit --repo $ex --base main --out $build/example-emit.json"
"$impact" emit --repo "$ex" --base main --cache "$build/example-emitter-cache" --out "$build/example-emit.json"
echo
echo "\$ impact report --repo $ex --base main --emit $build/example-emit.json"
"$impact" report --repo "$ex" --base main --emit "$build/example-emit.json"
