#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), fetches the pinned grammars (npm) and builds.
#   scripts/setup.sh           install and build everything (the binaries and the test programs)
#   scripts/setup.sh --demo    install and build only the two binaries the demos run (impact, impactd)
#   scripts/setup.sh --tests   install also what the tests drive (Neovim, the npm test clients, the
#                              real VS Code for the editor test: scripts/install-code-server.sh) and
#                              build everything
# Each step says what it does on stdout (the packages it installs with a count, the build with
# ninja's [n/N] progress); a failed step prints the end of its log. Idempotent: a second run
# installs nothing and rebuilds only what changed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
for_tests=0
targets=()
case "${1:-}" in
  --tests) for_tests=1 ;;
  --demo) targets=(impact impactd) ;;
  "") ;;
  *) echo "setup: unknown option '$1' (use --tests or --demo)" >&2; exit 2 ;;
esac
say() { echo "setup: $*"; }
log="$(mktemp -t impactd-setup.XXXXXX)"
# On any exit: the step log goes, and a code-server install still running in the background
# (setup failed before waiting for it) is stopped.
trap 'rm -f "$log" "${cs_log:-}"; if [ -n "${cs_pid:-}" ]; then kill "$cs_pid" 2>/dev/null || true; fi' EXIT
# Runs a step quietly; on failure shows the end of what it printed.
quiet() {
  if ! "$@" >"$log" 2>&1; then
    echo "setup: failed: $*" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
}

packages=(build-essential cmake ninja-build pkg-config git
          llvm-22-dev libgit2-dev libssl-dev libtree-sitter-dev nlohmann-json3-dev libabsl-dev
          libgtest-dev libgmock-dev libzstd-dev libyaml-cpp-dev)
if [ "$for_tests" = 1 ]; then
  packages+=(neovim   # neovim: the headless editor-client test (tests/clients)
             pre-commit   # the pre-commit hook's own test (pre-commit try-repo, tests/install)
             # The real-VS-Code test (tests/vscode): Debian's chromium drives code-server's page;
             # code-server searches with ripgrep; its native modules build against the -dev packages.
             ripgrep chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the pinned grammar sources; a machine with Node.js from elsewhere already has it.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  say "installing ${#missing[@]} Debian packages and what they depend on: ${missing[*]}"
  say "reading the package lists (apt-get update)"
  quiet $sudo_cmd apt-get update -q
  # apt-get's own lines are filtered to a count of the packages set up so far (scripts/apt-progress.awk).
  tty=0; [ -t 1 ] && tty=1
  set +e
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}" 2>&1 | tee "$log" |
    awk -v tty="$tty" -f "$here/scripts/apt-progress.awk"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "setup: apt-get install failed (exit $status):" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
fi

# The editor-client tests drive impactd with vscode-jsonrpc (tests/clients/package-lock.json).
if [ "$for_tests" = 1 ] && [ ! -d tests/clients/node_modules ]; then
  say "installing the npm packages of tests/clients (vscode-jsonrpc)"
  (cd tests/clients && quiet npm ci --no-audit --no-fund --loglevel=error)
fi
# Microsoft's SARIF validator, which the SARIF tests run on impact's --format sarif output.
if [ "$for_tests" = 1 ] && [ ! -x tests/sarif/node_modules/.bin/sarif-multitool ]; then
  say "installing the npm packages of tests/sarif (the SARIF validator)"
  (cd tests/sarif && quiet npm ci --no-audit --no-fund --loglevel=error)
fi

# The VS Code extension's build tools (editors/vscode/package-lock.json): the editor test packages it.
if [ "$for_tests" = 1 ] && [ ! -d editors/vscode/node_modules ]; then
  say "installing the npm packages of editors/vscode (the extension's build tools)"
  (cd editors/vscode && quiet npm ci --no-audit --no-fund --loglevel=error)
fi

# code-server and puppeteer-core for the real-VS-Code test, pinned by scripts/code-server/ and
# cached per machine (~/.cache/impactd); nothing to do when the cached copy is complete. It
# installs in the background while the project builds (its downloads overlap the compile); setup
# waits for it after the build.
cs_pid="" cs_log=""
if [ "$for_tests" = 1 ]; then
  if ! "$here/scripts/install-code-server.sh" --where >/dev/null 2>&1; then
    say "installing the real VS Code for the editor test (code-server, a few minutes) beside the build"
  fi
  cs_log="$(mktemp -t impactd-code-server.XXXXXX)"
  "$here/scripts/install-code-server.sh" >"$cs_log" 2>&1 &
  cs_pid=$!
fi

build="${IMPACT_BUILD_DIR:-build}"
# IMPACT_WERROR=1 (CI: .ci/run): the project's own code builds with -Werror (cmake/Warnings.cmake).
werror=()
[ -n "${IMPACT_WERROR:-}" ] && werror=(-DIMPACT_WERROR="$([ "$IMPACT_WERROR" = 0 ] && echo OFF || echo ON)")
if [ -f "$build/CMakeCache.txt" ] && [ ${#werror[@]} -gt 0 ]; then
  quiet cmake -S . -B "$build" "${werror[@]}"
elif [ ! -f "$build/CMakeCache.txt" ]; then
  say "configuring the build in $build (fetches the pinned tree-sitter grammars from npm)"
  launcher=()
  # ccache, where the machine has it, makes a rebuild in a new folder cheap; nothing needs it.
  command -v ccache >/dev/null 2>&1 &&
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Release at -O2, without debug information: -g costs a fifth to a third of each file's compile
  # time and most of the link's (docs/ci.md, "CI's own time"); configure a build folder of your
  # own with -DCMAKE_BUILD_TYPE=RelWithDebInfo to debug.
  quiet cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
        -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm "${launcher[@]}" "${werror[@]}"
fi
if [ ${#targets[@]} -gt 0 ]; then
  say "building ${targets[*]} (ninja shows [done/total])"
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
else
  say "building every target, the test programs included (ninja shows [done/total])"
  cmake --build "$build" -j "$(nproc)"
fi
if [ -n "$cs_pid" ]; then
  if ! wait "$cs_pid"; then
    tail -n 30 "$cs_log" >&2
    echo "setup: failed: scripts/install-code-server.sh" >&2
    cs_pid=""
    exit 1
  fi
  cs_pid=""
  sed -n 's/^install-code-server: done/setup: code-server installed/p' "$cs_log"
fi
