#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the end-to-end scenarios on one kernel and record the results.

e2e.py TREE [SCENARIO...]: boot TREE's debug kernel (ours or stock) once
per scenario (default: those named in $SCENARIOS, or all but the long
"soak"), with the scenario's drives and command line.  Each guest
TAP line becomes a result, and so do "the guest finished" and "the
console shows no splat".  Results are appended to $RESULTS as
"PASS|FAIL|XFAIL name" lines, and echoed.  TAP "# TODO" marks behaviour
the base lacks: on the stock tree such a failure is an XFAIL.
"""

import os
import sys

import console
import vm

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.realpath(os.environ.get("BUILD", os.path.join(HERE, "../../../build")))

# name: (guest test, drive set, extra command line, timeout in s)
SCENARIOS = {
    "boot": ("boot", "standard", "", 300),
    "sysfs": ("sysfs", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "media": ("media", "standard", "block.events_dfl_poll_msecs=1000", 400),
    "hotplug": ("hotplug", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "exclusive": ("exclusive", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "drivers": ("drivers", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "eject": ("eject", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "rates": ("rates", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "tool": ("tool", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "udev": ("udev", "standard", "block.events_dfl_poll_msecs=1000", 600),
    "beyond": ("beyond", "standard", "block.events_dfl_poll_msecs=1000", 300),
    "loop": ("loop", "standard", "", 300),
    # sr on ATAPI behind AHCI (q35): the media and eject tests on its drive.
    "ahci": ("media,eject", "q35", "block.events_dfl_poll_msecs=1000 cds=ahci0", 400),
    # Reliability (issue 6): hot-plug storm, swaps under load, suspend.
    "storm": ("storm", "standard", "block.events_dfl_poll_msecs=1000", 900),
    "swaps": ("swaps", "standard", "block.events_dfl_poll_msecs=1000", 900),
    "suspend": ("suspend", "standard", "block.events_dfl_poll_msecs=1000", 300),
}
# make soak: all three over and over for $SOAK_SECONDS; not in make check.
SOAK_SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
SCENARIOS_LONG = {
    "soak": ("soak", "standard", "block.events_dfl_poll_msecs=1000 dsoak=%d"
             % SOAK_SECONDS, SOAK_SECONDS + 1200),
}
# loglevel=5: warnings and worse reach the console (all splats do), the
# drivers' notices do not, so they do not interleave with TAP lines.
APPEND = "console=ttyS0 loglevel=5 panic=1"


class Results:
    def __init__(self, path, prefix):
        self.file = open(path, "a")
        self.prefix = prefix

    def add(self, verdict, name):
        line = "%s %s%s" % (verdict, self.prefix, name)
        print(line, flush=True)
        self.file.write(line + "\n")


def run_scenario(tree, name, results):
    test, drives, extra, timeout = {**SCENARIOS, **SCENARIOS_LONG}[name]
    rundir = os.path.join(BUILD, "run", tree, name)
    log = rundir + ".log"
    os.makedirs(rundir, exist_ok=True)
    status = vm.run([
        "--kernel", os.path.join(BUILD, "obj", tree + "-debug", "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(BUILD, "guest.cpio"),
        "--append", "%s dtest=%s dtree=%s %s" % (APPEND, test, tree, extra),
        "--drives", drives, "--rundir", rundir, "--log", log,
        "--timeout", str(timeout)])
    for passed, case, directive in console.tap_results(log):
        if passed:
            results.add("PASS", case)
        elif directive == "TODO" and tree == "stock":
            results.add("XFAIL", case)
        else:
            results.add("FAIL", case)
    results.add("PASS" if status == 0 else "FAIL",
                "%s: guest finished (status %d)" % (name, status))
    bad = console.splats(log)
    for line in bad[:5]:
        print("#   " + line)
    results.add("FAIL" if bad else "PASS",
                "%s: console clean (%d splat lines, %s)" % (name, len(bad), log))


def main():
    tree = sys.argv[1]
    names = sys.argv[2:] or os.environ.get("SCENARIOS", "").split() or list(SCENARIOS)
    results = Results(os.environ.get("RESULTS", "/dev/null"), "e2e/%s: " % tree)
    for name in names:
        run_scenario(tree, name, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
