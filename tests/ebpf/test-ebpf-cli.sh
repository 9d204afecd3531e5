#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli record -b ebpf end to end: launched command and its exit status, --probe, --aggregate,
# stats of the aggregates, --list-backends without privileges or without kernel BTF, a bad probe,
# SIGINT/SIGTERM on a recording releasing every program it loaded, and SIGKILL leaving the trace
# streamed so far in OUTPUT.partial.
# TAP output. usage: test-ebpf-cli.sh SEISMO_CLI SEISMO_EBPF_TARGET
set -u
CLI=$1
TARGET=$2
. "$(dirname "$0")/../lib/tap.sh"

why=$("$CLI" record --list-backends 2>&1 | grep '^ebpf ')
grep -q '^ebpf *available' <<<"$why" || skip_all "${why:-no ebpf backend listed}"
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)

json() { python3 -c "import json, sys; d = json.load(open('$1')); print($2)"; }
opens() { "$CLI" info "$1" >/dev/null 2>&1; }

"$CLI" record -b ebpf -o "$DIR/s.seismo" -- "$TARGET" syscalls 50 2>"$DIR/err"
check "records a launched command (exit 0)" test $? -eq 0
"$CLI" info --json "$DIR/s.seismo" >"$DIR/s.json"
check "the trace says source ebpf" test "$(json "$DIR/s.json" 'd["source"]')" = ebpf
check "no event lost" test "$(json "$DIR/s.json" 'd["lost_events"]')" = 0
check "syscalls were recorded" test "$(json "$DIR/s.json" 'd["event_types"]["raw_syscalls:sys_enter"]')" -gt 100

"$CLI" record -b ebpf -o "$DIR/e.seismo" -- sh -c 'exit 3' 2>/dev/null
check "the command's exit status is passed on" test $? -eq 3

"$CLI" record -b ebpf -o "$DIR/u.seismo" --probe "usdt:$TARGET:seismo_test:tick" \
  -- "$TARGET" usdt 7 2>/dev/null
check "--probe usdt exits 0" test $? -eq 0
"$CLI" info --json "$DIR/u.seismo" >"$DIR/u.json"
check "--probe usdt: 7 hits" test "$(json "$DIR/u.json" 'd["event_types"]["usdt:seismo_test:tick"]')" = 7

"$CLI" record -b ebpf --aggregate -o "$DIR/a.seismo" -- "$TARGET" syscalls 50 2>/dev/null
check "--aggregate exits 0" test $? -eq 0
"$CLI" info --json "$DIR/a.seismo" >"$DIR/a.json"
check "--aggregate records no events" test "$(json "$DIR/a.json" 'd["events"]')" = 0
"$CLI" stats --json "$DIR/a.seismo" >"$DIR/a-stats.json"
# hist NAME KEY EXPR: EXPR of the histogram h named NAME[KEY] in stats --json.
hist() {
  json "$DIR/a-stats.json" \
    "sum($3 for h in d['histograms'] if h['name'] == '$1' and h['key'] == '$2')"
}
check "stats --json: syscall_count[getppid] is 50" \
  test "$(hist syscall_count getppid "h['count']")" = 50
check "stats --json: syscall_latency[getppid] buckets add up to 50" \
  test "$(hist syscall_latency getppid "sum(b['count'] for b in h['buckets'])")" = 50
check "stats --json: syscall_count[write] is 50" \
  test "$(hist syscall_count write "h['count']")" = 50
"$CLI" stats "$DIR/a.seismo" >"$DIR/a-stats.txt"
check "stats shows the latency histogram" \
  grep -q '^@syscall_latency\[getppid\]: 50 samples' "$DIR/a-stats.txt"
check "stats shows the per-command count" \
  grep -q '^@task_syscalls\[comm=seismo-ebpf-tar\]: ' "$DIR/a-stats.txt"

# Without root and capabilities, --list-backends must say what is missing in words.
if command -v setpriv >/dev/null; then
  why=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$CLI" record --list-backends 2>&1 \
        | grep '^ebpf ')
  check "as nobody: ebpf unavailable, naming CAP_BPF and CAP_PERFMON ($why)" \
    grep -q 'unavailable.*CAP_BPF.*CAP_PERFMON' <<<"$why"
fi

# Without kernel BTF (simulated: the backend looks for it where there is none), in words.
nobtf=/nonexistent/seismo-test/vmlinux
why=$(SEISMO_EBPF_KERNEL_BTF=$nobtf "$CLI" record --list-backends 2>&1 | grep '^ebpf ')
check "no BTF: ebpf unavailable, naming the missing file and CONFIG_DEBUG_INFO_BTF ($why)" \
  grep -q "unavailable.*no BTF type information ($nobtf is missing; .*CONFIG_DEBUG_INFO_BTF=y)" \
  <<<"$why"
err=$(SEISMO_EBPF_KERNEL_BTF=$nobtf "$CLI" record -b ebpf -o "$DIR/nobtf.seismo" \
  -- "$TARGET" writes 1 2>&1 >/dev/null)
rc=$?
check "no BTF: record -b ebpf fails with 1" test $rc -eq 1
check "no BTF: record says why ($err)" \
  grep -q "no BTF type information ($nobtf is missing" <<<"$err"
check "no BTF: no trace written" test ! -e "$DIR/nobtf.seismo" -a ! -e "$DIR/nobtf.seismo.partial"

err=$("$CLI" record -b ebpf -o "$DIR/b.seismo" --probe "uprobe:$TARGET:no_such_symbol" \
  -- "$TARGET" uprobe 1 2>&1 >/dev/null)
rc=$?
check "a bad probe fails with 1" test $rc -eq 1
check "the error names the probe" grep -q "uprobe:$TARGET:no_such_symbol" <<<"$err"

# The program ids a running recorder holds, from its fds.
prog_ids() {
  local pid=$1 fd
  for fd in /proc/"$pid"/fd/*; do
    [[ $(readlink "$fd" 2>/dev/null) == anon_inode:bpf-prog ]] || continue
    awk '/^prog_id:/ { print $2 }' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null
  done | sort -u
}

# The program ids still loaded, waiting up to 10 s: the kernel frees a program whose last fd
# was closed after an RCU grace period, which takes a while on a loaded machine.
still_loaded() {
  local left= id
  for _ in $(seq 100); do
    left=
    for id in "$@"; do
      "$BPFTOOL" prog show id "$id" >/dev/null 2>&1 && left="$left $id"
    done
    [[ -z $left ]] && break
    sleep 0.1
  done
  echo "$left"
}

for sig in INT TERM; do
  rm -f "$DIR/sig.seismo"
  # A running process (-p) rather than the whole system: on a busy machine every process's
  # syscalls would make the trace large and its writing slow, which is not what this checks
  # (test-ebpf's /ebpf/stop stops a system-wide recording).
  "$TARGET" sleep 120000 &
  sleeper=$!
  "$CLI" record -b ebpf -p "$sleeper" -o "$DIR/sig.seismo" 2>/dev/null &
  pid=$!
  ids=
  for _ in $(seq 100); do
    ids=$(prog_ids "$pid")
    [[ $(wc -w <<<"$ids") -ge 5 ]] && break
    sleep 0.1
  done
  check "SIG$sig: the recorder loaded its programs" test -n "$ids"
  sleep 0.3
  kill -"$sig" "$pid"
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    not_ok "SIG$sig: the recorder stops within 30 s"
    kill -KILL "$pid"
  else
    ok "SIG$sig: the recorder stops within 30 s"
  fi
  wait "$pid"
  rc=$?
  kill "$sleeper"
  wait "$sleeper" 2>/dev/null
  check "SIG$sig: the recorder exits normally (rc $rc)" test $rc -lt 128
  check "SIG$sig: the trace was written" opens "$DIR/sig.seismo"
  left=$(still_loaded $ids)
  check "SIG$sig: none of its programs is still loaded (bpftool prog show id)${left:+:$left}" \
    test -z "$left"
done

# SIGKILL: no chance to finish, but the trace was streamed to OUTPUT.partial while recording (whole
# chunks of 65536 events), which must open with those events; the kernel drops the programs with
# the process. A busy writer (-p, so that it outlives the recorder and is ended here).
"$TARGET" writes 1000000000 &
writer=$!
"$CLI" record -b ebpf -p "$writer" -o "$DIR/kill.seismo" 2>/dev/null &
pid=$!
partial_events() {
  "$CLI" info --json "$DIR/kill.seismo.partial" 2>/dev/null \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["events"])' 2>/dev/null
}
# Until the first chunk is on disk: the file header and tables alone take about 1 KiB.
ids=
for _ in $(seq 300); do
  [[ -z $ids ]] && ids=$(prog_ids "$pid")
  [[ -n $ids && $(stat -c %s "$DIR/kill.seismo.partial" 2>/dev/null || echo 0) -gt 16384 ]] && break
  sleep 0.2
done
check "SIGKILL: the recorder loaded its programs" test -n "$ids"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
rc=$?
kill "$writer"
wait "$writer" 2>/dev/null
check "SIGKILL: the recorder was killed (rc $rc)" test $rc -eq 137
check "SIGKILL: no finished trace" test ! -e "$DIR/kill.seismo"
events=$(partial_events)
check "SIGKILL: the partial file opens with what was streamed (${events:-no} events)" \
  test "${events:-0}" -ge 65536
left=$(still_loaded $ids)
check "SIGKILL: none of its programs is still loaded${left:+:$left}" test -z "$left"

tap_end
