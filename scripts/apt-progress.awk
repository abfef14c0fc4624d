# apt-get install's output filtered to a count (scripts/setup.sh): downloads, then the packages
# set up so far out of those apt said it installs. The total is the packages listed under "The
# following NEW packages will be installed" and "The following packages will be upgraded"; a
# "Setting up" line counts only for one of them, once, so the count never passes the total
# (apt also sets up packages it only reconfigures or triggers). -v tty=1: one line redrawn.
function base(name) { sub(/:.*/, "", name); return name }
/^The following NEW packages will be installed/ || /^The following packages will be upgraded/ { listing = 1; next }
/^  / && listing { for (i = 1; i <= NF; i++) if (!(base($i) in todo)) { todo[base($i)] = 1; total++ }; next }
{ listing = 0 }
/ newly installed/ { printf "setup: %d packages to download and install\n", total; fflush() }
/^Get:[0-9]+ / { got++; if (got > total) got = total
  if (tty) { printf "\rsetup: downloading %d/%d   ", got, total } else if (got % 25 == 0 || got == total) { printf "setup: downloaded %d/%d\n", got, total }; fflush() }
/^Setting up / { name = base($3); if (!(name in todo) || (name in set)) next; set[name] = 1; done++
  if (tty) { printf "\rsetup: installing %d/%d %-40s", done, total, name } else if (done % 25 == 0 || done == total) { printf "setup: installed %d/%d (%s)\n", done, total, name }; fflush() }
END { if (tty) printf "\n" }
