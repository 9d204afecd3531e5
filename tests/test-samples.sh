#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The bundled sample traces (app/resources/samples): each opens, was recorded by the backend its
# lesson says, is small enough to ship, and shows what its lesson is about. TAP output.
set -u
CLI=$1
SAMPLES=$2
. "$(dirname "$0")/lib/tap.sh"

# name backend max_bytes python-condition-on-info-json
check_sample() {
  local name=$1 backend=$2 max=$3 cond=$4 f=$SAMPLES/$1
  if [[ ! -f $f ]]; then not_ok "$name is bundled"; return; fi
  local size; size=$(stat -c %s "$f")
  if ((size <= max)); then ok "$name is $size bytes (<= $max)"; else not_ok "$name is $size bytes (> $max)"; fi
  if ! json=$("$CLI" info --json "$f"); then not_ok "$name opens"; return; fi
  ok "$name opens"
  if python3 -c "
import json, sys
i = json.loads(sys.argv[1])
t = i['event_types']
assert i['source'] == sys.argv[2], i['source']
assert i['lost_events'] == 0
assert $cond
" "$json" "$backend"; then ok "$name: recorded by $backend and shows its subject"
  else not_ok "$name: recorded by $backend and shows its subject"; fi
}

check_sample welcome.seismo ftrace $((1024 * 1024)) \
  "t.get('sched:sched_switch', 0) > 100 and t.get('raw_syscalls:sys_enter', 0) > 1000 and i['cpus'] >= 1"
check_sample hello-syscalls.seismo ptrace $((2 * 1024 * 1024)) \
  "t.get('syscalls:sys_enter_write', 0) >= 1 and t.get('syscalls:sys_enter_execve', 0) == 1"
check_sample file-copy.seismo ptrace $((2 * 1024 * 1024)) \
  "t.get('syscalls:sys_enter_openat', 0) >= 2 and any(k in t for k in ('syscalls:sys_enter_write', 'syscalls:sys_enter_copy_file_range', 'syscalls:sys_enter_sendfile64'))"
check_sample cpu-fight.seismo ftrace $((2 * 1024 * 1024)) \
  "t.get('sched:sched_switch', 0) > 20 and 'raw_syscalls:sys_enter' not in t"
check_sample pipe-pingpong.seismo ebpf $((2 * 1024 * 1024)) \
  "t.get('sched:sched_wakeup', 0) > 100 and t.get('raw_syscalls:sys_enter', 0) > 500"
check_sample why-slow.seismo ftrace $((512 * 1024)) \
  "t.get('sched:sched_switch', 0) > 20 and t.get('sched:sched_waking', 0) > 5 and t.get('raw_syscalls:sys_enter', 0) > 100 and t.get('timer:hrtimer_expire_entry', 0) > 0"
check_sample which-code.seismo ptrace $((100 * 1024)) \
  "t.get('syscalls:sys_enter_write', 0) == 5 and t.get('syscalls:sys_enter_clock_nanosleep', 0) == 3"

# The copy's paths are decoded: the source file name is in the trace.
if "$CLI" report "$SAMPLES/file-copy.seismo" | grep -q 'source.bin'; then ok "file-copy has decoded paths"
else not_ok "file-copy has decoded paths"; fi
# Two spinners shared one CPU: both ran there.
if [[ $("$CLI" stats --by task "$SAMPLES/cpu-fight.seismo" | awk '$3 == "spin"' | wc -l) -ge 2 ]]; then
  ok "cpu-fight has two spin tasks"; else not_ok "cpu-fight has two spin tasks"; fi

# why-slow: the main thread's long read waited for the worker, the worker for the lock holder, and
# the holder for the timer ending its 50 ms sleep (an irq, not the task the timer interrupted).
main_tid=$("$CLI" states --json "$SAMPLES/why-slow.seismo" | python3 -c "
import json, sys
print([t['tid'] for t in json.load(sys.stdin)['tasks'] if t['comm'] == 'slow' and t['tid'] == t['pid']][0])")
if "$CLI" critical-path --json "$SAMPLES/why-slow.seismo" --task "$main_tid" \
     --filter 'comm == slow && syscall == read && duration > 20ms' | python3 -c "
import json, sys
p = json.load(sys.stdin)
segs = p['segments']
comms = [s['comm'] for s in segs]
irq = sum(s['duration_ns'] for s in segs if s['state'] == 'irq')
assert 'worker' in comms and 'holder' in comms, comms
assert irq >= 45000000, irq
assert sum(s['duration_ns'] for s in segs) == p['end_ns'] - p['start_ns']
"; then ok "why-slow: the read's critical path goes worker → holder → timer irq"
else not_ok "why-slow: the read's critical path goes worker → holder → timer irq"; fi

# which-code: the syscalls carry their call stacks, with the program's functions named from the
# sample alone (the program it was recorded from is gone), on the paths tools/samples/which-code.c
# takes; weighed by time, the naps are nearly everything.
folded=$("$CLI" stacks --folded "$SAMPLES/which-code.seismo")
for path in ';main;load_config;read_file;__read [0-9]*$' ';main;save_report;write_line;write 5$' \
            ';main;take_a_nap;__nanosleep;[^ ;]* 3$'; do
  if grep -q -- "$path" <<<"$folded"; then ok "which-code has the named stack …$path"
  else not_ok "which-code has the named stack …$path"; fi
done
writes=$("$CLI" stacks --filter 'stack == "save_report"' --folded "$SAMPLES/which-code.seismo" | grep -c ';save_report;')
if [[ $writes -ge 3 ]] && ! "$CLI" stacks --filter 'stack == "save_report"' --folded "$SAMPLES/which-code.seismo" | grep -q load_config
then ok "which-code: stack == save_report keeps save_report's paths only"
else not_ok "which-code: stack == save_report keeps save_report's paths only"; fi
if "$CLI" stacks --weight time --json "$SAMPLES/which-code.seismo" | python3 -c "
import json, sys
j = json.load(sys.stdin)
top = j['stacks'][0]
assert 'take_a_nap' in [f['function'] for f in top['frames']], top
assert top['weight'] > 0.9 * j['total'], (top['weight'], j['total'])
"; then ok "which-code: weighed by time, take_a_nap's sleeps are the top stack"
else not_ok "which-code: weighed by time, take_a_nap's sleeps are the top stack"; fi

tap_end
