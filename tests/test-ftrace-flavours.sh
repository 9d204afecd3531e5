#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every ftrace text flavour Seismo reads, through seismo-cli: function_graph (plain, abstime +
# proc with banners, irq arrows and embedded events, args + retval, latency display-graph,
# trace-cmd's funcgraph events), function lines with sym-offset / sym-addr, trace_printk / bputs /
# print, stack trace blocks, trace_pipe and per-CPU buffer files, and what is not read (counted,
# reported, refused when it is most of the file). The two real files of the issue are read from
# ../shared relative to the source root when they are there. TAP output.
set -u
CLI=$1
DATA=$2
SHARED=$3
. "$(dirname "$0")/lib/tap.sh"

info() { "$CLI" info --json "$1" 2>"$DIR/stderr"; }
# py FILE.json EXPR...: asserts on the info JSON `d`.
py() { local f=$1; shift; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $*" "$f"; }

# function_graph without times: durations rebuilt per CPU, the timing note says so.
info "$DATA/ftrace-funcgraph-plain.txt" > "$DIR/plain.json"
check "funcgraph plain: 9 entries and 9 exits, nothing skipped" py "$DIR/plain.json" '
t = d["event_types"]; assert t == {"ftrace:funcgraph_entry": 9, "ftrace:funcgraph_exit": 9}, t
assert d["skipped"] == {}, d["skipped"]
assert "durations without times" in d["metadata"]["timing"]'
"$CLI" report "$DATA/ftrace-funcgraph-plain.txt" > "$DIR/plain.txt"
check "funcgraph plain: sys_open lasts 110 us at depth 0" \
  grep -q "funcgraph_exit: sys_open depth=0 duration_ns=110000" "$DIR/plain.txt"
check "funcgraph plain: the nested exit comes before its parent's" python3 - "$DIR/plain.txt" <<'PY'
import sys
lines = [l for l in open(sys.argv[1]) if "funcgraph_exit" in l]
names = [l.split("funcgraph_exit: ")[1].split()[0] for l in lines]
assert names.index("getname") < names.index("do_sys_open") < names.index("sys_open"), names
PY

info "$DATA/ftrace-funcgraph-abstime-proc.txt" > "$DIR/abs.json"
check "funcgraph abstime+proc: calls, the trace_printk comment and the embedded sched_switch" \
  py "$DIR/abs.json" '
t = d["event_types"]
assert t["ftrace:funcgraph_entry"] == 5 and t["ftrace:funcgraph_exit"] == 5, t
assert t["ftrace:print"] == 1 and t["sched:sched_switch"] == 1, t
assert d["skipped"] == {} and "timing" not in d["metadata"], d
assert d["start_ns"] == 2403375374000 and d["end_ns"] == 2403375480000, (d["start_ns"], d["end_ns"])'
"$CLI" report "$DATA/ftrace-funcgraph-abstime-proc.txt" > "$DIR/abs.txt"
check "funcgraph: the banner's next task runs fput, the proc column names bash" \
  bash -c "grep -q 'cat-1870 .*funcgraph_entry: fput()' '$DIR/abs.txt' && grep -q 'bash-1869 .*funcgraph_exit: do_sys_open depth=0 duration_ns=106100' '$DIR/abs.txt'"
check "funcgraph: trace_printk text is a print event with its function" \
  grep -q "print: do_sys_open: my_debug: value 42" "$DIR/abs.txt"

"$CLI" report "$DATA/ftrace-funcgraph-args-retval.txt" > "$DIR/args.txt"
check "funcgraph-args and -retval: arguments, return values, nesting" bash -c "
  grep -q 'funcgraph_entry: rw_verify_area(read_write=0, file=0xffff888004a1c300, ppos=0xffffc90000a3bef0, count=8192) depth=1' '$DIR/args.txt' &&
  grep -q 'funcgraph_exit: seq_read depth=1 duration_ns=2580 ret=0x1f' '$DIR/args.txt' &&
  grep -q 'funcgraph_exit: vfs_read depth=0 duration_ns=3391 ret=31' '$DIR/args.txt'"
"$CLI" convert "$DATA/ftrace-funcgraph-args-retval.txt" "$DIR/args.json" >/dev/null
check "funcgraph-retaddr: the caller is a field of the entry" \
  grep -q '"caller" *: *"ksys_read+0x6b/0xf0"' "$DIR/args.json"

"$CLI" report "$DATA/ftrace-funcgraph-latency.txt" > "$DIR/lat.txt"
check "latency display-graph: relative us, flags column, task" bash -c "
  test \$(grep -c funcgraph_ '$DIR/lat.txt') -eq 8 &&
  grep -q 'bash-1869 .*0.000003: funcgraph_exit: set_track depth=0 duration_ns=1100' '$DIR/lat.txt'"

"$CLI" report "$DATA/ftrace-funcgraph-trace-cmd.txt" > "$DIR/tc.txt"
check "trace-cmd report of function_graph: funcgraph_entry/exit events" bash -c "
  test \$(grep -c funcgraph_entry '$DIR/tc.txt') -eq 5 && test \$(grep -c funcgraph_exit '$DIR/tc.txt') -eq 5 &&
  grep -q 'funcgraph_exit: tick_nohz_idle_exit depth=0 duration_ns=6100' '$DIR/tc.txt'"

# function lines with sym-offset / sym-addr, trace_printk, stacks.
info "$DATA/ftrace-function-symoffset.txt" > "$DIR/fn.json"
check "function sym-offset/sym-addr, bprint, bputs, print, stacks: 7 events, nothing skipped" \
  py "$DIR/fn.json" '
t = d["event_types"]
assert t == {"ftrace:function": 2, "ftrace:bprint": 1, "ftrace:bputs": 1, "ftrace:print": 1,
             "irq:irq_handler_entry": 1, "irq:irq_handler_exit": 1}, t
assert d["skipped"] == {}, d["skipped"]'
"$CLI" convert "$DATA/ftrace-function-symoffset.txt" "$DIR/fn.csv" >/dev/null
check "stacks: attached to the event before them, exported in CSV" python3 - "$DIR/fn.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
by = {(r["event"], r["time_ns"]): r for r in rows}
f = by[("ftrace:function", "100000002000")]
assert f["stack"].split("\n") == ["try_to_wake_up+0x30/0x1a0", "wake_up_process+0x15/0x20",
                                  "kthread_create_on_node+0x100/0x180"], f
p = by[("ftrace:print", "100000005000")]
assert p["user_stack"].split("\n") == ["<00007f3a1c2d3e4f>", "<000055d0c0ffee00>"], p
assert by[("irq:irq_handler_entry", "100000010000")]["stack"].startswith("handle_irq_event+0x40/0x80")
assert by[("ftrace:function", "100000001000")]["stack"] == ""
assert by[("ftrace:bprint", "100000004000")]["fields"] == "do_something+0x70/0x26c: value is 42"
PY
"$CLI" report "$DATA/ftrace-function-symoffset.txt" > "$DIR/fn.txt"
check "sym-addr: the function keeps its address" \
  grep -q "function: ttwu_do_wakeup+0x14/0x1c8 <ffffffff810a6c44> <-try_to_wake_up+0x30/0x1a0 <ffffffff810a6d50>" "$DIR/fn.txt"

"$CLI" convert "$DATA/ftrace-report-stacks.txt" "$DIR/tcs.csv" >/dev/null
check "trace-cmd kernel_stack lines: the stack of the event before" python3 - "$DIR/tcs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 2, rows
assert rows[0]["event"] == "sched:sched_switch"
assert rows[0]["stack"].split("\n") == ["__schedule (ffffffff81a0b0c0)", "schedule (ffffffff81a0b6f0)"], rows[0]
PY

# Real recordings of this kernel: trace_pipe with kernel and user stacks, a marker with
# sym-offset + sym-addr, a per-CPU buffer file without irq-info.
info "$DATA/ftrace-real-pipe-stacks.txt" > "$DIR/pipe.json"
n_pipe=$(grep -cE '\[[0-9]{3}\] .*: (sched_process_e|tracing_mark)' "$DATA/ftrace-real-pipe-stacks.txt")
n_frames=$(grep -c '^ =>' "$DATA/ftrace-real-pipe-stacks.txt")
check "real trace_pipe: one event per event line ($n_pipe), every stack block read ($n_frames frames)" \
  py "$DIR/pipe.json" "assert d['events'] == $n_pipe and d['skipped'] == {}, (d['events'], d['skipped'])"
"$CLI" convert "$DATA/ftrace-real-pipe-stacks.txt" "$DIR/pipe.csv" >/dev/null
check "real trace_pipe: every frame lands in a stack" python3 - "$DIR/pipe.csv" "$n_frames" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
n = sum(len(r[k].split("\n")) for r in rows for k in ("stack", "user_stack") if r[k])
assert n == int(sys.argv[2]), (n, sys.argv[2])
PY
"$CLI" report "$DATA/ftrace-real-symaddr-print.txt" > "$DIR/sym.txt"
check "real marker with sym-offset and sym-addr is a print event" \
  grep -q "print: tracing_mark_write+0x91/0x170 <ffffffff814aa7c1>: hello from seismo" "$DIR/sym.txt"
info "$DATA/ftrace-real-percpu-noirq.txt" > "$DIR/percpu.json"
check "real per-CPU buffer file without irq-info" py "$DIR/percpu.json" '
assert d["events"] == 1 and d["skipped"] == {}, d'

# Nothing dropped in silence.
{ echo "# tracer: nop"; for i in 1 2 3 4; do echo "    bash-1  [000] ..... 1.00000$i: sched_waking: comm=a pid=2 prio=120 target_cpu=000"; done
  echo "this is not a trace line"; } > "$DIR/some.txt"
info "$DIR/some.txt" > "$DIR/some.json"
check "an unreadable line is counted by kind with its example" py "$DIR/some.json" '
assert d["skipped"] == {"lines that are not ftrace text": 1}, d["skipped"]
assert d["skipped_examples"]["lines that are not ftrace text"] == "line 6: this is not a trace line"'
check "and a warning names it on stderr" grep -q "1 lines that are not ftrace text could not be read" "$DIR/stderr"
"$CLI" info "$DIR/some.txt" > "$DIR/some-info.txt" 2>/dev/null
check "info text lists it" grep -q "1  lines that are not ftrace text, the first: line 6" "$DIR/some-info.txt"
{ echo "# tracer: nop"; echo "    bash-1  [000] ..... 1.000001: sched_waking: comm=a pid=2"; for i in 1 2 3; do echo "junk $i"; done; } > "$DIR/most.txt"
err=$("$CLI" info "$DIR/most.txt" 2>&1 >/dev/null); rc=$?
check "a mostly unreadable file is refused, naming kinds and the first line" bash -c "
  test $rc -eq 1 && grep -q '3 of 4 lines could not be read (3 lines that are not ftrace text); the first is line 3: junk 1' <<<'$err'"

# The real files of the issue.
real=$SHARED/samples/realworld
if [ -f "$real/ftrace-funcgraph-pengdonglin137.txt" ]; then
  info "$real/ftrace-funcgraph-pengdonglin137.txt" > "$DIR/fg.json"
  n_calls=$(grep -cE '\) *[^|]*\| +[^ ].*(\{|;)( /\*.*\*/)? *$' "$real/ftrace-funcgraph-pengdonglin137.txt")
  n_ends=$(grep -cE '\| +\}' "$real/ftrace-funcgraph-pengdonglin137.txt")
  n_leaf=$(grep -cE '\| +[^ }].*\); ?(/\*.*\*/)? *$' "$real/ftrace-funcgraph-pengdonglin137.txt")
  check "real function_graph file: one entry per call ($n_calls), one exit per end and leaf ($n_ends + $n_leaf)" \
    py "$DIR/fg.json" "
t = d['event_types']
assert t['ftrace:funcgraph_entry'] == $n_calls, t
assert t['ftrace:funcgraph_exit'] == $n_ends + $n_leaf, t
assert d['skipped'] == {}, d['skipped']"
  "$CLI" report "$real/ftrace-funcgraph-pengdonglin137.txt" > "$DIR/fg.txt"
  check "real function_graph: the banner's first task names the calls before it" \
    grep -q "bash-431 .*funcgraph_entry: pick_next_task(rq=0xffff88807ddad800" "$DIR/fg.txt"
else
  skip "real function_graph file" "$real/ftrace-funcgraph-pengdonglin137.txt is absent"
  skip "real function_graph banner" "$real/ftrace-funcgraph-pengdonglin137.txt is absent"
fi
if [ -f "$real/ftrace-rpi-softirq-eunwoochoi.txt" ]; then
  info "$real/ftrace-rpi-softirq-eunwoochoi.txt" > "$DIR/rpi.json"
  n_lines=$(grep -vc '^#' "$real/ftrace-rpi-softirq-eunwoochoi.txt")
  n_printk=$(grep -c ': __handle_irq_event_percpu+0x' "$real/ftrace-rpi-softirq-eunwoochoi.txt")
  check "real RPi file: every line an event ($n_lines), $n_printk trace_printk lines as bprint" \
    py "$DIR/rpi.json" "
assert d['events'] == $n_lines, d['events']
assert d['event_types']['ftrace:bprint'] == $n_printk, d['event_types']
assert d['skipped'] == {}, d['skipped']"
else
  skip "real RPi file" "$real/ftrace-rpi-softirq-eunwoochoi.txt is absent"
fi

# Empty recordings: the CPU count from the header, not from events there are none of.
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:16\n#\n' > "$DIR/empty-tracefs.txt"
printf 'cpus=16\n' > "$DIR/empty-report.txt"
for f in empty-tracefs empty-report; do
  if "$CLI" info "$DIR/$f.txt" > "$DIR/$f.out" 2>&1 &&
     grep -q "^Events: *0$" "$DIR/$f.out" && grep -q "^CPUs: *16$" "$DIR/$f.out"; then
    ok "$f: no events, 16 CPUs from the header"
  else
    not_ok "$f: no events, 16 CPUs from the header ($(head -c 200 "$DIR/$f.out"))"
  fi
done

tap_end
