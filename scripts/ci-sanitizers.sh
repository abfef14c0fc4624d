#!/usr/bin/env bash
# CI step (after scripts/test.sh): the test suite against impactd, impact and the unit tests built
# with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan, clang-22; the same build holds the
# fuzzers that scripts/ci-fuzz.sh runs), then impactd and impact built with ThreadSanitizer (build-tsan), driven
# by the test build's transcript tests of the language server (the scheduler, cancellation,
# debounce, the git watch, impact.run's thread) and its end-to-end tests of `impact report` and
# `impact emit` (extraction pool, query set, both sides at once, the pack cache, the emitter's
# jobs). Any sanitizer report fails the test that triggered it (halt_on_error: the program exits
# with an error the test sees).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
jobs="$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0"
main_build="${IMPACT_BUILD_DIR:-build}"
[ -x "$main_build/bin/impact_e2e_tests" ] || cmake --build "$main_build" -j "$jobs"
start=$(date +%s)
# Built with ASan+UBSan: the programs (impactd, impact), the unit tests (core, the emitter's fold and
# the server's logic in-process) and the fuzzers (scripts/ci-fuzz.sh runs them). The end-to-end and
# transcript test programs are not compiled again: the test build's drive the sanitized programs
# through IMPACT_TEST_BIN_DIR, as in the TSan run below.
bash scripts/sanitizer-build.sh build-asan address,undefined ON impactd impact impact_unit_tests impact_fuzzers
built=$(date +%s)
(cd build-asan && ctest -L unit -j "$jobs" --output-on-failure --timeout 300)
# Left out here, run in the test build (and the emitter's under TSan): RealMetamorphic (every real
# builder rewritten six ways, each a report pair: 195 s of the ASan run's 722; the evaluator it
# drives runs under ASan in every other real-corpus suite), and the suites whose time is another
# program's — clang compiling the real headers (RealGeometry*, ConvGeometry, DenseNewestGeometry:
# 240 s under ASan) and Python building the real rocKE families (EmitShard, RealRocke: 90 s);
# the geometry plan and the emitter's fold they reach run under ASan in the unit tests and in
# LspGeometry and the other Emit* suites.
(cd "$main_build" && IMPACT_TEST_BIN_DIR="$here/build-asan/bin" \
   ctest -L 'e2e|lsp' -E '^(RealMetamorphic|RealGeometry|RealGeometryIncludes|ConvGeometry|DenseNewestGeometry|EmitShard|RealRocke)\.' \
   -j "$jobs" --output-on-failure --timeout 300)
echo "ci-sanitizers: ASan+UBSan build $((built - start)) s, tests $(($(date +%s) - built)) s"

export TSAN_OPTIONS="suppressions=$here/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
start=$(date +%s)
# Only the programs are built with ThreadSanitizer (core, emitter, server: every thread of
# impactd and impact report lives there); the test programs of the test build (scripts/test.sh,
# $IMPACT_BUILD_DIR) drive them through IMPACT_TEST_BIN_DIR, so no test program is compiled twice.
bash scripts/sanitizer-build.sh build-tsan thread OFF impactd impact
built=$(date +%s)
# The transcript tests of impactd (not the editor clients: Neovim and node add nothing here),
# and the threads of `impact report`: the extraction pool with the query set compiled beside it,
# the two sides' pairs and graphs built at once, the disk cache's packs, the memoised
# fingerprints, the emitter's jobs — each a TSan-built program the test runs.
(cd "$main_build" && IMPACT_TEST_BIN_DIR="$here/build-tsan/bin" \
   ctest -R '^(LspSession|LspEdges|LspStatus|LspBadInput|LspChaos|LspRepositoryKinds|LspLoad|LspEmitter|LspRunOverlay|LspCache|LspGeometry|CacheScenarios|ReportScenarios|RealScenarios/Scenario|EmitShard|EmitServedChild)\.' \
   -j "$jobs" --output-on-failure --timeout 300)
echo "ci-sanitizers: TSan build $((built - start)) s, tests $(($(date +%s) - built)) s"
