#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time (ctest label `fuzz`):
#   run-fuzzer.sh BINARY SEED_DIR REAL_DATA_DIR ARTIFACT_DIR [NAME_PATTERN...]
# The corpus is a fresh temp folder: the committed seeds, plus the real-format files of
# REAL_DATA_DIR whose names match a pattern (copied at run time, never committed).
# IMPACT_FUZZ_SECONDS (default 60) bounds the run; a crash, a leak, a timeout (10 s per input)
# or an out-of-memory fails it, and the input is kept in ARTIFACT_DIR.
set -euo pipefail
bin="$1" seeds="$2" real="$3" artifacts="$4"
shift 4
corpus="$(mktemp -d /tmp/impactd-corpus-XXXXXX)"
trap 'rm -rf "$corpus"' EXIT
[ -d "$seeds" ] && cp -R "$seeds"/. "$corpus"/
if [ -d "$real" ]; then
  for pattern in "$@"; do
    n=0
    while IFS= read -r -d '' f; do
      cp "$f" "$corpus/real-$n-$(basename "$f")"
      n=$((n + 1))
    done < <(find "$real" -type f -name "$pattern" -not -path '*/__pycache__/*' -print0)
  done
else
  echo "run-fuzzer: $real is absent; committed seeds only"
fi
mkdir -p "$artifacts"
echo "run-fuzzer: $(basename "$bin"): $(ls "$corpus" | wc -l) seeds, ${IMPACT_FUZZ_SECONDS:-60} s"
exec "$bin" -max_total_time="${IMPACT_FUZZ_SECONDS:-60}" -timeout=10 -rss_limit_mb=3072 -max_len=16384 \
     -print_final_stats=1 -close_fd_mask=2 -artifact_prefix="$artifacts/" "$corpus"
