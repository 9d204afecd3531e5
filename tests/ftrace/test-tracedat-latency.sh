#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# trace.dat files of latency tracers (version 6: the headers, then "latency" and the tracer's text
# output): such a file is made from a version-6 file's headers and tests/data's latency-format
# text, and `seismo-cli report` of it must equal that of the text itself, with the arch from the
# file's uname. trace-cmd report of the made file checks that trace-cmd reads it as one. TAP output.
set -u
CLI=$1
SRC=${SEISMO_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/lib/tap.sh"

command -v trace-cmd > /dev/null || skip_all "trace-cmd is not installed (it makes the v6 headers)"
trace-cmd convert --file-version 6 -i "$SRC/tests/data/ftrace-small-v7.dat" -o "$DIR/v6.dat" \
  > /dev/null 2>&1 || skip_all "trace-cmd convert failed"
gzip -dc "$SRC/tests/data/ftrace-tracefs-lat.txt.gz" > "$DIR/lat.txt"

python3 - "$SRC/tests/ftrace/tracedat-to-big-endian.py" "$DIR/v6.dat" "$DIR/lat.txt" \
  "$DIR/lat.dat" << 'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('conv', sys.argv[1])
conv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(conv)
data = open(sys.argv[2], 'rb').read()
c = conv.Conv(data)
c.pos = 10
c.cstr()
c.long_size = data[c.pos + 1]
c.pos += 2
c.page_size = c.u32()
c.headers()
c.formats_and_more()
c.u32()                         # CPU count: the text follows it
open(sys.argv[4], 'wb').write(data[:c.pos] + b'latency  \0' + open(sys.argv[3], 'rb').read())
PY

if trace-cmd report "$DIR/lat.dat" 2> /dev/null | grep -q "latency"; then
  ok "trace-cmd reads the made file as a latency file"
else
  skip "trace-cmd reads the made file as a latency file" "this trace-cmd prints no latency header"
fi
"$CLI" report "$DIR/lat.txt" > "$DIR/text.out" 2>&1
if "$CLI" report "$DIR/lat.dat" > "$DIR/dat.out" 2>&1 && [[ -s $DIR/dat.out ]] &&
   cmp -s "$DIR/text.out" "$DIR/dat.out"; then
  ok "latency trace.dat: its events are those of its text ($(wc -l < "$DIR/dat.out") lines)"
else
  not_ok "latency trace.dat: its events are those of its text ($(head -c 200 "$DIR/dat.out"))"
fi
if "$CLI" info --json "$DIR/lat.dat" 2> /dev/null |
   python3 -c "import json,sys; m=json.load(sys.stdin)['metadata']; sys.exit(0 if m.get('arch') == 'x86_64' else 1)"; then
  ok "latency trace.dat: arch from the file's uname"
else
  not_ok "latency trace.dat: arch from the file's uname"
fi
tap_end
