#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds Seismo's libFuzzer targets (tests/fuzz, clang + ASan + UBSan) and runs each for a set time.
#
#   tools/fuzz.sh --seconds N [--jobs J] [TARGET...]     (default: every target, one at a time)
#   tools/fuzz.sh --list
#
# Targets: seismo-file seismo-records trace-dat ftrace-text strace filter lesson session compressed (see tests/fuzz/seismo-fuzz.c).
# Seeds: tests/fuzz/corpus/TARGET, tests/fuzz/regressions/TARGET and the samples in tests/data.
# The growing corpus is kept in BUILD/fuzz/corpus/TARGET between runs; anything found (crash-*,
# leak-*, timeout-*, oom-*) lands in BUILD/fuzz/findings/TARGET. Keep a fixed crasher as
# tests/fuzz/regressions/TARGET/NAME: the meson test fuzz-replay replays it in every build.
# Prints one line per target: executions, coverage, findings. Exits 1 when anything was found.
# The build folder is build-fuzz (FUZZ_BUILD=DIR to change). Runs under nice.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD

all_targets=(seismo-file seismo-records trace-dat ftrace-text strace filter lesson session compressed)
seconds=
jobs=1
targets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --list) printf '%s\n' "${all_targets[@]}"; exit 0 ;;
    -h|--help) sed -n '3,14p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [[ -z $seconds || ! $seconds =~ ^[0-9]+$ ]]; then
  echo "usage: tools/fuzz.sh --seconds N [--jobs J] [TARGET...]" >&2
  exit 2
fi
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if [[ ! " ${all_targets[*]} " =~ " $t " ]]; then
    echo "fuzz.sh: no target called $t (try --list)" >&2
    exit 2
  fi
done

build=${FUZZ_BUILD:-build-fuzz}
if ! command -v clang >/dev/null; then
  echo "fuzz.sh: clang is needed (tools/deps.sh installs it)" >&2
  exit 1
fi
# The eBPF backend is left out: no parser there, and it is not what is fuzzed.
if [[ ! -f $build/build.ninja ]]; then
  CC=clang nice -n 10 meson setup "$build" -Dfuzzing=true -Db_sanitize=address,undefined \
    -Db_lundef=false -Dgui=disabled -Debpf=disabled >/dev/null
fi
# FUZZ_NO_BUILD=1 runs the programs already built (while the tree does not configure, say).
if [[ ${FUZZ_NO_BUILD:-0} != 1 ]]; then
  nice -n 10 ninja -C "$build" -j2 $(printf "tests/fuzz/seismo-fuzz-%s " "${targets[@]}") >/dev/null
fi

# Samples from tests/data, per target. The text samples (200-300 KiB each) are represented by
# their first lines in tests/fuzz/corpus: whole, they slow the fuzzer down to a few inputs a second.
seeds_from_data() {
  local t=$1 dir=$2 f
  mkdir -p "$dir"
  case $t in
    trace-dat) for f in tests/data/*.dat; do cp "$f" "$dir/"; done ;;
  esac
}

# Longest input: a trace.dat needs its whole 141 KiB sample; the other formats show their
# structure within a few KiB.
max_len() {
  case $1 in
    trace-dat) echo 160000 ;;
    seismo-file|seismo-records) echo 65536 ;;
    *) echo 8192 ;;
  esac
}

run_target() {
  local t=$1 out=$build/fuzz
  local corpus=$out/corpus/$t findings=$out/findings/$t seeds=$out/seeds/$t log=$out/logs/$t.log
  local dirs=()
  mkdir -p "$corpus" "$findings" "$out/logs"
  seeds_from_data "$t" "$seeds"
  for d in "$src/tests/fuzz/corpus/$t" "$src/tests/fuzz/regressions/$t" "$seeds"; do
    [[ -d $d ]] && dirs+=("$d")
  done
  # libFuzzer stops at its first finding: start it again with the time left, so the time asked for
  # is all spent fuzzing (libFuzzer's -fork mode would too, but restarts a process every few
  # seconds, which costs most of the time on a busy machine). A slow input (60 s) or 2 GiB of
  # memory is a finding too.
  local deadline=$(( $(date +%s) + seconds )) left started
  : >"$log"
  while left=$(( deadline - $(date +%s) )); ((left > 0)); do
    started=$(date +%s)
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    LSAN_OPTIONS=suppressions=$src/tests/sanitizers/lsan.supp:print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    nice -n 10 "$build/tests/fuzz/seismo-fuzz-$t" -max_total_time="$left" -max_len="$(max_len "$t")" \
      -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
      "$corpus" "${dirs[@]}" >>"$log" 2>&1 && break
    # A finding right at the start would only be found again.
    (( $(date +%s) - started > 5 )) || break
  done
}

for t in "${targets[@]}"; do
  run_target "$t" &
  while [[ $(jobs -r | wc -l) -ge $jobs ]]; do
    wait -n || true
  done
done
wait

found=0
for t in "${targets[@]}"; do
  log=$build/fuzz/logs/$t.log
  # Each libFuzzer run ends with its stats (also after a finding); the runs add up.
  execs=$(awk '/^stat::number_of_executed_units:/ {n += $2} END {print n + 0}' "$log")
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  n=$(find "$build/fuzz/findings/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
        -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  found=$((found + n))
  printf '%-15s %10s execs in %ss, coverage %s, corpus %s inputs, findings %s%s\n' "$t" \
    "${execs:-?}" "$seconds" "${cov:-?}" "$(ls "$build/fuzz/corpus/$t" | wc -l)" "$n" \
    "$( ((n)) && printf ' (%s)' "$build/fuzz/findings/$t" || true)"
done
[[ $found -eq 0 ]]
