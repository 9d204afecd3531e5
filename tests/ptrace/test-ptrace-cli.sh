#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli record -b ptrace end to end: the command's stdin, stdout and stderr pass through
# untouched, its exit status (or death by a signal) becomes seismo-cli's, a command that cannot
# run is a clear failure, and -e classes keep what they name. TAP output.
set -u
CLI=$1
. "$(dirname "$0")/../lib/tap.sh"

if ! "$CLI" record --list-backends 2>/dev/null | grep -q '^ptrace  *available'; then
  why=$("$CLI" record --list-backends 2>&1 | grep '^ptrace' || echo "not in this build")
  echo "1..1"
  echo "ok 1 # SKIP the ptrace backend cannot run here: $why"
  exit 0
fi

# stdin in, stdout and stderr out, exit status 7.
out=$(printf 'hello\n' | "$CLI" record -b ptrace -o "$DIR/io.seismo" -- \
        /bin/sh -c 'read x; echo "out:$x"; echo "err:$x" >&2; exit 7' 2>"$DIR/err.txt")
rc=$?
check "the command's exit status (7) is seismo-cli's" test $rc -eq 7
check "stdin reaches the command, its stdout is ours, unchanged" test "$out" = "out:hello"
check "its stderr is ours" grep -qx "err:hello" "$DIR/err.txt"
check "the trace is written" test -s "$DIR/io.seismo"

# Death by a signal: 128 + the signal, as a shell reports it.
"$CLI" record -b ptrace -o "$DIR/sig.seismo" -- /bin/sh -c 'kill -TERM $$' 2>/dev/null
check "killed by SIGTERM: exit status 143" test $? -eq 143
check "the exit event names SIGTERM" bash -c \
  "'$CLI' report '$DIR/sig.seismo' | grep -q 'sched_process_exit: .*exit_signal=SIGTERM'"

# Commands that cannot run: failure (1), naming the command and the reason.
err=$("$CLI" record -b ptrace -o "$DIR/x.seismo" -- /nonexistent/seismo-cmd 2>&1 >/dev/null)
rc=$?
check "a missing command fails with 1 and names it" \
  bash -c "test $rc -eq 1 && grep -q /nonexistent/seismo-cmd <<<'$err'"
printf '\001\002 not a program\n' > "$DIR/junk"; chmod +x "$DIR/junk"
err=$("$CLI" record -b ptrace -o "$DIR/x.seismo" -- "$DIR/junk" 2>&1 >/dev/null)
rc=$?
check "a file exec refuses fails with 1 and says why" \
  bash -c "test $rc -eq 1 && grep -q 'junk: execve: Exec format error' <<<'$err'"

# -e classes: what the class names is kept, the rest is not recorded.
counts () {
  "$CLI" stats "$1" --by syscall --json | python3 -c '
import json, sys
print(" ".join(sorted(r["name"] for r in json.load(sys.stdin)["syscalls"] if r["calls"] > 0)))'
}
"$CLI" record -b ptrace -e %file -o "$DIR/file.seismo" -- /bin/cat /etc/hostname >/dev/null 2>&1
names=$(counts "$DIR/file.seismo")
check "-e %file keeps openat, leaves out read and write ($names)" \
  bash -c "grep -qw openat <<<'$names' && ! grep -qw read <<<'$names' && ! grep -qw write <<<'$names'"

"$CLI" record -b ptrace -e %process -o "$DIR/proc.seismo" -- /bin/sh -c '/bin/true; exit 0' \
  >/dev/null 2>&1
names=$(counts "$DIR/proc.seismo")
check "-e %process keeps execve and wait4, leaves out openat ($names)" \
  bash -c "grep -qw execve <<<'$names' && grep -qw wait4 <<<'$names' && ! grep -qw openat <<<'$names'"

if [ -x /bin/bash ]; then
  "$CLI" record -b ptrace -e %net -o "$DIR/net.seismo" -- \
    /bin/bash -c 'exec 3<>/dev/tcp/127.0.0.1/9; true' >/dev/null 2>&1
  names=$(counts "$DIR/net.seismo")
  check "-e %net keeps socket and connect, leaves out openat ($names)" \
    bash -c "grep -qw socket <<<'$names' && grep -qw connect <<<'$names' && ! grep -qw openat <<<'$names'"
else
  skip "-e %net" "no /bin/bash for its /dev/tcp"
fi

tap_end
