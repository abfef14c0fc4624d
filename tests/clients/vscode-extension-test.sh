#!/usr/bin/env bash
# Builds the VS Code extension (editors/vscode: npm ci when needed, then tsc) and runs its
# activation and commands against a stand-in `vscode` API (tests/clients/vscode-extension-test.js).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ext="$here/../../editors/vscode"
cd "$ext"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error >/dev/null
npm run --silent build >/dev/null
node "$here/vscode-extension-test.js" "$ext/out/extension.js"
