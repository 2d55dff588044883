#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: polling costs of our core and the base, like with like.

bench.py OUTDIR: boot the lean kernels with N virtio-scsi CD drives
(N = 0, for the baseline, and $BENCH_N, default 1 8 64 256), polled
every 2000 ms by our core or by the pristine base ($BENCH_HAL=1 adds
user-space polling as hal did it, on the base with kernel polling off).
Every cell runs $BENCH_RUNS times (default 3), the runs interleaved:
run 1 of every cell, then run 2 of every cell, the subjects' order
swapped each time.  Every subject is counted the same way, by the guest
(tests/bench.sh) and the device.  Writes OUTDIR/results.md and the
plots OUTDIR/wakeups.png and OUTDIR/workers.png.  Fails only if a run
is unhealthy or missing; the figures and verdicts are reported.
"""

import datetime
import hashlib
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import e2e
import machine
import vm

POLL_MS = 2000
WINDOW_S = 15
CHANGES = 6
# (key, tree, guest mode, label)
SUBJECTS = [("ours", "ours", "kernel", "our core"),
            ("base", "stock", "kernel", "base")]
HAL = ("hal", "stock", "poller", "user space (hal)")

# Per-second figures of a run, minus the same kernel's baseline
# (no drives), and absolute ones; name, label.
EXTRA = [("wakeups", "wake-ups/s (idle exits)"),
         ("timer_wakeups", "timer wake-ups/s"),
         ("poll_timers", "polling timer expiries/s"),
         ("interrupts", "interrupts/s"),
         ("local_timer", "local timer interrupts/s"),
         ("cpu_ms", "CPU ms/s")]
ABSOLUTE = [("kworkers", "kworkers"), ("checks", "checks/s (device)")]


def method_id():
    """A digest of the files that make the figures: results that carry
    another were measured another way (cover.py checks it)."""
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha1()
    for name in ("bench.py", "guest/tests/bench.sh"):
        with open(os.path.join(here, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:12]


def tsc_khz():
    """The host's TSC rate, which is the guest's under TCG (QEMU reads the
    host TSC).  The guest has no ACPI timers to calibrate it against,
    and without a TSC clocksource its clocks tick in jiffies."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("cpu MHz"):
                return int(float(line.split(":")[1]) * 1000)
    return 0


def boot(tree, mode, n, run, poll_ms=POLL_MS, window_s=WINDOW_S):
    """Run one benchmark guest, its drives polled every @poll_ms, counted
    over @window_s; its raw figures, console and host-stamped."""
    name = "%s-%s-%d-%d" % (tree, mode, n, run)
    if poll_ms != POLL_MS:
        name += "-%dms" % poll_ms
    rundir = os.path.join(e2e.BUILD, "run", "bench", name)
    log, stamps = rundir + ".log", rundir + ".stamps"
    dfl = poll_ms if mode == "kernel" else 0
    status = vm.run([
        "--kernel", os.path.join(e2e.BUILD, "obj", tree + "-lean", "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
        "--append", "console=ttyS0 loglevel=5 panic=1 dtest=bench nd=%d mode=%s "
                    "window=%d changes=%d poll=%d block.events_dfl_poll_msecs=%d "
                    "tsc=reliable tsc_early_khz=%d" % (
                        n, mode, window_s, CHANGES, poll_ms, dfl, tsc_khz()),
        "--drives", "bench%d" % n, "--rundir", rundir, "--log", log,
        "--stamps", stamps, "--timeout", "600"])
    fig = {"status": status, "n": n}
    with open(log, errors="replace") as f:
        for line in f:
            m = re.match(r"bench: (\w+) (\S+)", line.strip())
            if m:
                fig[m.group(1)] = m.group(2)
    fig["latency_ms"] = latencies(stamps, fig.get("cd0_dev", "sr0"))
    return fig


def latencies(stamps, dev):
    """Host ms from each QMP media change to the event line on the console."""
    event = re.compile(r"\b%s\b.*media_change" % re.escape(dev))
    out, sent = [], None
    with open(stamps, errors="replace") as f:
        for line in f:
            ms, kind, text = (line.rstrip("\n").split(" ", 2) + [""])[:3]
            if kind == "request" and text.startswith("change cd0 lat-"):
                sent = int(ms)
            elif kind == "console" and sent is not None and event.search(text):
                out.append(int(ms) - sent)
                sent = None
    return out


def per_second(fig):
    """A run's figures per second of its window, as the guest framed it."""
    window = int(fig["window_ns"]) / 1e9
    cpus = int(fig["cpus"])
    gesn = [int(x) for x in fig.get("gesn_per_drive", "0").split(",")[1:]]
    return {
        "wakeups": int(fig["wakeups"]) / window,
        "timer_wakeups": int(fig["timer_wakeups"]) / window,
        "poll_timers": int(fig["poll_timers"]) / window,
        "interrupts": int(fig["interrupts"]) / window,
        "local_timer": int(fig["local_timer"]) / window,
        "cpu_ms": (cpus * window - int(fig["idle_ns"]) / 1e9) * 1000 / window,
        "kworkers": int(fig["kworkers"]),
        "checks": sum(gesn) / window,
        "polled": sum(1 for g in gesn if g > 0),
        "latency_ms": fig["latency_ms"],
    }


def unhealthy(fig):
    """Why a run does not count; None if it does."""
    n = fig["n"]
    if fig["status"] != 0:
        return "guest status %s" % fig["status"]
    missing = [k for k in ("drives", "cpus", "window_ns", "idle_ns", "wakeups",
                           "poll_timers", "interrupts", "kworkers") if k not in fig]
    if missing:
        return "no " + ", ".join(missing)
    if int(fig["drives"]) != n:
        return "%s drives of %d" % (fig["drives"], n)
    if n and per_second(fig)["polled"] != n:
        return "%d of %d drives polled" % (per_second(fig)["polled"], n)
    if n and len(fig["latency_ms"]) != CHANGES:
        return "%d of %d changes seen" % (len(fig["latency_ms"]), CHANGES)
    return None


def percentile(values, p):
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def cell(runs, base):
    """Median and spread (min, max) of each figure over @runs, the extra
    ones minus @base, the baseline's medians; pooled latency percentiles."""
    out = {"runs": len(runs)}
    for key in [k for k, _ in EXTRA + ABSOLUTE]:
        vals = [r[key] - base.get(key, 0) for r in runs]
        out[key] = (statistics.median(vals), min(vals), max(vals))
    lat = [ms for r in runs for ms in r["latency_ms"]]
    out["p50"], out["p90"], out["samples"] = percentile(lat, 50), percentile(lat, 90), len(lat)
    return out


def fmt(v, spec="%.2f"):
    """A median with its spread, "m (lo-hi)"; "-" for none."""
    if v is None:
        return "-"
    if isinstance(v, tuple):
        return "%s (%s..%s)" % tuple(spec % x for x in v)
    return spec % v


def table(cells, sizes, subjects):
    head = "| polling | drives | runs | " + " | ".join(
        label for _, label in EXTRA + ABSOLUTE) + " | latency p50, p90 (ms) |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for key, _, _, label in subjects:
        for n in sizes:
            c = cells.get((key, n))
            if not c:
                lines.append("| %s | %d | 0 | %s |" % (label, n, " | ".join(
                    "-" for _ in EXTRA + ABSOLUTE + [0])))
                continue
            lines.append("| %s | %d | %d | %s | %s, %s of %d |" % (
                label, n, c["runs"],
                " | ".join(fmt(c[k], "%.0f" if k == "kworkers" else "%.2f")
                           for k, _ in EXTRA + ABSOLUTE),
                fmt(c["p50"], "%d"), fmt(c["p90"], "%d"), c["samples"]))
    return "\n".join(lines)


def verdicts(cells, sizes):
    """The issue's targets at every N, as report lines."""
    out = []
    for n in sizes:
        ours, base = cells.get(("ours", n)), cells.get(("base", n))
        if not ours or not base:
            out.append("- N = %d: NOT judged, a subject has no healthy run" % n)
            continue
        med = lambda c, k: c[k][0]
        checks = [
            ("polling timer expiries/s %.2f, at most 0.6" % med(ours, "poll_timers"),
             med(ours, "poll_timers") <= 0.6),
            ("extra timer wake-ups/s (idle exits by a local timer) %.2f, at most "
             "0.6; the base's %.2f" % (med(ours, "timer_wakeups"),
                                       med(base, "timer_wakeups")),
             med(ours, "timer_wakeups") <= 0.6),
            ("extra interrupts/s %.2f, at most 1/5 of the base's %.2f" % (
                med(ours, "interrupts"), med(base, "interrupts")),
             med(ours, "interrupts") <= med(base, "interrupts") / 5),
            ("kworkers %d, at most the base's %d + 8" % (
                med(ours, "kworkers"), med(base, "kworkers")),
             med(ours, "kworkers") <= med(base, "kworkers") + 8),
            ("CPU ms/s for polling %.2f, at most the base's %.2f" % (
                med(ours, "cpu_ms"), med(base, "cpu_ms")),
             med(ours, "cpu_ms") <= med(base, "cpu_ms")),
            ("latency p50 %s ms, at most the base's %s + 10%%" % (ours["p50"], base["p50"]),
             ours["p50"] is not None and base["p50"] is not None and
             ours["p50"] <= 1.1 * base["p50"]),
            ("latency p90 %s ms, at most the base's %s + 10%%" % (ours["p90"], base["p90"]),
             ours["p90"] is not None and base["p90"] is not None and
             ours["p90"] <= 1.1 * base["p90"]),
        ]
        for text, met in checks:
            out.append("- N = %d: %s: %s" % (n, text, "met" if met else "NOT met"))
    return out


def plot(cells, sizes, subjects, outdir, name, keys, ylabel, title):
    """OUTDIR/NAME.png: @keys' medians against N with their spread."""
    script = ["set terminal pngcairo size 900,540",
              "set output '%s'" % os.path.join(outdir, name + ".png"),
              "set title '%s'" % title, "set xlabel 'polled CD drives'",
              "set ylabel '%s'" % ylabel, "set logscale x 2", "set key left top"]
    series = [(s, k, l) for s in subjects for k, l in keys]
    script.append("plot " + ", ".join(
        "'-' using 1:2:3:4 with yerrorlines title '%s, %s'" % (s[3], l)
        for s, _, l in series))
    for s, key, _ in series:
        for n in sizes:
            c = cells.get((s[0], n))
            if c and c[key]:
                script.append("%d %f %f %f" % ((n,) + c[key]))
        script.append("e")
    subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)


def versions():
    """The machine, QEMU, the base, our commit and the method, taken when
    a run starts.  Our commit is this harness's repository's, whose files
    assemble.sh put into the tree, wherever $BUILD is."""
    qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                          text=True).stdout.splitlines()[0]
    with open(os.path.join(e2e.BUILD, "base-version")) as f:
        base = f.read().strip()
    here = os.path.dirname(os.path.abspath(__file__))
    ours = subprocess.run(["git", "-C", here, "describe", "--always", "--dirty"],
                          capture_output=True, text=True).stdout.strip()
    return ("%s, %d CPUs, %s under TCG, guests with two CPUs (-smp %s), lean "
            "kernels; base %s; ours at %s; method %s" % (
                platform.node(), os.cpu_count(), qemu, machine.SMP, base, ours,
                method_id()))


def stamp(subjects, minutes, measured):
    """The method, the machine and the versions (@measured, versions()),
    for results.md."""
    return (
        "Written by `make bench` on %s: %s; "
        "subjects: %s; the run took %.1f min.  "
        "Each guest has N virtio-scsi CD drives with a disc, polled every %d ms.  "
        "Every cell is %s runs, interleaved; a figure is the median of its runs "
        "with their range.  Counted alike for every subject, by the guest in a "
        "%d s idle window whose counters are read right around it and divided "
        "by its length: wake-ups are CPU idle exits (trace event "
        "power:cpu_idle), timer wake-ups those whose idle period took a local "
        "timer interrupt, whatever the timer; polling timer expiries are the "
        "distinct timer wheel buckets from which a timer queued disk events "
        "work (the base's per-disk timers, our core's tick), from the same "
        "trace; interrupts are all of /proc/interrupts on every CPU "
        "(local timer interrupts, its LOC row, beside them); "
        "CPU ms/s is the time the CPUs were not idle.  These four are shown "
        "minus the same kernel with no drives.  kworkers: threads named so, at "
        "the window's ends (the larger).  checks/s: GET EVENT STATUS "
        "NOTIFICATION commands per drive summed, QEMU's SCSI trace (device "
        "side); a run counts only if its guest exited cleanly with all N "
        "drives, each polled in the window, and saw all %d media changes.  "
        "Latency: host clock, QMP command to the event line on the serial "
        "console, %d changes per run at phases spread evenly over the "
        "interval, each more than an interval after the last was seen (so "
        "that none looks like a flapping drive; the first after an untimed "
        "change), pooled over the runs." % (
            datetime.date.today().isoformat(), measured,
            ", ".join(s[3] for s in subjects), minutes,
            POLL_MS, os.environ.get("BENCH_RUNS", "3"), WINDOW_S, CHANGES, CHANGES))


def measure(subjects, sizes, runs):
    """Every run, interleaved; ({(key, n): [figures]}, [problems])."""
    done, problems = {}, []
    for run in range(runs):
        order = subjects if run % 2 == 0 else subjects[::-1]
        for n in [0] + sizes:
            baselines = set()
            for key, tree, mode, label in order:
                # A kernel's baseline (no drives) once a run, whatever
                # its subjects: hal's is the base's.
                if n == 0 and tree in baselines:
                    continue
                baselines.add(tree)
                print("bench: run %d, %s, %d drives" % (run + 1, label, n), flush=True)
                fig = boot(tree, mode, n, run)
                why = unhealthy(fig)
                if why:
                    problems.append("run %d, %s, %d drives: %s" % (run + 1, label, n, why))
                    print("bench:   does not count: " + why, flush=True)
                    continue
                done.setdefault((tree if n == 0 else key, n), []).append(per_second(fig))
    return done, problems


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    sizes = [int(x) for x in os.environ.get("BENCH_N", "1 8 64 256").split()]
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    subjects = SUBJECTS + ([HAL] if os.environ.get("BENCH_HAL") == "1" else [])
    measured = versions()
    start = time.monotonic()
    done, problems = measure(subjects, sizes, runs)
    minutes = (time.monotonic() - start) / 60

    cells = {}
    for key, tree, _, _ in subjects:
        base_runs = done.get((tree, 0), [])
        base = {k: statistics.median(r[k] for r in base_runs)
                for k, _ in EXTRA} if base_runs else {}
        for n in sizes:
            if done.get((key, n)) and base:
                cells[(key, n)] = cell(done[(key, n)], base)
    text = "\n".join([
        "# Disk events polling at scale: our core and the base",
        "", stamp(subjects, minutes, measured), "",
        table(cells, sizes, subjects), "",
        "Targets, at every N (ours against the base of the same run):", "",
    ] + verdicts(cells, sizes) + [
        "- a drive whose check takes 2 s delays no other: not measured here "
        "(no emulated drive answers that slowly); the KUnit case "
        "slow_polled_drive_leaves_the_others_polled checks it in make check",
        "",
        "Runs that do not count: %s" % ("; ".join(problems) or "none"), ""])
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(text)
    print(text)
    plot(cells, sizes, subjects, outdir, "wakeups",
         [("wakeups", "wake-ups"), ("timer_wakeups", "timer wake-ups")],
         "per second, minus no drives",
         "Disk events polling at %d ms: wake-ups" % POLL_MS)
    plot(cells, sizes, subjects, outdir, "workers",
         [("interrupts", "interrupts/s"), ("kworkers", "kworkers")],
         "per second; threads", "Disk events polling at %d ms: interrupts, workers" % POLL_MS)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
