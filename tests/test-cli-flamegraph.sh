#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli render --flamegraph on an strace -k log of a program whose call paths are known
# (data/strace/stacks-callpaths.c): the figure names the functions, --filter and --weight change
# what it shows, wrong uses are usage errors. TAP output.
set -u
CLI=$1
DATA=$2
. "$(dirname "$0")/lib/tap.sh"

if "$CLI" render --help 2>&1 | grep -q "built without Cairo"; then
  skip_all "this seismo-cli is built without render (-Dgui=disabled)"
fi
LOG=$DATA/strace/stacks-callpaths.strace

# The function names of the frames an SVG shows (their <title>s), one a line.
frames() { python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
layer = root.find(".//s:g[@id='seismo-frames']", ns)
assert layer is not None, "no frame layer"
for g in layer.findall("s:g", ns):
    print(g.find("s:text", ns).text)
PY
}
# The share of the root a frame's title gives, in percent.
share() { python3 - "$1" "$2" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
for g in root.find(".//s:g[@id='seismo-frames']", ns).findall("s:g", ns):
    if g.find("s:text", ns).text == sys.argv[2]:
        print(re.search(r"\(([0-9.]+) %\)", g.find("s:title", ns).text).group(1))
        break
PY
}

"$CLI" render "$LOG" --flamegraph -o "$DIR/fg.svg"; check "render --flamegraph exits 0" test $? -eq 0
check "the figure is well-formed SVG" python3 -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" "$DIR/fg.svg"
frames "$DIR/fg.svg" > "$DIR/all.txt"
for f in main read_config parse_config write_log take_a_nap _start; do
  check "the figure shows $f" grep -qx "$f" "$DIR/all.txt"
done
# Counted by events: write_log made 14 of the 53 calls with a stack (open, 12 writes, close).
check "write_log weighs 14 of 53 events" test "$(share "$DIR/fg.svg" write_log)" = "26.4"

"$CLI" render "$LOG" --flamegraph --filter 'syscall == write' -o "$DIR/write.svg"
check "--filter exits 0" test $? -eq 0
frames "$DIR/write.svg" > "$DIR/write.txt"
check "--filter 'syscall == write' keeps write_log" grep -qx write_log "$DIR/write.txt"
check "--filter 'syscall == write' drops parse_config and take_a_nap" \
  bash -c "! grep -qxE 'parse_config|take_a_nap' '$DIR/write.txt'"
check "all of the filtered weight goes through write_log" test "$(share "$DIR/write.svg" write_log)" = "100.0"

# By time, the 20 ms nap is most of the program's syscall time.
"$CLI" render "$LOG" --flamegraph --weight time -o "$DIR/time.svg"
check "--weight time exits 0" test $? -eq 0
check "by time, take_a_nap is over 80 %" python3 -c "import sys; assert float(sys.argv[1]) > 80" "$(share "$DIR/time.svg" take_a_nap)"

# Off-CPU: where a task slept, from its sched_switch stacks, by time until it ran again: two 20 ms
# nanosleeps and a 5 ms pipe read (data/ftrace-offcpu-stacks.txt).
"$CLI" render "$DATA/ftrace-offcpu-stacks.txt" --flamegraph --off-cpu -o "$DIR/off.svg"
check "--off-cpu exits 0" test $? -eq 0
check "off CPU, do_nanosleep is 40 of 45 ms" test "$(share "$DIR/off.svg" do_nanosleep)" = "88.9"
check "off CPU, pipe_read is 5 of 45 ms" test "$(share "$DIR/off.svg" pipe_read)" = "11.1"
"$CLI" render "$LOG" --flamegraph --off-cpu -o "$DIR/x.svg" >/dev/null 2>&1
check "--off-cpu on a log without sched_switch fails with 1" test $? -eq 1

"$CLI" render "$LOG" --flamegraph --icicle --dark --title "Call paths" -o "$DIR/fg.png"
check "PNG output" bash -c "head -c 8 '$DIR/fg.png' | od -An -tx1 | grep -q '89 50 4e 47'"
"$CLI" render "$LOG" --flamegraph -o "$DIR/fg.pdf"
check "PDF output" bash -c "head -c 5 '$DIR/fg.pdf' | grep -q '%PDF-'"

"$CLI" render "$LOG" --flamegraph --weight often -o "$DIR/x.svg" >/dev/null 2>&1
check "--weight often is a usage error" test $? -eq 2
"$CLI" render "$LOG" --weight time -o "$DIR/x.svg" >/dev/null 2>&1
check "--weight without --flamegraph is a usage error" test $? -eq 2
"$CLI" render "$LOG" --flamegraph --rows cpus -o "$DIR/x.svg" >/dev/null 2>&1
check "--rows with --flamegraph is a usage error" test $? -eq 2
"$CLI" render "$LOG" --flamegraph --filter 'syscall ==' -o "$DIR/x.svg" >/dev/null 2>&1
check "a wrong --filter is a usage error" test $? -eq 2
err=$("$CLI" render "$DATA/strace/handmade.strace" --flamegraph -o "$DIR/x.svg" 2>&1 >/dev/null); rc=$?
check "a trace without stacks fails with 1" test $rc -eq 1
check "and says it has no call stacks" grep -q "no call stacks" <<<"$err"
check "and writes nothing" test ! -e "$DIR/x.svg"
tap_end
