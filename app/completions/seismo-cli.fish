# SPDX-License-Identifier: GPL-3.0-or-later
# fish completion for seismo-cli: commands, options, backends, event names (from
# `seismo-cli record -b BACKEND --list-events`) and the files each argument takes.

set -l commands info report stats hist convert record explain compare compare-overhead render lesson states critical-path stacks

function __seismo_cli_backend
    set -l tokens (commandline -opc)
    set -l i (contains -i -- -b $tokens; or contains -i -- --backend $tokens)
    if test -n "$i"; and test (count $tokens) -gt $i
        echo $tokens[(math $i + 1)]
    else
        echo ptrace
    end
end

function __seismo_cli_events
    set -l cur (commandline -ct)
    set -l head (string replace -r '[^,]*$' '' -- $cur)
    for e in (seismo-cli record -b (__seismo_cli_backend) --list-events 2>/dev/null)
        echo $head$e
    end
end

# Folders and the files whose extension is one of the arguments. (fish's own
# __fish_complete_suffix only sorts matching files first: it offers every file.)
function __seismo_cli_files_ext
    set -l cur (commandline -ct)
    set -l pattern '\\.('(string join '|' -- $argv)')$'
    for f in $cur*
        if test -d "$f"
            echo $f/
        else if string match -qr -- $pattern $f
            echo $f
        end
    end
end

function __seismo_cli_traces
    __seismo_cli_files_ext seismo dat strace ftrace txt log trace gz zst xz bz2
end

complete -c seismo-cli -f
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -l help -d 'Show the commands'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a info -d 'Describe a trace'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a report -d 'Print events in time order'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a stats -d 'Count events, tasks, CPUs or syscalls'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a hist -d 'Latency histogram'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a convert -d 'Convert a trace'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a record -d 'Record a trace'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a explain -d 'Explain a syscall, tracepoint, errno or state'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a compare -d 'Compare two traces'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a compare-overhead -d 'What tracing a command costs'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a render -d 'Draw the timeline as a figure'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a lesson -d 'Check a lesson file'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a states -d 'Time per task in each thread state'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a stacks -d 'Which code paths made the events'
complete -c seismo-cli -n "not __fish_seen_subcommand_from $commands" -a critical-path -d 'What a task waited on, through its wakers'

# Trace files for the commands that read one.
complete -c seismo-cli -n "__fish_seen_subcommand_from info report stats hist convert compare render states critical-path stacks; and not __fish_prev_arg_in -o --output" -k -a "(__seismo_cli_traces)"
complete -c seismo-cli -n "__fish_seen_subcommand_from info report stats hist convert states critical-path stacks" -s f -l filter -r -d 'Only events matching EXPR'
complete -c seismo-cli -n "__fish_seen_subcommand_from info stats hist compare compare-overhead explain states critical-path stacks" -l json -d 'Print JSON'
complete -c seismo-cli -n "__fish_seen_subcommand_from report" -s n -l limit -r -d 'At most N events'
complete -c seismo-cli -n "__fish_seen_subcommand_from stats" -l by -x -a 'event task cpu syscall' -d 'Group by'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -l of -x -a 'syscall-latency wakeup-latency runtime irq-latency softirq-latency gap' -d 'What to measure'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -s s -l syscall -x -a "(seismo-cli record -b ptrace --list-events 2>/dev/null | string match -v '%*')" -d 'Only this syscall'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -l linear -r -d 'Linear buckets STEP wide'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -l from -r -d 'Gap start events'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -l to -r -d 'Gap end events'
complete -c seismo-cli -n "__fish_seen_subcommand_from hist" -l scope -x -a 'task cpu any' -d 'Gap scope'

# record
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s b -l backend -x -a 'ftrace ptrace ebpf' -d 'Backend'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s e -l events -x -a '(__seismo_cli_events)' -d 'Events or syscalls'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s a -l all -d 'Record the whole system'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s p -l pid -x -a '(__fish_complete_pids)' -d 'Record a running process'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l children -d 'With -p: follow its children'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s d -l duration -r -d 'Stop after S seconds'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l buffer-kb -r -d 'Buffer size in KiB'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l probe -r -d 'eBPF probe'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l aggregate -d 'eBPF: in-kernel histograms only'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l stacks -f -a 'user kernel both' -d 'Record call stacks'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l keep-running -d 'Leave a launched command running'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -s o -l output -x -k -a '(__seismo_cli_files_ext seismo)' -d 'Trace file to write'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l list-backends -d 'Which backends can run here'
complete -c seismo-cli -n "__fish_seen_subcommand_from record" -l list-events -d 'What the backend can record'

# explain, compare-overhead, render, lesson
complete -c seismo-cli -n "__fish_seen_subcommand_from explain" -x -a "(seismo-cli record -b ptrace --list-events 2>/dev/null | string match -v '%*')"
complete -c seismo-cli -n "__fish_seen_subcommand_from compare-overhead" -s n -l runs -r -d 'Runs per backend'
complete -c seismo-cli -n "__fish_seen_subcommand_from compare-overhead" -s b -l backend -x -a 'ptrace ftrace ebpf' -d 'Only these backends'
complete -c seismo-cli -n "__fish_seen_subcommand_from compare-overhead" -l show-output -d 'Let the command print'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -s o -l output -x -k -a '(__seismo_cli_files_ext svg pdf png)' -d 'Figure to write'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l from -r -d 'Start time'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l to -r -d 'End time'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l rows -x -a 'all cpus tasks' -d 'Rows to show'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -s w -l width -r -d 'Width in pixels'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l height -r -d 'Height in pixels'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l scale -r -d 'Scale'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l title -r -d 'Title'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l markers -r -d 'Marker times'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l no-legend -d 'No legend'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l no-session -d 'Ignore the session'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l dark -d 'Dark colors'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l flamegraph -d 'Flame graph of the call stacks'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l filter -r -d 'Events to keep (with --flamegraph)'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l weight -x -a 'count time' -d 'Weigh by (with --flamegraph)'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l off-cpu -d 'Where tasks slept (with --flamegraph)'
complete -c seismo-cli -n "__fish_seen_subcommand_from render" -l icicle -d 'Root at the top (with --flamegraph)'
complete -c seismo-cli -n "__fish_seen_subcommand_from lesson; and not __fish_seen_subcommand_from check list" -x -a 'check list'
complete -c seismo-cli -n "__fish_seen_subcommand_from check" -k -a '(__seismo_cli_files_ext lesson)'
complete -c seismo-cli -n "__fish_seen_subcommand_from lesson" -l sample -r -d 'Check against this trace'


# states, critical-path
complete -c seismo-cli -n "__fish_seen_subcommand_from states critical-path" -s t -l task -r -d 'The task (thread id)'
complete -c seismo-cli -n "__fish_seen_subcommand_from states critical-path" -l from -r -d 'Interval start, from the trace start'
complete -c seismo-cli -n "__fish_seen_subcommand_from states critical-path" -l to -r -d 'Interval end, from the trace start'
complete -c seismo-cli -n "__fish_seen_subcommand_from states critical-path" -l arch -x -a 'x86_64 i386 arm arm64 riscv64 powerpc64 s390x mips mips64 loongarch64' -d 'Syscall table'

# stacks
complete -c seismo-cli -n "__fish_seen_subcommand_from stacks" -s w -l weight -x -a 'count time' -d 'Weigh by event count or time'
complete -c seismo-cli -n "__fish_seen_subcommand_from stacks" -l folded -d 'Folded stacks for flamegraph.pl'
complete -c seismo-cli -n "__fish_seen_subcommand_from stacks" -s n -l limit -r -d 'Stacks and frames to list'
complete -c seismo-cli -n "__fish_seen_subcommand_from stacks" -l arch -x -a 'x86_64 i386 arm arm64 riscv64 powerpc64 s390x mips mips64 loongarch64' -d 'Syscall table'
