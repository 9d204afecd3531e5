#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Overhead of the eBPF backend on a syscall-heavy loop (N write(2) of one byte to /dev/null),
# side by side in one run, median of REPEATS interleaved rounds:
#   bare       the loop alone
#   record     seismo-cli record -b ebpf: every syscall of the target as a full record
#   bpftrace   the loop while bpftrace counts raw_syscalls:sys_enter per comm
#   aggregate  seismo-cli record -b ebpf --aggregate: in-kernel histograms only
# and with MODES="bare stacks bpftrace-ustack…" (bench/stacks-overhead.sh):
#   stacks           seismo-cli record -b ebpf --stacks user: a user stack with every syscall
#   bpftrace-ustack  the loop while bpftrace counts raw_syscalls:sys_enter per user stack
#                    (issue #17's target: stacks no worse than this)
# The loop measures itself (around the loop only, so recorder start-up and the writing of the
# trace file are not part of it): its wall time, and the process's CPU time, where the kernel
# side of a tracer (the BPF programs run in the traced thread) is charged. On a shared, loaded
# machine the wall time mostly measures waiting for a CPU; the CPU time does not.
# tracer_cpu is what the tracer process itself used: for bpftrace during the loop, for
# seismo-cli its whole run (loading, draining the ring, writing the trace) minus the loop's.
#
# With BASE_CLI=/path/to/another/seismo-cli in the environment, a "record-base" row records with
# that one too, in the same interleaved rounds (A/B of a change on a shared machine).
#
# usage: bench/ebpf-overhead.sh [BUILD_DIR] [N] [REPEATS]     (as root)
set -euo pipefail

build=${1:-$(dirname "$0")/../build}
n=${2:-1000000}
repeats=${3:-5}
cli=$build/app/seismo-cli
target=$build/tests/ebpf/seismo-ebpf-target
bpftrace_prog='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
bpftrace_ustack_prog='tracepoint:raw_syscalls:sys_enter { @[ustack] = count(); }'

for f in "$cli" "$target" /usr/bin/time; do
  [[ -x $f ]] || { echo "missing $f (ninja -C $build; GNU time: apt-get install time)" >&2
                   exit 1; }
done

tmp=$(mktemp -d)
bpftrace_pid=
cleanup() {
  if [[ -n $bpftrace_pid ]]; then
    kill -TERM "$bpftrace_pid" 2>/dev/null || true
    wait "$bpftrace_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ticks=$(getconf CLK_TCK)
# utime + stime of a process, in ns.
proc_cpu_ns() { awk -v t="$ticks" '{ printf "%d\n", ($14 + $15) * 1e9 / t }' "/proc/$1/stat"; }

# Each run_MODE appends "wall_ns cpu_ns tracer_cpu_ns" to $tmp/MODE.
run_bare() {
  echo "$("$target" write-loop "$n") 0" >>"$tmp/bare"
}

# seismo-cli record ARGS…: the loop's figures, the recorder's CPU, and the event counts.
run_cli() {
  local mode=$1 loop line total this_cli=$cli
  shift
  [[ $mode == record-base ]] && this_cli=$BASE_CLI
  /usr/bin/time -f '%U %S' -o "$tmp/$mode.time" \
    "$this_cli" record -b ebpf "$@" -o "$tmp/$mode.seismo" -- "$target" write-loop "$n" \
    >"$tmp/$mode.loop" 2>"$tmp/$mode.err" || { cat "$tmp/$mode.err" >&2; exit 1; }
  loop=$(cat "$tmp/$mode.loop")
  # /usr/bin/time counts the reaped target too: take its loop out.
  total=$(awk '{ printf "%d\n", ($1 + $2) * 1e9 }' "$tmp/$mode.time")
  echo "$loop $((total - ${loop#* }))" >>"$tmp/$mode"
  # The CLI ends with "Recorded E events (L lost) in …".
  line=$(grep -o 'Recorded [0-9]* events ([0-9]* lost)' "$tmp/$mode.err") \
    || { cat "$tmp/$mode.err" >&2; exit 1; }
  tr -d '(' <<<"$line" | awk '{ print $2, $4 }' >>"$tmp/$mode.counts"
}

run_record() { run_cli record; }
run_record-base() { run_cli record-base; }
run_aggregate() { run_cli aggregate --aggregate; }
run_stacks() { run_cli stacks --stacks user; }

# SIGINT makes bpftrace print its map and exit; on a loaded machine a first one was seen to get
# lost, so repeat it for a while before giving up with SIGTERM.
stop_bpftrace() {
  for _ in $(seq 10); do
    kill -INT "$bpftrace_pid" 2>/dev/null || break
    for _ in $(seq 20); do
      kill -0 "$bpftrace_pid" 2>/dev/null || break 2
      sleep 0.1
    done
  done
  kill -TERM "$bpftrace_pid" 2>/dev/null || true
  wait "$bpftrace_pid" 2>/dev/null || true
}

run_bpftrace() {
  local before loop mode=${1:-bpftrace} prog=${2:-$bpftrace_prog}
  bpftrace -e "$prog" >"$tmp/bpftrace.out" 2>&1 &
  bpftrace_pid=$!
  for _ in $(seq 200); do
    grep -q 'Attaching' "$tmp/bpftrace.out" && break
    sleep 0.1
  done
  sleep 0.5   # "Attaching" comes just before the attach itself
  before=$(proc_cpu_ns "$bpftrace_pid")
  loop=$("$target" write-loop "$n")
  echo "$loop $(($(proc_cpu_ns "$bpftrace_pid") - before))" >>"$tmp/$mode"
  stop_bpftrace
  bpftrace_pid=
  # bpftrace prints its map on exit: the loop's writes must be in it. (Its user stacks of an
  # exited process are bare addresses, and the printing of a system-wide map may be cut by the
  # SIGTERM above: only an attached probe is checked.)
  grep -q "$([[ $mode == bpftrace ]] && echo seismo-ebpf-tar || echo Attaching)" "$tmp/bpftrace.out" \
    || { echo "bpftrace counted nothing:" >&2; cat "$tmp/bpftrace.out" >&2; exit 1; }
}
run_bpftrace-ustack() { run_bpftrace bpftrace-ustack "$bpftrace_ustack_prog"; }

modes=(bare record aggregate)
if command -v bpftrace >/dev/null; then
  modes=(bare record bpftrace aggregate)
else
  echo "bpftrace not found: no bpftrace column" >&2
fi
if [[ -n ${MODES:-} ]]; then
  read -ra modes <<<"$MODES"
fi
if [[ -n ${BASE_CLI:-} ]]; then
  [[ -x $BASE_CLI ]] || { echo "BASE_CLI=$BASE_CLI is not executable" >&2; exit 1; }
  modes=("${modes[0]}" record-base "${modes[@]:1}")
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= repeats; r++)); do
  for m in "${modes[@]}"; do
    run_"$m"
  done
  echo "round $r/$repeats done" >&2
done

# median FILE COLUMN
median() {
  awk -v c="$2" '{ print $c }' "$1" | sort -n \
    | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

bare_wall=$(median "$tmp/bare" 1)
bare_cpu=$(median "$tmp/bare" 2)
printf '%d write(2) to /dev/null, median of %d rounds (kernel %s, %d CPUs, load %s -> %s)\n' \
  "$n" "$repeats" "$(uname -r)" "$(nproc)" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %10s %9s %10s %9s %8s %12s\n' \
  mode wall_ms x_bare cpu_ms x_bare ns/call tracer_cpu_ms
for m in "${modes[@]}"; do
  awk -v m="$m" -v w="$(median "$tmp/$m" 1)" -v c="$(median "$tmp/$m" 2)" \
      -v t="$(median "$tmp/$m" 3)" -v bw="$bare_wall" -v bc="$bare_cpu" -v n="$n" \
    'BEGIN { printf "%-12s %10.1f %9.2f %10.1f %9.2f %8.1f %12.1f\n",
             m, w / 1e6, w / bw, c / 1e6, c / bc, (c - bc) / n, t / 1e6 }'
done
echo "(ns/call: extra CPU per write(2) over the bare loop)"
for m in record record-base stacks; do
  [[ -f $tmp/$m.counts ]] || continue
  awk -v r="$repeats" -v m="$m" '{ e += $1; l += $2 }
    END { printf "%s: %d events recorded, %d lost in %d runs (default ring size)\n", m, e, l, r }' \
    "$tmp/$m.counts"
done
echo "per run (wall_ms/cpu_ms):"
for m in "${modes[@]}"; do
  printf '  %-12s' "$m"; awk '{ printf " %s/%s", int($1 / 1e6), int($2 / 1e6) }' "$tmp/$m"; echo
done
