#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Which ABI a strace log comes from (backends/ptrace/seismo-strace-arch.c), through
# `seismo-cli info --json`: from the ELF headers the loader reads, the personality notes, -n's
# numbers, the names and the word size; "unknown" (metadata.arch null, with the candidates) when
# that evidence leaves several; --arch overrides. Hand-written fixtures in tests/data/strace-arch
# and the real logs of ../shared/samples/realworld when that folder is there. TAP output.
set -u
CLI=$1
SRC=${SEISMO_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
REAL=$SRC/../shared/samples/realworld
FIX=$SRC/tests/data/strace-arch
. "$(dirname "$0")/lib/tap.sh"

"$CLI" info "$FIX/unknown-few-calls.strace" > /dev/null 2>&1 ||
  skip_all "seismo-cli reads no strace logs here (the ptrace backend is x86_64-only)"

# arch_is WHAT FILE ARCH [HOW-SUBSTRING|-] [CLI ARGS...]: ARCH "null" for unknown.
arch_is() {
  local what=$1 file=$2 arch=$3 how=${4:--} out
  shift 4
  if ! out=$("$CLI" info --json "$@" "$file" 2> "$DIR/err"); then
    not_ok "$what (seismo-cli failed: $(head -c 300 "$DIR/err"))"
    return
  fi
  if python3 -c "
import json, sys
m = json.loads(sys.argv[1])['metadata']
want = None if sys.argv[2] == 'null' else sys.argv[2]
ok = m.get('arch') == want and (sys.argv[3] == '-' or sys.argv[3] in (m.get('arch_from') or '')
                                or sys.argv[3] in (m.get('arch_candidates') or ''))
if not ok:
    print('# arch=%r from=%r candidates=%r' % (m.get('arch'), m.get('arch_from'),
                                                m.get('arch_candidates')))
sys.exit(0 if ok else 1)
" "$out" "$arch" "$how"; then ok "$what"; else not_ok "$what"; fi
}

arch_is "x86_64 libc's ELF header read by the loader: x86_64" \
  "$FIX/x86_64-elf.strace" x86_64 "ELF headers"
arch_is "aarch64 libc's ELF header (e_machine 183): arm64" "$FIX/arm64-elf.strace" arm64 "ELF"
arch_is "'runs in 32 bit mode' then set_thread_area, mmap2, _llseek: i386" \
  "$FIX/i386-mode-note.strace" i386 "personality note"
arch_is "'runs in x32 mode' with arch_prctl: x32" "$FIX/x32-mode-note.strace" x32 "personality"
arch_is "-n's numbers (322 openat, 175 rt_sigprocmask): arm" \
  "$FIX/arm-syscall-numbers.strace" arm "syscall numbers"
arch_is "-i's 16-digit pointer with arch_prctl and open: x86_64 (not x32)" \
  "$FIX/x86_64-ip.strace" x86_64 "word size"
arch_is "-i's 8-digit pointer with 32-bit names only: unknown, the 32-bit ABIs as candidates" \
  "$FIX/ip32-ambiguous.strace" null "i386,arm,powerpc,mips"
arch_is "openat/newfstatat and an arm64-looking address only: unknown, arm64 among candidates" \
  "$FIX/generic-no-elf.strace" null "arm64"
arch_is "read/write/close alone: unknown, never x86_64 by default" \
  "$FIX/unknown-few-calls.strace" null "x86_64,i386"
arch_is "--arch overrides what the log says" "$FIX/x86_64-elf.strace" arm64 - --arch arm64
arch_is "--arch names an unknown log's ABI" "$FIX/unknown-few-calls.strace" riscv64 - --arch riscv64

# Not an arch matter, but the same reading of a log's content: a log whose lines are mostly not
# strace's (after a head that is) is refused, naming the kind and the first such line.
{
  for i in $(seq 200); do echo "open(\"/etc/f$i\", O_RDONLY) = 3"; done
  for i in $(seq 300); do echo "some other tool's line $i"; done
} > "$DIR/mostly.strace"
if "$CLI" info "$DIR/mostly.strace" > /dev/null 2> "$DIR/err"; then
  not_ok "a log of mostly unreadable lines is refused (info exited 0)"
elif grep -q "most lines are not strace output.*300 of 500 (300 unreadable strace lines).*line 201: some other tool's line 1" "$DIR/err"; then
  ok "a log of mostly unreadable lines is refused, naming the kind and the first line"
else
  not_ok "a log of mostly unreadable lines is refused, naming the kind and the first line ($(head -c 300 "$DIR/err"))"
fi

if [[ -d $REAL ]]; then
  arch_is "real -f -tt -T -v log (ls on x86_64): x86_64 from the ELF headers" \
    "$REAL/strace-f-tt-T-anurp.txt" x86_64 "ELF"
  arch_is "real 78-thread log without startup: x86_64 from open/stat and 0x7f… addresses" \
    "$REAL/strace-f-asterisk-zicada.txt" x86_64 "address layout"
else
  skip "real strace logs" "$REAL is not there"
fi

tap_end
