#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# trace.dat kernel_stack / user_stack events (the stacktrace and userstacktrace options) become the
# stack of the event before them on their CPU, kernel frames named from the file's kallsyms.
# Records its own trace.dat in a private tracefs instance (always removed) and reads it with
# trace-cmd extract, as tools/record-tracedat.sh does. Skips without root, tracefs or trace-cmd.
# TAP output.
set -u
CLI=$1
. "$(dirname "$0")/../lib/tap.sh"

T=/sys/kernel/tracing
[[ $(id -u) -eq 0 ]] || skip_all "needs root"
command -v trace-cmd > /dev/null || skip_all "trace-cmd is not installed"
[[ -d $T/instances ]] || skip_all "tracefs is not mounted at $T"
[[ -e $T/events/ftrace/kernel_stack ]] || skip_all "this kernel has no ftrace:kernel_stack event"

name=seismo-test-stacks-$$
I=$T/instances/$name
cleanup() {
  if [[ -d $I ]]; then
    echo 0 > "$I/tracing_on"
    echo 0 > "$I/options/stacktrace" 2> /dev/null
    echo 0 > "$I/options/userstacktrace" 2> /dev/null
    echo > "$I/set_event"
    rmdir "$I"
  fi
  rm -rf "$DIR"
}
trap cleanup EXIT
mkdir "$I" || skip_all "cannot make a tracefs instance"
echo 0 > "$I/tracing_on"
echo 1024 > "$I/buffer_size_kb"
echo 1 > "$I/events/sched/sched_process_exec/enable"
echo 1 > "$I/events/sched/sched_process_exit/enable"
echo 1 > "$I/options/stacktrace"
echo 1 > "$I/options/userstacktrace" 2> /dev/null || true
echo 1 > "$I/tracing_on"
for i in 1 2 3; do /bin/true; done
echo 0 > "$I/tracing_on"
trace-cmd extract -B "$name" -o "$DIR/s.dat" > /dev/null 2>&1
check "trace-cmd extract wrote a trace.dat" test -s "$DIR/s.dat"

"$CLI" stacks --folded "$DIR/s.dat" > "$DIR/folded" 2> "$DIR/err"
check "stacks --folded exits 0" test $? -eq 0
check "every exec of /bin/true has its execve path, kernel frames named" \
  bash -c "test \$(grep -c ';__x64_sys_execve;.*;bprm_execve;' '$DIR/folded') -ge 3"
check "exits have the exit_group path" grep -q "__x64_sys_exit_group;do_group_exit;do_exit" "$DIR/folded"
check "the innermost frame is the tracepoint's" bash -c \
  "grep ';__x64_sys_execve;' '$DIR/folded' | grep -qv 'trace_event_raw_event_sched_process_exec [0-9]*\$' && exit 1 || exit 0"
"$CLI" stacks --folded --filter 'event == sched_process_exec' "$DIR/s.dat" > "$DIR/exec"
check "--filter picks the exec events' stacks" bash -c \
  "test \$(wc -l < '$DIR/exec') -ge 3 && ! grep -q exit_group '$DIR/exec'"
"$CLI" info "$DIR/s.dat" > "$DIR/info"
check "no record skipped (short kernel_stack records are read)" bash -c \
  "! grep -q 'skipped_records' '$DIR/info' || grep -q 'skipped_records *0' '$DIR/info'"
"$CLI" convert "$DIR/s.dat" "$DIR/s.seismo" > /dev/null
"$CLI" stacks --folded "$DIR/s.seismo" > "$DIR/folded2"
check ".seismo keeps the trace.dat's stacks" diff -u "$DIR/folded" "$DIR/folded2"
tap_end
