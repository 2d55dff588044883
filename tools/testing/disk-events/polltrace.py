#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-polls: what one poll costs in wake-ups and CPU time, at one drive.

polltrace.py OUTDIR: boot the lean kernels of our core and of the
pristine base with one virtio-scsi CD drive polled every 2000 ms,
$BENCH_RUNS runs each (default 5), interleaved; the guest
(guest/tests/polltrace.sh) prints a trace of $POLLTRACE_SECONDS s
(default 80).  Each CPU idle exit is attributed from the trace: to a
poll if it comes at most 5 ms before or 300 ms after a check starts,
else to the idle guest, and so is the CPUs' busy time.  make bench
judges a poll's cost as a guest's wake-ups minus those of another
guest with no drives, whose own run to run spread (about 2 timer
wake-ups/s) is larger than the difference it looks for at one drive;
attributed, the two costs come from the same guest and the same
window.  Writes OUTDIR/polls.md; fails only if a run is unhealthy or
missing.  "polltrace.py OUTDIR --logs" attributes the logs of the last
run again, for a change of this file's counting, and boots nothing.
"""

import collections
import datetime
import os
import re
import statistics
import sys
import time

import bench
import e2e
import vm

POLL_MS = 2000
BEFORE_S, AFTER_S = 0.005, 0.3  # a poll's wake-ups, around its check's start
TRACE = re.compile(r"T:\s+.*-\d+\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): ?(.*)")


def log_of(tree, run):
    """The console log of run @run (from 0) of kernel @tree."""
    return os.path.join(e2e.BUILD, "run", "bench", "%s-polls-%d.log" % (tree, run))


def boot(tree, run, seconds):
    """One guest; its exit status."""
    log = log_of(tree, run)
    rundir = log[:-len(".log")]
    return vm.run([
        "--kernel", os.path.join(e2e.BUILD, "obj", tree + "-lean", "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
        "--append", "%s dtest=polltrace tsecs=%d poll=%d block.events_dfl_poll_msecs=%d "
                    "tsc=reliable tsc_early_khz=%d"
                    % (e2e.APPEND, seconds, POLL_MS, POLL_MS, bench.tsc_khz()),
        "--drives", "bench1", "--rundir", rundir, "--log", log,
        "--timeout", str(seconds + 300)])


def idle_periods(log):
    """From a guest's trace: ([check start times], [idle periods as
    (start, end, took a local timer interrupt, what ran in it)], the
    traced span (first, last), the CPUs seen and [times a kworker was
    woken]).  A period open at the trace's start or end is cut there;
    only a closed one is an exit."""
    checks, periods, idle, cpus, woken = [], [], {}, set(), []
    first = last = None
    with open(log, errors="replace") as f:
        for line in f:
            m = TRACE.match(line.strip())
            if not m:
                continue
            cpu, t, event, text = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
            first, last = first if first is not None else t, t
            cpus.add(cpu)
            if event == "workqueue_execute_start" and "disk_events_workfn" in text:
                checks.append(t)
            elif event == "sched_wakeup" and "comm=kworker/" in text:
                woken.append(t)
            elif event == "cpu_idle" and "state=4294967295" in text:
                start, timer, what = idle.pop(cpu, (first, False, set()))
                periods.append((start, t, timer, what))
            elif event == "cpu_idle":
                idle[cpu] = (t, False, set())
            elif cpu in idle:
                start, timer, what = idle[cpu]
                if event == "local_timer_entry":
                    idle[cpu] = (start, True, what)
                elif event.endswith("timer_expire_entry"):
                    what.add(re.search(r"function=(\S+)", text).group(1))
                elif event == "irq_handler_entry":
                    what.add("irq " + re.search(r"name=(\S+)", text).group(1))
                elif event in ("reschedule_entry", "call_function_single_entry"):
                    what.add("IPI")
    open_periods = [(start, last, False, set()) for start, _, _ in idle.values()]
    return checks, periods, open_periods, (first, last), cpus, woken


def attribute(log, seconds):
    """A run's figures, or the reason it does not count: every check of
    its @seconds traced, within one at either edge."""
    with open(log, errors="replace") as f:
        text = f.read()
    if "APIC timer disabled" in text:
        return "the guest's local APIC timer failed its check (a busy host)"
    checks, exits, open_periods, (first, last), cpus, woken = idle_periods(log)
    if not checks or last - first < seconds - 1:
        return "%.1f s traced of %d" % ((last - first) if checks else 0, seconds)
    if abs(len(checks) - seconds * 1000 / POLL_MS) > 1:
        return "%d checks traced, %d expected" % (len(checks), seconds * 1000 / POLL_MS)
    # Cut to the traced span: past its end no idle period is known.
    windows = [(max(first, c - BEFORE_S), min(last, c + AFTER_S)) for c in checks]
    near = lambda t: any(a <= t <= b for a, b in windows)
    mine = [e for e in exits if near(e[1])]
    rest = [e for e in exits if not near(e[1])]
    causes = collections.Counter(
        ("timer: " if took else "") + (", ".join(sorted(what)) or "nothing traced")
        for _, _, took, what in mine)
    # CPU time: busy (not idle) CPU seconds in the polls' windows, less
    # what the idle guest keeps busy in as long a time elsewhere.
    overlap = lambda a, b: sum(max(0, min(b, e) - max(a, s))
                               for s, e, _, _ in exits + open_periods)
    in_windows = sum(b - a for a, b in windows)
    busy_near = len(cpus) * in_windows - sum(overlap(a, b) for a, b in windows)
    quiet_s = (last - first) - in_windows
    busy_rest = len(cpus) * (last - first) - overlap(first, last) - busy_near
    return {
        "checks": len(checks),
        "timer_per_poll": sum(1 for e in mine if e[2]) / len(checks),
        "all_per_poll": len(mine) / len(checks),
        "workers_per_poll": sum(1 for t in woken if near(t)) / len(checks),
        "cpu_ms_per_poll": (busy_near - busy_rest / quiet_s * in_windows) * 1000 / len(checks),
        "idle_timer_per_s": sum(1 for e in rest if e[2]) / quiet_s,
        "causes": {k: v / len(checks) for k, v in causes.items()},
    }


def versions():
    """make bench's stamp of the machine and versions, without its method
    (bench.py's, not this file's)."""
    return bench.versions().rsplit("; method", 1)[0]


def fmt(values):
    """Median (min..max) of @values."""
    return "%.2f (%.2f..%.2f)" % (statistics.median(values), min(values), max(values))


def report(done, problems, runs, seconds, stamp):
    """polls.md's text; @stamp says when and on what the guests ran."""
    lines = [
        "# What one poll costs: our core and the base, at one drive", "",
        "Written by `make bench-polls` %s.  One "
        "virtio-scsi CD drive with a disc, polled every %d ms; %d runs a "
        "kernel, interleaved, each tracing %d s of an idle guest.  A CPU idle "
        "exit (trace event power:cpu_idle) belongs to a poll if it comes at "
        "most %d ms before or %d ms after a check starts (its workqueue item), "
        "else to the idle guest; a timer wake-up is one whose idle period took "
        "a local timer interrupt.  CPU ms per poll: the time the CPUs were not "
        "idle within those windows, less what the idle guest keeps them busy "
        "in as long a time outside them; kworkers woken: the scheduler's "
        "wake-ups (sched_wakeup) of kworker threads in those windows.  "
        "Medians with their range over the runs." % (
            stamp, POLL_MS,
            runs, seconds, BEFORE_S * 1000, AFTER_S * 1000), "",
        "| kernel | runs | checks | timer wake-ups per poll | wake-ups per poll "
        "| CPU ms per poll | kworkers woken per poll | idle guest's timer wake-ups/s |",
        "|---|---|---|---|---|---|---|---|"]
    for tree, label in (("ours", "our core"), ("stock", "the base")):
        r = done.get(tree, [])
        if r:
            lines.append("| %s | %d | %d | %s | %s | %s | %s | %s |" % (
                label, len(r), sum(x["checks"] for x in r),
                fmt([x["timer_per_poll"] for x in r]), fmt([x["all_per_poll"] for x in r]),
                fmt([x["cpu_ms_per_poll"] for x in r]),
                fmt([x["workers_per_poll"] for x in r]),
                fmt([x["idle_timer_per_s"] for x in r])))
    lines += ["", "What ran in a poll's idle exits, per poll (mean over the runs; "
              "\"timer:\" marks those that took a local timer interrupt, "
              "tick_nohz_handler is the scheduler tick):", "",
              "| what | our core | the base |", "|---|---|---|"]
    causes = sorted({k for r in done.values() for x in r for k in x["causes"]})
    mean = lambda tree, k: statistics.mean(x["causes"].get(k, 0) for x in done.get(tree, [{}]))
    rows = sorted(causes, key=lambda k: -mean("ours", k) - mean("stock", k))
    lines += ["| %s | %.2f | %.2f |" % (k, mean("ours", k), mean("stock", k)) for k in rows]
    lines += ["", "Runs that do not count: %s" % ("; ".join(problems) or "none"), ""]
    return "\n".join(lines)


def main():
    outdir = sys.argv[1]
    again = sys.argv[2:] == ["--logs"]
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    seconds = int(os.environ.get("POLLTRACE_SECONDS", "80"))
    stamp_file = os.path.join(e2e.BUILD, "run", "bench", "polls.stamp")
    today = datetime.date.today().isoformat()
    stamp, start = "on %s: %s" % (today, versions()), time.monotonic()
    done, problems = {}, []
    for run in range(runs):
        for tree in ("ours", "stock") if run % 2 == 0 else ("stock", "ours"):
            print("bench-polls: run %d, %s" % (run + 1, tree), flush=True)
            log = log_of(tree, run)
            if again:
                status = 0 if os.path.exists(log) else "unknown: no log"
            else:
                status = boot(tree, run, seconds)
            fig = "guest status %s" % status if status else attribute(log, seconds)
            if isinstance(fig, str):
                problems.append("run %d, %s: %s" % (run + 1, tree, fig))
                print("bench-polls:   does not count: " + fig, flush=True)
                continue
            done.setdefault(tree, []).append(fig)
    if again:
        with open(stamp_file) as f:
            stamp = "%s; its logs attributed again on %s" % (f.read().strip(), today)
    else:
        stamp += "; the run took %.1f min" % ((time.monotonic() - start) / 60)
        with open(stamp_file, "w") as f:
            f.write(stamp + "\n")
    text = report(done, problems, runs, seconds, stamp)
    with open(os.path.join(outdir, "polls.md"), "w") as f:
        f.write(text)
    print(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
