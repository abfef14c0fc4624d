#!/usr/bin/env bash
# Headless Neovim with editors/nvim against the real impactd (ctest: LspClientNeovim).
# Builds a fixture (make-fixture.sh: the builder and pack gained arguments, the pin did not),
# opens the pin test in Neovim and checks editors/nvim/test/smoke.lua's output: a DIAG line
# with severity ERROR, a non-empty HOVER line and at least one ACTION line.
#
#   tests/clients/nvim-smoke.sh path/to/impactd
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
impactd="$(cd "$(dirname "${1:?usage: nvim-smoke.sh IMPACTD}")" && pwd)/$(basename "$1")"
command -v nvim >/dev/null || { echo "nvim-smoke: nvim is not installed (scripts/setup.sh installs it)"; exit 1; }

work="$(mktemp -d /tmp/impact-nvim-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/tests/clients/make-fixture.sh" "$work/repo"
pin="$work/repo/dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp"

# No user config, no shada or swap files in $HOME.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
status=0
( cd "$work" && IMPACTD="$impactd" FIXTURE="$pin" timeout 60 \
    nvim --headless -u NONE -i NONE -n --cmd "set rtp+=$here/editors/nvim" \
         -c "luafile $here/editors/nvim/test/smoke.lua" ) >"$work/out" 2>&1 || status=$?
cat "$work/out"
fail() { echo "nvim-smoke: FAIL: $*"; exit 1; }
[ "$status" -eq 0 ] || fail "nvim exited with $status"
grep -q '^DIAG [0-9]* ERROR "kernargs: copy has 8 arguments, builder has 11' "$work/out" || fail "no ERROR diagnostic on the pin"
grep -q '^HOVER .*[^ ]' "$work/out" || fail "no hover"
grep -q '^ACTION Update expectedSignature to match build_attention_dense$' "$work/out" || fail "no quick fix"
grep -q '^ACTION Go to mirror: ' "$work/out" || fail "no 'Go to mirror' action"
echo "nvim-smoke: OK"
