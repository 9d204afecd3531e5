#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli --filter on report, info, stats and convert; the hist command; filter errors with a
# caret under the column and exit code 2. TAP output.
set -u
CLI=$1
GEN=$2
. "$(dirname "$0")/lib/tap.sh"
T=$DIR/t.seismo

"$GEN" 20000 "$T"
check "generator writes a trace" test -s "$T"
total=$("$CLI" report "$T" | wc -l)

# report
"$CLI" report --filter 'cpu == 1' "$T" > "$DIR/cpu1.txt"; rc=$?
check "report --filter exits 0" test $rc -eq 0
check "report --filter 'cpu == 1' prints only CPU 1" bash -c "! grep -vq '\\[001\\]' '$DIR/cpu1.txt' && test -s '$DIR/cpu1.txt'"
check "report --filter keeps the lines of the full report" \
  bash -c "grep -F '[001]' <('$CLI' report '$T') | cmp -s - '$DIR/cpu1.txt'"
a=$("$CLI" report --filter 'sched:* || errno == ENOENT' "$T" | wc -l)
b=$("$CLI" report --filter '!(sched:* || errno == ENOENT)' "$T" | wc -l)
check "a filter and its negation split the events ($a + $b = $total)" test $((a + b)) -eq "$total"
check "report --filter --limit 7 prints 7 lines" test "$("$CLI" report -n 7 -f 'syscall == read' "$T" | wc -l)" -eq 7
check "report --filter on syscall prints enter and exit" \
  bash -c "'$CLI' report -f 'syscall == read && duration > 1us' '$T' | grep -q sys_enter && '$CLI' report -f 'syscall == read && duration > 1us' '$T' | grep -q sys_exit"

# errors: exit 2, the message, the expression and a caret under the column
err=$("$CLI" report --filter 'cpu == 1 && pdi == 3' "$T" 2>&1 >/dev/null); rc=$?
check "a bad filter is a usage error (2)" test $rc -eq 2
check "the error says what is wrong" grep -q "unknown field 'pdi' — did you mean 'pid'?" <<<"$err"
check "the error shows the expression" grep -qx '  cpu == 1 && pdi == 3' <<<"$err"
check "a caret line points at the column" grep -qx '              ^^^' <<<"$err"
err=$("$CLI" stats --filter 'comm == "bash' "$T" 2>&1 >/dev/null); rc=$?
check "stats with an unterminated string exits 2" test $rc -eq 2
check "the caret marks the string" grep -qx '          ^^^^^' <<<"$err"
"$CLI" info --filter 'pid ==' "$T" >/dev/null 2>&1; check "info with a missing value exits 2" test $? -eq 2
"$CLI" convert --filter 'sched_swich' "$T" "$DIR/x.seismo" >/dev/null 2>&1
check "convert with an unknown event exits 2 and writes nothing" bash -c "test $? -eq 2 && ! test -e '$DIR/x.seismo'"
"$CLI" report --filter 'cpu == 1' "$DIR/missing.seismo" >/dev/null 2>&1
check "a missing file is still a failure (1)" test $? -eq 1

# info
"$CLI" info --json --filter 'sched_switch' "$T" > "$DIR/info.json"
check "info --filter --json counts the matching events" python3 - "$DIR/info.json" "$T" "$CLI" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
lines = subprocess.run([sys.argv[3], "report", "--filter", "sched_switch", sys.argv[2]],
                       capture_output=True, text=True).stdout.splitlines()
assert d["events"] == len(lines) > 0, (d["events"], len(lines))
assert d["total_events"] == 20000
assert d["filter"] == "sched_switch"
assert list(d["event_types"]) == ["sched:sched_switch"], d["event_types"]
assert d["syscalls"] == 0
PY
check "info --filter text says how many match" bash -c "'$CLI' info -f 'cpu == 0' '$T' | grep -q 'of 20000 match cpu == 0'"

# stats
"$CLI" stats --json --filter 'cpu == 2' "$T" > "$DIR/ev.json"
check "stats --filter --json counts only matching events" python3 - "$DIR/ev.json" "$DIR/cpu2" "$T" "$CLI" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
n = len(subprocess.run([sys.argv[4], "report", "-f", "cpu == 2", sys.argv[3]], capture_output=True,
                       text=True).stdout.splitlines())
assert sum(e["count"] for e in d["event_types"]) == n, n
for k in ("syscall", "wakeup", "runtime"):
    l = d["latency"][k]
    for f in ("count", "min_ns", "avg_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"):
        assert f in l, (k, f)
PY
"$CLI" stats --by syscall --json "$T" > "$DIR/sys.json"
"$CLI" stats --by syscall --json --filter 'cpu == 3' "$T" > "$DIR/sys3.json"
check "stats --json has latency percentiles in order" python3 - "$DIR/sys.json" "$DIR/sys3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d3 = json.load(open(sys.argv[2]))
for k in ("syscall", "wakeup", "runtime"):
    l = d["latency"][k]
    assert l["count"] > 0, k
    assert l["min_ns"] <= l["p50_ns"] <= l["p90_ns"] <= l["p99_ns"] <= l["max_ns"], l
assert d["latency"]["syscall"]["count"] == d["total_calls"]
assert 0 < d3["total_calls"] < d["total_calls"]
assert d3["latency"]["syscall"]["count"] == d3["total_calls"]
PY

# convert
"$CLI" convert --filter 'comm ~ "worker-*" && !irq:*' "$T" "$DIR/sub.seismo"; rc=$?
check "convert --filter exits 0" test $rc -eq 0
"$CLI" report --filter 'comm ~ "worker-*" && !irq:*' "$T" > "$DIR/want.txt"
"$CLI" report "$DIR/sub.seismo" > "$DIR/got.txt"
check "the converted subset reports the same lines" cmp -s "$DIR/want.txt" "$DIR/got.txt"
check "the subset is not everything" test "$(wc -l < "$DIR/got.txt")" -lt "$total"
check "the subset records its filter" bash -c "'$CLI' info --json '$DIR/sub.seismo' | grep -q '\"filter\" : \"comm ~ \\\\\"worker-\\*\\\\\" && !irq:\\*\"'"
"$CLI" convert --filter 'pid == 1003 || pid == 1006' "$T" "$DIR/tasks.seismo"
check "a subset by task keeps each event's comm" \
  bash -c "cmp -s <('$CLI' report -f 'pid == 1003 || pid == 1006' '$T') <('$CLI' report '$DIR/tasks.seismo')"

# hist
"$CLI" hist "$T" > "$DIR/hist.txt"; rc=$?
check "hist exits 0" test $rc -eq 0
check "hist prints a header like bpftrace" bash -c "head -1 '$DIR/hist.txt' | grep -qx '@syscall_latency_ns:'"
check "hist prints bpftrace-style lines" grep -qE '^\[[0-9]+[KMGTPE]?, [0-9]+[KMGTPE]?\) +[0-9]+ \|@+ *\|$' "$DIR/hist.txt"
check "hist bars are 52 wide" bash -c "grep '^\\[' '$DIR/hist.txt' | sed 's/^[^|]*|//' | awk '{ if (length(\$0) != 53) exit 1 }'"
for f in count min avg p50 p90 p99 max; do
  check "hist prints $f" grep -qE "^$f +[0-9]" "$DIR/hist.txt"
done
"$CLI" hist --json "$T" > "$DIR/hist.json"
"$CLI" hist --json --syscall read "$T" > "$DIR/read.json"
"$CLI" hist --json --filter 'cpu == 3' "$T" > "$DIR/hist3.json"
"$CLI" hist --json --linear 10us "$T" > "$DIR/lin.json"
check "hist --json agrees with stats" python3 - "$DIR/hist.json" "$DIR/read.json" "$DIR/sys.json" "$DIR/hist3.json" "$DIR/sys3.json" "$DIR/lin.json" <<'PY'
import json, sys
h, r, s, h3, s3, lin = (json.load(open(p)) for p in sys.argv[1:7])
assert h["count"] == s["total_calls"] == sum(b["count"] for b in h["buckets"])
read = [x for x in s["syscalls"] if x["name"] == "read"][0]
assert r["count"] == read["calls"] and r["p50_ns"] == read["p50_ns"] and r["p99_ns"] == read["p99_ns"]
assert r["max_ns"] == read["max_ns"] and r["syscall"] == "read"
assert h3["count"] == s3["total_calls"] and h3["filter"] == "cpu == 3"
for b in h["buckets"]:
    assert b["upper_ns"] == 2 * b["lower_ns"] or (b["lower_ns"] == 0 and b["upper_ns"] == 1)
assert lin["scale"] == "linear" and lin["step_ns"] == 10000 and lin["count"] == h["count"]
assert all(b["upper_ns"] - b["lower_ns"] == 10000 for b in lin["buckets"] if b["upper_ns"] is not None)
PY
check "hist --linear labels buckets in time units" grep -q '^\[10us, 20us) ' <("$CLI" hist --linear 10us "$T")
for of in wakeup-latency runtime irq-latency; do
  check "hist --of $of has samples" bash -c "'$CLI' hist --of $of --json '$T' | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"count\"] > 0'"
done
check "hist --of gap between switches on a CPU" \
  bash -c "'$CLI' hist --of gap --from sched_switch --to sched_switch --scope cpu --json '$T' | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"count\"] > 0'"
"$CLI" hist --of nope "$T" >/dev/null 2>&1; check "hist --of nope exits 2" test $? -eq 2
"$CLI" hist --linear 0 "$T" >/dev/null 2>&1; check "hist --linear 0 exits 2" test $? -eq 2
"$CLI" hist --of gap --from sched_switch "$T" >/dev/null 2>&1; check "hist --of gap without --to exits 2" test $? -eq 2
"$CLI" hist --of runtime --syscall read "$T" >/dev/null 2>&1; check "hist --syscall with runtime exits 2" test $? -eq 2
err=$("$CLI" hist --syscall opnat "$T" 2>&1 >/dev/null); rc=$?
check "hist --syscall with a typo exits 2 and suggests" bash -c "test $rc -eq 2 && grep -q \"did you mean 'openat'\" <<<\"\$0\"" "$err"
check "hist --syscall of a syscall the trace lacks has no samples" \
  bash -c "'$CLI' hist --syscall execve '$T' | grep -qx 'count  0'"
"$CLI" hist --filter 'pdi == 1' "$T" >/dev/null 2>&1; check "hist with a bad filter exits 2" test $? -eq 2

tap_end
