#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the end-to-end scenarios on one kernel and record the results.

e2e.py TREE [SCENARIO...]: boot TREE's debug kernel (ours or stock; or
the kind KERNEL_KINDS names, which build.sh makes first) once per
scenario (default: those named in $SCENARIOS, or DEFAULT_SCENARIOS:
all but "soak", which make soak runs), with the scenario's drives and
command line, its regression guards repeated as make check or (with
E2E_LONG=1) make check-long wants them; LANES scenarios at a
time, each on its own guest, the longest first.  The guest sends each
TAP result, and at the end "done PLANNED PASSED FAILED SKIPPED", on its
control channel (vm.py --results); each TAP line becomes a result.
Three more per scenario rest on what the host saw: the guest finished;
its counts match the results received and the scenario's declared
count; the console shows the guest's banner and its "done", and no
splat.  A result the guest never sent is a FAIL of its own, so a run
always gives its declared number of results ("PLAN N" first).  Results
are appended to $RESULTS as "PASS|FAIL|XFAIL|SKIP name" lines, and
echoed.  TAP "# TODO" marks behaviour the base lacks: on the stock tree
such a failure is an XFAIL; "# SKIP" is a SKIP, never a pass.
"""

import concurrent.futures
import os
import re
import subprocess
import sys
import threading

import console
import vm

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.realpath(os.environ.get("BUILD", os.path.join(HERE, "../../../build")))
# make check repeats the regression guards that never failed on either
# core (restarts, surprise removals, hot-plug cycles, swaps under load,
# module cycles) fewer times than make check-long, which sets
# E2E_LONG=1 and runs them at their full counts.  Every scenario and
# every assertion runs in both.
LONG = os.environ.get("E2E_LONG") == "1"


def times(short, full):
    """How often a regression guard repeats: @short in make check, @full
    in make check-long."""
    return full if LONG else short


RESTARTS = times(5, 30)
REMOVALS = times(10, 50)

# name: (guest test, drive set, extra command line, timeout in s, TAP
# results the guest sends: the tests' own, and the final kmemleak scan)
SCENARIOS = {
    "boot": ("boot", "standard", "", 300, 1 + 1),
    # make run's demo: run.sh boots it with these drives and command
    # line, on the lean kernel.
    "demo": ("demo", "demo", "block.events_dfl_poll_msecs=2000", 300, 6 + 1),
    "sysfs": ("sysfs", "standard", "block.events_dfl_poll_msecs=1000", 300, 47 + 1),
    "media": ("media", "standard", "block.events_dfl_poll_msecs=1000", 400, 13 + 1),
    "hotplug": ("hotplug", "standard", "block.events_dfl_poll_msecs=1000", 300, 6 + 1),
    "exclusive": ("exclusive", "standard", "block.events_dfl_poll_msecs=1000", 300, 8 + 1),
    "drivers": ("drivers", "standard", "block.events_dfl_poll_msecs=1000", 300, 6 + 1),
    "eject": ("eject", "standard", "block.events_dfl_poll_msecs=1000", 300, 8 + 1),
    "rates": ("rates", "standard", "block.events_dfl_poll_msecs=1000", 300, 24 + 1),
    "tool": ("tool", "standard", "block.events_dfl_poll_msecs=1000", 300, 32 + 1),
    "udev": ("udev", "standard", "block.events_dfl_poll_msecs=1000", 600, 7 + 1),
    "beyond": ("beyond", "standard", "block.events_dfl_poll_msecs=1000", 300, 11 + 1),
    "loop": ("loop", "standard", "", 300, 5 + 1),
    # sr on ATAPI behind AHCI (q35): the media and eject tests on its drive.
    "ahci": ("media,eject", "q35", "block.events_dfl_poll_msecs=1000 cds=ahci0", 400, 9 + 1),
    # Reliability (issue 6): hot-plug storm, swaps under load, suspend.
    "storm": ("storm", "standard", "block.events_dfl_poll_msecs=1000 dcycles=%d"
              % times(25, 100), 900, 6 + 1),
    "swaps": ("swaps", "standard", "block.events_dfl_poll_msecs=1000 dswaps=%d"
              % times(15, 50), 900, 4 + 1),
    "suspend": ("suspend", "standard", "block.events_dfl_poll_msecs=1000", 300, 5 + 1),
    # A flapping drive under udev (issue 13): a change every 500 ms for 60 s.
    "flap": ("flap", "standard", "block.events_dfl_poll_msecs=2000", 600, 9 + 1),
    # Where users meet disk events (issue 13): surprise removal amid
    # udev's probes.
    "removal": ("removal", "usb", "block.events_dfl_poll_msecs=100 "
                "usb-storage.delay_use=0 dremovals=%d" % REMOVALS,
                300 + 30 * REMOVALS, 6 + 1),
    # Polling without a udev rule (issue 13): the kernel built with a
    # default interval, alone and overridden on the command line.
    "dflpoll": ("dflpoll", "standard", "", 300, 4 + 1),
    "dflpoll-param": ("dflpoll", "standard", "block.events_dfl_poll_msecs=500", 300, 4 + 1),
    # Polling at scale (issue 16): 128 CD drives polled every 2000 ms.
    "scale": ("scale", "bench128", "scsi_mod.scan=manual nd=128", 900, 5 + 1),
    # Restarts with polling active (issue 13): by reboot, and by kexec.
    "reboots": ("restarts", "shutdown", "scsi_mod.scan=manual retain_initrd "
                "drestart=reboot drestarts=%d" % RESTARTS,
                300 + 70 * RESTARTS, RESTARTS + 1),
    "kexecs": ("restarts", "shutdown", "scsi_mod.scan=manual retain_initrd "
               "drestart=kexec drestarts=%d" % RESTARTS,
               300 + 70 * RESTARTS, RESTARTS + 1),
}
# Scenarios run this many at a time, each on its own guest.  A light
# one keeps a core about 60% busy: media and rates took 85 and 98 s one
# after the other, 98 and 110 s side by side (2 cores, TCG); three at a
# time gained little more (138 s for three that took 242 s in turn) and
# lost one of rates' exact counts.  A heavy one keeps a core busy, and
# two side by side gain little: the 21 debug-kernel scenarios took 45
# min in two lanes against about 50 one at a time (removal 17.3 min
# beside others, 7.9 alone).
LANES = int(os.environ.get("E2E_LANES", "2"))
# Scenarios that run with no other beside them.  rates: its counts hold
# only on a guest that has the host to itself: it counts polls to within
# one in a 10 s window, and beside two other guests and a kernel build
# it lost one poll of both drives in the same window.  distro: its
# guest keeps both cores busy, and beside another busy
# guest both crawl: with reboots beside it, they ran at 0.34 and 0.55 of
# their speed alone, so one after the other is sooner (two debug guests,
# reboots and kexecs, did 1.2 times the work of one alone side by side).
ALONE = {"rates", "distro"}
# The results the host adds to a scenario's own.
HOST_RESULTS = 3
# make soak: all three over and over for $SOAK_SECONDS; not in make check.
SOAK_SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
# Its rounds repeat the three tests' results, as many as time allows:
# it declares none of them ("None"), only the final "soak" line.
SCENARIOS_LONG = {
    "soak": ("soak", "standard", "block.events_dfl_poll_msecs=1000 dsoak=%d"
             % SOAK_SECONDS, SOAK_SECONDS + 1200, None),
}
# Debian 12 on our distro kernel (issue 14): systemd, udev, udisks2,
# drivers as modules; nothing sets an interval but udev's rules.
# It takes each module out and in 20 times in make check-long and make
# check-distro, 2 times in make check: alone, the guest took 21.5
# minutes with 20, 15 of them in the 60 cycles.
SCENARIOS_DISTRO = {
    "distro": ("distro", "distro", "root=/dev/vda rw dcycles=%d" % times(2, 20),
               3600, 25 + 1),
}
DEFAULT_SCENARIOS = [*SCENARIOS, *SCENARIOS_DISTRO]
# The scenarios that boot another kernel kind than "debug" (build.sh):
# preempt: ours, built with a default poll interval of 2000 ms.
# distro: the kind with its drivers as modules, booting Debian's user
# space from a root disk (distro-image.sh) instead of the initramfs.
KERNEL_KINDS = {"dflpoll": "preempt", "dflpoll-param": "preempt",
                **{name: "distro" for name in SCENARIOS_DISTRO}}
EVERY_SCENARIO = {**SCENARIOS, **SCENARIOS_LONG, **SCENARIOS_DISTRO}
# loglevel=5: warnings and worse reach the console (all splats do), the
# drivers' notices do not, so they do not interleave with TAP lines.
APPEND = "console=ttyS0 loglevel=5 panic=1"


class Results:
    """Result lines, appended to a file and echoed."""

    def __init__(self, path, prefix):
        self.file = open(path, "a")
        self.prefix = prefix

    def plan(self, n, what):
        """Declare @n results to come (check.sh holds the runner to it)."""
        self.file.write("PLAN %d %s%s\n" % (n, self.prefix, what))
        self.file.flush()

    def add(self, verdict, name):
        line = "%s %s%s" % (verdict, self.prefix, name)
        print(line, flush=True)
        self.file.write(line + "\n")
        self.file.flush()


class HeldResults:
    """The results of a scenario that runs beside another, kept until
    release() hands them to @results: each scenario's lines stay
    together, in the file and on the screen."""

    def __init__(self, results):
        self.results = results
        self.calls = []

    def plan(self, n, what):
        self.calls.append((self.results.plan, n, what))

    def add(self, verdict, name):
        self.calls.append((self.results.add, verdict, name))

    def release(self):
        for call, *args in self.calls:
            call(*args)


DONE_RE = re.compile(r"^done (\d+) (\d+) (\d+) (\d+)$")


def tap_verdict(tree, passed, directive):
    """PASS, FAIL, XFAIL or SKIP for one guest TAP result."""
    if directive == "SKIP":
        return "SKIP" if passed else "FAIL"
    if passed:
        return "PASS"
    return "XFAIL" if directive == "TODO" and tree == "stock" else "FAIL"


def guest_results(tree, name, lines, declared, results):
    """Record the TAP @lines of scenario @name; check them against its
    "done" line and the @declared count (None: any); pad the results it
    never sent with FAILs.  Returns the number of results recorded."""
    taps = [console.TAP_RE.match(l) for l in lines]
    done = [DONE_RE.match(l) for l in lines if DONE_RE.match(l)]
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    n = 0
    for m in filter(None, taps):
        v = tap_verdict(tree, m.group(1) == "ok", m.group(3))
        counts["SKIP" if v == "SKIP" else "FAIL" if m.group(1) == "not ok" else "PASS"] += 1
        results.add(v, m.group(2))
        n += 1
    for i in range(n, declared or 0):
        results.add("FAIL", "%s: result %d of %d never came" % (name, i + 1, declared))
    got = (n, counts["PASS"], counts["FAIL"], counts["SKIP"])
    said = tuple(int(x) for x in done[-1].groups()) if done else None
    ok = said == got and (declared is None or n == declared) and \
        len(done) == 1 and len(lines) == n + 1
    results.add("PASS" if ok else "FAIL",
                "%s: guest said done %s, host received %d results "
                "(%d passed, %d failed, %d skipped) of %s declared"
                % (name, " ".join(map(str, said)) if said else "never", *got,
                   declared if declared is not None else "no number"))
    return n


def run_scenario(tree, name, results, spec=None, boot=""):
    """Boot scenario @name (or one @spec of its own) from @boot (default:
    the initramfs; None: its kernel failed to build) and record it."""
    test, drives, extra, timeout, declared = spec or EVERY_SCENARIO[name]
    kind = kind_of(name)
    rundir = os.path.join(BUILD, "run", tree, name)
    log, tap = rundir + ".log", rundir + ".tap"
    for stale in (log, tap):
        if os.path.exists(stale):
            os.unlink(stale)
    try:
        if boot is None:
            raise RuntimeError("no %s kernel" % kind)
        status = vm.run([
            "--kernel", os.path.join(BUILD, "obj", tree + "-" + kind, "arch/x86/boot/bzImage"),
            "--initrd", boot or os.path.join(BUILD, "guest.cpio"),
            "--append", "%s dtest=%s dtree=%s %s" % (APPEND, test, tree, extra),
            "--drives", drives, "--rundir", rundir, "--log", log,
            "--results", tap, "--timeout", str(timeout)])
    except Exception as e:          # pylint: disable=broad-except
        print("e2e: %s: %r" % (name, e), file=sys.stderr)
        status = -1
    lines = console.read_lines(tap) if os.path.exists(tap) else []
    n = guest_results(tree, name, [l for l in lines if l], declared, results)
    if declared is None:
        results.plan(n + HOST_RESULTS, "%s (counted after the run)" % name)
    results.add("PASS" if status == 0 else "FAIL",
                "%s: guest finished (status %d)" % (name, status))
    results.add(*console.clean_verdict(log, name))


def make_kernels(tree, names):
    """Build the kernels that scenarios @names boot besides the debug one
    (build.sh; and distro-image.sh's root disk for the distro kind).
    Returns what each kind boots from: {kind: initrd or disk image}, None
    for a kind that failed to build (its scenarios then fail).  Built
    before any guest starts: beside two busy guests, a build at nice 19
    got next to no CPU for 40 minutes.  Debian's root for the distro
    kind (distro-root.sh) is made meanwhile: mostly a download."""
    boot = {"debug": os.path.join(BUILD, "guest.cpio")}
    kinds = dict.fromkeys(kind_of(n) for n in by_length(names))
    root = None
    if "distro" in kinds:
        root = subprocess.Popen([os.path.join(HERE, "distro-root.sh")],
                                stdout=subprocess.DEVNULL)
    try:
        for kind in kinds:
            if kind not in boot:
                boot[kind] = make_kernel(tree, kind, root)
    finally:
        if root:
            root.wait()
    return boot


def make_kernel(tree, kind, root):
    """Build @tree's @kind kernel; returns what it boots from, or None if
    it failed.  The distro kind waits for @root, the distro-root.sh
    started by make_kernels(), before it makes its disk image (which
    would otherwise run a second one beside it)."""
    try:
        subprocess.run([os.path.join(HERE, "build.sh"), tree, kind], check=True)
        if kind != "distro":
            return os.path.join(BUILD, "guest.cpio")
        root.wait()
        return subprocess.run([os.path.join(HERE, "distro-image.sh"), tree],
                              check=True, stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    except Exception as e:  # pylint: disable=broad-except
        print("e2e: %s kernel: %r" % (kind, e), file=sys.stderr)
        return None


def kind_of(name):
    """The kernel kind that scenario @name boots."""
    return KERNEL_KINDS.get(name, "debug")


def by_length(names):
    """@names, the longest first: by their time limit, which the long
    ones set in proportion to their length.  Started first, they do
    not end the run alone on one lane."""
    return sorted(names, key=lambda n: -EVERY_SCENARIO[n][3])


def run_lanes(tree, names, results, lanes=LANES):
    """Run scenarios @names, @lanes at a time, each on its own guest:
    whenever a lane is free it takes the longest scenario left (one of
    ALONE only when no other runs, and then none beside it).  Each
    scenario's results reach @results whole, when it ends."""
    boot = make_kernels(tree, names)
    queue = by_length(names)
    running = set()
    changed = threading.Condition()

    def may_start(name):
        return not running & ALONE and (name not in ALONE or not running)

    def take():
        with changed:
            while queue:
                name = next((n for n in queue if may_start(n)), None)
                if name:
                    queue.remove(name)
                    running.add(name)
                    return name
                changed.wait()
        return None

    def lane():
        for name in iter(take, None):
            held = HeldResults(results)
            try:
                run_scenario(tree, name, held, boot=boot[kind_of(name)])
            finally:
                # Even if it raised: an ALONE scenario waits for it.
                with changed:
                    held.release()
                    running.discard(name)
                    changed.notify_all()

    with concurrent.futures.ThreadPoolExecutor(lanes) as pool:
        for future in [pool.submit(lane) for _ in range(lanes)]:
            future.result()


def run_scenarios(tree, names, results):
    """Declare the results of scenarios @names, then run them."""
    results.plan(sum(EVERY_SCENARIO[n][4] + HOST_RESULTS for n in names
                     if EVERY_SCENARIO[n][4] is not None), " ".join(names))
    run_lanes(tree, names, results)


def main():
    tree = sys.argv[1]
    names = sys.argv[2:] or os.environ.get("SCENARIOS", "").split() or DEFAULT_SCENARIOS
    results = Results(os.environ.get("RESULTS", "/dev/null"), "e2e/%s: " % tree)
    unknown = [n for n in names if n not in EVERY_SCENARIO]
    if unknown:
        sys.exit("e2e.py: no scenario %s" % " ".join(unknown))
    run_scenarios(tree, names, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
