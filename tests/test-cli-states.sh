#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli states and critical-path on a generated trace: the JSON contracts, totals that add up
# to the interval, segments that tile it, --task/--from/--to/--filter, exit codes. TAP output.
set -u
CLI=$1
GEN=$2
. "$(dirname "$0")/lib/tap.sh"

"$GEN" 20000 "$DIR/t.seismo"
check "generator writes a trace" test -s "$DIR/t.seismo"

"$CLI" states >/dev/null 2>&1; check "states without FILE is a usage error (2)" test $? -eq 2
"$CLI" states --from 2ms --to 1ms "$DIR/t.seismo" >/dev/null 2>&1
check "states --to before --from is a usage error" test $? -eq 2
"$CLI" states --from soon "$DIR/t.seismo" >/dev/null 2>&1; check "states --from soon is a usage error" test $? -eq 2
"$CLI" states --filter 'pdi == 3' "$DIR/t.seismo" >/dev/null 2>&1; check "a bad --filter is a usage error" test $? -eq 2
"$CLI" critical-path "$DIR/t.seismo" >/dev/null 2>&1; check "critical-path without --task is a usage error" test $? -eq 2
err=$("$CLI" critical-path --task 999999 "$DIR/t.seismo" 2>&1 >/dev/null); rc=$?
check "critical-path of a missing task fails with 1" test $rc -eq 1
check "the error names the file and the task" bash -c "grep -q 't.seismo' <<<'$err' && grep -q 999999 <<<'$err'"

"$CLI" states --json "$DIR/t.seismo" > "$DIR/states.json"; check "states --json exits 0" test $? -eq 0
check "states JSON: contract keys, totals add up to the interval" python3 - "$DIR/states.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tasks"], "no tasks"
span = d["end_ns"] - d["start_ns"]
keys = ("running_ns", "runnable_ns", "sleeping_ns", "uninterruptible_ns", "unknown_ns")
for t in d["tasks"]:
    for k in ("tid", "pid", "comm") + keys:
        assert k in t, k
    total = sum(t[k] for k in keys) + t["stopped_ns"] + t["dead_ns"]
    assert total == span, (t, total, span)
assert any(t["running_ns"] > 0 for t in d["tasks"])
assert any(t["runnable_ns"] > 0 for t in d["tasks"])
assert any(t["sleeping_ns"] > 0 for t in d["tasks"])
PY
tid=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["tasks"][0]["tid"])' "$DIR/states.json")

"$CLI" states --task "$tid" --from 1ms --to 3ms --json "$DIR/t.seismo" > "$DIR/one.json"
check "states --task --from --to: one task over 2 ms" python3 - "$DIR/one.json" "$tid" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["tasks"]) == 1 and d["tasks"][0]["tid"] == int(sys.argv[2]), d
assert d["end_ns"] - d["start_ns"] == 2000000
t = d["tasks"][0]
assert sum(t[k] for k in ("running_ns", "runnable_ns", "sleeping_ns", "uninterruptible_ns",
                          "unknown_ns", "stopped_ns", "dead_ns")) == 2000000
PY
"$CLI" states --filter "tid == $tid" --json "$DIR/t.seismo" > "$DIR/filtered.json"
check "states --filter keeps the tasks with matching events" python3 - "$DIR/filtered.json" "$tid" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [t["tid"] for t in d["tasks"]] == [int(sys.argv[2])], d
PY
"$CLI" states "$DIR/t.seismo" > "$DIR/states.txt"
check "states prints a table" grep -q "RUNNING" "$DIR/states.txt"

"$CLI" states --latency --json "$DIR/t.seismo" > "$DIR/latency.json"
check "states --latency --json: a runnable-latency histogram per task, as many waits as buckets hold" python3 - "$DIR/latency.json" "$DIR/states.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
plain = json.load(open(sys.argv[2]))
assert [t["tid"] for t in d["tasks"]] == [t["tid"] for t in plain["tasks"]]
assert not any("runnable_latency" in t for t in plain["tasks"])
waited = 0
for t in d["tasks"]:
    l = t["runnable_latency"]
    assert sum(b["count"] for b in l["buckets"]) == l["count"], l
    assert l["count"] == 0 or l["min_ns"] <= l["p50_ns"] <= l["p99_ns"] <= l["max_ns"] <= t["runnable_ns"], l
    assert l["max_ns"] <= t["longest_runnable_ns"], (l, t)
    for b in l["buckets"]:
        assert b["upper_ns"] is None or b["lower_ns"] < b["upper_ns"]
    waited += l["count"] > 0
assert waited > 0
PY
"$CLI" states --latency --task "$tid" "$DIR/t.seismo" > "$DIR/latency.txt"
check "states --latency prints histograms" grep -q "Runnable latency of .*-$tid" "$DIR/latency.txt"

"$CLI" critical-path --task "$tid" --json "$DIR/t.seismo" > "$DIR/path.json"
check "critical-path --json: contract keys, segments tile the interval" python3 - "$DIR/path.json" "$tid" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["task"] == int(sys.argv[2])
t = d["start_ns"]
states = {"running", "runnable", "sleeping", "uninterruptible", "irq", "softirq", "unknown"}
assert d["segments"]
for s in d["segments"]:
    for k in ("tid", "comm", "state", "start_ns", "duration_ns"):
        assert k in s, k
    assert s["state"] in states, s
    assert s["start_ns"] == t and s["duration_ns"] > 0, (s, t)
    t += s["duration_ns"]
assert t == d["end_ns"]
assert any(s["tid"] != d["task"] for s in d["segments"]), "the path never left the task"
PY
"$CLI" critical-path --task "$tid" --from 1ms --to 2ms "$DIR/t.seismo" > "$DIR/path.txt"
check "critical-path prints a table with shares" grep -q "SHARE" "$DIR/path.txt"
"$CLI" critical-path --task "$tid" --filter 'event == sys_enter' --json "$DIR/t.seismo" > "$DIR/fpath.json"
check "critical-path --filter narrows the interval to matching events" python3 - "$DIR/fpath.json" "$DIR/path.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1])); w = json.load(open(sys.argv[2]))
assert f["start_ns"] >= w["start_ns"] and f["end_ns"] <= w["end_ns"]
assert (f["start_ns"], f["end_ns"]) != (w["start_ns"], w["end_ns"])
PY
"$CLI" critical-path --task "$tid" --filter 'comm == "no-such-comm"' "$DIR/t.seismo" >/dev/null 2>&1
check "critical-path --filter matching nothing fails with 1" test $? -eq 1
tap_end
