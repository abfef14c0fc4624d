#!/bin/sh
# The pre-commit hook (.pre-commit-hooks.yaml, id `impact`): `impact report` of what is about to
# be committed (the working tree as pre-commit leaves it: the staged changes) against the merge
# base with the target branch, failing when a copy breaks (--fail-on breaks). Installed as
# `impact-pre-commit` by `cmake --install`.
#
#   impact-pre-commit [--target REV] [other impact report options, e.g. --config FILE]
#
# The target: --target, else $IMPACT_TARGET, else the upstream of the current branch, else
# origin/develop, else develop, else main (the language server's default).
set -eu
target="${IMPACT_TARGET:-}"
if [ "${1:-}" = "--target" ] && [ $# -ge 2 ]; then
  target="$2"
  shift 2
fi
if [ -z "$target" ]; then
  for cand in '@{upstream}' origin/develop develop main; do
    if git rev-parse --verify --quiet "$cand^{commit}" >/dev/null 2>&1; then
      target="$cand"
      break
    fi
  done
fi
if [ -z "$target" ]; then
  echo "impact-pre-commit: no target branch (tried the upstream, origin/develop, develop, main): pass --target REV" >&2
  exit 2
fi
if ! command -v impact >/dev/null 2>&1; then
  echo "impact-pre-commit: impact is not on PATH (install impactd: cmake --install, or its .deb)" >&2
  exit 2
fi
exec impact report --repo . --base "$target" --fail-on breaks "$@"
