#!/usr/bin/env bash
# Builds and runs the benchmarks (speed and memory; not part of the tests).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh" >/dev/null
build="$here/${IMPACT_BUILD_DIR:-build}"
# --ci [--scale=N] [--shape=ingestor|surface] [--runs=N]: impact report cold and warm (the extraction
# cache) against a floor of a single-threaded parse of every surface file plus git diff --name-only
# (tests/bench/CiBench.cpp); --runs=5 prints medians; --shape=surface is issue 37's 20k-file tree.
if [ "${1:-}" = "--ci" ]; then
  shift
  cmake --build "$build" --target impact_ci_bench -j "$(nproc)" >/dev/null
  exec "$build/bin/impact_ci_bench" "$@"
fi
# --real [--edits=N]: keystroke -> republished diagnostics on the real gfx950 tiled builder and
# its C++ pack (../shared/real-data), debounce included (tests/bench/RealKeystrokeBench.cpp).
if [ "${1:-}" = "--real" ]; then
  shift
  cmake --build "$build" --target impact_real_bench -j "$(nproc)" >/dev/null
  exec "$build/bin/impact_real_bench" "$@"
fi
# --hints [--requests=N] [--edit]: textDocument/inlayHint's answer time for the visible range of
# the real 4,600-line tiled builder and its pack's launch (tests/bench/RealHintsBench.cpp).
if [ "${1:-}" = "--hints" ]; then
  shift
  cmake --build "$build" --target impact_hints_bench -j "$(nproc)" >/dev/null
  exec "$build/bin/impact_hints_bench" "$@"
fi
# --soak [--edits=N] [--pack-edits=N]: 20,000 keystrokes on the real tiled builder and 2,000 on its
# pack in one server, hovers and impact.run every 500; the resident set must stay flat
# (tests/bench/SoakBench.cpp).
if [ "${1:-}" = "--soak" ]; then
  shift
  cmake --build "$build" --target impact_soak_bench -j "$(nproc)" >/dev/null
  exec "$build/bin/impact_soak_bench" "$@"
fi
cmake --build "$build" --target impact_bench -j "$(nproc)" >/dev/null
"$build/bin/impact_bench" "$@"
