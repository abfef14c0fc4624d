#!/usr/bin/env bash
# scripts/apt-progress.awk on a captured `apt-get install -y -q` (apt-install-sample.txt: 4 new
# packages and 1 upgrade, with "Setting up" lines for packages apt set up but did not list, and one
# twice): the total is 5, the count reaches 5/5 and never passes it, on a terminal and off.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
awk_file="$here/../../scripts/apt-progress.awk"
sample="$here/apt-install-sample.txt"
fail() { echo "FAIL: $*" >&2; exit 1; }

plain="$(awk -v tty=0 -f "$awk_file" "$sample")"
echo "$plain"
grep -qx 'setup: 5 packages to download and install' <<<"$plain" || fail "total is not 5"
grep -qx 'setup: downloaded 5/5' <<<"$plain" || fail "no 'downloaded 5/5'"
grep -qx 'setup: installed 5/5 (libgit2-dev)' <<<"$plain" || fail "no 'installed 5/5 (libgit2-dev)'"

term="$(awk -v tty=1 -f "$awk_file" "$sample" | tr '\r' '\n')"
counts="$(grep -o 'installing [0-9]*/[0-9]*' <<<"$term" | cut -d' ' -f2)"
[ "$(tail -n1 <<<"$counts")" = 5/5 ] || fail "the terminal count does not end at 5/5: $counts"
[ "$(wc -l <<<"$counts")" -eq 5 ] || fail "not one line per listed package: $counts"
while IFS=/ read -r n total; do
  [ "$n" -le "$total" ] || fail "count $n past its total $total"
done <<<"$counts"
echo "ok"
