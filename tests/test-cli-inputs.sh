#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What people pipe and attach: stdin ("-" and /dev/stdin), pipes, FIFOs with and without a writer,
# gzip/zstd/xz/bzip2 files recognised by magic (whatever their name), folders. TAP output.
set -u
CLI=$1
GEN=$2
. "$(dirname "$0")/lib/tap.sh"

"$GEN" 3000 "$DIR/t.seismo"
"$CLI" convert "$DIR/t.seismo" "$DIR/t.csv" >/dev/null 2>&1
events() { python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])'; }
want=$("$CLI" info --json "$DIR/t.seismo" | events)
check "the reference trace has events" test "${want:-0}" -gt 0

# A text trace too: every codec on the ftrace text importer.
"$CLI" report "$DIR/t.seismo" > "$DIR/t.txt"
want_txt=$("$CLI" info --json "$DIR/t.txt" | events)
check "its report reads back as ftrace text" test "${want_txt:-0}" -eq "$want"

for codec in gzip zstd xz bzip2; do
  if ! command -v $codec >/dev/null; then skip "$codec" "no $codec program to compress with"; continue; fi
  $codec -c < "$DIR/t.txt" > "$DIR/t.txt.$codec"
  # A name that says nothing: recognised by magic.
  cp "$DIR/t.txt.$codec" "$DIR/attachment-$codec.log"
  got=$("$CLI" info --json "$DIR/attachment-$codec.log" | events)
  check "$codec text read by magic ($got events)" test "${got:-0}" -eq "$want"
  got=$($codec -c < "$DIR/t.seismo" | "$CLI" info --json - | events)
  check "$codec .seismo through a pipe" test "${got:-0}" -eq "$want"
  "$CLI" info --json "$DIR/attachment-$codec.log" > "$DIR/info-$codec.json"
  check "info names the compression and the file given" python3 - "$DIR/info-$codec.json" "$codec" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["metadata"]["compression"] == sys.argv[2], d["metadata"]
assert d["metadata"]["original_file"].endswith("attachment-%s.log" % sys.argv[2]), d["metadata"]
PY
done

head -c 3000 "$DIR/t.txt.gzip" > "$DIR/cut.gz"
err=$("$CLI" info "$DIR/cut.gz" 2>&1 >/dev/null); rc=$?
check "a truncated gzip fails with 1, naming the file" \
  bash -c "test $rc -eq 1 && grep -q 'cut.gz is damaged gzip data' <<<'$err'"

got=$("$CLI" info --json - < "$DIR/t.seismo" | events)
check "info - reads stdin" test "${got:-0}" -eq "$want"
got=$(cat "$DIR/t.seismo" | "$CLI" info --json /dev/stdin | events)
check "info /dev/stdin reads a pipe" test "${got:-0}" -eq "$want"
got=$(cat "$DIR/t.txt" | "$CLI" stats --json - | python3 -c 'import json,sys; json.load(sys.stdin); print("ok")')
check "stats - reads stdin" test "$got" = ok
cat "$DIR/t.seismo" | "$CLI" convert - "$DIR/from-stdin.json" >/dev/null 2>&1
check "convert - OUT reads stdin" test -s "$DIR/from-stdin.json"
err=$("$CLI" info - < /dev/null 2>&1 >/dev/null); rc=$?
check "empty stdin fails with 1 and says stdin is empty" \
  bash -c "test $rc -eq 1 && grep -q 'stdin is empty' <<<'$err'"

mkfifo "$DIR/fifo"
( cat "$DIR/t.seismo" > "$DIR/fifo" ) &
got=$("$CLI" info --json "$DIR/fifo" | events)
wait
check "a FIFO with a writer is read" test "${got:-0}" -eq "$want"
start=$(date +%s%N)
err=$(timeout 10 "$CLI" info "$DIR/fifo" 2>&1 >/dev/null); rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "a FIFO without a writer fails with 1 in under 2 s (${ms} ms)" \
  bash -c "test $rc -eq 1 && test $ms -lt 2000 && grep -q 'Nothing is writing to the FIFO' <<<'$err'"

mkdir "$DIR/folder"
err=$("$CLI" info "$DIR/folder" 2>&1 >/dev/null); rc=$?
check "a folder fails with 1 and says it is a folder" \
  bash -c "test $rc -eq 1 && grep -q 'folder/\\? is a folder' <<<'$err'"
check "no spool file is left in TMPDIR" bash -c "! ls \"${TMPDIR:-/tmp}\" | grep -q '^seismo-input-'"

tap_end
