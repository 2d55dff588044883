#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the KUnit suites built into TREE's debug kernel, at boot.

KUnit prints at KERN_INFO, so this boot shows info messages (loglevel=7).

kunit.py TREE: boot with kunit.enable=1, hand the console to the kernel's
own "tools/testing/kunit/kunit.py parse", and record each case as a
result.  On the stock tree, a failure in a suite whose name ends in
"_beyond_mainline" (behaviour only our core has) is an XFAIL, a pass
there an XPASS (counted as a failure: the base should not have it).
KUNIT_FILTER=GLOB runs only the cases it matches (kunit.filter_glob).
"""

import json
import os
import subprocess
import sys

import console
import e2e
import vm


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
    results = e2e.Results(os.environ.get("RESULTS", "/dev/null"), "kunit/%s: " % tree)
    rundir = os.path.join(e2e.BUILD, "run", tree, "kunit")
    log, js = rundir + ".log", rundir + ".json"
    os.makedirs(rundir, exist_ok=True)
    glob = os.environ.get("KUNIT_FILTER")
    only = " kunit.filter_glob=" + glob if glob else ""
    status = vm.run([
        "--kernel", os.path.join(e2e.BUILD, "obj", tree + "-debug", "arch/x86/boot/bzImage"),
        "--initrd", os.path.join(e2e.BUILD, "guest.cpio"),
        "--append", "%s loglevel=7 kunit.enable=1 dtest=boot%s" % (e2e.APPEND, only),
        "--drives", "standard", "--rundir", rundir, "--log", log,
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
