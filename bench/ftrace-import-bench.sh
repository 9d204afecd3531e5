#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ftrace-import-bench.sh [BUILD_DIR] [EVENTS] [RUNS]
#
# Opening trace.dat files, Seismo against trace-cmd on the same files. Records a real capture of
# about EVENTS events (default 1000000: raw_syscalls + sched of a getpid/write loop) in a private
# tracefs instance, writes it with `trace-cmd extract` (version 7, zstd) and converts it to
# version 6 (uncompressed), then times, side by side and RUNS times each (median reported):
#   seismo-cli info FILE            vs   trace-cmd report FILE > /dev/null
# and prints Seismo's peak memory per event. Needs root, tracefs and trace-cmd.
# Set SEISMO_BENCH_KEEP=1 to keep the files (in $TMPDIR/seismo-ftrace-bench).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
events=${2:-1000000}
runs=${3:-3}
cli=$build/app/seismo-cli
workload=$build/tests/ftrace/seismo-ftrace-workload
out=${TMPDIR:-/tmp}/seismo-ftrace-bench
[[ -x $cli && -x $workload ]] || { echo "build first: $cli and $workload are missing" >&2; exit 1; }
command -v trace-cmd > /dev/null || { echo "trace-cmd is not installed" >&2; exit 1; }
mkdir -p "$out"
v7=$out/bench-$events-v7.dat
v6=$out/bench-$events-v6.dat

record() {
  local T=/sys/kernel/tracing name=seismobench-$$ I kb
  [[ -d $T/instances ]] || mount -t tracefs nodev $T
  I=$T/instances/$name
  # ~50 bytes a record on the busy CPU, with room to spare: nothing may be overwritten.
  kb=$(( events * 80 / 1024 + 4096 ))
  mkdir "$I"
  trap "[[ -d $I ]] && { echo 0 > $I/tracing_on; echo > $I/set_event; rmdir $I; }; true" EXIT
  echo 0 > "$I/tracing_on"
  echo "$kb" > "$I/buffer_size_kb"
  echo 1 > "$I/events/raw_syscalls/enable"
  echo 1 > "$I/events/sched/enable"
  echo 1 > "$I/options/event-fork"
  # Only the workload (the machine may be busy with other work). Each loop iteration is one
  # syscall: two records, enter and exit.
  (
    echo $BASHPID > "$I/set_event_pid"
    echo 1 > "$I/tracing_on"
    exec "$workload" --writes $(( events / 4 )) --getpids $(( events / 4 )) --exec
  )
  echo 0 > "$I/tracing_on"
  trace-cmd extract -B "$name" -o "$v7" > /dev/null 2>&1
  trace-cmd convert --file-version 6 --compression none -i "$v7" -o "$v6" > /dev/null 2>&1
  # trace-cmd extract removes the instance itself; in case it did not:
  if [[ -d $I ]]; then echo > "$I/set_event"; rmdir "$I"; fi
  trap - EXIT
}

[[ -s $v7 && -s $v6 ]] || record

# Median of RUNS timings of a command, in seconds; peak RSS (KiB) of the last run on fd 3.
time_cmd() {
  local times=() rss=0 i
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -o "$out/time" -f '%e %M' "$@" > /dev/null 2>&1 || true
    read -r t rss < "$out/time"
    times+=("$t")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
  echo "$rss" >&3
}

n=$("$cli" info "$v7" | awk '/^Events:/ { print $2 }')
printf 'trace.dat with %s events (%s)\n' "$n" "$out"
printf '%-32s %12s %14s %9s %12s\n' file seismo-cli trace-cmd ratio 'B/event'
for f in "$v7" "$v6"; do
  s=$(time_cmd "$cli" info "$f" 3> "$out/rss")
  rss=$(cat "$out/rss")
  r=$(time_cmd trace-cmd report "$f" 3> /dev/null)
  printf '%-32s %11ss %13ss %8.3f %12.1f\n' "$(basename "$f")" "$s" "$r" \
    "$(echo "$s / $r" | bc -l)" "$(echo "$rss * 1024 / $n" | bc -l)"
done
[[ ${SEISMO_BENCH_KEEP:-0} == 1 ]] || rm -f "$v7" "$v6" "$out/rss" "$out/time"
