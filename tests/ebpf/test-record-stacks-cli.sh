#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli record --stacks end to end: seismo-stacks-workload's known call paths, recorded by
# ptrace (libdw) and eBPF (needs root and BTF; skipped with the backend's reason otherwise), come
# out of `seismo-cli stacks --folded` as flamegraph.pl lines ("outer;…;inner COUNT"), the same
# for both backends from main to the syscall; a kind a backend cannot record is refused first;
# ftrace's stacktrace/userstacktrace options give user and kernel frames (needs root).
# TAP output. usage: test-record-stacks-cli.sh SEISMO_CLI SEISMO_STACKS_WORKLOAD
set -u
CLI=$1
WORKLOAD=$2
. "$(dirname "$0")/../lib/tap.sh"

# The folded lines of the workload's own code, from main inwards.
from_main() { "$CLI" stacks "$1" --folded | grep -o 'main;.*' | sort; }

"$CLI" record -b ptrace --stacks kernel -o "$DIR/k.seismo" -- "$WORKLOAD" 2>"$DIR/err"
check "ptrace --stacks kernel is a usage error" test $? -eq 2
check "ptrace --stacks kernel says why" grep -q "cannot record kernel stacks" "$DIR/err"

if "$CLI" record --list-backends | grep -q '^ptrace *available'; then
  "$CLI" record -b ptrace --stacks -o "$DIR/p.seismo" -- "$WORKLOAD" 2>"$DIR/err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q "cannot record" "$DIR/err"; then
    skip "ptrace --stacks" "$(cat "$DIR/err")"
  else
    check "ptrace --stacks records" test $rc -eq 0
    "$CLI" stacks "$DIR/p.seismo" --folded >"$DIR/p.folded"
    check "ptrace: folded lines are 'frames COUNT'" \
      bash -c "grep -qvE '^[^ ]+( [^ ]+)* [0-9]+$' '$DIR/p.folded' && exit 1 || test -s '$DIR/p.folded'"
    check "ptrace: main;do_io;write_file;… write 3 times" \
      bash -c "grep -qE '(^|;)main;do_io;write_file;[^;]*write[^;]* 3$' '$DIR/p.folded'" ||
      diag_file "$DIR/p.folded"
    check "ptrace: main;nap;…nanosleep" grep -qE '(^|;)main;nap;[^ ]*nanosleep[^ ]* [0-9]+$' "$DIR/p.folded" ||
      diag_file "$DIR/p.folded"
  fi
fi

why=$("$CLI" record --list-backends 2>&1 | grep '^ebpf ')
if ! grep -q '^ebpf *available' <<<"$why"; then
  skip "ebpf --stacks user" "${why:-no ebpf backend listed}"
else
  "$CLI" record -b ebpf --stacks user -o "$DIR/e.seismo" -- "$WORKLOAD" 2>"$DIR/err"
  check "ebpf --stacks user records" test $? -eq 0
  "$CLI" stacks "$DIR/e.seismo" --folded >"$DIR/e.folded"
  check "ebpf: main;do_io;write_file;… write 3 times" \
    bash -c "grep -qE '(^|;)main;do_io;write_file;[^;]*write[^;]* 3$' '$DIR/e.folded'" ||
    diag_file "$DIR/e.folded"
  if [ -s "$DIR/p.folded" ]; then
    # Syscall stacks only: the sched_switch stacks of eBPF add lines of their own.
    check "ebpf and ptrace agree from main to write" \
      test "$(grep -o 'main;do_io;write_file;.*' "$DIR/e.folded")" = "$(grep -o 'main;do_io;write_file;.*' "$DIR/p.folded")"
  fi
  "$CLI" record -b ebpf --stacks both -o "$DIR/b.seismo" -- "$WORKLOAD" 2>"$DIR/err"
  check "ebpf --stacks both records" test $? -eq 0
  check "ebpf --stacks both: kernel frames named from kallsyms" \
    bash -c "'$CLI' stacks '$DIR/b.seismo' --folded | grep -qE ';(__x64_sys_|do_syscall_64|entry_SYSCALL)'"
fi
why=$("$CLI" record --list-backends 2>&1 | grep '^ftrace ')
if ! grep -q '^ftrace *available' <<<"$why"; then
  skip "ftrace --stacks both" "${why:-no ftrace backend listed}"
else
  # The kernel walks user stacks by frame pointers: libc's wrapper hides write_file, so the
  # check stops at do_io (the eBPF backend finds it again from the top of the stack).
  "$CLI" record -b ftrace -e raw_syscalls:sys_enter --stacks both -o "$DIR/f.seismo" -- "$WORKLOAD" 2>"$DIR/err"
  check "ftrace --stacks both records" test $? -eq 0 || diag_file "$DIR/err"
  "$CLI" stacks "$DIR/f.seismo" --folded >"$DIR/f.folded"
  if ! check "ftrace: user frames main;do_io;…write, then kernel frames" \
    grep -qE '(^|;)main;do_io;[^;]*write[^;]*;([^;]*;)*do_syscall_64;' "$DIR/f.folded"; then
    # The workload's own lines first: what the kernel's user-stack walk gave for them.
    grep 'main;' "$DIR/f.folded" >"$DIR/f.main"
    diag_file "$DIR/f.main"
    diag_file "$DIR/f.folded"
    "$CLI" info "$DIR/f.seismo" >"$DIR/f.info" 2>&1
    diag_file "$DIR/f.info"
  fi
fi
tap_end
