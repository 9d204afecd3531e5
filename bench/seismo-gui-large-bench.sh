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
# Then the Statistics pane: opened (Alt+3) on the whole trace, and SEISMO_BENCH_RANGES (5) ranges
# set with two markers (click, Shift+click on the timeline at SEISMO_BENCH_TIMELINE_Y pixels from
# the window's top), each input → idle (the process under 3 % of a CPU for 0.6 s: the pane
# computes in a worker) and from the input's arrival in the window, with the CPU time it took,
# main thread and all, then the medians; screenshots large-5-stats.png, large-6-stats-range.png
# and the last range's Events and Tasks tables (large-7-…, large-8-…). The cursor does not blink
# (private GTK settings).
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

cpu_ticks() {  # utime + stime of /proc/$1/stat (or of a thread's stat file)
  awk '{ sub(/.*\) /, ""); print $12 + $13 }' "$1"
}

# Runs the input in "$@" after $1 (a pid) and waits until that process is idle again, by the rule
# of gui-interact-bench.py's wait_idle (busy: over 1 ms of CPU in a 10 ms sample, counted in ns per
# thread; idle: under 3 % of a CPU for 0.6 s); prints when the input started (monotonic seconds,
# the clock of SEISMO_STALL_LOG) and the seconds from then to idle. With no input, only waits.
time_input() {
  python3 "$here/gui-interact-bench.py" --time-input "$@"
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# One pane step: the keys or clicks in "$@" (xdotool arguments), input → idle, with CPU times.
# Timed twice: from xdotool's start (an upper bound), and from the input's arrival in the window
# (the app logs it, SEISMO_STALL_LOG's "T_US input KIND" lines, on the monotonic clock), where a
# person's input would be.
pane_step() {
  local what=$1 pid=$2; shift 2
  local t0 m0 a0 took hz n0 arrived
  hz=$(getconf CLK_TCK)
  time_input $pid
  n0=$(wc -l < "$stall_log" 2> /dev/null || echo 0)
  m0=$(cpu_ticks /proc/$pid/task/$pid/stat)
  a0=$(cpu_ticks /proc/$pid/stat)
  read -r t0 took < <(time_input $pid xdotool "$@")
  step_took=$took
  # The first input the window saw, as seconds after t0 (both on the monotonic clock).
  arrived=$(tail -n +$((n0 + 1)) "$stall_log" 2> /dev/null |
    awk -v t0="$t0" '$2 == "input" { printf "%.6f", $1 / 1e6 - t0; exit }')
  # The longest main-loop stall the app logged since the input (SEISMO_STALL_LOG: "end_us gap_us").
  printf '%s: %.3f s input -> idle, %s, longest freeze %.0f ms (CPU main %.0f ms, all %.0f ms)\n' \
    "$what" "$took" \
    "$(if [[ -n $arrived ]]; then
         printf '%.3f s from its arrival in the window' "$(echo "$took - $arrived" | bc -l)"
       else
         echo "its arrival not logged"
       fi)" \
    "$(tail -n +$((n0 + 1)) "$stall_log" 2> /dev/null | awk 'NF == 3 && $2 > m { m = $2 } END { print m / 1000 }')" \
    "$(echo "($(cpu_ticks /proc/$pid/task/$pid/stat) - $m0) * 1000 / $hz" | bc -l)" \
    "$(echo "($(cpu_ticks /proc/$pid/stat) - $a0) * 1000 / $hz" | bc -l)"
}

inner() {
  local pid t0 t1 win config
  stall_log=$(mktemp)
  # A text entry with the focus blinks its cursor, a frame every 0.4-0.8 s for 10 s after each
  # key: the steps would count those frames as their work. Blinking off, in private settings
  # (as gui-interact-bench.py --no-cursor-blink).
  config=$(mktemp -d)
  mkdir -p "$config/gtk-4.0"
  printf '[Settings]\ngtk-cursor-blink=false\n' > "$config/gtk-4.0/settings.ini"
  XDG_CONFIG_HOME=$config SEISMO_STALL_LOG=$stall_log GSK_RENDERER=cairo "$app" "$file" > /dev/null 2>&1 &
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
  # Statistics of the whole trace (the file's summary), then of a range of it. First the launch
  # toasts go (one after the other, 5 s and 10 s): their closing animations would count as the
  # steps' work.
  sleep "${SEISMO_BENCH_TOAST_WAIT:-16}"
  uptime
  # The pointer on the header bar's empty part: over the timeline, a tooltip comes up half a
  # second after the pane opens beneath it.
  xdotool mousemove --window "$win" 880 12
  pane_step "open the Statistics pane (Alt+3)" $pid key --window "$win" alt+3
  [[ -n $shots ]] && import -window root "$shots/large-5-stats.png"
  local y=${SEISMO_BENCH_TIMELINE_Y:-300}
  # The pointer leaves the timeline after each click: its tooltip (half a second later) is not
  # the step's work.
  # click --delay 0: xdotool's click otherwise sleeps 0.1 s after the release (its delay between
  # repeated clicks), the pointer still on the timeline, before it goes on to the next command.
  # Several ranges, each a little narrower: one step is not a figure.
  local i a_took=() b_took=()
  for ((i = 0; i < ${SEISMO_BENCH_RANGES:-5}; i++)); do
    xdotool mousemove --window "$win" $((300 + 20 * i)) "$y"
    pane_step "marker A (click)" $pid click --delay 0 1 mousemove --window "$win" 880 12
    a_took+=("$step_took")
    xdotool mousemove --window "$win" $((700 - 20 * i)) "$y"
    pane_step "range statistics: marker B (Shift+click)" $pid keydown shift click --delay 0 1 keyup shift \
      mousemove --window "$win" 880 12
    b_took+=("$step_took")
  done
  printf 'medians of %d: marker A %.3f s, range statistics (marker B) %.3f s input -> idle\n' \
    ${#a_took[@]} "$(median "${a_took[@]}")" "$(median "${b_took[@]}")"
  if [[ -n $shots ]]; then
    import -window root "$shots/large-6-stats-range.png"
    # The range's event types and tasks (tabs where a 1400×900 screen puts them).
    xdotool mousemove --window "$win" ${SEISMO_BENCH_EVENTS_TAB:-1080 641} click 1
    sleep 1
    import -window root "$shots/large-7-stats-range-events.png"
    xdotool mousemove --window "$win" ${SEISMO_BENCH_TASKS_TAB:-813 641} click 1
    sleep 1
    import -window root "$shots/large-8-stats-range-tasks.png"
  fi
  xdotool key --window "$win" Escape alt+1
  time_input $pid
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
  rm -rf "$stall_log" "$config"
}
# Under Xvfb, this script again (xvfb-run's shell would not pass a bash function on).
if [[ ${SEISMO_GUI_BENCH_INNER:-} == 1 ]]; then
  inner
else
  SEISMO_GUI_BENCH_INNER=1 xvfb-run -a -s "-screen 0 1400x900x24" "$0" "$@"
fi
