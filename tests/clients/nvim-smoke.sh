#!/usr/bin/env bash
# Headless Neovim with editors/nvim against the real impactd (ctest: LspClientNeovim), used as
# a person uses it. Builds a fixture (make-fixture.sh: the builder and pack gained arguments,
# the pin did not), opens the pin test in Neovim (editors/nvim/test/smoke.lua) and checks:
# the ERROR diagnostic naming the builder by file name, the hover, the code actions;
# :ImpactInfo (binary, root, client, state ready with the counts); the quick fix "Update … to
# match …" picked from the code-action menu rewrites the list and the error goes away without
# a save; "Go to mirror" opens the builder at its definition.
#
#   tests/clients/nvim-smoke.sh path/to/impactd
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
impactd="$(cd "$(dirname "${1:?usage: nvim-smoke.sh IMPACTD}")" && pwd)/$(basename "$1")"
command -v nvim >/dev/null || { echo "nvim-smoke: nvim is not installed (scripts/setup.sh installs it)"; exit 1; }

work="$(mktemp -d /tmp/impact-nvim-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/tests/clients/make-fixture.sh" "$work/repo"
repo="$work/repo"
pin="$repo/dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp"
builder="$repo/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py"

# No user config, no shada or swap files in $HOME.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
status=0
( cd "$work" && IMPACTD="$impactd" FIXTURE="$pin" timeout 60 \
    nvim --headless -u NONE -i NONE -n --cmd "set rtp+=$here/editors/nvim" \
         -c "luafile $here/editors/nvim/test/smoke.lua" ) >"$work/out" 2>&1 || status=$?
cat "$work/out"
fail() { echo "nvim-smoke: FAIL: $*"; exit 1; }
has() { grep -qE "$1" "$work/out"; }
[ "$status" -eq 0 ] || fail "nvim exited with $status"
has '^DIAG [0-9]* ERROR "kernargs: copy has 8 arguments, builder has 11.* \(build_attention_dense in attention_dense\.py:[0-9]+\)"$' \
  || fail "no ERROR diagnostic on the pin naming the builder by file name"
! grep -q '^DIAG .*dnn-providers/' "$work/out" || fail "a diagnostic message repeats a repository path"
has '^HOVER .*[^ ]' || fail "no hover"
has '^ACTION Update expectedSignature to match build_attention_dense$' || fail "no quick fix"
has '^ACTION Go to mirror: ' || fail "no 'Go to mirror' action"

# :ImpactInfo: the binary with its version, the work tree, the client, the state with counts.
version="$("$impactd" --version)"
grep -qxF "INFO - OK binary: $impactd ($version)" "$work/out" || fail ":ImpactInfo does not show the binary and its version"
grep -qxF "INFO - OK root: $repo (git work tree)" "$work/out" || fail ":ImpactInfo does not show the root $repo"
has "^INFO - OK client: impactd \(id [0-9]+\) attached to this buffer, root $repo$" || fail ":ImpactInfo does not show the client"
has '^INFO - OK state: ready, 1 mismatch, [1-9][0-9]* changed — target main, merge base [0-9a-f]{12}$' \
  || fail ":ImpactInfo does not show the state ready with 1 mismatch"

# The quick fix: the list now has the builder's 11 arguments, the error is gone, nothing saved.
has '^FIX Update expectedSignature to match build_attention_dense$' || fail "the quick fix was not picked"
[ "$(grep -c '^LIST  *KernelArgument{' "$work/out")" -eq 11 ] || fail "the rewritten list does not have 11 arguments"
grep -qF 'LIST         KernelArgument{"by_value", 4, 56, ""},' "$work/out" || fail "the rewritten list lacks softcap's slot at 56"
has '^CLEARED \[[^E]*\] modified=true$' || fail "the ERROR did not go away in the unsaved buffer"
git -C "$repo" diff --quiet -- "$pin" || fail "the pin was written to disk"
has '^INFO2 - OK state: ready, 0 mismatches, [1-9][0-9]* changed' || fail ":ImpactInfo after the fix does not show 0 mismatches"

# Go to mirror: the builder, at its def line.
def_line="$(grep -n '^def build_attention_dense(' "$builder" | cut -d: -f1)"
has "^MIRROR attention_dense\.py $def_line def build_attention_dense\(" || fail "Go to mirror did not land on attention_dense.py:$def_line"
echo "nvim-smoke: OK"
