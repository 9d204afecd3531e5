#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Big-endian trace.dat files: each little-endian file at hand (tests/data's v7 capture, as v6 and
# as uncompressed v7 by trace-cmd convert, the shared samples and real files when ../shared is
# there) is rewritten
# as a big-endian machine would have written it (tracedat-to-big-endian.py), and
# `seismo-cli report` of both must be equal, line for line; so must `trace-cmd report` of both,
# which checks the converter itself. A copy whose records were left little-endian is refused.
# TAP output.
set -u
CLI=$1
SRC=${SEISMO_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CONV=$SRC/tests/ftrace/tracedat-to-big-endian.py
. "$SRC/tests/lib/tap.sh"

files=()
if command -v trace-cmd > /dev/null &&
   trace-cmd convert --file-version 6 -i "$SRC/tests/data/ftrace-small-v7.dat" \
     -o "$DIR/small-v6.dat" > /dev/null 2>&1; then
  files+=("$DIR/small-v6.dat")
fi
for f in "$SRC"/../shared/samples/make-hello-v6.dat "$SRC"/../shared/samples/realworld/*.dat; do
  [[ -f $f ]] && files+=("$f")
done
# Version 7: uncompressed copies (the tool does not recompress).
for f in "$SRC/tests/data/ftrace-small-v7.dat" "$SRC"/../shared/samples/make-hello.dat; do
  if [[ -f $f ]] && command -v trace-cmd > /dev/null &&
     trace-cmd convert --file-version 7 --compression none -i "$f" \
       -o "$DIR/$(basename "$f" .dat)-v7-none.dat" > /dev/null 2>&1; then
    files+=("$DIR/$(basename "$f" .dat)-v7-none.dat")
  fi
done
[[ ${#files[@]} -gt 0 ]] || skip_all "no trace.dat to convert here (trace-cmd and ../shared are missing)"

for f in "${files[@]}"; do
  name=$(basename "$f")
  be=$DIR/be-$name
  if ! python3 "$CONV" "$f" "$be" 2> "$DIR/err"; then
    not_ok "$name: converted to big-endian ($(head -c 200 "$DIR/err"))"
    continue
  fi
  if [[ $(od -An -tu1 -j12 -N1 "$be" | tr -d ' ') != 1 ]]; then
    not_ok "$name: the copy says big-endian"
    continue
  fi
  "$CLI" report "$f" > "$DIR/le.txt" 2> "$DIR/le.err"
  "$CLI" report "$be" > "$DIR/be.txt" 2> "$DIR/be.err"
  lines=$(wc -l < "$DIR/le.txt")
  if [[ $lines -gt 0 ]] && cmp -s "$DIR/le.txt" "$DIR/be.txt" && cmp -s "$DIR/le.err" "$DIR/be.err"; then
    ok "$name: seismo-cli report of the big-endian copy equals the original ($lines lines)"
  else
    not_ok "$name: seismo-cli report of the big-endian copy equals the original" \
      "($(diff "$DIR/le.txt" "$DIR/be.txt" | head -3 | tr '\n' ' '))"
  fi
  if command -v trace-cmd > /dev/null; then
    if cmp -s <(trace-cmd report "$f" 2> /dev/null) <(trace-cmd report "$be" 2> /dev/null); then
      ok "$name: trace-cmd report agrees (the copy is a valid big-endian file)"
    else
      not_ok "$name: trace-cmd report agrees (the copy is a valid big-endian file)"
    fi
  fi
done

# Records whose bytes no format explains are most of the file: refused, saying so, not shown empty.
f=${files[0]}
if python3 "$CONV" --broken-events "$f" "$DIR/broken.dat" 2> "$DIR/err"; then
  if "$CLI" info "$DIR/broken.dat" > /dev/null 2> "$DIR/err"; then
    not_ok "records of unknown events only: refused (info exited 0)"
  elif grep -q "records could not be read (.*without a format" "$DIR/err"; then
    ok "records of unknown events only: refused, saying which kind"
  else
    not_ok "records of unknown events only: refused, saying which kind ($(head -c 200 "$DIR/err"))"
  fi
else
  not_ok "records of unknown events only: the broken copy ($(head -c 200 "$DIR/err"))"
fi
tap_end
