#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# How the ftrace text samples in this folder were recorded (tests/test-ftrace-text.c reads them).
#
#   ftrace-text-samples.sh report FILE.dat   trace-cmd report of FILE.dat in four layouts (plain,
#                                            -R raw fields, -l latency, -t ns) → ftrace-report*.txt.gz
#   ftrace-text-samples.sh tracefs           a small workload traced in our own tracefs instance,
#                                            `trace` read in four layouts → ftrace-tracefs*.txt.gz
#
# The tracefs mode creates instances/seismo-text-$$ and always removes it; it never touches the
# top-level buffer or /proc/sys. (Do not use `trace-cmd extract` here: it resets the top-level
# buffer's events, filters and tracer, and writes /proc/sys/kernel/kptr_restrict.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lines=${LINES_KEPT:-1900}
inst=

report() {
  local dat=$1
  # head closes the pipe early: trace-cmd's SIGPIPE is expected.
  set +o pipefail
  trace-cmd report "$dat" 2>/dev/null | head -n "$lines" | gzip -9n > "$here/ftrace-report.txt.gz"
  trace-cmd report -R "$dat" 2>/dev/null | head -n "$lines" | gzip -9n > "$here/ftrace-report-raw.txt.gz"
  trace-cmd report -l "$dat" 2>/dev/null | head -n "$lines" | gzip -9n > "$here/ftrace-report-lat.txt.gz"
  trace-cmd report -t "$dat" 2>/dev/null | head -n "$lines" | gzip -9n > "$here/ftrace-report-ns.txt.gz"
}

tracefs() {
  local tfs=/sys/kernel/tracing
  [ -d $tfs/instances ] || mount -t tracefs nodev $tfs
  inst=$tfs/instances/seismo-text-$$
  mkdir "$inst"
  trap 'echo 0 > "$inst/tracing_on" 2>/dev/null; rmdir "$inst"' EXIT
  trap 'exit 130' INT TERM

  echo 0 > "$inst/tracing_on"
  echo 1 > "$inst/options/event-fork"
  echo 1 > "$inst/options/record-tgid"
  for e in sched raw_syscalls irq signal task; do echo 1 > "$inst/events/$e/enable"; done
  for e in sys_enter_openat sys_exit_openat sys_enter_close sys_exit_close; do
    echo 1 > "$inst/events/syscalls/$e/enable"
  done

  # The workload waits until its pid is the event filter, then forks, execs, opens and signals.
  local go
  go=$(mktemp)
  echo x > "$go"
  bash -c 'while [ -s "$0" ]; do :; done
           for i in 1 2 3; do cat /etc/hostname > /dev/null; done
           sh -c "kill -USR1 \$\$" || true
           ls / > /dev/null
           sleep 0.01' "$go" &
  local pid=$!
  echo "$pid" > "$inst/set_event_pid"
  echo 1 > "$inst/tracing_on"
  : > "$go"
  wait "$pid" || true
  echo 0 > "$inst/tracing_on"
  rm -f "$go"

  cat "$inst/trace" | gzip -9n > "$here/ftrace-tracefs-tgid.txt.gz"
  echo 0 > "$inst/options/record-tgid"
  cat "$inst/trace" | gzip -9n > "$here/ftrace-tracefs.txt.gz"
  echo 0 > "$inst/options/irq-info"
  cat "$inst/trace" | gzip -9n > "$here/ftrace-tracefs-noirq.txt.gz"
  echo 1 > "$inst/options/irq-info"
  echo 1 > "$inst/options/latency-format"
  cat "$inst/trace" | gzip -9n > "$here/ftrace-tracefs-lat.txt.gz"
}

# The text flavours this kernel can print (its function and function_graph tracers refuse to start
# here: those fixtures, ftrace-funcgraph-*.txt and ftrace-function-*.txt, are written by hand
# from Documentation/trace/ftrace.rst): event stack traces read from trace_pipe, a trace_marker
# write printed with sym-offset and sym-addr, and a per-CPU buffer file without irq-info.
flavours() {
  local tfs=/sys/kernel/tracing
  inst=$tfs/instances/seismo-text-$$
  mkdir "$inst"
  trap 'echo 0 > "$inst/tracing_on" 2>/dev/null; rmdir "$inst"' EXIT
  trap 'exit 130' INT TERM
  echo 0 > "$inst/tracing_on"
  echo 64 > "$inst/buffer_size_kb"
  echo 1 > "$inst/events/sched/sched_process_exec/enable"
  echo 1 > "$inst/events/sched/sched_process_exit/enable"
  echo 1 > "$inst/options/stacktrace"
  echo 1 > "$inst/options/userstacktrace"
  echo 1 > "$inst/options/sym-offset"
  ( timeout 2 cat "$inst/trace_pipe" > "$here/ftrace-real-pipe-stacks.txt" ) &
  sleep 0.3
  echo 1 > "$inst/tracing_on"; /bin/true; sleep 0.2; echo 0 > "$inst/tracing_on"
  wait
  echo 0 > "$inst/options/userstacktrace"
  echo 1 > "$inst/options/sym-addr"
  echo > "$inst/trace"
  echo 1 > "$inst/tracing_on"; /bin/true; echo "hello from seismo" > "$inst/trace_marker" || true
  echo 0 > "$inst/tracing_on"
  cat "$inst/trace" > "$here/ftrace-real-symaddr-print.txt"
  echo 0 > "$inst/options/stacktrace"
  echo 0 > "$inst/options/sym-addr"
  echo 0 > "$inst/options/irq-info"
  echo > "$inst/trace"
  echo 1 > "$inst/tracing_on"; /bin/true; echo 0 > "$inst/tracing_on"
  cat "$inst/per_cpu/cpu1/trace" > "$here/ftrace-real-percpu-noirq.txt"
}

case ${1:-} in
  report) report "$2" ;;
  tracefs) tracefs ;;
  flavours) flavours ;;
  *) echo "usage: $0 report FILE.dat | tracefs | flavours" >&2; exit 2 ;;
esac
