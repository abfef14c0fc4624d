#!/usr/bin/env bash
# The pre-commit hook of .pre-commit-hooks.yaml (id `impact`) run by pre-commit itself
# (`pre-commit try-repo` this repository) in a fixture monorepo: a commit whose staged change
# breaks a copy (the sliding-window patch leaves the test pin behind) fails with the report's
# BREAKS; a staged change that breaks nothing passes. Without pre-commit installed, the hook's
# entry is run directly as pre-commit would run it. (issue 38)
#
#   tests/install/pre-commit-hook-test.sh SOURCE_DIR BIN_DIR
set -euo pipefail
src="$(cd "${1:?usage: pre-commit-hook-test.sh SOURCE_DIR BIN_DIR}" && pwd)"
bin="$(cd "${2:?}" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export PATH="$bin:$PATH" PRE_COMMIT_HOME="$tmp/pre-commit-home" HOME="$tmp"
git config --global user.email hook@example.com
git config --global user.name Hook
git config --global --add safe.directory '*'

# The hook repository as pre-commit clones it: this source tree's files, committed.
hooks="$tmp/hooks"
mkdir -p "$hooks/scripts"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
cp "$src/scripts/pre-commit-impact.sh" "$hooks/scripts/"
git -C "$hooks" init -q -b main
git -C "$hooks" add -A
git -C "$hooks" commit -q -m hooks

run_hook() {  # in the fixture DIR: exit status of the hook, output in $tmp/hook.out
  local dir="$1"
  if command -v pre-commit >/dev/null 2>&1; then
    (cd "$dir" && pre-commit try-repo "$hooks" impact --verbose) >"$tmp/hook.out" 2>&1
  else
    (cd "$dir" && "$hooks/scripts/pre-commit-impact.sh") >"$tmp/hook.out" 2>&1
  fi
}

broken="$tmp/broken"
bash "$src/tests/clients/make-fixture.sh" "$broken" --uncommitted
git -C "$broken" add -A
if run_hook "$broken"; then
  cat "$tmp/hook.out" >&2
  fail "the hook passed a commit that breaks the test pin"
fi
grep -q "Runtime impact: BREAKS" "$tmp/hook.out" || { cat "$tmp/hook.out" >&2; fail "the hook failed without the report's BREAKS"; }
grep -q "TestGfx950AttentionDenseSignature.cpp" "$tmp/hook.out" || { cat "$tmp/hook.out" >&2; fail "the hook did not name the broken copy"; }

clean="$tmp/clean"
bash "$src/tests/clients/make-fixture.sh" "$clean" --clean
printf '\n# a comment\n' >>"$clean/dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py"
git -C "$clean" add -A
run_hook "$clean" || { cat "$tmp/hook.out" >&2; fail "the hook failed a commit that breaks nothing"; }
echo "ok: the hook fails the breaking commit and passes the inert one ($(command -v pre-commit >/dev/null && pre-commit --version || echo 'entry run directly'))"
