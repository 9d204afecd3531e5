#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Thread states and the critical path on real recordings, with the ftrace and the eBPF backends,
# of workloads whose answer is known (tests/states/seismo-states-workload.c):
#   pingpong  each side sleeps on the other: the critical path of ping goes through pong, and most
#             of ping's sleep is explained by pong;
#   mutex     the waiter's critical path names the holder for all of its sleep (the holder's 50 ms);
#   hogs      two spinners pinned to one CPU: each is Runnable while the other runs (≥ 40% of the
#             time they share, and together they never run more than the CPU's time);
#   fsync     the writer spends time in D.
# Every task's state totals add up to the interval (±1%; exact by construction).
# TAP output. usage: test-states-record.sh SEISMO_CLI WORKLOAD
set -u
CLI=$1
WORKLOAD=$2
. "$(dirname "$0")/../lib/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "recording needs root"
backends=$("$CLI" record --list-backends 2>&1)

# A folder on a real disk for fsync (not tmpfs), removed at exit with DIR.
SYNC_DIR=$(mktemp -d "${MESON_BUILD_ROOT:-$PWD}/seismo-states-fsync-XXXXXX")
# (tap.sh removes DIR at exit: this trap replaces its own, so it removes DIR too.)
trap 'rm -rf "$SYNC_DIR" "$DIR"' EXIT

for b in ftrace ebpf; do
  if ! grep -q "^$b *available" <<<"$backends"; then
    skip "$b recordings" "$(grep "^$b " <<<"$backends" || echo "no $b backend")"
    continue
  fi
  events=()
  [ $b = ftrace ] && events=(-e 'sched:*,irq:*,raw_syscalls:*')

  "$CLI" record -b $b "${events[@]}" -o "$DIR/pp-$b.seismo" -- "$WORKLOAD" pingpong 2000 2>/dev/null
  check "$b: records pingpong" test $? -eq 0
  "$CLI" states --json "$DIR/pp-$b.seismo" > "$DIR/pp-$b.json"
  ping=$(python3 -c 'import json,sys; print(next(t["tid"] for t in json.load(open(sys.argv[1]))["tasks"] if t["comm"] == "ping"))' "$DIR/pp-$b.json")
  "$CLI" critical-path --task "$ping" --json "$DIR/pp-$b.seismo" > "$DIR/pp-path-$b.json"
  check "$b: ping's critical path goes through pong, which explains ping's sleep" python3 - "$DIR/pp-$b.json" "$DIR/pp-path-$b.json" <<'PY'
import json, sys
states = json.load(open(sys.argv[1])); path = json.load(open(sys.argv[2]))
ping = next(t for t in states["tasks"] if t["comm"] == "ping")
pong = next(t for t in states["tasks"] if t["comm"] == "pong")
assert ping["sleeping_ns"] > 0 and pong["sleeping_ns"] > 0, (ping, pong)
# Most round trips put the reader to sleep (fewer when both sides happen to run at once).
assert ping["wakeups"] >= 200 and pong["wakeups"] >= 200, (ping, pong)
on_pong = sum(s["duration_ns"] for s in path["segments"] if s["tid"] == pong["tid"])
ping_asleep = sum(s["duration_ns"] for s in path["segments"]
                  if s["tid"] == ping["tid"] and s["state"] == "sleeping")
span = path["end_ns"] - path["start_ns"]
assert on_pong > 0.05 * span, (on_pong, span)
assert ping_asleep < 0.5 * ping["sleeping_ns"], (ping_asleep, ping["sleeping_ns"])
PY

  "$CLI" record -b $b "${events[@]}" -o "$DIR/mutex-$b.seismo" -- "$WORKLOAD" mutex 2>/dev/null
  check "$b: records mutex" test $? -eq 0
  "$CLI" states --json "$DIR/mutex-$b.seismo" > "$DIR/mutex-$b.json"
  waiter=$(python3 -c 'import json,sys; print(next(t["tid"] for t in json.load(open(sys.argv[1]))["tasks"] if t["comm"] == "waiter"))' "$DIR/mutex-$b.json")
  "$CLI" critical-path --task "$waiter" --json "$DIR/mutex-$b.seismo" > "$DIR/mutex-path-$b.json"
  check "$b: the waiter's critical path names the holder and explains its sleep through it" python3 - "$DIR/mutex-$b.json" "$DIR/mutex-path-$b.json" <<'PY'
import json, sys
states = json.load(open(sys.argv[1])); path = json.load(open(sys.argv[2]))
waiter = next(t for t in states["tasks"] if t["comm"] == "waiter")
holder = next(t for t in states["tasks"] if t["comm"] == "holder")
# The waiter blocks for what is left of the holder's 50 ms once it runs (on a busy machine a new
# thread may wait a while for its first turn): all of its sleep is the holder's doing. The path
# names the holder, and the whole sleep is explained through it (depth >= 1: the holder, or what
# the holder waited on; the timer interrupt that ends the holder's nanosleep comes in on whatever
# task runs then, and without interrupt flags in the trace that task is what the path shows).
assert waiter["sleeping_ns"] >= 10e6, waiter
on_holder = sum(s["duration_ns"] for s in path["segments"] if s["tid"] == holder["tid"])
through = sum(s["duration_ns"] for s in path["segments"] if s["depth"] >= 1)
assert on_holder > 0, path["segments"]
assert through >= 0.9 * waiter["sleeping_ns"], (through, waiter, path["segments"])
PY

  "$CLI" record -b $b "${events[@]}" -o "$DIR/hogs-$b.seismo" -- "$WORKLOAD" hogs 200 2>/dev/null
  check "$b: records hogs" test $? -eq 0
  "$CLI" states --json "$DIR/hogs-$b.seismo" > "$DIR/hogs-$b.json"
  check "$b: two hogs on one CPU: each runnable while the other runs" python3 - "$DIR/hogs-$b.json" <<'PY'
import json, sys
hogs = [t for t in json.load(open(sys.argv[1]))["tasks"] if t["comm"] == "hog"]
assert len(hogs) == 2, hogs
# Each spun 200 ms of CPU time; while it wanted the CPU it had it about half the time (more
# runnable when other work shares the CPU, as on a busy test machine).
wanting = [h["running_ns"] + h["runnable_ns"] for h in hogs]
for h, w in zip(hogs, wanting):
    assert h["running_ns"] >= 150e6, h
    assert h["runnable_ns"] >= 0.4 * w, (h, w)
# One CPU: together they ran no longer than the time either wanted it.
assert sum(h["running_ns"] for h in hogs) <= max(wanting) * 1.01, hogs
PY

  "$CLI" record -b $b "${events[@]}" -o "$DIR/fsync-$b.seismo" -- "$WORKLOAD" fsync "$SYNC_DIR" 20 2>/dev/null
  check "$b: records fsync" test $? -eq 0
  "$CLI" states --json "$DIR/fsync-$b.seismo" > "$DIR/fsync-$b.json"
  syncer=$(python3 -c 'import json,sys; print(next(t["tid"] for t in json.load(open(sys.argv[1]))["tasks"] if t["comm"] == "syncer"))' "$DIR/fsync-$b.json")
  "$CLI" critical-path --task "$syncer" --json "$DIR/fsync-$b.seismo" > "$DIR/fsync-path-$b.json"
  check "$b: the fsync writer waits in D, on its path too" python3 - "$DIR/fsync-$b.json" "$DIR/fsync-path-$b.json" <<'PY'
import json, sys
states = json.load(open(sys.argv[1])); path = json.load(open(sys.argv[2]))
syncer = next(t for t in states["tasks"] if t["comm"] == "syncer")
assert syncer["uninterruptible_ns"] >= 500e3, syncer
assert any(s["state"] in ("uninterruptible", "irq", "softirq") or s["tid"] != syncer["tid"]
           for s in path["segments"]), path
PY

  for w in pp mutex hogs fsync; do
    check "$b $w: every task's states add up to the interval (±1%)" python3 - "$DIR/$w-$b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
span = d["end_ns"] - d["start_ns"]
assert d["has_states"]
for t in d["tasks"]:
    total = sum(t[k] for k in ("running_ns", "runnable_ns", "sleeping_ns", "uninterruptible_ns",
                               "unknown_ns", "stopped_ns", "dead_ns"))
    assert abs(total - span) <= 0.01 * span, (t, total, span)
PY
  done
done
tap_end
