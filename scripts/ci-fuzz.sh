#!/usr/bin/env bash
# CI step: every libFuzzer target (ctest label `fuzz`, tests/fuzz) for IMPACT_FUZZ_SECONDS each
# (30 here; run-fuzzer.sh's own default is 60) in build-asan (clang-22, -fsanitize=fuzzer,address,undefined; built by
# scripts/ci-sanitizers.sh, or here if absent). A crash, leak or timeout fails; the input is
# kept in build-asan/fuzz-artifacts/<target>/. Locally: IMPACT_FUZZ_SECONDS=5 bash scripts/ci-fuzz.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
# 30 s per target in CI (8 targets, 2 at a time: 2 minutes); run longer locally.
export IMPACT_FUZZ_SECONDS="${IMPACT_FUZZ_SECONDS:-30}"
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0"
start=$(date +%s)
bash scripts/sanitizer-build.sh build-asan address,undefined ON impact_fuzzers
# Targets in parallel, one per core: a libFuzzer run is one thread.
(cd build-asan && ctest -L fuzz -j "$(nproc)" --output-on-failure)
echo "ci-fuzz: $(($(date +%s) - start)) s"
