#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-cli info and stats read from a .seismo file's summary (traces larger than memory) print what
# the loaded trace gives. SEISMO_SUMMARY_MIN_EVENTS=1 makes every file "too large to load".
# TAP output.
set -u
CLI=$1
GEN=$2
. "$(dirname "$0")/lib/tap.sh"

"$GEN" 150000 "$DIR/t.seismo"
check "generator writes a trace" test -s "$DIR/t.seismo"

for by in event task cpu syscall; do
  "$CLI" stats --by $by "$DIR/t.seismo" > "$DIR/loaded-$by.txt"
  SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" stats --by $by "$DIR/t.seismo" > "$DIR/summary-$by.txt"
  check "stats --by $by from the summary exits 0" test $? -eq 0
  check "stats --by $by from the summary prints what the loaded trace gives" \
    cmp -s "$DIR/loaded-$by.txt" "$DIR/summary-$by.txt"
done
"$CLI" stats --summary --by task "$DIR/t.seismo" > "$DIR/forced-task.txt"
check "stats --summary forces the summary" cmp -s "$DIR/loaded-task.txt" "$DIR/forced-task.txt"

"$CLI" info "$DIR/t.seismo" > "$DIR/loaded-info.txt"
SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" info "$DIR/t.seismo" > "$DIR/summary-info.txt"
check "info from the summary says so" grep -q "^Events: *150000 (read from the file's summary)" "$DIR/summary-info.txt"
check "info from the summary prints the rest the same" \
  cmp -s <(grep -v '^Events:' "$DIR/loaded-info.txt") <(grep -v '^Events:' "$DIR/summary-info.txt")

"$CLI" info --json "$DIR/t.seismo" > "$DIR/loaded-info.json"
SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" info --json "$DIR/t.seismo" > "$DIR/summary-info.json"
check "info --json from the summary has the same values" python3 - "$DIR/loaded-info.json" "$DIR/summary-info.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
assert b.pop("summary") is True
assert a == b, (a, b)
PY
for by in task cpu syscall; do
  "$CLI" stats --by $by --json "$DIR/t.seismo" > "$DIR/loaded-$by.json"
  SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" stats --by $by --json "$DIR/t.seismo" > "$DIR/summary-$by.json"
  check "stats --by $by --json from the summary has the same rows" python3 - "$DIR/loaded-$by.json" "$DIR/summary-$by.json" $by <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
key = {"task": "tasks", "cpu": "cpus", "syscall": "syscalls"}[sys.argv[3]]
assert b["summary"] is True
assert len(a[key]) == len(b[key]) > 0
for x, y in zip(a[key], b[key]):
    for k in x:
        if k in ("p50_ns", "p90_ns", "p99_ns"):
            # From the summary's log-linear histogram: within an eighth of the value.
            assert abs(x[k] - y[k]) <= max(x[k], 16) / 8, (k, x[k], y[k])
        else:
            assert x[k] == y[k], (k, x, y)
PY
done

# A filter needs the events: the file is loaded whatever its size.
SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" info --json --filter 'cpu == 1' "$DIR/t.seismo" > "$DIR/filtered.json"
check "info --filter loads the events" python3 - "$DIR/filtered.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "summary" not in d and 0 < d["events"] < 150000
PY

# A file without a summary (a trace.dat, or a 1.0 .seismo) is loaded as always.
SEISMO_SUMMARY_MIN_EVENTS=1 "$CLI" info "$SEISMO_SOURCE_DIR/tests/fuzz/corpus/seismo-file/generated-300.seismo" > "$DIR/old.txt"
check "a 1.0 file without a summary still opens" grep -q "^Events: *300$" "$DIR/old.txt"

# A trace.dat converted while it is read (bounded memory) holds what loading and saving it gives.
dat=$SEISMO_SOURCE_DIR/tests/data/ftrace-small-v7.dat
if "$CLI" info "$dat" > /dev/null 2>&1; then
  SEISMO_CONVERT_STREAM=1 "$CLI" convert "$dat" "$DIR/streamed.seismo"
  check "convert streams a trace.dat" test $? -eq 0
  "$CLI" convert "$dat" "$DIR/loaded.seismo"
  check "streamed and loaded conversions report the same events" \
    cmp -s <("$CLI" report "$DIR/streamed.seismo") <("$CLI" report "$DIR/loaded.seismo")
  check "streamed and loaded conversions have the same statistics" \
    cmp -s <("$CLI" stats --by task "$DIR/streamed.seismo") <("$CLI" stats --by task "$DIR/loaded.seismo")
  check "the streamed conversion has a summary" \
    bash -c "SEISMO_SUMMARY_MIN_EVENTS=1 '$CLI' info '$DIR/streamed.seismo' | grep -q 'read from the file.s summary'"
fi

tap_end
