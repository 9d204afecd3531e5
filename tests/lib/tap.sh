# SPDX-License-Identifier: GPL-3.0-or-later
# TAP output for the shell tests (bash), sourced by them. It makes DIR, a fresh folder removed at
# exit, and gives:
#   ok WHAT / not_ok WHAT      one numbered result
#   skip WHAT WHY              a result skipped, saying why
#   check WHAT COMMAND...      ok when COMMAND succeeds, not ok otherwise (and returns 1)
#   diag_file FILE             FILE's first 40 lines as TAP comments: what a failed check looked at
#   skip_all WHY               the whole script skipped (an empty plan), then exit
#   tap_end                    the plan; the exit status fails the test when a result did
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
n=0
failed=0
ok() { n=$((n+1)); echo "ok $n - $1"; }
not_ok() { n=$((n+1)); failed=$((failed+1)); echo "not ok $n - $1"; }
skip() { n=$((n+1)); echo "ok $n - $1 # SKIP $2"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }
diag_file() { echo "# $1:"; sed -n '1,40s/^/#   /p' "$1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
tap_end() { echo "1..$n"; exit $((failed > 0)); }
