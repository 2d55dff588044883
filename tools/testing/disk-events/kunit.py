#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the KUnit suites built into one of TREE's test kernels, at boot.

KUnit prints at KERN_INFO, so this boot shows info messages (loglevel=7).

kunit.py TREE [KIND]: boot TREE's KIND kernel (build.sh: debug, the
default, or preempt) with kunit.enable=1, hand the console to the
kernel's own "tools/testing/kunit/kunit.py parse", and record each case
as a result, named "kunit/TREE: ..." for the debug kernel and
"kunit/TREE-KIND: ..." for another; the console log is
build/run/TREE/kunit.log, or kunit-KIND.log.  On the stock tree, a
failure in a suite whose name ends in "_beyond_mainline" (behaviour only
our core has) is an XFAIL, a pass there an XPASS (counted as a failure:
the base should not have it).  KUNIT_FILTER=GLOB runs only the cases it
matches (kunit.filter_glob); KUNIT_NAME=NAME names the results (and the
log, kunit-NAME.log) of a run on some other state of TREE's kernel.
"""

import json
import os
import subprocess
import sys

import console
import e2e
import vm


# Per kind: what the kernel command line adds, and the guest's drive set.
# The suites never change block.events_dfl_poll_msecs; their cases about
# it check what the running default must do.  The debug kernel runs with
# mainline's default, 0, so those cases see a default that polls
# nothing; the preempt kernel with 100 ms, so they see disks follow a
# default (polled at it, or not without DISK_EVENT_FLAG_POLL, or not
# with an interval of their own).  The standard drive set's CD drives and
# removable disk follow the default: polled every 100 ms for the whole
# run, they would keep the emulated guest busy under the tests, so that
# kernel boots with no drives at all ("bench0": a set of none).  The
# suites bring their own fake disks.
KINDS = {
    "debug": ("", "standard"),
    "preempt": (" block.events_dfl_poll_msecs=100", "bench0"),
}


def cases(node, path=""):
    """(suite.case, status) for every case in kunit.py's JSON; a
    parameterised case is a group, its parameters the cases."""
    name = node.get("name", "")
    path = "%s.%s" % (path, name) if path and name else path or name
    for case in node.get("test_cases", []):
        yield "%s.%s" % (path, case["name"]), case["status"]
    for sub in node.get("sub_groups", []):
        yield from cases(sub, path)


def verdict(tree, name, status):
    beyond = tree == "stock" and "_beyond_mainline." in name
    if status == "SKIP":
        return "SKIP"
    if status == "PASS":
        return "FAIL" if beyond else "PASS"
    return "XFAIL" if beyond else "FAIL"


def main():
    tree = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "debug"
    if kind not in KINDS:
        sys.exit("kunit.py: kind: %s" % "|".join(KINDS))
    dfl, drives = KINDS[kind]
    name = tree if kind == "debug" else "%s-%s" % (tree, kind)
    name = os.environ.get("KUNIT_NAME", name)
    results = e2e.Results(os.environ.get("RESULTS", "/dev/null"), "kunit/%s: " % name)
    rundir = os.path.join(e2e.BUILD, "run", tree, "kunit" if name == tree
                          else "kunit-" + name.split("-", 1)[-1])
    log, js = rundir + ".log", rundir + ".json"
    os.makedirs(rundir, exist_ok=True)
    glob = os.environ.get("KUNIT_FILTER")
    only = " kunit.filter_glob=" + glob if glob else ""
    status = vm.run([
        "--kernel", os.path.join(e2e.BUILD, "obj", "%s-%s" % (tree, kind),
                                 "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
        "--append", "%s loglevel=7 kunit.enable=1 dtest=boot%s%s"
        % (e2e.APPEND, dfl, only),
        "--drives", drives, "--rundir", rundir, "--log", log,
        "--timeout", "600"])
    src = e2e.BUILD + ("/linux" if tree == "ours" else "/stock")
    parse = subprocess.run([sys.executable, src + "/tools/testing/kunit/kunit.py",
                            "parse", "--json=" + js, log],
                           stdout=subprocess.PIPE, text=True)
    print("\n".join(l for l in parse.stdout.splitlines() if "Testing complete" in l
                    or "FAILED" in l or "CRASHED" in l))
    n = 0
    if os.path.exists(js):
        root = json.load(open(js))         # "KUnit Test Group": suites below
        for name, st in (c for g in root["sub_groups"] for c in cases(g)):
            results.add(verdict(tree, name, st), name)
            n += 1
    results.add("PASS" if n and status == 0 else "FAIL",
                "kunit.py parse read %d cases, guest status %d" % (n, status))
    bad = console.splats(log)
    for line in bad[:5]:
        print("#   " + line)
    results.add("FAIL" if bad else "PASS",
                "console clean (%d splat lines, %s)" % (len(bad), log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
