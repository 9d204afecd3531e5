#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli end to end on a generated trace: exit codes, info JSON keys, report lines, stats, convert.
# TAP output.
set -u
CLI=$1
GEN=$2
. "$(dirname "$0")/lib/tap.sh"

"$GEN" 20000 "$DIR/t.seismo"
check "generator writes a trace" test -s "$DIR/t.seismo"

"$CLI" >/dev/null 2>&1; check "no command is a usage error (2)" test $? -eq 2
"$CLI" frobnicate >/dev/null 2>&1; check "unknown command is a usage error (2)" test $? -eq 2
"$CLI" info >/dev/null 2>&1; check "info without FILE is a usage error" test $? -eq 2
"$CLI" stats --by nope "$DIR/t.seismo" >/dev/null 2>&1; check "stats --by nope is a usage error" test $? -eq 2
err=$("$CLI" info "$DIR/missing.seismo" 2>&1 >/dev/null); rc=$?
check "missing file fails with 1" test $rc -eq 1
check "error names the file" grep -q "missing.seismo" <<<"$err"
echo "hello, not a trace" > "$DIR/junk.txt"
err=$("$CLI" info "$DIR/junk.txt" 2>&1 >/dev/null); rc=$?
check "foreign file fails with 1 and names it" bash -c "test $rc -eq 1 && grep -q junk.txt <<<'$err'"

"$CLI" info --json "$DIR/t.seismo" > "$DIR/info.json"; check "info --json exits 0" test $? -eq 0
check "info JSON has the contract keys" python3 - "$DIR/info.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("format", "events", "cpus", "tasks", "start_ns", "end_ns", "lost_events", "event_types"):
    assert k in d, k
assert d["events"] == 20000, d["events"]
assert sum(d["event_types"].values()) == d["events"]
assert d["format"] == "seismo"
assert d["end_ns"] >= d["start_ns"]
PY

"$CLI" report --limit 50 "$DIR/t.seismo" > "$DIR/report.txt"
check "report --limit 50 prints 50 lines" test "$(wc -l < "$DIR/report.txt")" -eq 50
check "report lines look like trace-cmd's" grep -qE '^ *[^ ]+-[0-9]+ +\[[0-9]{3}\] [0-9]+\.[0-9]{6}: [a-z_]+: ' "$DIR/report.txt"
check "report is in time order" python3 - "$DIR/report.txt" <<'PY'
import re, sys
ts = [float(re.search(r'\] (\d+\.\d+):', l).group(1)) for l in open(sys.argv[1])]
assert ts == sorted(ts)
PY
check "report --limit counts every line" test "$("$CLI" report "$DIR/t.seismo" | wc -l)" -eq 20000

"$CLI" stats --by syscall --json "$DIR/t.seismo" > "$DIR/sys.json"
check "stats --by syscall JSON" python3 - "$DIR/sys.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["syscalls"], "no syscalls"
for s in d["syscalls"]:
    for k in ("name", "calls", "errors", "total_ns", "avg_ns", "max_ns"):
        assert k in s, k
    assert s["calls"] == 0 or s["avg_ns"] == s["total_ns"] // s["calls"]
PY
for by in event task cpu syscall; do
  "$CLI" stats --by $by "$DIR/t.seismo" > "$DIR/stats-$by.txt"; check "stats --by $by" test -s "$DIR/stats-$by.txt"
  "$CLI" stats --by $by --json "$DIR/t.seismo" | python3 -c 'import json,sys; json.load(sys.stdin)'
  check "stats --by $by --json is JSON" test $? -eq 0
done

"$CLI" convert "$DIR/t.seismo" "$DIR/copy.seismo"; check "convert to .seismo" test $? -eq 0
check "converted file is private (0600)" test "$(stat -c %a "$DIR/copy.seismo")" = 600
"$CLI" report "$DIR/t.seismo" > "$DIR/a.txt"; "$CLI" report "$DIR/copy.seismo" > "$DIR/b.txt"
check "convert round trip keeps every event" cmp -s "$DIR/a.txt" "$DIR/b.txt"
"$CLI" convert "$DIR/t.seismo" "$DIR/copy.unknownext" >/dev/null 2>&1
check "convert to an unknown extension fails with 1" test $? -eq 1

"$CLI" record --list-backends > "$DIR/backends.txt"; check "record --list-backends" test $? -eq 0
"$CLI" record -b nosuch -o "$DIR/x.seismo" -a >/dev/null 2>&1; check "record with unknown backend is usage error" test $? -eq 2

# Edges of the contract: write errors, numbers, usage, suggestions, options anywhere, folders.
for cmd in "info $DIR/t.seismo" "info --json $DIR/t.seismo" "stats $DIR/t.seismo" \
           "stats --by syscall --json $DIR/t.seismo" "hist $DIR/t.seismo" "report $DIR/t.seismo" \
           "explain openat" "compare $DIR/t.seismo $DIR/t.seismo" "record --list-backends" "--help" "--version"; do
  err=$("$CLI" $cmd 2>&1 >/dev/full); rc=$?
  check "$cmd > /dev/full: exit 1 and says so" \
    bash -c "test $rc -eq 1 && grep -qx 'seismo-cli: write error: No space left on device' <<<'$err'"
done
err=$("$CLI" report --limit -5 "$DIR/t.seismo" 2>&1 >/dev/null); rc=$?
check "report --limit -5 is a usage error (2) that names --limit" bash -c "test $rc -eq 2 && grep -q -- --limit <<<'$err'"
check "report --limit 0 prints nothing" test -z "$("$CLI" report --limit 0 "$DIR/t.seismo")"
"$CLI" report --limit abc "$DIR/t.seismo" >/dev/null 2>&1; check "report --limit abc is a usage error" test $? -eq 2
if "$CLI" render --help 2>&1 | grep -q -- --width; then
  "$CLI" render "$DIR/t.seismo" -o "$DIR/x.svg" --width -3 >/dev/null 2>&1; check "render --width -3 is a usage error" test $? -eq 2
else
  skip "render --width -3 is a usage error" "this seismo-cli is built without render (-Dgui=disabled)"
fi
"$CLI" compare-overhead --runs 0 -- true >/dev/null 2>&1; check "compare-overhead --runs 0 is a usage error" test $? -eq 2
err=$("$CLI" record -b ptrace -e opnat -o "$DIR/r.seismo" -- true 2>&1 >/dev/null); rc=$?
check "record -e opnat is a usage error (2)" test $rc -eq 2
check "record -e opnat suggests openat" grep -q "did you mean 'openat'" <<<"$err"
check "record -e opnat leaves no file" bash -c "! ls '$DIR'/r.seismo* 2>/dev/null"
"$CLI" record -b ptrace -a -o "$DIR/r.seismo" >/dev/null 2>&1; check "record -b ptrace -a is a usage error (2)" test $? -eq 2
# Options a backend's capabilities do not include are refused before anything runs, naming the
# backends that have them.
err=$("$CLI" record -b ftrace --probe kprobe:do_sys_openat2 -o "$DIR/r.seismo" -- true 2>&1 >/dev/null); rc=$?
check "record -b ftrace --probe is a usage error (2)" test $rc -eq 2
check "record -b ftrace --probe names the backend with probes" grep -q "cannot place probes (--probe); use ebpf" <<<"$err"
err=$("$CLI" record -b ptrace --aggregate -o "$DIR/r.seismo" -- true 2>&1 >/dev/null); rc=$?
check "record -b ptrace --aggregate is a usage error (2)" test $rc -eq 2
check "record --probe/--aggregate refused leave no file" bash -c "! ls '$DIR'/r.seismo* 2>/dev/null"
check "record --help names every backend of --list-backends" bash -c \
  "help=\$('$CLI' record --help | grep -- '--backend='); for b in \$(cut -d' ' -f1 '$DIR/backends.txt'); do grep -q \"\$b\" <<<\"\$help\" || exit 1; done"
err=$("$CLI" record -b ptrace --stacks kernel -o "$DIR/r.seismo" -- true 2>&1 >/dev/null); rc=$?
check "record -b ptrace --stacks kernel is a usage error (2)" test $rc -eq 2
check "record -b ptrace --stacks kernel says why" grep -q "cannot record kernel stacks" <<<"$err"
check "record --stacks kernel refused before anything runs" bash -c "! ls '$DIR'/r.seismo* 2>/dev/null"
"$CLI" record -b ptrace --stacks sideways -o "$DIR/r.seismo" -- true >/dev/null 2>&1
check "record --stacks sideways is a usage error (2)" test $? -eq 2
# --stacks alone, followed by another option.
"$CLI" record -b ebpf --stacks -o "$DIR/r.seismo" --list-backends >/dev/null 2>&1
check "record --stacks alone parses" test $? -eq 0
"$CLI" explain --json openat > "$DIR/explain.json"; rc=$?
check "explain --json openat: --json is an option" python3 - "$DIR/explain.json" $rc <<'PY'
import json, sys
assert sys.argv[2] == "0", sys.argv[2]
d = json.load(open(sys.argv[1]))
assert [e["title"] for e in d] == ["openat(2)"], d
assert d[0]["kind"] == "syscall" and d[0]["items"], d
PY
"$CLI" explain -2 --json > "$DIR/errno.json"
check "explain -2 --json: -2 is an errno" grep -q '"title" : "ENOENT (2)"' "$DIR/errno.json"
"$CLI" explain --jsn openat >/dev/null 2>&1; check "explain --jsn is a usage error" test $? -eq 2
mkdir -p "$DIR/folder"
err=$("$CLI" info "$DIR/folder" 2>&1 >/dev/null); rc=$?
check "a folder fails with 1 and says it expected strace -ff output" \
  bash -c "test $rc -eq 1 && grep -q 'is a folder' <<<'$err' && grep -q 'strace -ff' <<<'$err'"

tap_end
