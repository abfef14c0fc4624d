#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), fetches the pinned grammars (npm) and builds.
# With --tests it also installs what the tests drive: Neovim, the npm test clients, and the real
# VS Code for the editor test (scripts/install-code-server.sh).
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
for_tests=0
[ "${1:-}" = "--tests" ] && for_tests=1

packages=(build-essential cmake ninja-build pkg-config git
          llvm-22-dev libgit2-dev libtree-sitter-dev nlohmann-json3-dev libabsl-dev
          libgtest-dev libgmock-dev libzstd-dev libyaml-cpp-dev)
if [ "$for_tests" = 1 ]; then
  packages+=(neovim   # neovim: the headless editor-client test (tests/clients)
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
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The editor-client tests drive impactd with vscode-jsonrpc (tests/clients/package-lock.json).
if [ "$for_tests" = 1 ] && [ ! -d tests/clients/node_modules ]; then
  (cd tests/clients && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# Microsoft's SARIF validator, which the SARIF tests run on impact's --format sarif output.
if [ "$for_tests" = 1 ] && [ ! -x tests/sarif/node_modules/.bin/sarif-multitool ]; then
  (cd tests/sarif && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# The VS Code extension's build tools (editors/vscode/package-lock.json): the editor test packages it.
if [ "$for_tests" = 1 ] && [ ! -d editors/vscode/node_modules ]; then
  (cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# code-server and puppeteer-core for the real-VS-Code test, pinned by scripts/code-server/ and
# cached per machine (~/.cache/impactd); nothing to do when the cached copy is complete.
[ "$for_tests" = 0 ] || "$here/scripts/install-code-server.sh" >/dev/null

build="${IMPACT_BUILD_DIR:-build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
