#!/usr/bin/env bash
# Builds a fixture repository for the editor-client tests: examples/monorepo committed on main,
# then a branch `feature` with examples/sliding-window.patch applied to the builder and the pack
# only (the pin test is left behind, so it breaks). Prints nothing; the repository is DIR.
#
#   tests/clients/make-fixture.sh DIR [--uncommitted | --clean]
#
# --uncommitted leaves the patch in the working tree instead of committing it; --clean does not
# apply it (feature is main's commit).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:?usage: make-fixture.sh DIR [--uncommitted]}"
mode="${2:-}"
rm -rf "$dir"
mkdir -p "$dir"
cp -R "$here/examples/monorepo/." "$dir/"
cd "$dir"
git init -q -b main
git config user.email fixture@example.com
git config user.name Fixture
git config commit.gpgsign false
git add -A
git commit -q -m "Example monorepo"
git checkout -q -b feature
[ "$mode" = "--clean" ] && exit 0
git apply "$here/examples/sliding-window.patch"
if [ "$mode" != "--uncommitted" ]; then
  git add -A
  git commit -q -m "sliding window (the pin is not updated)"
fi
