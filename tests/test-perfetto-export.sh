#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `seismo-cli convert X X.perfetto-trace` writes Perfetto's protobuf trace format: Google's own
# protoc decodes it as perfetto.protos.Trace without an error, and the decoded trace holds as many
# sched_switch / sys_enter / sys_exit ftrace events and syscall track event slices as
# `seismo-cli info --json` counts in the same trace (docs/perfetto.md says what maps to what); read
# back by Seismo, it is the same trace as far as the format holds it.
# Inputs: a real trace.dat, the bundled samples of every backend (ftrace, ptrace, eBPF) and, when
# present, the shared real-world files. TAP output.
set -u
CLI=$1
SRC=$2
. "$(dirname "$0")/lib/tap.sh"

PROTO_DIR=$SRC/data/perfetto
PROTO=$PROTO_DIR/perfetto_trace.proto
command -v protoc >/dev/null || skip_all "protoc (Debian protobuf-compiler) is not installed"

# Compares the decoded text with info --json; prints what differs, exits 1 when anything does.
COMPARE='
import json, re, sys
info = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
t = info["event_types"]
source = info["source"]

# Decoded text: "name {" opens a message, "}" closes it; count by path so a field named like a
# message elsewhere is not counted.
counts = {}
stack = []
track = None
for line in text.splitlines():
    line = line.strip()
    if line.endswith("{"):
        stack.append(line[:-1].strip())
        path = "/".join(stack)
        counts[path] = counts.get(path, 0) + 1
        if stack[-1] == "track_event":
            track = {}
    elif line == "}":
        if stack and stack[-1] == "track_event":
            kind = track.get("type", "")
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "TYPE_INSTANT" and track.get("name", "").startswith("sys_exit"):
                counts["orphan_exit"] = counts.get("orphan_exit", 0) + 1
            track = None
        stack.pop()
    elif track is not None and len(stack) and stack[-1] == "track_event":
        key, _, value = line.partition(": ")
        track[key] = value.strip("\"")

def ftrace(name):
    return counts.get("packet/ftrace_events/event/" + name, 0)

enters = sum(n for k, n in t.items() if re.fullmatch(r"\w+:sys_enter(_\w+)?", k))
exits = sum(n for k, n in t.items() if re.fullmatch(r"\w+:sys_exit(_\w+)?", k))
n_ftrace = counts.get("packet/ftrace_events/event", 0)
n_track = counts.get("packet/track_event", 0)
want = {
    "events (ftrace + track)": (n_ftrace + n_track, info["events"]),
    "sched_switch": (ftrace("sched_switch"), t.get("sched:sched_switch", 0)),
}
if source in ("ptrace", "strace", "ebpf"):
    want["sys_enter (ftrace)"] = (ftrace("sys_enter"), 0)
    want["sys_exit (ftrace)"] = (ftrace("sys_exit"), 0)
    want["slice begins (syscall enters)"] = (counts.get("TYPE_SLICE_BEGIN", 0), enters)
    want["slice begins (syscalls)"] = (counts.get("TYPE_SLICE_BEGIN", 0), info["syscalls"])
    want["slice ends + unmatched exits"] = (counts.get("TYPE_SLICE_END", 0)
                                            + counts.get("orphan_exit", 0), exits)
else:
    want["sys_enter"] = (ftrace("sys_enter"), t.get("raw_syscalls:sys_enter", 0))
    want["sys_exit"] = (ftrace("sys_exit"), t.get("raw_syscalls:sys_exit", 0))
    want["track events"] = (n_track, 0)
if source in ("ptrace", "strace"):
    want["ftrace events"] = (n_ftrace, 0)
bad = [f"{k}: {got} in the export, {exp} in info" for k, (got, exp) in want.items() if got != exp]
for b in bad:
    print("#", b)
print("# " + ", ".join(f"{k} {got}" for k, (got, exp) in want.items()))
sys.exit(1 if bad else 0)
'

check_export() {
  local what=$1 in=$2 ext=${3:-.perfetto-trace}
  local out=$DIR/$what$ext
  if [[ ! -f $in ]]; then skip "$what" "$in is not there"; return; fi
  if ! "$CLI" convert "$in" "$out" 2>"$DIR/err"; then
    not_ok "$what: convert"; sed 's/^/# /' "$DIR/err"; return
  fi
  ok "$what: convert"
  if protoc --decode=perfetto.protos.Trace -I"$PROTO_DIR" "$PROTO" <"$out" >"$DIR/$what.txt" \
       2>"$DIR/err" && [[ ! -s $DIR/err ]]; then
    ok "$what: protoc decodes it as perfetto.protos.Trace"
  else
    not_ok "$what: protoc decodes it as perfetto.protos.Trace"; head -5 "$DIR/err" | sed 's/^/# /'
    return
  fi
  "$CLI" info --json "$in" >"$DIR/$what.json"
  check "$what: event counts equal info --json" python3 -c "$COMPARE" "$DIR/$what.json" "$DIR/$what.txt"
  check_round_trip "$what" "$in" "$out"
}

# Read back, the export is the same trace as far as the format holds it: events, CPUs, tasks, time
# span, event types (eBPF's raw syscalls come back as syscalls:* events, the slices they were
# exported as), per-syscall and per-task statistics; ptrace and strace traces report the same.
ROUND_TRIP='
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = [f"{k}: {a[k]} then {b[k]}" for k in ("events", "cpus", "tasks", "syscalls", "start_ns",
                                             "end_ns") if a[k] != b[k]]
if a["source"] != "ebpf" and a["event_types"] != b["event_types"]:
    bad.append("event types: %s then %s" % (a["event_types"], b["event_types"]))
for key in ("arch", "kernel"):
    if a["metadata"].get(key) != b["metadata"].get(key):
        bad.append("%s: %s then %s" % (key, a["metadata"].get(key), b["metadata"].get(key)))
if b["source"] != "perfetto":
    bad.append("read back as " + b["source"])
for x in bad:
    print("#", x)
sys.exit(1 if bad else 0)
'
check_round_trip() {
  local what=$1 in=$2 out=$3
  if ! "$CLI" info --json "$out" >"$DIR/$what.back.json" 2>"$DIR/err"; then
    not_ok "$what: read back"; sed 's/^/# /' "$DIR/err"; return
  fi
  check "$what: read back, info equal" python3 -c "$ROUND_TRIP" "$DIR/$what.json" "$DIR/$what.back.json"
  if cmp -s <("$CLI" stats --by syscall --json "$in") <("$CLI" stats --by syscall --json "$out") \
     && cmp -s <("$CLI" stats --by task --json "$in") <("$CLI" stats --by task --json "$out"); then
    ok "$what: read back, syscall and task statistics equal"
  else not_ok "$what: read back, syscall and task statistics equal"; fi
  # Every event again: same task and comm, CPU, time and event name, line by line. Payloads print
  # the same where the original types had no print format of their own (ptrace's): Perfetto's
  # messages carry fields, not print formats.
  case $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$DIR/$what.json") in
    ebpf) ;;  # its syscalls come back as syscalls:* events on CPU 0 (they were track events)
    ptrace)
      check "$what: read back, report equal" cmp -s <("$CLI" report "$in") <("$CLI" report "$out") ;;
    *)
      check "$what: read back, report's task, CPU, time and event equal" \
        cmp -s <("$CLI" report "$in" | awk '{print $1, $2, $3, $4}') \
               <("$CLI" report "$out" | awk '{print $1, $2, $3, $4}') ;;
  esac
}

check_export trace-dat-v7 "$SRC/tests/data/ftrace-small-v7.dat"
check_export ftrace-welcome "$SRC/app/resources/samples/welcome.seismo"
check_export ftrace-cpu-fight "$SRC/app/resources/samples/cpu-fight.seismo" .pftrace
check_export ptrace-file-copy "$SRC/app/resources/samples/file-copy.seismo"
check_export ptrace-hello "$SRC/app/resources/samples/hello-syscalls.seismo"
check_export ebpf-pipe-pingpong "$SRC/app/resources/samples/pipe-pingpong.seismo"
check_export strace-sh "$SRC/tests/data/strace-sh.strace"
REAL=$SRC/../shared/samples/realworld
check_export real-arm-trace-dat "$REAL/kernel-monitor-elainecole.trace.dat"
check_export real-strace-tt-T "$REAL/strace-f-tt-T-anurp.txt"

# Typed messages carry the kernel's fields: a sched_switch names both tasks, sys_enter its args.
if grep -q 'next_comm: "' "$DIR/trace-dat-v7.txt" 2>/dev/null \
   && grep -A3 'sys_enter {' "$DIR/trace-dat-v7.txt" | grep -q 'args: '; then
  ok "typed ftrace events carry their fields"
else not_ok "typed ftrace events carry their fields"; fi
# Events without a typed message are generic ones with their name and fields.
check "other events are GenericFtraceEvents" grep -q 'event_name: "sched_stat_runtime"' \
  "$DIR/trace-dat-v7.txt"
# Syscall slices are named after the syscall, their end carries the return value.
if grep -A12 'TYPE_SLICE_BEGIN' "$DIR/ptrace-file-copy.txt" | grep -q 'name: "openat"' \
   && grep -B6 'TYPE_SLICE_END' "$DIR/ptrace-file-copy.txt" | grep -q 'name: "ret"'; then
  ok "syscall slices: named, with ret"
else not_ok "syscall slices: named, with ret"; fi
# Thread tracks are described once per task before they are used.
check "thread tracks described" grep -q 'thread_name: "cp"' "$DIR/ptrace-file-copy.txt"

# A cut export (a killed writer) opens up to the cut, with one warning saying what was cut off.
head -c 3001 "$DIR/ptrace-hello.perfetto-trace" >"$DIR/cut.perfetto-trace"
if "$CLI" info --json "$DIR/cut.perfetto-trace" >"$DIR/cut.json" 2>"$DIR/err" \
   && grep -q 'cut off at the end' "$DIR/err" \
   && python3 -c 'import json,sys; n = json.load(open(sys.argv[1]))["events"]; sys.exit(not 0 < n < 71)' \
        "$DIR/cut.json"; then
  ok "cut export: read up to the cut, with a warning"
else not_ok "cut export: read up to the cut, with a warning"; fi
# Damage inside is an error naming the file and the byte.
{ cat "$DIR/ptrace-hello.perfetto-trace"; printf '\x0f\x0f\x0f'; } >"$DIR/bad.perfetto-trace"
if ! "$CLI" info "$DIR/bad.perfetto-trace" 2>"$DIR/err" && grep -q 'bad.perfetto-trace.*at byte' "$DIR/err"
then ok "damaged export: error naming file and byte"
else not_ok "damaged export: error naming file and byte"; sed 's/^/# /' "$DIR/err"; fi

# Bundle parts the reader does not know (Perfetto's compact_sched, field 4) are reported, not
# dropped in silence: Trace{packet{ftrace_events{cpu: 0, compact_sched: {…}}}}.
printf '\x0a\x08\x0a\x06\x08\x00\x22\x02\x08\x01' >"$DIR/compact.perfetto-trace"
if "$CLI" info "$DIR/compact.perfetto-trace" >/dev/null 2>"$DIR/err" && grep -q compact_sched "$DIR/err"
then ok "unknown bundle parts are reported"
else not_ok "unknown bundle parts are reported"; sed 's/^/# /' "$DIR/err"; fi

# A folder that cannot be written is an error naming the file, and leaves nothing behind.
mkdir "$DIR/ro" && chmod 0500 "$DIR/ro"
if [[ $(id -u) != 0 ]]; then
  if ! "$CLI" convert "$SRC/tests/data/ftrace-small-v7.dat" "$DIR/ro/x.perfetto-trace" 2>"$DIR/err" \
     && grep -q 'x.perfetto-trace' "$DIR/err" && [[ -z $(ls "$DIR/ro") ]]; then
    ok "unwritable folder: error naming the file"
  else not_ok "unwritable folder: error naming the file"; fi
else
  skip "unwritable folder: error naming the file" "root writes anywhere"
fi

tap_end
