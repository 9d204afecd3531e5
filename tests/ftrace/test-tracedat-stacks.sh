#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# kernel_stack and user_stack records of a trace.dat recorded here (record-stacks.sh: sched
# events with options/stacktrace and options/userstacktrace): none dropped (the kernel writes as
# many callers as it has, not the format's 8), and every stack's frames, kernel ones named from the
# file's kallsyms, equal to what `trace-cmd report` prints for the same record. Needs root,
# tracefs and trace-cmd (skips otherwise). TAP output.
set -u
CLI=$1
SRC=${SEISMO_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/lib/tap.sh"

command -v trace-cmd > /dev/null || skip_all "trace-cmd is not installed"
[[ $(id -u) == 0 && -d /sys/kernel/tracing ]] || skip_all "needs root and tracefs"
# trace-cmd extract fails now and then on a busy shared machine: a few tries.
for try in 1 2 3; do
  "$SRC/tests/ftrace/record-stacks.sh" "$DIR/stacks.dat" -- \
    sh -c 'ls /usr > /dev/null; sleep 0.02' 2> "$DIR/err" && [[ -s $DIR/stacks.dat ]] && break
  rm -f "$DIR/stacks.dat"
done
[[ -s $DIR/stacks.dat ]] ||
  skip_all "could not record with stack traces here ($(head -c 200 "$DIR/err"))"

trace-cmd report "$DIR/stacks.dat" > "$DIR/tc.txt" 2> /dev/null
"$CLI" report "$DIR/stacks.dat" > "$DIR/seismo.txt" 2> "$DIR/seismo.err"
if [[ ! -s $DIR/seismo.err ]]; then
  ok "no record skipped (nothing on stderr)"
else
  not_ok "no record skipped ($(head -c 200 "$DIR/seismo.err"))"
fi

python3 - "$DIR/tc.txt" "$DIR/seismo.txt" << 'PY' > "$DIR/result"
import re, sys
event = re.compile(r'^\s*(?:\S+:\s+)?.+-\d+\s+\[\d+\]\s+([\d.]+): (\w+):\s?(.*)$')

def stacks(path, inline):
    out, cur = [], None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = event.match(line)
        if m:
            cur = None
            if m.group(2) in ('kernel_stack', 'user_stack'):
                cur = [m.group(2), m.group(1), []]
                out.append(cur)
                rest = inline(m.group(3))
                if rest:
                    cur[2].append(rest)
            continue
        if cur is not None and 'EVENTS DROPPED' not in line:
            f = re.sub(r'^\s*=> ', '', line).strip()
            if f:
                cur[2].append(f)
    return out

tc = stacks(sys.argv[1], lambda r: r.split('=> ', 1)[1].strip() if '=> ' in r else '')
se = stacks(sys.argv[2], lambda r: r.split('caller=', 1)[1].strip() if 'caller=' in r else '')
kinds = {k: sum(1 for s in tc if s[0] == k) for k in ('kernel_stack', 'user_stack')}
named = sum(1 for s in se if s[0] == 'kernel_stack' and s[2] and '(' in s[2][0])
print('counts %d %d %d %d %d' % (len(tc), len(se), kinds['kernel_stack'], kinds['user_stack'],
                                 named))
for a, b in zip(tc, se):
    if a != b:
        print('differ %r %r' % (a, b))
        break
PY
read -r _ n_tc n_se n_k n_u n_named < <(grep '^counts' "$DIR/result")
if [[ $n_k -gt 0 && $n_u -gt 0 && $n_tc == "$n_se" ]]; then
  ok "every stack record read: $n_se of $n_tc ($n_k kernel, $n_u user)"
else
  not_ok "every stack record read: $n_se of $n_tc ($n_k kernel, $n_u user)"
fi
if grep -q '^differ' "$DIR/result"; then
  not_ok "frames as trace-cmd report prints them ($(grep '^differ' "$DIR/result" | head -c 300))"
else
  ok "frames as trace-cmd report prints them, kernel ones named from kallsyms ($n_named named)"
fi
# The same records in a big-endian copy (tracedat-to-big-endian.py): the callers are swapped
# per entry, to the record's end.
if trace-cmd convert --file-version 7 --compression none -i "$DIR/stacks.dat" \
     -o "$DIR/plain.dat" > /dev/null 2> "$DIR/err" &&
   python3 "$SRC/tests/ftrace/tracedat-to-big-endian.py" "$DIR/plain.dat" "$DIR/be.dat" \
     2> "$DIR/err" && "$CLI" report "$DIR/be.dat" > "$DIR/be.txt" 2>&1 &&
   cmp -s "$DIR/seismo.txt" "$DIR/be.txt"; then
  ok "a big-endian copy reports the same stacks"
else
  not_ok "a big-endian copy reports the same stacks ($(head -c 200 "$DIR/err") $(diff "$DIR/seismo.txt" "$DIR/be.txt" 2>&1 | head -4 | tr "\n" " "))"
fi
tap_end
