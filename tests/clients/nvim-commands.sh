#!/usr/bin/env bash
# Headless Neovim: editors/nvim's setup{} options, :ImpactRun (quickfix list), :ImpactReport, :checkhealth impactd and :ImpactInfo where nothing
# works, against the real impactd on the make-fixture.sh repository (ctest:
# EditorNeovimCommands). editors/nvim/test/commands.lua drives the editor.
#
#   tests/clients/nvim-commands.sh path/to/impactd
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
impactd="$(cd "$(dirname "${1:?usage: nvim-commands.sh IMPACTD}")" && pwd)/$(basename "$1")"
command -v nvim >/dev/null || { echo "nvim-commands: nvim is not installed (scripts/setup.sh installs it)"; exit 1; }
work="$(mktemp -d /tmp/impact-nvim-cmd-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/tests/clients/make-fixture.sh" "$work/repo"
git -C "$work/repo" branch develop main   # :ImpactRun develop compares with it
mkdir -p "$work/loose"
printf 'def build():\n    return 0\n' > "$work/loose/kernel.py"
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
status=0
( cd "$work" && IMPACTD="$impactd" LOOSE="$work/loose/kernel.py" \
    FIXTURE="$work/repo/dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp" \
    timeout 60 nvim --headless -u NONE -i NONE -n --cmd "set rtp+=$here/editors/nvim" \
         -c "luafile $here/editors/nvim/test/commands.lua" ) >"$work/out" 2>&1 || status=$?
cat "$work/out"
fail() { echo "nvim-commands: FAIL: $*"; exit 1; }
has() { grep -qE "$1" "$work/out"; }
[ "$status" -eq 0 ] || fail "nvim exited with $status"
has '^OK target target main, merge base [0-9a-f]{12}$' || fail "the target option did not reach the server"
has '^OK status_line impactd: ready, 1 mismatch, [0-9]+ changed$' || fail "status_line()"
has '^OK ImpactReport [0-9]+ lines, Runtime impact: BREAKS' || fail ":ImpactReport"
has '^OK ImpactRun develop: impactd: develop\.\.working tree — Runtime impact: BREAKS, [0-9]+ entries' || fail ":ImpactRun develop"
has '^OK cc 1 TestGfx950AttentionDenseSignature\.cpp:[0-9]+ ' || fail ":cc 1 does not land on the copy"
has '^OK ImpactRun \(picked\) impactd: HEAD~1\.\.HEAD — Runtime impact: BREAKS' || fail ":ImpactRun through vim.ui.select"
has '^OK ImpactRun --uncommitted: .* N/A, 0 entries' || fail ":ImpactRun --uncommitted"
has '^OK emitter off, :ImpactEmit$' || fail "the emitter option (default off) or :ImpactEmit"
has "^HEALTH  *- OK:? binary: $impactd \(impactd [^)]+\)$" || fail ":checkhealth impactd does not show the binary"
has '^HEALTH  *- OK:? state: ready, 1 mismatch, [0-9]+ changed — target main' || fail ":checkhealth impactd does not show the state"
has "^NOTIFY impactd: cannot start '/nonexistent/impactd'; set cmd in require" || fail "no notification that the server cannot start"
has "^INFO - ERROR binary: '/nonexistent/impactd' is not an executable file or on PATH" || fail ":ImpactInfo does not say the binary is missing"
has "^INFO - WARNING root: no \.git above $work/loose; the server will find no repository$" || fail ":ImpactInfo does not say there is no root"
has '^INFO - WARNING client: none attached to this buffer \(filetype python; .*1 impactd client running\)$' || fail ":ImpactInfo does not say no client is attached"
! has '^INFO - (OK|WARNING|ERROR) state:' || fail ":ImpactInfo shows a state without a client"
echo "nvim-commands: OK"
