#!/usr/bin/env bash
# Installs the real VS Code for the real-editor test (tests/vscode): code-server (the open-source
# VS Code server, npm) and puppeteer-core, pinned by scripts/code-server/package-lock.json, into a
# cache folder shared by every checkout on the machine:
#   ${IMPACT_CODE_SERVER_CACHE:-${XDG_CACHE_HOME:-~/.cache}/impactd}/code-server-<version>-<lock hash>
# Needs the Debian packages scripts/setup.sh --tests installs (ripgrep, and the -dev packages node-gyp
# builds against). Idempotent: returns at once when the folder is complete.
#
#   scripts/install-code-server.sh           install when missing; print the folder
#   scripts/install-code-server.sh --where   print the folder; exit 1 when it is not installed
#
# code-server's own postinstall cannot run offline (as root it wants --unsafe-perm, and
# @vscode/ripgrep downloads ripgrep from GitHub), so its steps are done here by hand
# (../shared/TOOLCHAIN.md, "A real VS Code").
set -euo pipefail
pins="$(cd "$(dirname "${BASH_SOURCE[0]}")/code-server" && pwd)"
version="$(node -p "require('$pins/package.json').dependencies['code-server']")"
hash="$(sha256sum "$pins/package-lock.json" | cut -c1-12)"
cache="${IMPACT_CODE_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/impactd}"
dir="$cache/code-server-$version-$hash"

if [ "${1:-}" = "--where" ]; then
  echo "$dir"
  [ -f "$dir/.installed" ]
  exit
fi
if [ -f "$dir/.installed" ]; then
  echo "$dir"
  exit 0
fi

for tool in rg node npm; do
  command -v "$tool" >/dev/null || { echo "install-code-server: '$tool' is missing (run scripts/setup.sh --tests)" >&2; exit 1; }
done
mkdir -p "$cache"
exec 9>"$dir.lock"
flock 9  # a second installer waits, then finds the folder complete
if [ -f "$dir/.installed" ]; then
  echo "$dir"
  exit 0
fi

echo "install-code-server: installing code-server $version into $dir (a few minutes)" >&2
started=$SECONDS
rm -rf "$dir"
mkdir -p "$dir"
cp "$pins/package.json" "$pins/package-lock.json" "$dir/"
# ~/.npmrc may say yes=false, which makes node-pty's `npx node-gyp` refuse to run.
export npm_config_yes=true npm_config_audit=false npm_config_fund=false \
       npm_config_update_notifier=false npm_config_loglevel=error
quiet() { "$@" >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; echo "install-code-server: failed: $*" >&2; exit 1; }; }

cd "$dir"
quiet npm ci --ignore-scripts
vscode="$dir/node_modules/code-server/lib/vscode"
cd "$vscode"
quiet npm install --omit=dev --ignore-scripts
# @vscode/ripgrep's postinstall skips its download when bin/ exists: use Debian's ripgrep.
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
quiet npm rebuild  # node-gyp: node-pty, spdlog, kerberos, ...
# The links code-server's postinstall.sh makes.
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && quiet npm install --omit=dev)
# argon2 is loaded at startup even with --auth none; its prebuilt binary is not fetched offline.
cd "$dir"
npm_config_build_from_source=true quiet npm rebuild argon2

"$dir/node_modules/.bin/code-server" --version >/dev/null
touch "$dir/.installed"
echo "install-code-server: done in $((SECONDS - started)) s" >&2
echo "$dir"
