#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# record-stacks.sh OUT.dat -- COMMAND [ARGS...]
# Records a trace.dat with kernel_stack and user_stack events: sched_switch, sched_wakeup and
# sched_process_exec in a private tracefs instance whose options/stacktrace and
# options/userstacktrace are on, so that every event is followed by its kernel stack and its user
# stack, then `trace-cmd extract -B` writes the file (trace-cmd record cannot run here: /proc/sys
# is read-only). The instance is removed, also on error or signal. Needs root and tracefs.
set -euo pipefail
out=$1; shift
[[ ${1:-} == -- ]] && shift
T=/sys/kernel/tracing
[[ -d $T/instances ]] || mount -t tracefs nodev $T
name=seismostk$$; I=$T/instances/$name
cleanup() {
  if [[ -d $I ]]; then
    echo 0 > "$I/tracing_on"; echo > "$I/set_event"
    echo 0 > "$I/options/stacktrace"; echo 0 > "$I/options/userstacktrace"
    rmdir "$I" 2> /dev/null
  fi
  true
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$I"
echo 0 > "$I/tracing_on"
echo 4096 > "$I/buffer_size_kb"
for e in sched/sched_switch sched/sched_wakeup sched/sched_process_exec; do
  echo 1 > "$I/events/$e/enable"
done
echo 1 > "$I/options/stacktrace"
echo 1 > "$I/options/userstacktrace"
echo 1 > "$I/tracing_on"
"$@" || true
echo 0 > "$I/tracing_on"
trace-cmd extract -B "$name" -o "$out" > /dev/null 2>&1
