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
failure in a suite of BEYOND (behaviour only our core has) is an XFAIL,
a pass there an XPASS (counted as a failure: the base should not have
it); a suite of OURS_ONLY is built into our core's own file, so the base
has none of its cases: each is an XFAIL there.  KUNIT_FILTER=GLOB runs
only the cases it matches (kunit.filter_glob); KUNIT_NAME=NAME names
the results (and the log, kunit-NAME.log) of a run on some other state
of TREE's kernel.

It declares its results first ("PLAN N"): the cases of the suites in
SUITES (those KUNIT_FILTER's suite part matches), and three more: the
parser read a freshly written result and exited 0; every declared suite
ran with its number of cases; the console is clean.  A case that never
ran is a FAIL of its own.
"""

import fnmatch
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


# Every suite the test kernels run, with its number of cases.
SUITES = {
    "disk_events": 114,
    "disk_events_beyond_mainline": 61,
    "disk_events_flapping_rule": 13,
    "list-kunit-test": 39,
    "hlist": 18,
    "klist": 8,
}
# Suites of behaviour only our core has; of those, the ones that only
# our core's file builds (block/disk-events-test-rule.c).
BEYOND = {"disk_events_beyond_mainline", "disk_events_flapping_rule"}
OURS_ONLY = {"disk_events_flapping_rule"}


def declared_suites(glob):
    """The suites of SUITES that kunit.filter_glob=@glob runs."""
    suite_glob = glob.split(".")[0] if glob else "*"
    return {s: n for s, n in SUITES.items() if fnmatch.fnmatchcase(s, suite_glob)}


def parse(src, log, js):
    """Run kunit.py parse on @log into a fresh @js; (exit status, cases)."""
    if os.path.exists(js):
        os.unlink(js)
    done = subprocess.run([sys.executable, src + "/tools/testing/kunit/kunit.py",
                           "parse", "--json=" + js, log],
                          stdout=subprocess.PIPE, text=True)
    print("\n".join(l for l in done.stdout.splitlines() if "Testing complete" in l
                    or "FAILED" in l or "CRASHED" in l))
    if not os.path.exists(js):
        return done.returncode, []
    with open(js) as f:
        root = json.load(f)                 # "KUnit Test Group": suites below
    return done.returncode, [c for g in root["sub_groups"] for c in cases(g)]


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
    beyond = tree == "stock" and name.split(".")[0] in BEYOND
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
    glob = os.environ.get("KUNIT_FILTER")
    only = " kunit.filter_glob=" + glob if glob else ""
    want = declared_suites(glob)
    results.plan(sum(want.values()) + 3, "%s kernel, suites %s" % (kind, " ".join(want)))
    if os.path.exists(log):
        os.unlink(log)
    try:
        status = vm.run([
            "--kernel", os.path.join(e2e.BUILD, "obj", "%s-%s" % (tree, kind),
                                     "arch/x86/boot/bzImage"),
            "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
            "--append", "%s loglevel=7 kunit.enable=1 dtest=boot%s%s"
            % (e2e.APPEND, dfl, only),
            "--drives", drives, "--rundir", rundir, "--log", log,
            "--timeout", "600"])
    except Exception as e:          # pylint: disable=broad-except
        print("kunit.py: %r" % e, file=sys.stderr)
        status = -1
    src = e2e.BUILD + ("/linux" if tree == "ours" else "/stock")
    rc, found = parse(src, log, js)
    ran = {}
    for case, st in found:
        results.add(verdict(tree, case, st), case)
        ran[case.split(".")[0]] = ran.get(case.split(".")[0], 0) + 1
    for suite, n in want.items():
        absent = tree == "stock" and suite in OURS_ONLY
        for i in range(ran.get(suite, 0), n):
            results.add("XFAIL" if absent else "FAIL",
                        "%s: case %d of %d never ran%s"
                        % (suite, i + 1, n, " (not in the base)" if absent else ""))
    if tree == "stock":
        want = {s: n for s, n in want.items() if s not in OURS_ONLY}
    # kunit.py exits 1 when a case failed, and when it crashed: only
    # the first explains itself in the result it wrote.
    failed = any(st not in ("PASS", "SKIP") for _, st in found)
    parsed = found and (rc == 0 or rc == 1 and failed)
    results.add("PASS" if parsed and status == 0 else "FAIL",
                "kunit.py parse read %d cases from a fresh result, exit status %d%s, "
                "guest status %d"
                % (len(found), rc, " (failed cases)" if rc and failed else "", status))
    results.add("PASS" if ran == want else "FAIL",
                "suites and case counts as declared: %s"
                % ", ".join("%s %d/%d" % (s, ran.get(s, 0), want.get(s, 0))
                            for s in sorted(set(ran) | set(want))))
    results.add(*console.clean_verdict(log, "kunit"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
