#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records the bundled sample traces with Seismo's own backends (run as root, after a build):
#   tools/samples/record-samples.sh [BUILD_DIR] [OUT_DIR]
# Each sample is a real recording of a small workload; the lessons in app/resources/lessons refer
# to them by file name. Re-recording gives different (but equally real) traces.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-$here/../../build}")
out=$(realpath "${2:-$here/../../app/resources/samples}")
cli=$build/app/seismo-cli
work=$(mktemp -d /tmp/seismo-samples.XXXXXX)
trap 'rm -rf "$work"' EXIT

for prog in hello pingpong spin; do
  cc -O1 -o "$work/$prog" "$here/$prog.c"
done
cc -O1 -pthread -o "$work/slow" "$here/slow.c"
# Every function keeps its frame and its name; built from the source root, so that frames say
# tools/samples/which-code.c:LINE.
(cd "$here/../.." && cc -O0 -g -fno-omit-frame-pointer -o "$work/which-code" tools/samples/which-code.c)
mkdir -p "$out"

# The default sample (the quick start opens it): the default ftrace event set (scheduler, IRQs,
# raw syscalls) of the whole machine while a C compiler builds and runs a tiny program.
cp "$here/hello.c" "$work/"
"$cli" record -b ftrace -a --duration 1.5 -o "$out/welcome.seismo" &
recorder=$!
sleep 0.4
(cd "$work" && cc -o hello-built hello.c && ./hello-built)
wait "$recorder"

# "hello, syscalls": every syscall of a tiny program, with decoded arguments.
"$cli" record -b ptrace -o "$out/hello-syscalls.seismo" -- "$work/hello"

# "what a file copy does": cp with decoded paths, flags and sizes.
head -c 300000 /dev/urandom > "$work/source.bin"
"$cli" record -b ptrace -o "$out/file-copy.seismo" -- cp "$work/source.bin" "$work/copy.bin"

# "two processes fighting for one CPU": both pinned to CPU 0; scheduler events of the whole
# machine, so that the CPU rows show everything that ran.
"$cli" record -b ftrace -e 'sched:sched_switch,sched:sched_wakeup,sched:sched_waking,sched:sched_process_*' \
  -a --duration 0.8 -o "$out/cpu-fight.seismo" &
recorder=$!
sleep 0.2
taskset -c 0 "$work/spin" 300 &
first=$!
taskset -c 0 "$work/spin" 300
wait "$first" "$recorder"

# "pipe ping-pong wakeups": eBPF scheduler events and syscalls of two processes passing a byte.
"$cli" record -b ebpf -o "$out/pipe-pingpong.seismo" -- "$work/pingpong" 300

# "Why is my program slow?": a program that waits for a lock holder's 50 ms sleep through a pipe,
# then computes beside a busy thread on one CPU. ftrace, only its tasks: scheduler, syscalls, IRQs
# and timer expiries (what woke each sleeper).
"$cli" record -b ftrace -e 'sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit,raw_syscalls:*,irq:*,timer:hrtimer_expire_entry,timer:hrtimer_expire_exit,timer:timer_expire_entry,timer:timer_expire_exit' \
  -o "$out/why-slow.seismo" -- "$work/slow"

# "Which code made this syscall?": every syscall of a program with known call paths, each with
# the call stack it was made from (ptrace, unwound with libdw). Frames are named when a trace is
# opened, from the recorded mappings; the conversion saves them named while the program still
# exists, so that the sample names them anywhere.
"$cli" record -b ptrace --stacks -o "$work/which-code.seismo" -- "$work/which-code"
"$cli" convert "$work/which-code.seismo" "$out/which-code.seismo"

ls -l "$out"
