#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ftrace-overhead.sh [BUILD_DIR] [SYSCALLS] [RUNS]
#
# What recording costs a syscall-heavy process: a loop of SYSCALLS write/getpid calls (default
# 1000000), timed by the process itself (elapsed time, and the CPU time it spent: tracing's cost is
# charged to the traced task's CPU time, while on a machine shared with other work its elapsed time
# mostly measures the wait for a CPU), run
#   bare       no tracing
#   by-hand    sched:* + raw_syscalls:* enabled in a tracefs instance by hand, filtered on the
#              process, nobody reading: the kernel's own cost for those events
#   seismo     seismo-cli record -b ftrace -e sched:* -e raw_syscalls:* -- the same loop
# RUNS times each (default 5), interleaved, medians reported. Seismo must lose no event at its
# default buffer size and stay within 1.2x of by-hand. Needs root and tracefs.
# Output: a table, then one "RESULT …" line for scripts.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${2:-1000000}
runs=${3:-5}
cli=$build/app/seismo-cli
workload=$build/tests/ftrace/seismo-ftrace-workload
tmp=$(mktemp -d)
T=/sys/kernel/tracing
I=$T/instances/seismobench-$$
cleanup() {
  rm -rf "$tmp"
  if [[ -d $I ]]; then echo 0 > "$I/tracing_on"; echo > "$I/set_event"; rmdir "$I"; fi
}
trap cleanup EXIT
[[ -x $cli && -x $workload ]] || { echo "build first: $cli and $workload are missing" >&2; exit 1; }
args=(--writes $(( n / 2 )) --getpids $(( n / 2 )) --time)

[[ -d $T/instances ]] || mount -t tracefs nodev $T

bare() {
  "$workload" "${args[@]}" 2>&1 >/dev/null | tail -1
}

by_hand() {
  local ns
  mkdir "$I"
  echo 0 > "$I/tracing_on"
  # The size seismo uses by default (DEFAULT_BUFFER_KB in backends/ftrace), the clock too.
  echo 8192 > "$I/buffer_size_kb"
  echo mono > "$I/trace_clock"
  echo 1 > "$I/events/sched/enable"
  echo 1 > "$I/events/raw_syscalls/enable"
  echo 1 > "$I/options/event-fork"
  ns=$( (
    echo $BASHPID > "$I/set_event_pid"
    echo 1 > "$I/tracing_on"
    exec "$workload" "${args[@]}"
  ) 2>&1 >/dev/null | tail -1)
  echo 0 > "$I/tracing_on"
  echo > "$I/set_event"
  rmdir "$I"
  echo "$ns"
}

seismo() {
  local out
  out=$("$cli" record -b ftrace -e 'sched:*' -e 'raw_syscalls:*' -o "$tmp/rec.seismo" -- \
        "$workload" "${args[@]}" 2>&1 >/dev/null)
  # The loop's times ("WALL CPU"), then "Recorded N events (L lost) …".
  echo "$(echo "$out" | grep -E '^[0-9]+ [0-9]+$' | tail -1) \
$(echo "$out" | sed -n 's/^Recorded \([0-9]*\) events (\([0-9]*\) lost).*/\1 \2/p')"
}

median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }

declare -a BW BC HW HC SW SC E L
for ((i = 0; i < runs; i++)); do
  read -r w c <<< "$(bare)"; BW+=("$w"); BC+=("$c")
  read -r w c <<< "$(by_hand)"; HW+=("$w"); HC+=("$c")
  read -r w c e l <<< "$(seismo)"; SW+=("$w"); SC+=("$c"); E+=("$e"); L+=("$l")
done

med() { printf '%s\n' "$@" | median; }
bw=$(med "${BW[@]}"); bc=$(med "${BC[@]}")
hw=$(med "${HW[@]}"); hc=$(med "${HC[@]}")
sw=$(med "${SW[@]}"); sc=$(med "${SC[@]}")
lost=$(printf '%s\n' "${L[@]}" | sort -n | tail -1)
events=$(med "${E[@]}")
ms() { echo "$1 / 1000000" | bc -l; }
ratio() { echo "$1 / $2" | bc -l; }
printf '%d syscalls, %d runs each, interleaved (medians)\n' "$n" "$runs"
printf '             %10s %10s %10s   %10s %10s %10s\n' 'elapsed' 'x bare' 'x by-hand' 'CPU' \
  'x bare' 'x by-hand'
printf '  bare       %8.1f ms %10.2f %10s   %7.1f ms %10.2f %10s\n' "$(ms "$bw")" 1 '' "$(ms "$bc")" 1 ''
printf '  by-hand    %8.1f ms %10.2f %10.2f   %7.1f ms %10.2f %10.2f\n' "$(ms "$hw")" \
  "$(ratio "$hw" "$bw")" 1 "$(ms "$hc")" "$(ratio "$hc" "$bc")" 1
printf '  seismo     %8.1f ms %10.2f %10.3f   %7.1f ms %10.2f %10.3f\n' "$(ms "$sw")" \
  "$(ratio "$sw" "$bw")" "$(ratio "$sw" "$hw")" "$(ms "$sc")" "$(ratio "$sc" "$bc")" \
  "$(ratio "$sc" "$hc")"
printf '  seismo recorded %s events (median), most lost in one run: %s\n' "$events" "$lost"
printf 'RESULT elapsed_vs_by_hand=%.3f cpu_vs_by_hand=%.3f lost=%s\n' "$(ratio "$sw" "$hw")" \
  "$(ratio "$sc" "$hc")" "$lost"
