#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ftrace-overhead.sh [BUILD_DIR] [SYSCALLS] [RUNS]
#
# What recording costs a syscall-heavy process: a loop of SYSCALLS write/getpid calls (default
# 1000000), timed by the process itself, run
#   bare       no tracing
#   by-hand    sched:* + raw_syscalls:* enabled in a tracefs instance by hand, filtered on the
#              process, nobody reading: the kernel's own cost for those events
#   seismo     seismo-cli record -b ftrace -e sched:* -e raw_syscalls:* -- the same loop
# RUNS times each (default 5), interleaved, medians reported. Seismo must lose no event at its
# default buffer size and stay within 1.2x of by-hand. Needs root and tracefs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${2:-1000000}
runs=${3:-5}
cli=$build/app/seismo-cli
workload=$build/tests/ftrace/seismo-ftrace-workload
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -x $cli && -x $workload ]] || { echo "build first: $cli and $workload are missing" >&2; exit 1; }
args=(--writes $(( n / 2 )) --getpids $(( n / 2 )) --time)

T=/sys/kernel/tracing
[[ -d $T/instances ]] || mount -t tracefs nodev $T

bare() {
  "$workload" "${args[@]}" 2>&1 >/dev/null | tail -1
}

by_hand() {
  local I=$T/instances/seismobench-$$ ns
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
  # The loop's time, then "Recorded N events (L lost) …".
  echo "$(echo "$out" | grep -E '^[0-9]+$' | tail -1) \
$(echo "$out" | sed -n 's/^Recorded \([0-9]*\) events (\([0-9]*\) lost).*/\1 \2/p')"
}

median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }

declare -a B H S E L
for ((i = 0; i < runs; i++)); do
  B+=("$(bare)")
  H+=("$(by_hand)")
  read -r s e l <<< "$(seismo)"
  S+=("$s"); E+=("$e"); L+=("$l")
done

b=$(printf '%s\n' "${B[@]}" | median)
h=$(printf '%s\n' "${H[@]}" | median)
s=$(printf '%s\n' "${S[@]}" | median)
lost=$(printf '%s\n' "${L[@]}" | sort -n | tail -1)
events=$(printf '%s\n' "${E[@]}" | median)
printf '%d syscalls, %d runs each (median loop time)\n' "$n" "$runs"
printf '  bare      %8.1f ms\n' "$(echo "$b / 1000000" | bc -l)"
printf '  by-hand   %8.1f ms   %.2fx bare\n' "$(echo "$h / 1000000" | bc -l)" "$(echo "$h / $b" | bc -l)"
printf '  seismo    %8.1f ms   %.2fx bare, %.3fx by-hand\n' "$(echo "$s / 1000000" | bc -l)" \
  "$(echo "$s / $b" | bc -l)" "$(echo "$s / $h" | bc -l)"
printf '  seismo recorded %s events (median), most lost in one run: %s\n' "$events" "$lost"
