#!/usr/bin/env bash
# Headless Neovim with editors/nvim against the real impactd: the features beyond diagnostics
# (issue 38; ctest: EditorNeovimFeatures). On the fixture of make-fixture.sh (the builder and pack
# gained the sliding-window arguments, the pin did not), editors/nvim/test/features.lua checks:
# the pin's inlay hints (the builder's names with the offsets it implies), its code lens ("copy of
# build_attention_dense: 3 mismatches") run with vim.lsp.codelens.run to the builder's def, the
# builder's lens and its peek (the copies in the quickfix list), and vim.lsp.buf.rename across the
# builder and the unopened pack.
#
#   tests/clients/nvim-features.sh path/to/impactd
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
impactd="$(cd "$(dirname "${1:?usage: nvim-features.sh IMPACTD}")" && pwd)/$(basename "$1")"
command -v nvim >/dev/null || { echo "nvim-features: nvim is not installed (scripts/setup.sh installs it)"; exit 1; }

work="$(mktemp -d /tmp/impact-nvim-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/tests/clients/make-fixture.sh" "$work/repo"
repo="$work/repo"
pin="$repo/dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp"
builder="$repo/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py"
pack="$repo/dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp"

export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
status=0
( cd "$work" && IMPACTD="$impactd" PIN="$pin" BUILDER="$builder" PACK="$pack" timeout 80 \
    nvim --headless -u NONE -i NONE -n -c "luafile $here/editors/nvim/test/features.lua" ) >"$work/out" 2>&1 || status=$?
cat "$work/out"
fail() { echo "nvim-features: FAIL: $*"; exit 1; }
has() { grep -qE "$1" "$work/out"; }
[ "$status" -eq 0 ] || fail "nvim exited with $status"

# Hints: the pin's first element binds q_ptr at offset 0, its eighth seqlen_kv at 44.
first="$(grep -n 'KernelArgument{"global_buffer", 8, 0, ""}' "$pin" | head -n 1 | cut -d: -f1)"
has "^HINT $((first - 1)) q_ptr @0:$" || fail "no hint 'q_ptr @0:' on the pin's first element (line $first)"
has "^HINT $((first + 6)) seqlen_kv @44:$" || fail "no hint 'seqlen_kv @44:' on the pin's eighth element"

# Code lens: the stale pin's, run to the builder's def; the builder's, peeking its copies.
has '^LENS [0-9]+ copy of build_attention_dense: 3 mismatches$' || fail "no lens 'copy of build_attention_dense: 3 mismatches'"
def_line="$(grep -n '^def build_attention_dense(' "$builder" | cut -d: -f1)"
has "^JUMP attention_dense\.py $def_line$" || fail "running the lens did not land on attention_dense.py:$def_line"
has '^BLENS [0-9]+ [0-9]+ copies · 1 stale · ' || fail "no builder lens counting its copies with the stale pin"
has '^PEEK [1-9][0-9]* impactd: [0-9]+ copies' || fail "the builder lens's command did not list the copies"

# Rename across two files, the pack never opened by hand.
has '^RENAMED attention_dense\.py b\.param\("batch_count", I32\)$' || fail "the builder's b.param was not renamed"
has '^RENAMED Gfx950AttentionDenseNative\.cpp \{"by_value", I32, 36, "batch_count"\},$' || fail "the pack's name was not renamed"
[ "$(grep -c '^RENAMED' "$work/out")" -eq 2 ] || fail "the rename touched more than the two names"
echo "nvim-features: OK"
