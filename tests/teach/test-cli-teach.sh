#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli's teaching commands end to end. TAP output.
#   test-cli-teach.sh CLI GEN files      convert to .json/.csv, explain, compare
#   test-cli-teach.sh CLI GEN overhead   compare-overhead on /bin/true and a small loop
set -u
CLI=$1
GEN=$2
PART=$3
. "$(dirname "$0")/../lib/tap.sh"

if [ "$PART" = files ]; then
  "$GEN" 20000 "$DIR/a.seismo"
  "$GEN" 30000 "$DIR/b.seismo"
  "$CLI" info --json "$DIR/a.seismo" > "$DIR/info.json"

  "$CLI" convert "$DIR/a.seismo" "$DIR/a.json"; check "convert to .json exits 0" test $? -eq 0
  check "the .json file is mode 0600" test "$(stat -c %a "$DIR/a.json")" = 600
  check "Chrome JSON: required keys, X events = finished syscalls" python3 - "$DIR/a.json" "$DIR/info.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
info = json.load(open(sys.argv[2]))
events = d["traceEvents"]
assert d["displayTimeUnit"] == "ns"
for e in events:
    for k in ("ph", "name", "pid", "tid"):
        assert k in e, (k, e)
    assert e["ph"] in ("X", "i", "M"), e
    if e["ph"] != "M":
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if e["ph"] == "X":
        assert e["dur"] >= 0, e
# info's "syscalls" counts every span; unfinished ones (no exit) are not complete events.
syscall_x = sum(1 for e in events if e["ph"] == "X" and e["cat"] == "syscall")
assert 0 < syscall_x <= info["syscalls"], (syscall_x, info["syscalls"])
names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
assert "CPU 0" in names, names
PY

  "$CLI" convert "$DIR/a.seismo" "$DIR/a.csv"; check "convert to .csv exits 0" test $? -eq 0
  check "CSV: header, one row per event" python3 - "$DIR/a.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["index", "time_ns", "cpu", "tid", "pid", "comm", "event", "fields"], rows[0]
assert len(rows) == 20001, len(rows)
assert all(len(r) == 8 for r in rows)
assert [int(r[0]) for r in rows[1:]] == list(range(20000))
ts = [int(r[1]) for r in rows[1:]]
assert ts == sorted(ts)
PY
  "$CLI" convert "$DIR/a.seismo" "$DIR/a.xyz" 2>"$DIR/err"
  check "an unknown extension fails and lists .json and .csv" bash -c "grep -q .json '$DIR/err' && grep -q .csv '$DIR/err'"

  "$CLI" explain openat > "$DIR/explain.txt"; check "explain openat exits 0" test $? -eq 0
  check "explain openat names the man page" grep -q "man-pages/man2/open.2.html" "$DIR/explain.txt"
  "$CLI" explain sched:sched_switch ENOENT -2 R+ >/dev/null; check "explain takes events, errnos, states" test $? -eq 0
  "$CLI" explain no_such_thing >/dev/null 2>&1; check "explain of nonsense fails with 1" test $? -eq 1
  "$CLI" explain >/dev/null 2>&1; check "explain without NAME is a usage error" test $? -eq 2

  "$CLI" compare "$DIR/a.seismo" "$DIR/a.seismo" > "$DIR/self.txt"; check "compare A A exits 0" test $? -eq 0
  check "a trace compared with itself shows no differences" grep -q "^No differences" "$DIR/self.txt"
  check "...and marks no row" bash -c "! grep -q '^\*' '$DIR/self.txt'"
  "$CLI" compare --json "$DIR/a.seismo" "$DIR/a.seismo" > "$DIR/self.json"
  check "compare --json A A: differs false, every diff 0" python3 - "$DIR/self.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["differs"] is False
assert len(d["syscalls"]) > 0
for row in d["syscalls"] + [d["total"]]:
    assert row["differs"] is False
    assert all(v == 0 for v in row["diff"].values()), row
    assert all(v == 0 for v in row["relative"].values()), row
    assert row["a"] == row["b"]
PY
  "$CLI" compare --json "$DIR/a.seismo" "$DIR/b.seismo" > "$DIR/ab.json"
  check "compare --json A B: differs, counts add up" python3 - "$DIR/ab.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["differs"] is True
assert d["a"]["events"] == 20000 and d["b"]["events"] == 30000
for side in "ab":
    assert sum(r[side]["calls"] for r in d["syscalls"]) == d["total"][side]["calls"]
for r in d["syscalls"]:
    assert r["diff"]["calls"] == r["b"]["calls"] - r["a"]["calls"]
    for m in ("avg_ns", "p50_ns", "p90_ns", "p99_ns"):
        assert m in r["a"] and m in r["relative"]
PY
  "$CLI" compare "$DIR/a.seismo" >/dev/null 2>&1; check "compare with one trace is a usage error" test $? -eq 2
  "$CLI" compare "$DIR/a.seismo" "$DIR/missing.seismo" >/dev/null 2>&1; check "compare with a missing trace fails" test $? -eq 1
fi

if [ "$PART" = overhead ]; then
  "$CLI" compare-overhead >/dev/null 2>&1; check "compare-overhead without a command is a usage error" test $? -eq 2
  "$CLI" compare-overhead -- /no/such/program >/dev/null 2>&1; check "an unknown command is a usage error" test $? -eq 2
  "$CLI" compare-overhead --runs 0 -- true >/dev/null 2>&1; check "--runs 0 is a usage error" test $? -eq 2

  "$CLI" compare-overhead --runs 2 --json -- /bin/true > "$DIR/true.json"
  check "compare-overhead --json -- /bin/true exits 0" test $? -eq 0
  check "the JSON has a bare row and one row per backend" python3 - "$DIR/true.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == ["/bin/true"] and d["runs"] == 2
rows = d["results"]
assert rows[0]["name"] == "bare" and rows[0]["available"] and rows[0]["ok"], rows[0]
assert rows[0]["slowdown"] == 1.0 and len(rows[0]["wall_ns"]) == 2 and rows[0]["wall_ns_median"] > 0
names = [r["name"] for r in rows]
for b in ("ptrace", "ftrace", "ebpf"):
    assert b in names, names
for r in rows:
    assert isinstance(r["available"], bool)
    if not r["available"]:
        assert r["reason"], r
        continue
    if not r["ok"]:
        assert r["error"], r
        print("# %s failed: %s" % (r["name"], r["error"]))
        continue
    for k in ("wall_ns_median", "total_ns_median", "slowdown", "events", "lost_events", "exit_status"):
        assert k in r, (k, r)
    assert r["exit_status"] == 0, r
    assert r["slowdown"] > 0
    if r["name"] != "bare":
        # true makes a few dozen syscalls; any working backend sees some.
        assert r["events"] > 0, r
    print("# %-7s %8.2f ms  x%.2f  %d events" % (r["name"], r["wall_ns_median"] / 1e6, r["slowdown"], r["events"]))
PY

  # A small loop: enough syscalls that a tracer that stops each one must be slower than bare.
  "$CLI" compare-overhead --runs 3 --json -b ptrace -- dd if=/dev/zero of=/dev/null bs=1 count=5000 > "$DIR/loop.json"
  check "compare-overhead on a small loop exits 0" test $? -eq 0
  check "ptrace, when it can run, captures every call and is slower than bare" python3 - "$DIR/loop.json" <<'PY'
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["results"]}
assert set(rows) == {"bare", "ptrace"}, set(rows)
p = rows["ptrace"]
if not p["available"] or not p["ok"]:
    print("# ptrace could not run here: %s" % (p.get("reason") or p.get("error")))
    sys.exit(0)
# dd makes 2 syscalls per byte: 10000 calls, each an enter and an exit event.
assert p["events"] >= 20000, p["events"]
assert p["slowdown"] > 1.0, p["slowdown"]
print("# ptrace slowdown x%.2f with %d events" % (p["slowdown"], p["events"]))
PY
  "$CLI" compare-overhead --runs 1 -b ptrace -- true > "$DIR/text.txt"
  check "the text table has the slowdown chart" grep -q "^Slowdown of the command" "$DIR/text.txt"
fi

tap_end
