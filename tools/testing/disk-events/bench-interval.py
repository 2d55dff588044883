#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-interval: what the poll interval trades, at one drive.

bench-interval.py OUTDIR: boot the lean kernels with one virtio-scsi CD
drive, polled by our core and by the pristine base every
$BENCH_INTERVALS ms (default 1000 2000 4000 8000), and with none for
each kernel's baseline.  $BENCH_RUNS runs (default 3), interleaved as
make bench interleaves them, counted by the same guest and the same code
(bench.py).  Writes OUTDIR/interval.md and the plot OUTDIR/interval.png:
wake-ups and interrupts against detection latency, which a longer
interval trades one for the other, and which intervals meet the targets
that issue 16 sets at 2000 ms.  Fails only if a run is unhealthy or
missing.
"""

import datetime
import os
import statistics
import subprocess
import sys
import time

import bench

DRIVES = 1
REFERENCE_MS = 2000  # the latency targets are the base's at this interval
TARGET_TIMER_WAKEUPS = 0.6
FIGURES = [("timer_wakeups", "timer wake-ups/s"), ("wakeups", "wake-ups/s (idle exits)"),
           ("interrupts", "interrupts/s"), ("cpu_ms", "CPU ms/s"),
           ("checks", "checks/s (device)")]


def window_s(ms):
    """The idle window for polling every @ms: make bench's, or four
    intervals if longer, so that a window never holds fewer than four
    checks and one check more or less moves a figure by a quarter at
    most.  The baseline (@ms 0) has make bench's."""
    return max(bench.WINDOW_S, 4 * ms // 1000)


def measure(intervals, runs):
    """Every run, interleaved; ({(subject, ms): [figures]}, [problems]),
    ms 0 for a subject's baseline (no drives)."""
    done, problems = {}, []
    for run in range(runs):
        order = bench.SUBJECTS if run % 2 == 0 else bench.SUBJECTS[::-1]
        for ms in [0] + intervals:
            for key, tree, mode, label in order:
                n = DRIVES if ms else 0
                print("bench-interval: run %d, %s, %d drives, %d ms" % (
                    run + 1, label, n, ms or bench.POLL_MS), flush=True)
                fig = bench.boot(tree, mode, n, run, ms or bench.POLL_MS,
                                 window_s(ms))
                why = bench.unhealthy(fig)
                if why:
                    problems.append("run %d, %s, %s: %s" % (
                        run + 1, label, "%d ms" % ms if ms else "no drives", why))
                    print("bench-interval:   does not count: " + why, flush=True)
                    continue
                done.setdefault((key, ms), []).append(bench.per_second(fig))
    return done, problems


def cells_of(done, intervals):
    """{(subject, ms): bench.cell()} for every cell with runs and a baseline."""
    cells = {}
    for key, _, _, _ in bench.SUBJECTS:
        base_runs = done.get((key, 0))
        if not base_runs:
            continue
        base = {k: statistics.median(r[k] for r in base_runs) for k, _ in bench.EXTRA}
        for ms in intervals:
            if done.get((key, ms)):
                cells[(key, ms)] = bench.cell(done[(key, ms)], base)
    return cells


def table(cells, intervals):
    head = "| polling | interval (ms) | runs | " + " | ".join(
        label for _, label in FIGURES) + " | latency p50, p90 (ms) |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for key, _, _, label in bench.SUBJECTS:
        for ms in intervals:
            c = cells.get((key, ms))
            if not c:
                lines.append("| %s | %d | 0 |%s" % (label, ms, " - |" * (len(FIGURES) + 1)))
                continue
            lines.append("| %s | %d | %d | %s | %s, %s of %d |" % (
                label, ms, c["runs"], " | ".join(bench.fmt(c[k]) for k, _ in FIGURES),
                bench.fmt(c["p50"], "%d"), bench.fmt(c["p90"], "%d"), c["samples"]))
    return "\n".join(lines)


def verdicts(cells, intervals):
    """Our core at each interval against the targets, the base at
    REFERENCE_MS the reference; then the intervals that meet them all."""
    ref = cells.get(("base", REFERENCE_MS))
    if not ref or ref["p50"] is None:
        return ["- NOT judged: the base has no healthy run at %d ms" % REFERENCE_MS]
    out, all_met = [], []
    for ms in intervals:
        ours = cells.get(("ours", ms))
        if not ours or ours["p50"] is None:
            out.append("- %d ms: NOT judged, no healthy run of our core" % ms)
            continue
        checks = [
            ("timer wake-ups/s %.2f, at most %.1f" % (
                ours["timer_wakeups"][0], TARGET_TIMER_WAKEUPS),
             ours["timer_wakeups"][0] <= TARGET_TIMER_WAKEUPS),
            ("interrupts/s %.2f, at most 1/5 of the base's %.2f" % (
                ours["interrupts"][0], ref["interrupts"][0]),
             ours["interrupts"][0] <= ref["interrupts"][0] / 5),
            ("latency p50 %d ms, at most the base's %d + 10%%" % (ours["p50"], ref["p50"]),
             ours["p50"] <= 1.1 * ref["p50"]),
            ("latency p90 %d ms, at most the base's %d + 10%%" % (ours["p90"], ref["p90"]),
             ours["p90"] <= 1.1 * ref["p90"]),
        ]
        out += ["- %d ms: %s: %s" % (ms, text, "met" if met else "NOT met")
                for text, met in checks]
        if all(met for _, met in checks):
            all_met.append(ms)
    out.append("- intervals that meet all four: %s" % (
        ", ".join("%d ms" % ms for ms in all_met) or "none"))
    return out


def plot(cells, intervals, outdir):
    """OUTDIR/interval.png: timer wake-ups and interrupts (left axis, with
    their spread) and latency (right axis) against the interval."""
    ref = cells.get(("base", REFERENCE_MS))
    script = ["set terminal pngcairo size 960,720",
              "set output '%s'" % os.path.join(outdir, "interval.png"),
              "set title 'One polled CD drive: what the interval trades'",
              "set xlabel 'poll interval (ms)'", "set logscale x 2",
              "set xrange [%f:%f]" % (min(intervals) / 1.3, max(intervals) * 1.3),
              "set xtics (%s)" % ", ".join(str(ms) for ms in intervals),
              "set ylabel 'per second, minus no drives'", "set y2label 'latency (ms)'",
              "set ytics nomirror", "set y2tics", "set key below maxrows 6",
              # Not from 0: minus no drives, a median can be below it.
              "set yrange [*:*]", "set y2range [0:*]"]
    series = []
    for key, _, _, label in bench.SUBJECTS:
        for fig, name in (("timer_wakeups", "timer wake-ups/s"), ("interrupts", "interrupts/s")):
            rows = ["%d %f %f %f" % ((ms,) + cells[(key, ms)][fig])
                    for ms in intervals if (key, ms) in cells]
            series.append(("'-' using 1:2:3:4 axes x1y1 with yerrorlines "
                           "title '%s, %s'" % (label, name), rows))
        for fig in ("p50", "p90"):
            rows = ["%d %d" % (ms, cells[(key, ms)][fig])
                    for ms in intervals
                    if (key, ms) in cells and cells[(key, ms)][fig] is not None]
            series.append(("'-' using 1:2 axes x1y2 with linespoints dashtype 2 "
                           "title '%s, latency %s'" % (label, fig), rows))
    targets = ["%f axes x1y1 with lines dashtype 3 lw 2 title 'target: %.1f timer "
               "wake-ups/s'" % (TARGET_TIMER_WAKEUPS, TARGET_TIMER_WAKEUPS)]
    if ref and ref["p90"] is not None:
        targets.append("%f axes x1y2 with lines dashtype 3 lw 2 title 'target: "
                       "latency p90 at most the base at %d ms + 10%%'" % (
                           1.1 * ref["p90"], REFERENCE_MS))
    script.append("plot " + ", ".join([s for s, _ in series] + targets))
    for _, rows in series:
        script += rows + ["e"]
    subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    intervals = [int(x) for x in
                 os.environ.get("BENCH_INTERVALS", "1000 2000 4000 8000").split()]
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    measured = bench.versions()
    start = time.monotonic()
    done, problems = measure(intervals, runs)
    minutes = (time.monotonic() - start) / 60
    cells = cells_of(done, intervals)
    text = "\n".join([
        "# Disk events polling: what the interval trades, at one drive", "",
        "Written by `make bench-interval` on %s: %s; the run took %.1f min.  "
        "One virtio-scsi CD drive with a disc, polled by each subject every "
        "interval; %d runs per cell, interleaved, each kernel's baseline (no "
        "drives) once a run.  Counted as `make bench` counts (bench.py, "
        "tests/bench.sh): a figure is the median of its runs with their range, "
        "per second of an idle window (%d s, or four intervals if longer) "
        "minus the same kernel with no drives; "
        "latency from the QMP command to the uevent, %d changes a run at phases "
        "spread over the interval, pooled.  The targets are issue 16's, set "
        "at %d ms: our core's latency against the base's at %d ms." % (
            datetime.date.today().isoformat(), measured, minutes, runs,
            bench.WINDOW_S, bench.CHANGES, REFERENCE_MS, REFERENCE_MS),
        "", table(cells, intervals), "",
        "Targets, at each interval (ours; the base at %d ms the reference):" %
        REFERENCE_MS, ""] + verdicts(cells, intervals) + [
        "", "Runs that do not count: %s" % ("; ".join(problems) or "none"), ""])
    with open(os.path.join(outdir, "interval.md"), "w") as f:
        f.write(text)
    print(text)
    plot(cells, intervals, outdir)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
