#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ftrace-import-bench.sh [BUILD_DIR] [EVENTS] [RUNS]
#
# Opening trace.dat files, Seismo against trace-cmd on the same files. Records a real capture of
# about EVENTS events (default 1000000: raw_syscalls + sched of a getpid/write loop) in a private
# tracefs instance, writes it with `trace-cmd extract` (version 7, zstd) and converts it to
# version 6 (uncompressed), then times, side by side and RUNS times each (median reported):
#   seismo-cli info FILE            vs   trace-cmd report FILE > /dev/null
# (elapsed and CPU time: on a machine shared with other work, elapsed time mostly measures the wait
# for a CPU), prints Seismo's peak memory per event, then times searches and field filters over the
# v7 file's events (build/bench/ftrace-search-bench). Needs root, tracefs and trace-cmd.
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
  # It fails when /proc/kallsyms changes size while it is copied (a BPF program loaded or
  # unloaded meanwhile), after it has drained the buffers: then only a new recording helps.
  if ! trace-cmd extract -B "$name" -o "$v7" > "$out/extract.log" 2>&1; then
    rm -f "$v7"
    echo "trace-cmd extract failed (run again):" >&2
    tail -3 "$out/extract.log" >&2
    exit 1
  fi
  trace-cmd convert --file-version 6 --compression none -i "$v7" -o "$v6" > /dev/null 2>&1
  # trace-cmd extract removes the instance itself; in case it did not:
  if [[ -d $I ]]; then echo > "$I/set_event"; rmdir "$I"; fi
  trap - EXIT
}

[[ -s $v7 && -s $v6 ]] || record

# Median of RUNS timings of a command: "ELAPSED CPU" in seconds (CPU: user + system, all threads);
# peak RSS (KiB) of the last run on fd 3.
time_cmd() {
  local times=() cpus=() rss=0 i e u s
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -o "$out/time" -f '%e %U %S %M' "$@" > /dev/null 2>&1 || true
    read -r e u s rss < "$out/time"
    times+=("$e")
    cpus+=("$(echo "$u + $s" | bc -l)")
  done
  echo "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p") \
$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")"
  echo "$rss" >&3
}

n=$("$cli" info "$v7" | awk '/^Events:/ { print $2 }')
printf 'trace.dat with %s events (%s), %s runs each, medians\n' "$n" "$out" "$runs"
printf 'elapsed and CPU (user + system) time of seismo-cli info FILE vs trace-cmd report FILE\n'
printf '%-24s %10s %10s %10s %10s %8s %8s %9s\n' file seismo 'seis. CPU' trace-cmd \
  'tc CPU' ratio 'CPU rat.' 'B/event'
for f in "$v7" "$v6"; do
  read -r s sc <<< "$(time_cmd "$cli" info "$f" 3> "$out/rss")"
  rss=$(cat "$out/rss")
  read -r r rc <<< "$(time_cmd trace-cmd report "$f" 3> /dev/null)"
  printf '%-24s %9ss %9ss %9ss %9ss %8.3f %8.3f %9.1f\n' "$(basename "$f")" "$s" "$sc" "$r" "$rc" \
    "$(echo "$s / $r" | bc -l)" "$(echo "$sc / $rc" | bc -l)" "$(echo "$rss * 1024 / $n" | bc -l)"
done
search=$build/bench/ftrace-search-bench
if [[ -x $search ]]; then
  echo
  "$search" --runs "$runs" "$v7"
fi
[[ ${SEISMO_BENCH_KEEP:-0} == 1 ]] || rm -f "$v7" "$v6" "$out/rss" "$out/time"
