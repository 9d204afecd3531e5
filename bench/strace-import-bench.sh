#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# strace-import-bench.sh [BUILD_DIR] [COPIES] [RUNS] [SAMPLE]
#
# Import rate of strace logs: SAMPLE (default ../shared/samples/gcc-hello.strace, a real
# strace -f -ttt -T log) repeated COPIES times (default 400) one after the other, each copy's
# pids moved by 100000 and its times by the copy's length, so that it reads as one long log of
# many processes; then `seismo-cli info` of it RUNS times (median reported), and the same log
# without its times (-ttt and -T taken off: the untimed path). Prints lines/s and MB/s of CPU
# time (user + system).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
copies=${2:-400}
runs=${3:-5}
sample=${4:-$here/../../shared/samples/gcc-hello.strace}
cli=$build/app/seismo-cli
out=${TMPDIR:-/tmp}/seismo-strace-bench
[[ -x $cli ]] || { echo "build first: $cli is missing" >&2; exit 1; }
[[ -r $sample ]] || { echo "no sample log: $sample" >&2; exit 1; }
mkdir -p "$out"
timed=$out/big-$copies.strace
untimed=$out/big-$copies-untimed.strace

if [[ ! -s $timed ]]; then
  awk -v copies="$copies" '
    { line[NR] = $0 }
    END {
      split(line[1], f, " "); t0 = f[2]; split(line[NR], f, " "); span = f[2] - t0 + 0.001
      for (c = 0; c < copies; c++)
        for (i = 1; i <= NR; i++) {
          n = split(line[i], f, " ")
          rest = substr(line[i], length(f[1]) + length(f[2]) + 3)
          printf "%d %.6f %s\n", f[1] + c * 100000, f[2] + c * span, rest
        }
    }' "$sample" > "$timed"
  # The same calls without -ttt's times and -T's durations.
  sed -E 's/^([0-9]+) [0-9.]+ /\1 /; s/ <[0-9.]+>$//' "$timed" > "$untimed"
fi

measure() {
  local file=$1 lines bytes
  lines=$(wc -l < "$file")
  bytes=$(stat -c %s "$file")
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f "%U %S %e %M" "$cli" info "$file" 2>&1 > /dev/null | tail -1 |
      awk '{ printf "%.2f %s %s %s\n", $1 + $2, $3, $4, $1 }'
  done | sort -n | awk -v lines="$lines" -v bytes="$bytes" -v name="$(basename "$file")" '
    { c[NR] = $1; e[NR] = $2; m[NR] = $3 }
    END {
      # By CPU time (user + system): on a shared machine elapsed time mostly measures the wait.
      mid = int((NR + 1) / 2)
      printf "%-28s %9d lines %7.1f MB  median CPU %.2f s (elapsed %.2f s)  %.2f M lines/s  %.1f MB/s  peak %d MB\n",
             name, lines, bytes / 1e6, c[mid], e[mid], lines / c[mid] / 1e6, bytes / c[mid] / 1e6,
             m[mid] / 1024
    }'
}

measure "$timed"
measure "$untimed"
