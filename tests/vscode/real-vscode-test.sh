#!/usr/bin/env bash
# The real-editor test of the VS Code extension: packages editors/vscode into a .vsix, installs it
# into a fresh code-server (the real VS Code, as a web server; scripts/install-code-server.sh),
# opens a fresh example repository (tests/clients/make-fixture.sh, the demo's repository) and
# drives the page in Debian's chromium as a person would (real-vscode-test.js); then, in a second
# code-server with workspace trust on, the emitter's repository in Restricted Mode, trust granted
# through the UI and a refactor save whose warnings the emitter folds (trust-checks.js).
#
#   tests/vscode/real-vscode-test.sh IMPACTD OUTDIR
#
# OUTDIR receives a screenshot of each step when a check fails, and the extension's logs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
impactd="$(realpath "${1:?usage: real-vscode-test.sh IMPACTD OUTDIR}")"
out="${2:?usage: real-vscode-test.sh IMPACTD OUTDIR}"

if ! install="$("$root/scripts/install-code-server.sh" --where)"; then
  echo "real-vscode-test: code-server is not installed in $install; run scripts/setup.sh" >&2
  exit 1
fi
chromium="${IMPACT_CHROMIUM:-$(command -v chromium || true)}"
[ -n "$chromium" ] || { echo "real-vscode-test: chromium is not installed; run scripts/setup.sh" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
out="$(realpath "$out")"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/impactd-vscode.XXXXXX")"
pgid=""
stop_code_server() {
  # The extension host, the file watcher and impactd outlive a kill of code-server alone.
  if [ -n "$pgid" ]; then
    kill -TERM -- "-$pgid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 -- "-$pgid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL -- "-$pgid" 2>/dev/null || true
    pgid=""
  fi
}
cleanup() {
  stop_code_server
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# code-server writes its config, logs and caches under XDG_*: keep them in the temp folder.
export XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" XDG_CACHE_HOME="$tmp/xdg/cache"
data="$tmp/user-data"
extensions="$tmp/extensions"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$data/User" "$extensions"

# 1. The extension, packaged as a user would.
(
  cd "$root/editors/vscode"
  [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error >/dev/null
  npm run --silent package -- --out "$tmp/impactd.vsix" >"$tmp/package.log" 2>&1 \
    || { cat "$tmp/package.log" >&2; exit 1; }
)

# 2. The example repository the demo builds: main, and a feature branch whose builder and pack
#    gain sliding-window arguments while the test pin is left behind.
repo="$tmp/example-repo"
bash "$root/tests/clients/make-fixture.sh" "$repo"
git -C "$repo" branch release/1.0 main   # a branch the range QuickPick offers (picked by the test)

# 3. A fresh user: the server's path, no welcome page, no auto-save (the quick fix must clear
#    the diagnostic without a save).
cat >"$data/User/settings.json" <<EOF
{
  "impactd.path": "$impactd",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.editor.enablePreview": false,
  "files.autoSave": "off",
  "workbench.tree.enableStickyScroll": false,
  "editor.hover.delay": 200,
  "editor.lightbulb.enabled": "on",
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "git.enabled": false
}
EOF
code_server="$install/node_modules/.bin/code-server"
"$code_server" --user-data-dir "$data" --extensions-dir "$extensions" \
  --install-extension "$tmp/impactd.vsix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; exit 1; }

# 4. code-server on a free port of 127.0.0.1, in its own session and process group. The group's
#    leader watches this script: were it killed outright (no trap runs), the group still goes.
#    start_code_server USER_DATA FOLDER LOG [FLAG...]: sets port and pgid.
start_code_server() {
  local user_data="$1" folder="$2" log="$3"
  shift 3
  port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})')"
  setsid bash -c '
    test_pid=$1; shift
    "$@" &
    while kill -0 "$test_pid" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done
    kill -TERM 0' watchdog "$$" \
    "$code_server" --user-data-dir "$user_data" --extensions-dir "$extensions" --auth none \
    --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    "$@" "$folder" \
    >"$log" 2>&1 </dev/null &
  pgid=$!  # setsid from a non-interactive shell execs in place: its pid leads the new group
}
# What the extension said, when a phase fails: its output channel and the extension host's log.
show_logs() {
  find "$1/logs" -name '*impactd*.log' -o -name '*exthost*.log' 2>/dev/null | while read -r log; do
    cp "$log" "$out/" 2>/dev/null || true
    echo "---- $(basename "$log") (last 40 lines)"
    tail -n 40 "$log"
  done
  echo "real-vscode-test: screenshots and logs in $out"
}

# IMPACT_VSCODE_PHASES (default "main features trust"): the phases to run, for a quicker look.
phases=" ${IMPACT_VSCODE_PHASES:-main features trust} "
status=0
if [[ "$phases" == *" main "* ]]; then
start_code_server "$data" "$repo" "$out/code-server.log" --disable-workspace-trust
NODE_PATH="$install/node_modules" node "$here/real-vscode-test.js" \
  --url "http://127.0.0.1:$port/?folder=$repo" --repo "$repo" --user-data "$data" \
  --out "$out" --chromium "$chromium" --impactd "$impactd" || status=$?
if [ "$status" -ne 0 ]; then
  show_logs "$data"
  exit "$status"
fi
stop_code_server
fi

# 4b. Inlay hints, code lens and rename (feature-checks.js): the example with the sliding-window
#     change committed on `feature`, and the REAL gfx950 tiled kernel (../shared/real-data, when
#     present) committed on main beside it, for a fresh user of the same settings.
if [[ "$phases" == *" features "* ]]; then
feat_repo="$tmp/features-repo"
mkdir -p "$feat_repo"
cp -R "$root/examples/monorepo/." "$feat_repo/"
real="$root/../shared/real-data/rocm-libraries"
[ -d "$real" ] && cp -R "$real/." "$feat_repo/"
(
  cd "$feat_repo"
  g() { git -c user.name=impactd -c user.email=impactd@example.invalid -c commit.gpgsign=false "$@"; }
  g init -q -b main
  g add -A
  g commit -q -m "example monorepo and the real gfx950 tiled kernel"
  g checkout -q -b feature
  g apply "$root/examples/sliding-window.patch"
  g add -A
  g commit -q -m "sliding window (the pin is not updated)"
)
feat_data="$tmp/user-data-features"
mkdir -p "$feat_data/User"
# No impactd.path: the extension finds impactd where `cmake --install --prefix ~/.local` puts it,
# for a user whose login shell puts ~/.local/bin on PATH (Debian's ~/.profile does; VS Code's
# server takes its extensions' environment from the login shell).
grep -v '"impactd.path"' "$data/User/settings.json" >"$feat_data/User/settings.json"
feat_home="$tmp/home"
mkdir -p "$feat_home/.local/bin"
ln -sf "$impactd" "$feat_home/.local/bin/impactd"
printf '%s\n' 'PATH="$HOME/.local/bin:$PATH"' >"$feat_home/.profile"
"$code_server" --user-data-dir "$feat_data" --extensions-dir "$extensions" --list-extensions >/dev/null 2>&1 || true
HOME="$feat_home" start_code_server "$feat_data" "$feat_repo" "$out/code-server-features.log" --disable-workspace-trust
NODE_PATH="$install/node_modules" node "$here/real-vscode-test.js" --phase features \
  --url "http://127.0.0.1:$port/?folder=$feat_repo" --repo "$feat_repo" --user-data "$feat_data" \
  --out "$out" --chromium "$chromium" --impactd "$impactd" || status=$?
if [ "$status" -ne 0 ]; then
  show_logs "$feat_data"
  exit "$status"
fi
stop_code_server
fi
[[ "$phases" == *" trust "* ]] || exit 0

# 5. Workspace trust and the emitter (trust-checks.js): the emitter's repository (the demo's,
#    scripts/demo-emitter.sh, but the branch starts at main: the refactor is typed and saved in
#    the editor), a fresh user with workspace trust on, code-server without
#    --disable-workspace-trust, so the folder opens in Restricted Mode.
emit_repo="$tmp/emitter-repo"
mkdir -p "$emit_repo"
cp -R "$root/examples/rocke-platform/." "$emit_repo/"
(
  cd "$emit_repo"
  g() { git -c user.name=impactd -c user.email=impactd@example.invalid -c commit.gpgsign=false "$@"; }
  g init -q -b main
  g add -A
  g commit -q -m "rocKE platform with scale, softmax and reduce shipped on gfx950"
  g checkout -q -b feature/refactor
)
trust_data="$tmp/user-data-trust"
mkdir -p "$trust_data/User"
# No auto-indent, auto-closing or suggestions: the refactor is typed line by line as written.
cat >"$trust_data/User/settings.json" <<EOF
{
  "impactd.path": "$impactd",
  "impactd.emitter": "auto",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.editor.enablePreview": false,
  "files.autoSave": "off",
  "editor.autoIndent": "none",
  "editor.autoClosingBrackets": "never",
  "editor.autoClosingQuotes": "never",
  "editor.quickSuggestions": { "other": "off", "comments": "off", "strings": "off" },
  "editor.suggestOnTriggerCharacters": false,
  "editor.acceptSuggestionOnEnter": "off",
  "editor.wordBasedSuggestions": "off",
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "always",
  "git.enabled": false
}
EOF
start_code_server "$trust_data" "$emit_repo" "$out/code-server-trust.log"
NODE_PATH="$install/node_modules" node "$here/real-vscode-test.js" --phase trust \
  --url "http://127.0.0.1:$port/?folder=$emit_repo" --repo "$emit_repo" --user-data "$trust_data" \
  --out "$out" --chromium "$chromium" --impactd "$impactd" || status=$?
[ "$status" -eq 0 ] || show_logs "$trust_data"
exit "$status"
