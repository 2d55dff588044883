#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: polling costs of our core, the base, and user space.

bench.py OUTDIR: boot the lean kernels one after the other, each with N
virtio-scsi CD drives (N = $BENCH_N, default 1 8 64) polled every
2000 ms: our core, the pristine base, and the base with kernel polling
off and halpoll (user-space polling as hal did it).  The guest's
tests/bench.sh traces an idle window and then makes 20 media changes;
QEMU's SCSI trace counts the commands.  Writes OUTDIR/results.md (a
Markdown table) and OUTDIR/wakeups.png (gnuplot).  Never fails on the
figures: it reports them.
"""

import datetime
import os
import platform
import re
import subprocess
import sys

import e2e
import machine
import vm

POLL_MS = 2000
WINDOW_S = 20
# (tree, guest mode, label)
SUBJECTS = [
    ("ours", "kernel", "our core"),
    ("stock", "kernel", "base"),
    ("stock", "poller", "user space (hal)"),
]


def tsc_khz():
    """The host's TSC rate, which is the guest's under TCG (QEMU reads the
    host TSC).  The guest has no ACPI timers to calibrate it against,
    and without a TSC clocksource its clocks tick in jiffies."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("cpu MHz"):
                return int(float(line.split(":")[1]) * 1000)
    return 0


def boot(tree, mode, n):
    """Run one benchmark guest; its figures and the path of its stamps."""
    rundir = os.path.join(e2e.BUILD, "run", "bench", "%s-%s-%d" % (tree, mode, n))
    os.makedirs(rundir, exist_ok=True)
    log, stamps = rundir + ".log", rundir + ".stamps"
    dfl = POLL_MS if mode == "kernel" else 0
    status = vm.run([
        "--kernel", os.path.join(e2e.BUILD, "obj", tree + "-lean", "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
        "--append", "console=ttyS0 loglevel=5 panic=1 dtest=bench nd=%d mode=%s "
                    "window=%d block.events_dfl_poll_msecs=%d tsc=reliable "
                    "tsc_early_khz=%d" % (n, mode, WINDOW_S, dfl, tsc_khz()),
        "--drives", "bench%d" % n, "--rundir", rundir, "--log", log,
        "--stamps", stamps, "--timeout", "900"])
    figures = {"status": status}
    with open(log, errors="replace") as f:
        for line in f:
            m = re.match(r"bench: (\w+) (\S+)", line.strip())
            if m:
                figures[m.group(1)] = m.group(2)
    figures["latency_ms"] = latencies(stamps, figures.get("cd0_dev", "sr0"))
    return figures


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


def percentile(values, p):
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def derive(fig):
    """The table's figures from one guest's raw ones."""
    num = lambda k: float(fig.get(k, "nan"))
    window = num("window_s")
    checks = num("poller_checks") if fig.get("mode") == "poller" else num("checks")
    poller = fig.get("mode") == "poller"
    ns = num("poller_ns") if poller else num("work_ns")
    cpu = num("poller_cpu_ns") if poller else num("cpu_ns")
    lat = fig["latency_ms"]
    return {
        "wakeups_s": num("wakeups") / window,
        "checks_s": checks / window,
        "gesn_s": num("gesn") / window,
        "cmds_per_check": num("commands") / checks if checks else float("nan"),
        "us_per_check": ns / checks / 1000 if checks else float("nan"),
        "cpu_us_per_check": cpu / checks / 1000 if checks else float("nan"),
        "p50": percentile(lat, 50), "p99": percentile(lat, 99),
        "changes": len(lat), "status": fig["status"],
    }


def fmt(v, spec="%.2f"):
    return "-" if v is None or v != v else spec % v


def table(rows):
    head = ("| polling | drives | wake-ups/s | checks/s | GESN/s (device) | "
            "commands per idle check | CPU µs per check | wall µs per check | "
            "latency p50 (ms) | "
            "latency p99 (ms) | changes seen |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for label, n, d in rows:
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d/20 |" % (
            label, n, fmt(d["wakeups_s"]), fmt(d["checks_s"]), fmt(d["gesn_s"]),
            fmt(d["cmds_per_check"]), fmt(d["cpu_us_per_check"], "%.0f"),
            fmt(d["us_per_check"], "%.0f"),
            fmt(d["p50"], "%d"), fmt(d["p99"], "%d"), d["changes"]))
    return "\n".join(lines)


def targets(rows):
    """The issue's targets at the largest N, as report lines."""
    by = {(label, n): d for label, n, d in rows}
    n = max(n for _, n, _ in rows)
    ours, base = by.get(("our core", n)), by.get(("base", n))
    if not ours or not base:
        return []
    limit = 1.1 * 1000 / POLL_MS
    ratio = base["wakeups_s"] / ours["wakeups_s"] if ours["wakeups_s"] else float("inf")
    return [
        "- N = %d: our wake-ups/s %.2f (target at most %.2f): %s" % (
            n, ours["wakeups_s"], limit, "met" if ours["wakeups_s"] <= limit else "NOT met"),
        "- N = %d: the base wakes %.1f times as often (target at least 10): %s" % (
            n, ratio, "met" if ratio >= 10 else "NOT met"),
        "- commands per idle check: ours %s, base %s" % (
            fmt(ours["cmds_per_check"]), fmt(base["cmds_per_check"])),
        "- latency p99: ours %s ms, base %s ms" % (fmt(ours["p99"], "%d"),
                                                  fmt(base["p99"], "%d")),
        "- CPU µs per check: ours %s, base %s (target: at most base + 10%%)" % (
            fmt(ours["cpu_us_per_check"], "%.0f"), fmt(base["cpu_us_per_check"], "%.0f")),
        "- wall µs per check (the drive's answer included; checks of one "
        "tick queue at the one virtio-scsi queue): ours %s, base %s" % (
            fmt(ours["us_per_check"], "%.0f"), fmt(base["us_per_check"], "%.0f")),
    ]


def plot(rows, outdir):
    """wakeups.png: wake-ups/s against N, one line per subject (gnuplot)."""
    labels = [label for _, _, label in SUBJECTS]
    script = ["set terminal pngcairo size 800,500",
              "set output '%s'" % os.path.join(outdir, "wakeups.png"),
              "set title 'Disk events polling at %d ms: wake-ups per second for polling'" % POLL_MS,
              "set xlabel 'polled CD drives'",
              "set ylabel 'wake-ups per second'",
              "set logscale x 2",
              "set key left top",
              "plot " + ", ".join("'-' using 1:2 with linespoints title '%s'" % l
                                  for l in labels)]
    for label in labels:
        script += ["%d %f" % (n, d["wakeups_s"]) for lab, n, d in rows if lab == label]
        script.append("e")
    subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    sizes = [int(x) for x in os.environ.get("BENCH_N", "1 8 64").split()]
    rows = []
    for tree, mode, label in SUBJECTS:
        for n in sizes:
            print("bench: %s, %d drives" % (label, n), flush=True)
            d = derive(boot(tree, mode, n))
            print("bench:   " + ", ".join("%s %s" % (k, fmt(v) if isinstance(v, float) else v)
                                         for k, v in d.items()), flush=True)
            rows.append((label, n, d))
    with open(os.path.join(e2e.BUILD, "base-version")) as f:
        base = f.read().strip()
    qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                          text=True).stdout.splitlines()[0]
    text = "\n".join([
        "# Disk events polling: our core, the base, user space",
        "",
        "Written by `make bench` on %s: %s, %d CPUs, %s under TCG, guests "
        "with two CPUs (-smp %s); "
        "base %s.  Each guest has N virtio-scsi CD drives with a disc, "
        "polled every %d ms; figures over a %d s idle window, then 20 media "
        "changes on one drive at random phases.  Wake-ups: distinct timer "
        "wheel buckets (the trace's baseclk) from which a timer queued disk "
        "events work (halpoll: jiffies at which it was woken).  Checks and "
        "time per check: workqueue tracepoints, CPU time from sched_switch "
        "(halpoll: its own wall and thread CPU clocks around "
        "open-ioctl-close).  GESN/s and commands: QEMU's SCSI trace, device "
        "side.  Latency: host clock, QMP command to the event line on the "
        "serial console." % (
            datetime.date.today().isoformat(), platform.node(), os.cpu_count(),
            qemu, machine.SMP, base, POLL_MS, WINDOW_S),
        "",
        table(rows),
        "",
        "Targets (issue: beyond mainline):",
        "",
    ] + targets(rows) + [""])
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(text)
    print(text)
    plot(rows, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
