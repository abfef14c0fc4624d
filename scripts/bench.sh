#!/usr/bin/env bash
# Builds and runs the benchmarks (speed and memory; not part of the tests).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh" >/dev/null
build="$here/${IMPACT_BUILD_DIR:-build}"
cmake --build "$build" --target impact_bench -j "$(nproc)" >/dev/null
"$build/bin/impact_bench" "$@"
