#!/usr/bin/env bash
# Headless Neovim: editors/nvim's :ImpactRun, its window/showDocument handler (Neovim 0.7) and
# the target option, against the stand-in server editors/nvim/test/fake_server.py
# (ctest: EditorNeovimCommands).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
command -v nvim >/dev/null || { echo "nvim-commands: nvim is not installed (scripts/setup.sh installs it)"; exit 1; }
work="$(mktemp -d /tmp/impact-nvim-cmd-XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/repo/sub"
git -C "$work/repo" init -q
printf 'int main() {\n    return 0;\n}\n' > "$work/repo/sub/a.cpp"
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
( cd "$work" && FIXTURE="$work/repo/sub/a.cpp" timeout 60 \
    nvim --headless -u NONE -i NONE -n --cmd "set rtp+=$here/editors/nvim" \
         -c "luafile $here/editors/nvim/test/commands.lua" )
