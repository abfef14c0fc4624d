#!/usr/bin/env bash
# Installs what is missing, builds, creates the bundled example repository (a miniature of the
# monorepo whose feature branch breaks a kernel-argument contract) and runs `impact report` on it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Installs what is missing and builds only the two binaries (the test command builds the rest).
"$here/scripts/setup.sh" --demo
build="$here/${IMPACT_BUILD_DIR:-build}"
ex="$build/example-repo"
echo "demo: creating the example repository $ex (examples/monorepo on main; feature/sliding-window adds three arguments)"
rm -rf "$ex"
mkdir -p "$ex"
cp -R "$here/examples/monorepo/." "$ex/"
cd "$ex"
g() { git -c user.name=impactd -c user.email=impactd@example.invalid -c commit.gpgsign=false "$@"; }
g init -q -b main
g add -A
g commit -q -m "Example monorepo: gfx950 attention_dense and rms_norm with their ingestor copies"
g checkout -q -b feature/sliding-window
g apply "$here/examples/sliding-window.patch"
g commit -q -am "attention_dense: add sliding-window arguments (the pack follows, the test pin does not)"
echo "\$ impact report --repo $ex --base main"
status=0
"$build/bin/impact" report --repo "$ex" --base main || status=$?
[ "$status" -eq 0 ] || exit "$status"
# Second part: the emitter settles a refactor on the CPU (NEEDS-DEVICE without it, NONE with it).
echo
echo "# The emitter: a refactor of a rocKE builder that emits the same code (scripts/demo-emitter.sh)"
IMPACT_SETUP_DONE=1 exec "$here/scripts/demo-emitter.sh"
