#!/usr/bin/env bash
# `cmake --install` of this build into an empty prefix gives working programs and the editor
# clients where editors look for them; with --deb, `cpack -G DEB` gives a package holding both
# programs. (issue 38; CMakeLists.txt's install rules.)
#
#   tests/install/install-test.sh BUILD_DIR [--deb]
set -euo pipefail
build="$(cd "${1:?usage: install-test.sh BUILD_DIR [--deb]}" && pwd)"
mode="${2:-}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$mode" = "--deb" ]; then
  (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1) ||
    { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB failed"; }
  deb="$(ls "$tmp"/out/*.deb 2>/dev/null | head -n 1)"
  [ -n "$deb" ] || { cat "$tmp/cpack.log" >&2; fail "no .deb written"; }
  contents="$(dpkg-deb -c "$deb")"
  for f in ./usr/bin/impact ./usr/bin/impactd ./usr/bin/impact-pre-commit \
           ./usr/share/nvim/site/pack/impactd/start/impactd/lua/impactd/init.lua; do
    grep -q " $f\$" <<<"$contents" || { echo "$contents" >&2; fail "$f not in $(basename "$deb")"; }
  done
  # The package's programs run (unpacked, not installed on this machine).
  dpkg-deb -x "$deb" "$tmp/root"
  [ "$("$tmp/root/usr/bin/impact" --version)" = "impact $(dpkg-deb -f "$deb" Version)" ] || fail "impact --version"
  "$tmp/root/usr/bin/impactd" --version | grep -q '^impactd ' || fail "impactd --version"
  dpkg-deb -f "$deb" Depends | grep -q libgit2 || fail "the package does not depend on libgit2: $(dpkg-deb -f "$deb" Depends)"
  echo "ok: $(basename "$deb"): $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), depends on $(dpkg-deb -f "$deb" Depends | cut -c1-80)…"
  exit 0
fi

prefix="$tmp/prefix"
[ ! -e "$prefix" ] || fail "the prefix is not empty"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
out="$("$prefix/bin/impact" --version)" || fail "impact --version failed"
[[ "$out" =~ ^impact\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "impact --version said: $out"
out="$("$prefix/bin/impactd" --version)" || fail "impactd --version failed"
[[ "$out" =~ ^impactd\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "impactd --version said: $out"
# The installed impactd answers initialize over stdio (not only --version).
body='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
answer="$(printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body" | timeout 20 "$prefix/bin/impactd" 2>/dev/null | head -c 4000 || true)"
grep -q '"inlayHintProvider"' <<<"$answer" || fail "the installed impactd did not answer initialize: $answer"
# The Neovim module where Neovim's packpath finds it, the pre-commit entry on PATH.
[ -f "$prefix/share/nvim/site/pack/impactd/start/impactd/lua/impactd/init.lua" ] || fail "the Neovim module is not installed"
[ ! -e "$prefix/share/nvim/site/pack/impactd/start/impactd/test" ] || fail "the Neovim module's tests were installed"
[ -x "$prefix/bin/impact-pre-commit" ] || fail "impact-pre-commit is not installed"
if command -v nvim >/dev/null 2>&1; then
  # A Neovim whose data dir is the prefix's share finds require('impactd') with no runtimepath set.
  XDG_DATA_DIRS="$prefix/share" HOME="$tmp" nvim --headless -u NONE -i NONE \
    -c 'packloadall' -c 'lua io.stdout:write(type(require("impactd").setup))' -c 'qa!' >"$tmp/nvim.out" 2>&1 || true
  grep -q function "$tmp/nvim.out" || fail "Neovim did not find the installed module: $(cat "$tmp/nvim.out")"
fi
echo "ok: installed into an empty prefix: $(ls "$prefix/bin" | tr '\n' ' ')"
