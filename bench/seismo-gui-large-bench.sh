#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# seismo-gui-large-bench.sh FILE.seismo [BUILD_DIR] [SHOTS_DIR]
#
# The real window on a trace larger than memory (bench/seismo-gen 1000000000 FILE.seismo), under
# Xvfb with real input from xdotool: launch → trace shown (the window title becomes the file's
# name), then zoom in three times and out once (Ctrl+plus / Ctrl+minus), each input → the next
# frame idle (xdotool waits for the key; GTK draws before it takes more input), and the window's
# peak RSS (VmHWM). With SHOTS_DIR, a screenshot after launch, after each of two zoom steps, and
# zoomed in to where a window of events is read (large-4-events.png).
# Set SEISMO_SUMMARY_MIN_EVENTS to open smaller files the same way.
set -euo pipefail

file=${1:?usage: seismo-gui-large-bench.sh FILE.seismo [BUILD_DIR] [SHOTS_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
build=${2:-$here/../build}
shots=${3:-}
app=$build/app/seismo
[[ -x $app ]] || { echo "build first: $app is missing" >&2; exit 1; }
for tool in xvfb-run xdotool import; do
  command -v $tool > /dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
name=$(basename "$file")

inner() {
  local pid t0 t1 win
  GSK_RENDERER=cairo "$app" "$file" > /dev/null 2>&1 &
  pid=$!
  t0=$(date +%s.%N)
  # The title is "Seismo" until the trace is shown, then the file's name.
  until win=$(xdotool search --name "^${name}\$" 2> /dev/null | head -1) && [[ -n $win ]]; do
    kill -0 $pid 2> /dev/null || { echo "seismo exited" >&2; exit 1; }
    sleep 0.05
  done
  t1=$(date +%s.%N)
  printf 'launch -> trace shown: %.2f s\n' "$(echo "$t1 - $t0" | bc)"
  sleep 1
  [[ -n $shots ]] && import -window root "$shots/large-1-whole.png"
  xdotool windowactivate --sync "$win" 2> /dev/null || xdotool windowfocus --sync "$win"
  for step in 1 2 3; do
    t0=$(date +%s.%N)
    xdotool key --window "$win" ctrl+plus ctrl+plus ctrl+plus
    # A round trip through the X server after GTK handled the keys: the frame is done.
    xdotool getwindowname "$win" > /dev/null
    t1=$(date +%s.%N)
    printf 'zoom in x3 (step %d): %.3f s\n' $step "$(echo "$t1 - $t0" | bc)"
    sleep 0.5
    [[ -n $shots && $step -le 2 ]] && import -window root "$shots/large-$((step + 1))-zoom$step.png"
  done
  t0=$(date +%s.%N)
  xdotool key --window "$win" ctrl+minus
  xdotool getwindowname "$win" > /dev/null
  t1=$(date +%s.%N)
  printf 'zoom out: %.3f s\n' "$(echo "$t1 - $t0" | bc)"
  if [[ -n $shots ]]; then
    # Zoomed in far enough for one window of events: they are read while the summary is drawn.
    xdotool key --window "$win" ctrl+plus ctrl+plus ctrl+plus ctrl+plus ctrl+plus ctrl+plus
    sleep "${SEISMO_BENCH_WINDOW_WAIT:-20}"
    import -window root "$shots/large-4-events.png"
  fi
  printf 'peak RSS: %s\n' "$(grep VmHWM /proc/$pid/status | awk '{printf "%.0f MiB", $2 / 1024}')"
  kill $pid
}
# Under Xvfb, this script again (xvfb-run's shell would not pass a bash function on).
if [[ ${SEISMO_GUI_BENCH_INNER:-} == 1 ]]; then
  inner
else
  SEISMO_GUI_BENCH_INNER=1 xvfb-run -a -s "-screen 0 1400x900x24" "$0" "$@"
fi
