#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `seismo-cli render` end to end: SVG, PDF and PNG files that other tools read, options, errors.
# TAP output.
#   test-cli-render.sh CLI GEN render      a seismo-cli built with the renderer
#   test-cli-render.sh CLI GEN no-render   one built without Cairo/Pango: render says so
set -u
CLI=$1
GEN=$2
PART=$3
. "$(dirname "$0")/../lib/tap.sh"

if [ "$PART" = no-render ]; then
  "$CLI" render "$DIR/x.seismo" -o "$DIR/x.svg" 2> "$DIR/err"; rc=$?
  check "render exits 1 when not built" test $rc -eq 1
  check "and says it was not built" grep -q "not built" "$DIR/err"
  tap_end
fi

"$GEN" 20000 "$DIR/a.seismo"

"$CLI" render "$DIR/a.seismo" -o "$DIR/a.svg"; check "render to .svg exits 0" test $? -eq 0
check "the SVG is well-formed XML with an svg root" python3 - "$DIR/a.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
assert root.get("width") == "1600px", root.get("width")
assert len(list(root.iter())) > 100
PY

"$CLI" render "$DIR/a.seismo" -o "$DIR/a.pdf" --title "A figure"; check "render to .pdf exits 0" test $? -eq 0
check "the PDF has a header and a trailer" bash -c "head -c 7 '$DIR/a.pdf' | grep -q '%PDF-1\.' && tail -c 32 '$DIR/a.pdf' | grep -q '%%EOF'"

"$CLI" render "$DIR/a.seismo" -o "$DIR/a.png" --width 800 --height 300 --scale 2 --no-legend \
  --from 1ms --to 2.5ms --markers 1.2ms,2ms --rows cpus,cpu0; check "render to .png with options exits 0" test $? -eq 0
check "the PNG decodes at width × scale" python3 - "$DIR/a.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1600, 600), (w, h)
# Walk the chunks and inflate the image data: a truncated or corrupt file fails here.
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
    if kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}[data[25]]   # Cairo writes RGB when every pixel is opaque, else RGBA
assert len(raw) == h * (1 + bpp * w), len(raw)
PY
if python3 -c 'import gi; gi.require_version("GdkPixbuf", "2.0"); from gi.repository import GdkPixbuf' 2> /dev/null; then
  check "gdk-pixbuf reads the PNG" python3 - "$DIR/a.png" <<'PY'
import sys, gi
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf
p = GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])
assert (p.get_width(), p.get_height()) == (1600, 600)
PY
fi

# A session beside the trace: its notes are drawn (text in the SVG).
cat > "$DIR/a.seismo.seismo-session" <<'JSON'
{ "seismo-session": 1, "notes": [ { "time_ns": 1500000, "text": "note-from-session" } ] }
JSON
start=$("$CLI" info --json "$DIR/a.seismo" | python3 -c 'import json,sys; print(json.load(sys.stdin)["start_ns"])' 2> /dev/null)
if [ -n "$start" ]; then
  python3 - "$DIR/a.seismo.seismo-session" "$start" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["notes"][0]["time_ns"] = int(sys.argv[2]) + 1500000
json.dump(s, open(sys.argv[1], "w"))
PY
fi
"$CLI" render "$DIR/a.seismo" -o "$DIR/n.pdf"; check "render with a session exits 0" test $? -eq 0
"$CLI" render "$DIR/a.seismo" -o "$DIR/n1.png" --no-legend --width 900 --height 200
"$CLI" render "$DIR/a.seismo" -o "$DIR/n2.png" --no-legend --width 900 --height 200 --no-session
check "the session's note changes the picture, --no-session leaves it out" \
  bash -c "! cmp -s '$DIR/n1.png' '$DIR/n2.png'"
echo '{ "seismo-session": "broken' > "$DIR/a.seismo.seismo-session"
"$CLI" render "$DIR/a.seismo" -o "$DIR/b.png" 2> "$DIR/err"; rc=$?
check "a broken session is a warning, not a failure" test $rc -eq 0
check "the warning names the session file" grep -q "a.seismo.seismo-session" "$DIR/err"
rm -f "$DIR/a.seismo.seismo-session"

"$CLI" render "$DIR/a.seismo" -o "$DIR/a.jpg" 2> "$DIR/err"; rc=$?
check "an unknown extension is a usage error (2)" test $rc -eq 2
check "which names the formats" grep -q "svg" "$DIR/err"
"$CLI" render "$DIR/a.seismo" -o "$DIR/a.svg" --rows gpu0 2> "$DIR/err"; rc=$?
check "a bad --rows is a usage error (2)" test $rc -eq 2
"$CLI" render "$DIR/a.seismo" -o "$DIR/a.svg" --from 2ms --to 1ms 2> /dev/null; rc=$?
check "--to before --from is a usage error (2)" test $rc -eq 2
"$CLI" render "$DIR/a.seismo" -o "$DIR/a.svg" --from soon 2> /dev/null; rc=$?
check "a time without a number is a usage error (2)" test $rc -eq 2
"$CLI" render "$DIR/missing.seismo" -o "$DIR/m.svg" 2> "$DIR/err"; rc=$?
check "a missing trace fails (1) naming the file" bash -c "test $rc -eq 1 && grep -q missing.seismo '$DIR/err'"
check "and leaves no output behind" test ! -e "$DIR/m.svg"
"$CLI" render --help | grep -q "comm:GLOB"; check "--help documents --rows" test $? -eq 0

tap_end
