#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Overhead of the eBPF backend on a syscall-heavy loop (N write(2) of one byte to /dev/null),
# side by side in one run, median of REPEATS interleaved rounds:
#   bare       the loop alone
#   record     seismo-cli record -b ebpf: every syscall of the target as a full record
#   bpftrace   the loop while bpftrace counts raw_syscalls:sys_enter per comm
#   aggregate  seismo-cli record -b ebpf --aggregate: in-kernel histograms only
# The loop times itself (CLOCK_MONOTONIC around the loop), so recorder start-up and the writing
# of the trace file are not part of the figures.
#
# usage: bench/ebpf-overhead.sh [BUILD_DIR] [N] [REPEATS]     (as root)
set -euo pipefail

build=${1:-$(dirname "$0")/../build}
n=${2:-1000000}
repeats=${3:-5}
cli=$build/app/seismo-cli
target=$build/tests/ebpf/seismo-ebpf-target

for f in "$cli" "$target"; do
  [[ -x $f ]] || { echo "missing $f: build first (ninja -C $build)" >&2; exit 1; }
done

tmp=$(mktemp -d)
bpftrace_pid=
cleanup() {
  if [[ -n $bpftrace_pid ]]; then
    kill -INT "$bpftrace_pid" 2>/dev/null || true
    wait "$bpftrace_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Each run_* appends the loop's time in ns to $tmp/MODE.
run_bare() {
  "$target" write-loop "$n" >>"$tmp/bare"
}

run_record() {
  local line
  "$cli" record -b ebpf -o "$tmp/record.seismo" -- "$target" write-loop "$n" \
    >>"$tmp/record" 2>"$tmp/record.err" || { cat "$tmp/record.err" >&2; exit 1; }
  # The CLI ends with "Recorded E events (L lost) in …".
  line=$(grep -o 'Recorded [0-9]* events ([0-9]* lost)' "$tmp/record.err") \
    || { cat "$tmp/record.err" >&2; exit 1; }
  tr -d '(' <<<"$line" | awk '{ print $2, $4 }' >>"$tmp/record.counts"
}

run_aggregate() {
  "$cli" record -b ebpf --aggregate -o "$tmp/aggregate.seismo" -- "$target" write-loop "$n" \
    >>"$tmp/aggregate" 2>"$tmp/aggregate.err" || { cat "$tmp/aggregate.err" >&2; exit 1; }
}

run_bpftrace() {
  bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }' \
    >"$tmp/bpftrace.out" 2>&1 &
  bpftrace_pid=$!
  for _ in $(seq 100); do
    grep -q 'Attaching' "$tmp/bpftrace.out" && break
    sleep 0.1
  done
  sleep 0.5   # "Attaching" comes just before the attach itself
  "$target" write-loop "$n" >>"$tmp/bpftrace"
  kill -INT "$bpftrace_pid"
  wait "$bpftrace_pid" 2>/dev/null || true
  bpftrace_pid=
}

modes=(bare record aggregate)
command -v bpftrace >/dev/null && modes=(bare record bpftrace aggregate)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= repeats; r++)); do
  for m in "${modes[@]}"; do
    run_"$m"
  done
  echo "round $r/$repeats done" >&2
done

median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

bare=$(median "$tmp/bare")
printf '%d write(2) to /dev/null, median of %d rounds (kernel %s, %d CPUs, load %s -> %s)\n' \
  "$n" "$repeats" "$(uname -r)" "$(nproc)" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %12s %10s %9s\n' mode loop_ms ns/call x_bare
for m in "${modes[@]}"; do
  awk -v m="$m" -v t="$(median "$tmp/$m")" -v b="$bare" -v n="$n" \
    'BEGIN { printf "%-10s %12.1f %10.1f %9.2f\n", m, t / 1e6, t / n, t / b }'
done
awk -v r="$repeats" '{ e += $1; l += $2 }
  END { printf "record: %d events recorded, %d lost in %d runs (default ring size)\n", e, l, r }' \
  "$tmp/record.counts"
