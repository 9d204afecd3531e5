#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Faults while recording (docs/reliability.md), TAP. Needs root and tracefs; each backend that cannot
# run here is skipped with its reason.
#
#   test-faults.sh SEISMO_CLI [kill|disk|program|all][:BACKEND] [SEED]
#
# For each backend (ftrace, ptrace, ebpf) and each of SIGINT, SIGTERM and SIGKILL, at a random
# moment of a recording: no tracefs instance of the killed recorder is left (after SIGKILL, the next
# run removes it), the top-level tracing state is as before, no BPF program of ours is left without
# an owner, no traced process is left stopped or traced, and the trace file is absent or loads
# (after SIGINT/SIGTERM it must exist; after SIGKILL the streamed OUTPUT.partial holds a readable
# prefix). Then: a full disk (a 2 MiB tmpfs) gives a clear error and leaves the previous file as it
# was; a traced program that crashes, execs a setuid binary or starts 2000 threads is recorded to
# the end.
set -uo pipefail
cli=${1:?usage: test-faults.sh SEISMO_CLI [kill|disk|program|all][:BACKEND] [SEED]}
mode=${2:-all}
only=
if [[ $mode == *:* ]]; then
  only=${mode#*:}
  mode=${mode%%:*}
fi
seed=${3:-$(( $(date +%s) % 100000 ))}
RANDOM=$seed
tfs=/sys/kernel/tracing
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }

if [[ $(id -u) -ne 0 || ! -w $tfs/instances ]]; then
  echo "1..0 # SKIP needs root and a writable tracefs at $tfs"
  exit 0   # TAP: the plan 1..0 says skipped (meson counts a status of 77 as an error)
fi
echo "# seed $seed (rerun: test-faults.sh $cli $mode $seed)"

work=$(mktemp -d /tmp/seismo-faults-XXXXXX)
mnt=
cleanup() {
  [[ -n $mnt ]] && mountpoint -q "$mnt" && umount "$mnt"
  [[ -n ${loop_pid:-} ]] && kill "$loop_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

toplevel_state() { cat $tfs/tracing_on $tfs/current_tracer $tfs/set_event 2>/dev/null | md5sum; }

# IDs of the loaded BPF programs named seismo_*.
bpf_ids() {
  command -v bpftool >/dev/null || return 0
  bpftool -j prog show 2>/dev/null | python3 -c '
import json, sys
try:
    progs = json.load(sys.stdin)
except ValueError:
    progs = []
print(" ".join(str(p["id"]) for p in progs if p.get("name", "").startswith("seismo_")))
'
}

# Programs of ours loaded since $1 (IDs before) that no process holds any more, neither as a
# program nor through a link (other tests may run recorders of their own meanwhile). The kernel
# frees a dead process's programs shortly after it exits: give it a few seconds.
orphan_bpf() {
  local before=" $1 " id new tries
  for tries in 1 2 3 4 5 6; do
    new=()
    for id in $(bpf_ids); do
      [[ $before == *" $id "* ]] || new+=("$id")
    done
    orphans=()
    for id in "${new[@]}"; do
      grep -qs -E "^prog_id:\s+$id$" /proc/[0-9]*/fdinfo/* || orphans+=("$id")
    done
    ((${#orphans[@]} == 0)) && return 0
    sleep 0.5
  done
  echo "${orphans[*]}"
}

# Checks a file left by a recorder: absent, or `seismo-cli info` reads it.
check_file() {
  local f=$1 what=$2
  [[ -e $f ]] || return 0
  if ! "$cli" info "$f" >"$work/info.txt" 2>&1; then
    echo "$what: $f does not load: $(head -c 300 "$work/info.txt")"
    return 1
  fi
}

# A process that makes syscalls until killed.
start_loop() {
  sh -c 'while :; do head -c 64 /proc/self/stat >/dev/null; done' &
  loop_pid=$!
}

stop_loop() {
  kill "$loop_pid" 2>/dev/null
  wait "$loop_pid" 2>/dev/null
  loop_pid=
}

tracee_ok() {
  local pid=$1 state tracer
  [[ -r /proc/$pid/status ]] || return 0
  state=$(awk '/^State:/ {print $2}' "/proc/$pid/status")
  tracer=$(awk '/^TracerPid:/ {print $2}' "/proc/$pid/status")
  if [[ $tracer != 0 || $state == t || $state == T ]]; then
    echo "process $pid left with TracerPid $tracer, state $state"
    return 1
  fi
}

available=$("$cli" record --list-backends 2>&1)

for backend in ftrace ptrace ebpf; do
  [[ $mode == kill || $mode == all ]] || break
  [[ -z $only || $only == "$backend" ]] || continue
  line=$(grep "^$backend " <<<"$available")
  if ! grep -q " available " <<<"$line "; then
    for sig in INT TERM KILL; do skip "$backend SIG$sig: ${line:-not built}"; done
    continue
  fi
  for sig in INT TERM KILL; do
    out=$work/$backend-$sig.seismo
    before=$(toplevel_state)
    bpf_before=$(bpf_ids)
    start_loop
    case $backend in
      ftrace) args=(-a --duration 30) ;;
      # -p: the tracee outlives the recorder, so what is left on it can be seen.
      *) args=(-p "$loop_pid" --duration 30) ;;
    esac
    "$cli" record -b "$backend" "${args[@]}" -o "$out" >"$work/rec.txt" 2>&1 &
    rec=$!
    delay=$(printf '0.%d' $((RANDOM % 9 + 1)))
    delay=$(echo "$delay + $((RANDOM % 3))" | bc)
    sleep "$delay"
    kill -"$sig" "$rec" 2>/dev/null
    wait "$rec"
    status=$?
    problems=()
    # Let the kernel release what died with the process.
    sleep 0.3
    if [[ $sig == KILL ]]; then
      # The next run removes the killed one's instance.
      leftover=$(ls $tfs/instances | grep -E "^seismo-$rec(-[0-9]+)?$")
      if [[ $backend == ftrace && -n $leftover ]]; then
        "$cli" record -b ftrace -a --duration 0.2 -o "$work/next.seismo" >"$work/next.txt" 2>&1 ||
          problems+=("the next run failed: $(tail -c 300 "$work/next.txt")")
        grep -qi "stale\|left by\|removed" "$work/next.txt" ||
          problems+=("the next run did not say it removed $leftover: $(tail -c 300 "$work/next.txt")")
      fi
    elif [[ $status -ne 0 ]]; then
      problems+=("SIG$sig: exit status $status: $(tail -c 300 "$work/rec.txt")")
    fi
    leftover=$(ls $tfs/instances | grep -E "^seismo-$rec(-[0-9]+)?$")
    [[ -z $leftover ]] || problems+=("tracefs instance left: $leftover")
    [[ $(toplevel_state) == "$before" ]] || problems+=("top-level tracing state changed")
    orphans=$(orphan_bpf "$bpf_before")
    [[ -z $orphans ]] || problems+=("BPF programs left, held by no process: $orphans")
    msg=$(tracee_ok "$loop_pid") || problems+=("$msg")
    stop_loop
    if [[ $sig != KILL && ! -e $out ]]; then
      problems+=("SIG$sig: no $out: $(tail -c 300 "$work/rec.txt")")
    fi
    msg=$(check_file "$out" "SIG$sig") || problems+=("$msg")
    msg=$(check_file "$out.partial" "SIG$sig") || problems+=("$msg")
    msg=$(check_file "$out.live" "SIG$sig") || problems+=("$msg")
    what="after $delay s"
    [[ -e $out ]] && what+=", $("$cli" info "$out" 2>/dev/null | grep -m1 -i '^events' | tr -s ' ')"
    [[ $sig == KILL && -e $out.partial ]] && what+=", prefix: $("$cli" info "$out.partial" 2>/dev/null | grep -m1 -i '^events' | tr -s ' ')"
    if ((${#problems[@]})); then
      not_ok "$backend SIG$sig ($what)" "${problems[@]}"
    else
      ok "$backend SIG$sig ($what): nothing left behind"
    fi
  done
done

# A full disk: a clear error, the previous file untouched, and what was recorded up to the last
# whole chunk kept in OUTPUT.partial as a valid file holding the events the message says.
if [[ $mode != disk && $mode != all ]]; then
  :
elif grep -q "^ftrace .* available " <<<"$available" && mnt=$work/full && mkdir -p "$mnt" &&
   mount -t tmpfs -o size=4m seismo-faults "$mnt"; then
  "$cli" record -b ftrace -a --duration 0.2 -o "$mnt/t.seismo" >/dev/null 2>&1
  before=$(md5sum <"$mnt/t.seismo")
  # Leave 1.5 MiB free (room for a few whole chunks), and make events, so the disk fills within
  # seconds whatever else runs.
  avail=$(df --output=avail -B1 "$mnt" | tail -1)
  head -c $((avail - 1572864)) /dev/zero >"$mnt/filler"
  start_loop
  "$cli" record -b ftrace -a --duration 30 -o "$mnt/t.seismo" >"$work/full.txt" 2>&1
  status=$?
  stop_loop
  rm -f "$mnt/filler"
  problems=()
  [[ $status -eq 1 ]] || problems+=("exit status $status on a full disk, not 1")
  grep -q "No space left" "$work/full.txt" || problems+=("no clear message: $(tail -c 300 "$work/full.txt")")
  [[ $(md5sum <"$mnt/t.seismo") == "$before" ]] || problems+=("the previous file changed")
  kept=$(sed -n 's/.*the \([0-9]*\) events written before that are kept.*/\1/p' "$work/full.txt")
  if [[ -z $kept ]]; then
    problems+=("the message does not say how many events were kept: $(tail -c 300 "$work/full.txt")")
  else
    got=$("$cli" info --json "$mnt/t.seismo.partial" 2>"$work/full-info.txt" |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])' 2>/dev/null)
    [[ $got == "$kept" ]] || problems+=("t.seismo.partial holds '$got' events, the message said $kept")
    [[ $kept -ge 65536 ]] || problems+=("only $kept events kept with 1.5 MiB free")
    [[ ! -s $work/full-info.txt ]] || problems+=("the kept file loads with: $(head -c 300 "$work/full-info.txt")")
  fi
  ls "$mnt" | grep -qv '^t\.seismo\(\.partial\)\?$' && problems+=("left in the folder: $(ls "$mnt" | tr '\n' ' ')")
  if ((${#problems[@]})); then
    not_ok "full disk" "${problems[@]}"
  else
    ok "full disk: $kept events kept, readable: $(grep -m1 'No space' "$work/full.txt" | cut -c1-120)"
  fi
  umount "$mnt"
  mnt=
else
  skip "full disk: needs the ftrace backend and tmpfs"
fi

# The traced program misbehaving: recording goes on to the end and says how the program ended.
for backend in ptrace ebpf ftrace; do
  [[ $mode == program || $mode == all ]] || break
  [[ -z $only || $only == "$backend" ]] || continue
  line=$(grep "^$backend " <<<"$available")
  if ! grep -q " available " <<<"$line "; then
    skip "$backend traced program faults: ${line:-not built}"
    continue
  fi
  problems=()
  "$cli" record -b "$backend" -o "$work/segv.seismo" -- sh -c 'kill -SEGV $$' >"$work/segv.txt" 2>&1
  status=$?
  [[ $status -eq 139 ]] || problems+=("crashing program: exit status $status, not 139: $(tail -c 300 "$work/segv.txt")")
  msg=$(check_file "$work/segv.seismo" crash) || problems+=("$msg")
  [[ -e $work/segv.seismo ]] || problems+=("crashing program: no trace")
  "$cli" record -b "$backend" -o "$work/suid.seismo" -- /usr/bin/passwd --help >"$work/suid.txt" 2>&1
  status=$?
  [[ $status -eq 0 ]] || problems+=("setuid exec: exit status $status: $(tail -c 300 "$work/suid.txt")")
  msg=$(check_file "$work/suid.seismo" setuid) || problems+=("$msg")
  start=$(date +%s)
  "$cli" record -b "$backend" -o "$work/threads.seismo" -- python3 -c '
import threading
ts = [threading.Thread(target=lambda: None) for _ in range(2000)]
for t in ts: t.start()
for t in ts: t.join()
' >"$work/threads.txt" 2>&1
  status=$?
  [[ $status -eq 0 ]] || problems+=("2000 threads: exit status $status: $(tail -c 300 "$work/threads.txt")")
  msg=$(check_file "$work/threads.seismo" threads) || problems+=("$msg")
  tasks=$("$cli" info "$work/threads.seismo" 2>/dev/null | grep -m1 -i '^tasks' | tr -s ' ')
  if ((${#problems[@]})); then
    not_ok "$backend traced program faults" "${problems[@]}"
  else
    ok "$backend traced program crashes (139), execs setuid passwd (0), starts 2000 threads ($tasks, $(( $(date +%s) - start )) s)"
  fi
done

echo "1..$n"
exit $failed
