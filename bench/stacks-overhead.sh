#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What --stacks costs (issue #17), side by side in one run:
#  1. eBPF: a loop of N write(2) to /dev/null, bare, recorded without and with --stacks user, and
#     under bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[ustack] = count(); }'
#     (bench/ebpf-overhead.sh with those modes; target: stacks no worse than bpftrace-ustack).
#  2. ptrace: seismo-ptrace-child writing M times, bare, under strace -f -k -o /dev/null, and
#     recorded by seismo-cli record -b ptrace without and with --stacks (target: --stacks' overhead
#     at most half of strace -k's). Median of ROUNDS interleaved rounds; wall and CPU time (user +
#     system of the whole process tree, which varies less with other load on the machine).
#  3. Naming 1M user stacks of a real program's code (bench/seismo-symbolize-bench; target <= 2 s).
#
# usage: bench/stacks-overhead.sh [BUILD_DIR] [N=1000000] [M=100000] [ROUNDS=3]     (as root)
set -euo pipefail

build=${1:-$(dirname "$0")/../build}
n=${2:-1000000}
m=${3:-100000}
rounds=${4:-3}
cli=$build/app/seismo-cli
child=$build/tests/ptrace/seismo-ptrace-child
for f in "$cli" "$child" "$build/bench/seismo-symbolize-bench" /usr/bin/time; do
  [[ -x $f ]] || { echo "missing $f (ninja -C $build; GNU time: apt-get install time)" >&2; exit 1; }
done
command -v strace >/dev/null || { echo "strace is not installed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

echo "== 1. eBPF --stacks user vs bpftrace @[ustack] ($n write(2), $rounds rounds)"
MODES="bare record stacks bpftrace-ustack" "$(dirname "$0")/ebpf-overhead.sh" "$build" "$n" "$rounds"

echo
echo "== 2. ptrace --stacks vs strace -f -k ($m write(2), $rounds rounds)"
variants="bare strace-k seismo seismo-stacks"
run() {
  case $1 in
    bare) "$child" writes "$m" ;;
    strace-k) strace -f -k -o /dev/null "$child" writes "$m" ;;
    seismo) "$cli" record -b ptrace -o "$tmp/p.seismo" -- "$child" writes "$m" 2>/dev/null ;;
    seismo-stacks) "$cli" record -b ptrace --stacks -o "$tmp/s.seismo" -- "$child" writes "$m" 2>/dev/null ;;
  esac
}
for ((r = 1; r <= rounds; r++)); do
  for v in $variants; do
    start=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$tmp/cpu" bash -c "$(declare -f run); child='$child' cli='$cli' tmp='$tmp' m=$m run $v" >/dev/null
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) $(awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmp/cpu")" >>"$tmp/$v"
  done
  echo "round $r/$rounds done" >&2
done
median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bw=$(median "$tmp/bare" 1); bc=$(median "$tmp/bare" 2)
printf '%-14s %9s %9s %9s %9s\n' variant wall_ms overhead cpu_ms overhead
for v in $variants; do
  w=$(median "$tmp/$v" 1); c=$(median "$tmp/$v" 2)
  printf '%-14s %9d %9d %9d %9d\n' "$v" "$w" "$((w - bw))" "$c" "$((c - bc))"
done
sw=$(median "$tmp/strace-k" 1); pw=$(median "$tmp/seismo-stacks" 1)
sc=$(median "$tmp/strace-k" 2); pc=$(median "$tmp/seismo-stacks" 2)
awk -v s="$((sw - bw))" -v p="$((pw - bw))" -v sc="$((sc - bc))" -v pc="$((pc - bc))" \
  'BEGIN { printf "seismo --stacks overhead / strace -k overhead: wall %.2f, cpu %.2f (target <= 0.5)\n",
           p / s, pc / sc }'

echo
echo "== 3. naming 1M user stacks"
"$build/bench/seismo-symbolize-bench" 1000000
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
