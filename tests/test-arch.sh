#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Architecture and the file's own knowledge, end to end through seismo-cli: metadata.arch from a
# trace.dat's uname, from ftrace text's contents, or from --arch, and unknown when nothing tells;
# syscall names from that arch's table; prev_state, function names and timestamps as the file
# (and trace-cmd report of the same file) say. Real files from ../shared/samples/realworld
# (relative to the source root) when that folder is there; own fixtures in tests/data/arch.
# TAP output.
set -u
CLI=$1
SRC=${SEISMO_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
REAL=$SRC/../shared/samples/realworld
FIX=$SRC/tests/data/arch
. "$(dirname "$0")/lib/tap.sh"

# json_check WHAT FILE PYTHON-CONDITION [CLI ARGS...]: the condition holds for `info --json`
# (i) and `stats --by syscall --json` (s) of FILE.
json_check() {
  local what=$1 file=$2 cond=$3 info stats
  shift 3
  if ! info=$("$CLI" info --json "$@" "$file" 2> "$DIR/err") ||
     ! stats=$("$CLI" stats --by syscall --json "$@" "$file" 2>> "$DIR/err"); then
    not_ok "$what (seismo-cli failed: $(head -c 300 "$DIR/err"))"
    return
  fi
  if python3 -c "
import json, sys
i = json.loads(sys.argv[1]); s = json.loads(sys.argv[2])
m = i['metadata']
names = sorted(x['name'] for x in s['syscalls'])
ok = $cond
if not ok:
    print('# arch=%r names=%r' % (m.get('arch', 'absent'), names))
sys.exit(0 if ok else 1)
" "$info" "$stats"; then ok "$what"; else not_ok "$what"; fi
}

have_trace_cmd() { command -v trace-cmd > /dev/null; }

# ---- own fixtures --------------------------------------------------------------------------------

json_check "ARM text with vector_swi/__irq_svc: arch arm from its kernel symbols" \
  "$FIX/arm-function-syscalls.txt" \
  "m['arch'] == 'arm' and m['arch_from'] == 'kernel symbols' and \
   names == ['openat', 'poll', 'read', 'rt_sigprocmask', 'write']"
json_check "ARM raw syscalls with nothing that tells the arch: unknown (null), names stay numbers" \
  "$FIX/arm32-no-symbols.txt" \
  "m['arch'] is None and names == ['syscall_168', 'syscall_175', 'syscall_3', 'syscall_322', \
   'syscall_4']"
json_check "--arch arm names them from the ARM EABI table (175 rt_sigprocmask, 168 poll)" \
  "$FIX/arm32-no-symbols.txt" \
  "m['arch'] == 'arm' and names == ['openat', 'poll', 'read', 'rt_sigprocmask', 'write']" \
  --arch arm
json_check "--arch takes uname spellings: armv7l is arm" "$FIX/arm32-no-symbols.txt" \
  "m['arch'] == 'arm' and 'poll' in names" --arch armv7l
json_check "--arch x86_64 names the same numbers from x86_64's table" "$FIX/arm32-no-symbols.txt" \
  "m['arch'] == 'x86_64' and 'init_module' in names and 'swapoff' in names" --arch x86_64
if "$CLI" info --arch vax "$FIX/arm32-no-symbols.txt" > /dev/null 2> "$DIR/err" ||
   ! grep -q "Unknown architecture “vax”" "$DIR/err"; then
  not_ok "--arch with an unknown name fails and says so"
else
  ok "--arch with an unknown name fails and says so"
fi
if "$CLI" info "$FIX/arm32-no-symbols.txt" | grep -q "^arch: unknown"; then
  ok "info says arch: unknown"
else
  not_ok "info says arch: unknown"
fi
json_check "arm64 text (el0_svc): arch arm64, 63/64/56 are read/write/openat" \
  "$FIX/arm64-syscalls.txt" \
  "m['arch'] == 'arm64' and names == ['openat', 'read', 'write']"
json_check "x86_64 raw syscalls with 64-bit arguments and nothing else: x86_64 by the numbers" \
  "$FIX/x86_64-raw-syscalls.txt" \
  "m['arch'] == 'x86_64' and m['arch_from'] == 'syscall numbers' and \
   names == ['close', 'futex', 'mmap', 'openat', 'read', 'write']"
zcat "$SRC/tests/data/ftrace-tracefs.txt.gz" > "$DIR/tracefs.txt"
json_check "x86_64 tracefs text with raw and named syscalls: the pairs say x86_64" \
  "$DIR/tracefs.txt" \
  "m['arch'] == 'x86_64' and m['arch_from'] == 'raw and named syscall events' and \
   'openat' in names"

# ftrace text of a 4.13 kernel: its letters (x, D|K) show and filter as written.
if [[ "$("$CLI" report "$FIX/prev-state-4.13.txt" | grep -o "prev_state=[^ ]*" | tr '\n' ' ')" == \
      "prev_state=x prev_state=R prev_state=D|K " ]]; then
  ok "4.13 text: prev_state x and D|K shown as written"
else
  not_ok "4.13 text: prev_state x and D|K shown as written"
fi
if "$CLI" info --filter "prev_state == x" "$FIX/prev-state-4.13.txt" | grep -q "^Events: *1 of 3"; then
  ok "4.13 text: prev_state == x finds the dying task"
else
  not_ok "4.13 text: prev_state == x finds the dying task"
fi

# explain reads the catalogue: classes, and syscalls of other arches with their arguments.
if "$CLI" explain openat | grep -q "Classes: %file %desc"; then
  ok "explain openat: its classes from the catalogue"
else
  not_ok "explain openat: its classes from the catalogue"
fi
if "$CLI" explain fstatat64 2> /dev/null | grep -q "const char \*filename"; then
  ok "explain fstatat64 (i386, arm): the arguments of newfstatat"
else
  not_ok "explain fstatat64 (i386, arm): the arguments of newfstatat"
fi

# A trace.dat whose uname says armv7l: the same records, named from the ARM table.
cp "$SRC/tests/data/ftrace-small-v7.dat" "$DIR/x86.dat"
python3 - "$DIR/x86.dat" "$DIR/arm.dat" << 'EOF'
import sys
data = open(sys.argv[1], 'rb').read()
old = b' x86_64\0'
assert data.count(old) == 1, data.count(old)
open(sys.argv[2], 'wb').write(data.replace(old, b' armv7l\0'))
EOF
json_check "trace.dat of an armv7l machine: arch arm from its uname" "$DIR/arm.dat" \
  "m['arch'] == 'arm' and m['arch_from'] == 'uname' and 'init_module' not in names"
if [[ "$("$CLI" stats --by syscall --json "$DIR/arm.dat")" == \
      "$("$CLI" stats --by syscall --json --arch arm "$DIR/x86.dat")" ]]; then
  ok "armv7l trace.dat's syscalls are what --arch arm gives the x86_64 one"
else
  not_ok "armv7l trace.dat's syscalls are what --arch arm gives the x86_64 one"
fi

# errno numbers are the ABI's: -89 is ENOSYS on mips, -58 EDEADLOCK on powerpc (nothing on x86_64).
errno_report() {
  local what=$1 want=$2
  shift 2
  if "$CLI" report "$@" "$FIX/mips-errno.txt" > "$DIR/out" 2> "$DIR/err" &&
     [[ "$(grep -o '= .*' "$DIR/out" | tr '\n' '|')" == "$want" ]]; then
    ok "$what"
  else
    not_ok "$what ($(grep -o '= .*' "$DIR/out" | tr '\n' '|') $(head -c 200 "$DIR/err"))"
  fi
}
errno_report "mips: -89 is ENOSYS" "= -1 ENOSYS (Function not implemented)|= -58|" --arch mips
errno_report "powerpc64: -58 is EDEADLOCK, -89 EDESTADDRREQ as asm-generic" \
  "= -1 EDESTADDRREQ (Destination address required)|= -1 EDEADLOCK (Resource deadlock avoided)|" \
  --arch powerpc64
errno_report "x86_64: -89 EDESTADDRREQ, -58 no errno" \
  "= -1 EDESTADDRREQ (Destination address required)|= -58|" --arch x86_64
if [[ "$("$CLI" info --arch mips -f 'ret == -ENOSYS' "$FIX/mips-errno.txt" 2> /dev/null |
         grep -o '[0-9]* of [0-9]* match')" == "2 of 3 match" ]]; then
  ok "filter ret == -ENOSYS uses mips's number (the call: enter and exit)"
else
  not_ok "filter ret == -ENOSYS uses mips's number (the call: enter and exit)"
fi

# ---- real files ----------------------------------------------------------------------------------

if [[ ! -d $REAL ]]; then
  skip "real files" "$REAL is absent"
  tap_end
fi

json_check "Raspberry Pi trace.dat (armv7l, 4.14): arch arm" \
  "$REAL/kernel-monitor-elainecole.trace.dat" "m['arch'] == 'arm' and i['cpus'] == 4"
json_check "i686 4.13 trace.dat: arch i386" "$REAL/testeskernelshark-bengo501-fifo.trace.dat" \
  "m['arch'] == 'i386'"
json_check "Raspberry Pi ftrace text: never labelled x86_64" \
  "$REAL/ftrace-rpi-softirq-eunwoochoi.txt" "m.get('arch') in (None, 'arm', 'arm64')"

# prev_state letters as the file's format says (4.13: 64 is x, 0x82 D|K), the same as trace-cmd.
states() { "$CLI" report "$1" | grep -o "prev_state=[^ ]*" | sed 's/prev_state=//'; }
if "$CLI" report "$REAL/testeskernelshark-bengo501-fifo.trace.dat" | grep -q "prev_pid=126 .*prev_state=x "; then
  ok "4.13 dying task (prev_state 64) shows x"
else
  not_ok "4.13 dying task (prev_state 64) shows x"
fi
for f in testeskernelshark-bengo501-fifo kernel-monitor-elainecole; do
  if ! have_trace_cmd; then skip "$f: prev_state as trace-cmd report" "trace-cmd is not installed"; continue; fi
  if diff <(states "$REAL/$f.trace.dat") \
          <(trace-cmd report "$REAL/$f.trace.dat" 2> /dev/null | grep "sched_switch:" |
            sed -E 's/.*\] ([^ ]+) ==>.*/\1/') > "$DIR/diff"; then
    ok "$f: every prev_state as trace-cmd report shows it"
  else
    not_ok "$f: every prev_state as trace-cmd report shows it ($(head -3 "$DIR/diff" | tr '\n' ' '))"
  fi
done

# trace-cmd report's text (its sched_switch plugin has its own letter table) reads back the same.
if have_trace_cmd; then
  G=$REAL/testeskernelshark-bengo501-fifo.trace.dat
  trace-cmd report "$G" > "$DIR/plugin.txt" 2> /dev/null
  if diff <(states "$DIR/plugin.txt") <(states "$G") > "$DIR/diff"; then
    ok "trace-cmd report text of the 4.13 file: the same prev_state letters"
  else
    not_ok "trace-cmd report text of the 4.13 file: the same prev_state letters ($(head -3 "$DIR/diff" | tr '\n' ' '))"
  fi
fi

# Function names from the file's kallsyms although the 4.13 format prints %lx.
F=$REAL/labsisop-wsdias-sched_other.trace.dat
if "$CLI" report --limit 200 "$F" | grep -q "function: ip=0x"; then
  not_ok "4.13 function events: ip named, not an address"
else
  ok "4.13 function events: ip named, not an address"
fi
if "$CLI" report --limit 5 "$F" | grep -q "ip=switch_mm_irqs_off parent_ip=__schedule+0x"; then
  ok "4.13 function events: sym+off inside a function"
else
  not_ok "4.13 function events: sym+off inside a function"
fi
if have_trace_cmd; then
  if diff <("$CLI" report "$F" | sed -E 's/.*function: ip=([^ ]+) parent_ip=.*/\1/') \
          <(trace-cmd report "$F" 2> /dev/null | grep "function:" | awk '{print $NF}') > "$DIR/diff"; then
    ok "4.13 function events: every function as trace-cmd report names it"
  else
    not_ok "4.13 function events: every function as trace-cmd report names it ($(head -3 "$DIR/diff" | tr '\n' ' '))"
  fi
  # Display timestamps rounded to the microsecond like trace-cmd.
  G=$REAL/testeskernelshark-bengo501-fifo.trace.dat
  if diff <("$CLI" report "$G" | awk '{print $3}') \
          <(trace-cmd report "$G" 2> /dev/null | grep "sched_switch:" | awk '{print $3}') > "$DIR/diff"; then
    ok "timestamps rounded as trace-cmd report rounds them"
  else
    not_ok "timestamps rounded as trace-cmd report rounds them ($(head -3 "$DIR/diff" | tr '\n' ' '))"
  fi
else
  skip "4.13 function names and timestamps as trace-cmd report" "trace-cmd is not installed"
fi

tap_end
