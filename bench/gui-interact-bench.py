#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window as a person uses it: real input events (xdotool) into the real app under X, each
timed from the input until the process is idle again, with the longest frozen main-loop frame in
between (the app logs its stalls when SEISMO_STALL_LOG is set) and the main thread's CPU time in
that frame (the part a busy machine does not inflate), the resident and peak memory after
each, and the peak memory.

Usage (from the project root, after building ./build):
  GSK_RENDERER=cairo xvfb-run -a -s "-screen 0 1920x1200x24" \
      python3 bench/gui-interact-bench.py build/app/seismo FILE [--shots DIR] [--cli build/app/seismo-cli]
      [--no-cursor-blink] [--perf DIR] [--warm-up] [--launches N [--gap S]] [--busy N]

"Idle": the last moment the process was busy (over 1 ms of CPU in 10 ms) before it stayed (almost) quiet for 0.6 s after an
interaction, 1.5 s at launch (see wait_idle).
A text entry that has the focus (the filter bar, the search bar) blinks its cursor for 10 s
(GTK's gtk-cursor-blink-timeout), a frame every 0.6 s; when those frames cost more than the
quiet threshold, every typed interaction reads ~10 s. --no-cursor-blink turns blinking off (a
private XDG_CONFIG_HOME with gtk-cursor-blink=false) so that the figures are Seismo's own work.
The load average is printed before and after: the machine may be shared. So is the CPU time each
step took on the main thread and on all threads, which a busy machine does not inflate the way it
inflates wall-clock time.
--warm-up first starts the app without a file and closes it once idle: the first GTK program of
a fresh X session pays for the session (accessibility bus, caches), which a desktop has paid.
--launches N, instead of the interactions, launches the app N times on FILE with no input, each
until idle: launch -> ready and its longest frozen frame vary from one launch to the next on a
machine whose fresh memory is slow (a VM), and one launch is not a figure. Prints each and the
medians.
--gap S waits S seconds before each launch. Launches back to back reuse the memory the last one
freed; a person opens the app after a while. On a virtual machine whose balloon reports free pages
to the host (virtio-balloon's free page reporting, a few seconds after they are freed), the host
takes such memory back, and every page the next launch touches costs it a fault on the host too:
a cold launch. --gap 10 measures those; without it the series after the first are warm.
--busy N keeps N other programs busy (a loop each, on its own CPU time) while the app runs, in
the benchmark's own session: under the kernel's autogroup, the app's scheduling group, as a build
started from the same terminal would be. Whatever the app does to put its frames first, its work
must still get its share of the cores beside them.
--perf DIR records each interaction's main thread with `perf record --call-graph dwarf` into
DIR/NN-step.data (for `perf report -i`; the figures of a profiled run are not the product's).
Prints one line per interaction and a JSON summary.
"""
import json, os, shutil, subprocess, sys, tempfile, time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / TICK


def thread_ns(pid):
    """Each thread's CPU time in ns (schedstat): what wait_idle counts busy and quiet from."""
    times = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return times
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                times[tid] = int(f.read().split()[0])
        except (OSError, IndexError, ValueError):
            pass
    return times


def main_cpu_s(pid):
    """CPU time of the main thread (its tid is the pid): what a loaded machine cannot inflate."""
    with open(f"/proc/{pid}/task/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / TICK


def hwm_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def rss_mib(pid):
    """Resident and peak memory after a step (MiB): which interaction a peak comes from."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(line.split()[1]) // 1024
    return out


def wait_idle(pid, t0, idle_s, limit=600, cpu0=None):
    """Seconds from t0 to the last moment the process was busy before idle_s of quiet. Busy is
    over 1 ms of CPU in a 10 ms sample; quiet is under 3 % of a CPU over idle_s, not exactly zero:
    a window that keeps a frame clock ticking (a known bug of the rate strip) would otherwise
    never look idle. Counted in ns per thread (schedstat), not in clock ticks: a thread that only
    wakes may be charged a whole 10 ms tick and read as work. Half a second after any pointer
    motion GTK asks the widget under the pointer for a tooltip (0.3-0.5 ms on the main thread, even
    where there is none), and GLib retires an idle pool thread: neither is the step's work.
    cpu0: thread_ns at t0, taken before the input was sent. Work done while xdotool was still
    running (it takes tens of ms) then counts as busy until the first sample after it, an upper
    bound, instead of going unseen."""
    prev = cpu0 if cpu0 is not None else thread_ns(pid)
    total = 0.0
    samples = [(t0 if cpu0 is not None else time.monotonic(), total)]
    t_busy = t0
    while True:
        time.sleep(0.01)
        now, cur = time.monotonic(), thread_ns(pid)
        # A thread that ended is not counted again; a new one brings all it did.
        step = sum(max(ns - prev.get(tid, 0), 0) for tid, ns in cur.items()) / 1e9
        prev = cur
        total += step
        samples.append((now, total))
        if step > 0.001:
            t_busy = now
        while len(samples) > 2 and now - samples[1][0] >= idle_s:
            samples.pop(0)
        window = now - samples[0][0]
        if now - t0 > idle_s and window >= idle_s and total - samples[0][1] < 0.03 * window:
            return max(t_busy - t0, 0.0)
        if now - t0 > limit:
            return float("inf")


def stalls(log, t_from, t_to, column=1):
    """The longest main-loop stall (s) that ended between t_from and t_to (monotonic s).
    column 2: instead, the most main-thread CPU time one main-loop iteration took (what a busy
    machine does not inflate)."""
    worst = 0.0
    try:
        with open(log) as f:
            for line in f:
                # "END_US BUSY_US CPU_US"; "T_US input KIND" lines (an input's arrival) are not stalls.
                if "input" in line:
                    continue
                fields = [int(x) for x in line.split()]
                end = fields[0] / 1e6
                if t_from <= end <= t_to + 0.05 and len(fields) > column:
                    worst = max(worst, fields[column] / 1e6)
    except FileNotFoundError:
        pass
    return worst


def xdo(*args):
    subprocess.run(["xdotool", *args], check=True, stdout=subprocess.DEVNULL)


def launches(app, path, env, log, n, gap):
    """Launches the app n times with no input, gap seconds after the last; prints launch -> ready,
    the longest freeze (and its main-thread CPU) and the CPU of each launch, then the medians."""
    rows = []
    for i in range(n):
        time.sleep(gap)
        t0 = time.monotonic()
        proc = subprocess.Popen([app, path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ready = wait_idle(proc.pid, t0, 1.5)
            row = (ready, stalls(log, t0, t0 + ready), stalls(log, t0, t0 + ready, 2),
                   main_cpu_s(proc.pid), cpu_s(proc.pid))
        finally:
            proc.terminate()
            proc.wait()
        rows.append(row)
        print(f"launch {i + 1:2d}: ready {row[0]:6.3f} s   longest freeze {row[1] * 1000:4.0f} ms"
              f" ({row[2] * 1000:3.0f} ms CPU)   CPU main {row[3] * 1000:5.0f} ms, all {row[4] * 1000:5.0f} ms",
              flush=True)
    med = [sorted(r[k] for r in rows)[len(rows) // 2] for k in range(5)]
    print(f"launches: median ready {med[0]:.3f} s, longest freeze {med[1] * 1000:.0f} ms"
          f" ({med[2] * 1000:.0f} ms CPU), worst freeze {max(r[1] for r in rows) * 1000:.0f} ms,"
          f" CPU main {med[3] * 1000:.0f} ms, all {med[4] * 1000:.0f} ms", flush=True)


def time_input_command(args):
    """--time-input PID CMD...: for bench/seismo-gui-large-bench.sh, runs CMD (the input, xdotool)
    and waits as wait_idle does; prints the moment CMD started, in seconds of the monotonic clock
    (the app's SEISMO_STALL_LOG is on it too), and the seconds from then to idle. PID alone: waits
    for the process to be idle, prints nothing."""
    pid = args[0]
    if len(args) == 1:
        wait_idle(pid, time.monotonic(), 0.6)
        return
    cpu0 = thread_ns(pid)
    t0 = time.monotonic()
    subprocess.run(args[1:], check=True)
    print(f"{t0:.6f} {wait_idle(pid, t0, 0.6, cpu0=cpu0):.6f}")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--time-input"]:
        time_input_command(args[1:])
        return
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    app, path = args[0], args[1]
    shots = None
    cli = None
    if "--shots" in args:
        shots = args[args.index("--shots") + 1]
        os.makedirs(shots, exist_ok=True)
    if "--cli" in args:
        cli = args[args.index("--cli") + 1]
    perf_dir = None
    if "--perf" in args:
        perf_dir = args[args.index("--perf") + 1]
        os.makedirs(perf_dir, exist_ok=True)

    log = tempfile.mktemp(prefix="seismo-stalls-")
    env = {**os.environ, "SEISMO_STALL_LOG": log,
           "GSK_RENDERER": os.environ.get("GSK_RENDERER", "cairo")}
    no_blink = "--no-cursor-blink" in args
    if no_blink:
        config = tempfile.mkdtemp(prefix="seismo-bench-config-")
        os.makedirs(os.path.join(config, "gtk-4.0"))
        with open(os.path.join(config, "gtk-4.0", "settings.ini"), "w") as f:
            f.write("[Settings]\ngtk-cursor-blink=false\n")
        env["XDG_CONFIG_HOME"] = config
    load_before = os.getloadavg()
    print(f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}"
          + (" (cursor blink off)" if no_blink else ""), flush=True)
    if "--warm-up" in args:
        warm = subprocess.Popen([app], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_idle(warm.pid, time.monotonic(), 1.0)
        warm.terminate()
        warm.wait()
        print("warmed up: the app ran once without a file", flush=True)
    busy = []
    if "--busy" in args:
        for _ in range(int(args[args.index("--busy") + 1])):
            busy.append(subprocess.Popen(["sh", "-c", "while :; do :; done"]))
        print(f"{len(busy)} busy programs beside the app", flush=True)
    try:
        run(args, app, path, env, log, shots, cli, perf_dir, config if no_blink else None, load_before)
    finally:
        for b in busy:
            b.kill()
            b.wait()


def run(args, app, path, env, log, shots, cli, perf_dir, config, load_before):
    """The launches or the interactions; config: the private settings folder to remove, if any."""
    if "--launches" in args:
        try:
            gap = float(args[args.index("--gap") + 1]) if "--gap" in args else 0.0
            launches(app, path, env, log, int(args[args.index("--launches") + 1]), gap)
        finally:
            if os.path.exists(log):
                os.unlink(log)
            if config:
                shutil.rmtree(config, ignore_errors=True)
        return
    t0 = time.monotonic()
    proc = subprocess.Popen([app, path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = []
    try:
        ready = wait_idle(proc.pid, t0, 1.5)
        results.append({"what": "launch -> ready", "s": ready, "freeze_s": stalls(log, t0, t0 + ready),
                        "freeze_cpu_s": stalls(log, t0, t0 + ready, 2),
                        "main_cpu_s": main_cpu_s(proc.pid), "cpu_s": cpu_s(proc.pid),
                        "mem_mib": rss_mib(proc.pid)})
        win = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)],
                             capture_output=True, text=True, check=True).stdout.split()[-1]
        xdo("windowsize", "--sync", win, "1900", "1150")
        xdo("windowmove", "--sync", win, "0", "0")
        xdo("windowfocus", "--sync", win)
        wait_idle(proc.pid, time.monotonic(), 1.0)

        def step(what, *keys, click=None, typed=None, idle=0.6):
            if click is None:
                # Keys only: the pointer rests on the header bar's empty middle, where no tooltip
                # comes up half a second later (over the timeline one would, and count as work).
                xdo("mousemove", "--sync", "1300", "12")
                wait_idle(proc.pid, time.monotonic(), idle)
            recorder = None
            if perf_dir:
                name = "".join(c if c.isalnum() else "-" for c in what).strip("-")
                recorder = subprocess.Popen(
                    ["perf", "record", "-q", "-F", "499", "--call-graph", "dwarf,16384", "-t", str(proc.pid),
                     "-o", os.path.join(perf_dir, f"{len(results) + 1:02d}-{name}.data")],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(0.3)
            main0, all0 = main_cpu_s(proc.pid), cpu_s(proc.pid)
            t, c = time.monotonic(), thread_ns(proc.pid)
            if click is not None:
                xdo("mousemove", "--sync", str(click[0]), str(click[1]))
                t, c = time.monotonic(), thread_ns(proc.pid)
                # --delay 0: xdotool's click otherwise sleeps 0.1 s after the release (its delay
                # between repeated clicks), and the first sample comes only after that.
                xdo("click", "--delay", "0", "1")
            for k in keys:
                xdo("key", "--clearmodifiers", k)
            if typed is not None:
                xdo("type", "--delay", "0", typed)
                t, c = time.monotonic(), thread_ns(proc.pid)
                xdo("key", "Return")
            took = wait_idle(proc.pid, t, idle, cpu0=c)
            if recorder is not None:
                recorder.send_signal(2)
                recorder.wait()
            r = {"what": what, "s": took, "freeze_s": stalls(log, t, t + took),
                 "freeze_cpu_s": stalls(log, t, t + took, 2),
                 "main_cpu_s": round(main_cpu_s(proc.pid) - main0, 3),
                 "cpu_s": round(cpu_s(proc.pid) - all0, 3), "mem_mib": rss_mib(proc.pid)}
            results.append(r)
            print(f"{what:42s} {took:7.3f} s   longest freeze {r['freeze_s'] * 1000:4.0f} ms"
                  f" ({r['freeze_cpu_s'] * 1000:3.0f} ms CPU)"
                  f"   CPU main {r['main_cpu_s'] * 1000:5.0f} ms, all {r['cpu_s'] * 1000:5.0f} ms"
                  f"   RSS {r['mem_mib']['VmRSS']} MiB, peak {r['mem_mib']['VmHWM']} MiB", flush=True)
            if shots:
                name = "".join(c if c.isalnum() else "-" for c in what).strip("-")
                subprocess.run(["import", "-window", "root",
                                os.path.join(shots, f"{len(results):02d}-{name}.png")])

        print(f"{'launch -> ready':42s} {ready:7.3f} s   longest freeze "
              f"{results[0]['freeze_s'] * 1000:4.0f} ms ({results[0]['freeze_cpu_s'] * 1000:3.0f} ms CPU)   CPU main {results[0]['main_cpu_s'] * 1000:5.0f} ms,"
              f" all {results[0]['cpu_s'] * 1000:5.0f} ms   RSS {results[0]['mem_mib']['VmRSS']} MiB,"
              f" peak {results[0]['mem_mib']['VmHWM']} MiB", flush=True)
        step("zoom in (Ctrl+plus)", "ctrl+plus")
        step("pan right (Right)", "Right")
        step("zoom out (Ctrl+minus)", "ctrl+minus")
        step("filter (Ctrl+L, cpu == 0, Enter)", "ctrl+l", "ctrl+a", typed="cpu == 0")
        step("clear the filter (Ctrl+L, empty, Enter)", "ctrl+l", "ctrl+a", "BackSpace", typed="")
        step("filter again", "ctrl+l", "ctrl+a", typed="cpu == 0")
        step("select an event (click in the list)", click=(500, 900))
        step("clear the filter with an event selected", "ctrl+l", "ctrl+a", "BackSpace", typed="")
        step("search with no match (Ctrl+F)", "ctrl+f", "ctrl+a", typed="zzzz-no-such-thing")
        # Digits could be in any number field: every event's numbers are read (the worst case).
        step("search digits, no match", "ctrl+f", "ctrl+a", typed="987654321987")
        xdo("key", "Escape")
        step("open the Histogram pane (Alt+2)", "alt+2")
        step("open the Statistics pane (Alt+3)", "alt+3")
        step("back to Details (Alt+1)", "alt+1")
        step("Escape (clear markers)", "Escape")
        peak = hwm_kb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        try:
            os.unlink(log)
        except FileNotFoundError:
            pass
        if config:
            shutil.rmtree(config, ignore_errors=True)

    load_after = os.getloadavg()
    summary = {"file": path, "peak_rss_mib": round(peak / 1024, 1), "steps": results,
               "cursor_blink": config is None,
               "load_average": [round(x, 2) for x in load_before],
               "load_average_after": [round(x, 2) for x in load_after]}
    if cli:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", cli, "info", path],
                             capture_output=True, text=True)
        cli_kb = int(out.stderr.strip().splitlines()[-1])
        summary["cli_peak_rss_mib"] = round(cli_kb / 1024, 1)
        summary["gui_over_cli"] = round(peak / cli_kb, 2)
    print(f"load average after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print(f"peak memory {peak / 1024:.0f} MiB" +
          (f" (seismo-cli info: {summary['cli_peak_rss_mib']:.0f} MiB, {summary['gui_over_cli']}x)"
           if cli else ""))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
