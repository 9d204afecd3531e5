#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli stacks on fixtures whose stacks are known: hand-written ftrace text with <stack trace>
# blocks and strace -k output. Exact folded lines (count and time), the table, JSON, --filter,
# a .seismo round trip, usage errors. TAP output.
set -u
CLI=$1
DATA=$2
. "$(dirname "$0")/lib/tap.sh"

FT="$DATA/stacks-ftrace.txt"
ST="$DATA/strace/stacks-known.strace"

"$CLI" stacks >/dev/null 2>&1; check "stacks without FILE is a usage error (2)" test $? -eq 2
"$CLI" stacks --weight bytes "$FT" >/dev/null 2>&1; check "--weight bytes is a usage error" test $? -eq 2
"$CLI" stacks --filter 'pdi == 3' "$FT" >/dev/null 2>&1; check "a bad --filter is a usage error" test $? -eq 2
"$CLI" stacks --folded --json "$FT" >/dev/null 2>&1; check "--folded with --json is a usage error" test $? -eq 2
"$CLI" stacks "$DIR/missing" >/dev/null 2>&1; check "a missing file fails with 1" test $? -eq 1

cat > "$DIR/ft-count" <<'X'
0x401200;0x401136;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_write 2
0x401200;0x401180;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_write 1
0x401200;0x4011a0;do_nanosleep;schedule;__schedule 1
X
"$CLI" stacks --folded "$FT" > "$DIR/out"; check "ftrace text: folded lines by count" diff -u "$DIR/ft-count" "$DIR/out"

# Time: syscall durations (200+100 us, 1000 us) and off-CPU time of the sched_switch (5 ms).
cat > "$DIR/ft-time" <<'X'
0x401200;0x401136;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_write 300000
0x401200;0x401180;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_write 1000000
0x401200;0x4011a0;do_nanosleep;schedule;__schedule 5000000
X
"$CLI" stacks --folded --weight time "$FT" > "$DIR/out"; check "ftrace text: folded lines by time" diff -u "$DIR/ft-time" "$DIR/out"

"$CLI" stacks --folded --filter 'event == sched_switch' "$FT" > "$DIR/out"
check "--filter keeps the off-CPU stack only" diff -u <(sed -n 3p "$DIR/ft-count") "$DIR/out"

cat > "$DIR/st-count" <<'X'
__libc_start_call_main;main;_exit 1
__libc_start_call_main;main;do_write;__write 2
__libc_start_call_main;main;read_config;open64 1
X
"$CLI" stacks --folded "$ST" > "$DIR/out"; check "strace -k: folded lines by count" diff -u "$DIR/st-count" "$DIR/out"
cat > "$DIR/st-time" <<'X'
__libc_start_call_main;main;do_write;__write 300000
__libc_start_call_main;main;read_config;open64 300000
X
"$CLI" stacks --folded --weight time "$ST" > "$DIR/out"; check "strace -k: folded lines by time (-T durations)" diff -u "$DIR/st-time" "$DIR/out"

check "flamegraph.pl syntax: frames;… then one integer" bash -c \
  "\"$CLI\" stacks --folded \"$ST\" | grep -qvE '^[^ ;]+(;[^ ;]+)* [0-9]+\$' && exit 1 || exit 0"

"$CLI" convert "$FT" "$DIR/ft.seismo" >/dev/null
"$CLI" stacks --folded "$DIR/ft.seismo" > "$DIR/out"; check ".seismo keeps the stacks (count)" diff -u "$DIR/ft-count" "$DIR/out"
"$CLI" stacks --folded --weight time "$DIR/ft.seismo" > "$DIR/out"; check ".seismo keeps the stacks (time)" diff -u "$DIR/ft-time" "$DIR/out"
"$CLI" convert "$ST" "$DIR/st.seismo" >/dev/null
"$CLI" stacks --folded "$DIR/st.seismo" > "$DIR/out"; check ".seismo keeps strace's stacks" diff -u "$DIR/st-count" "$DIR/out"

# The filter language's stack field: a frame of the event's stack.
"$CLI" stacks --folded --filter 'stack == do_write' "$ST" > "$DIR/out"
check "filter stack == do_write: the write path only" diff -u <(sed -n 2p "$DIR/st-count") "$DIR/out"
"$CLI" stacks --folded --filter 'stack ~ "read_*" || stack =~ "^_exit$"' "$ST" > "$DIR/out"
check "filter stack ~ glob, =~ regex" diff -u <(sed -n '1p;3p' "$DIR/st-count") "$DIR/out"
"$CLI" stacks --folded --filter 'stack != do_write' "$ST" > "$DIR/out"
check "filter stack != do_write: stacks without it" diff -u <(sed -n '1p;3p' "$DIR/st-count") "$DIR/out"
cnt=$("$CLI" report --filter 'stack == __schedule' "$FT" | grep -c sched_switch)
check "filter stack == __schedule on ftrace text: the sched_switch" test "$cnt" -eq 1
"$CLI" report --filter 'stack < 3' "$FT" > /dev/null 2> "$DIR/err"
check "stack < 3 is a usage error that says why" bash -c "grep -q 'frame names' '$DIR/err'"
cnt=$("$CLI" report --filter 'stack == main' "$DATA/strace/durations-only.strace" | wc -l)
check "a trace without stacks: stack == main matches nothing" test "$cnt" -eq 0

"$CLI" stacks "$ST" > "$DIR/table"; check "the table exits 0" test $? -eq 0
check "the table: 4 of 4 calls have a stack, 3 distinct" grep -q "^4 of .* events have a stack; 3 distinct stacks" "$DIR/table"
check "the table: the top stack is the write path, 2 events, 50%" grep -qE "^#1  2  +50.0%  \(2 events\)" "$DIR/table"
check "the table: frames with file and module" grep -q "do_write+0x1a \[/usr/bin/prog\]" "$DIR/table"
check "the table: main is in every stack" grep -qE "^ +4 +100.0% +0 +0.0%  main$" "$DIR/table"

"$CLI" stacks --json --weight time "$FT" > "$DIR/j"; check "--json exits 0" test $? -eq 0
check "JSON: contract keys and figures" python3 - "$DIR/j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["weight"] == "time", d
assert d["total"] == 6300000, d["total"]
assert d["distinct_stacks"] == 3, d
top = d["stacks"][0]
assert top["weight"] == 5000000 and top["events"] == 1, top
f = top["frames"][0]
assert f["function"] == "__schedule" and f["offset"] == 0x2e4 and f["space"] == "kernel", f
assert top["frames"][-1]["space"] == "user" and top["frames"][-1]["address"] == 0x401200, top
names = {x["name"]: x for x in d["frames"]}
assert names["0x401200"]["total"] == 6300000 and names["__schedule"]["self"] == 5000000, names
PY

"$CLI" stacks --folded "$DATA/strace/durations-only.strace" > "$DIR/out" 2> "$DIR/err"
check "a trace without stacks: no lines, a note on stderr" bash -c "test ! -s '$DIR/out' && grep -q 'no stacks' '$DIR/err'"

tap_end
