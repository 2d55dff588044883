# SPDX-License-Identifier: GPL-2.0
"""Read a guest's console log: the TAP results it printed, and splats.

A run fails on a splat whatever its tests said: the debug kernel's
reports of lockdep, KASAN, object debugging, hung tasks and kmemleak all
print one of these markers.
"""

import os
import re

SPLATS = [
    r"WARNING:", r"BUG:", r"KASAN:", r"possible circular locking",
    r"possible recursive locking", r"inconsistent lock state",
    r"INFO: task .* blocked", r"unreferenced object", r"Kernel panic",
    r"Oops", r"general protection fault", r"ODEBUG:", r"Call Trace:",
    r"-\[ cut here \]-", r"rcu: INFO: rcu_\w+ detected .*stall",
    r"rcu_\w+ self-detected stall", r"soft lockup", r"hard LOCKUP",
    r"new suspected memory leaks",
]
# One line the kernel prints for each kind of splat, as 6.12 prints it:
# selftest.py checks, through self_test(), that each is caught.
SAMPLES = [
    "[   12.345678] WARNING: CPU: 1 PID: 42 at block/disk-events.c:100 f+0x1/0x2",
    "[    1.000000] BUG: KASAN: slab-use-after-free in disk_events_workfn+0x1/0x2",
    "[    1.000000] BUG: sleeping function called from invalid context at x.c:1",
    "[    1.000000] WARNING: possible circular locking dependency detected",
    "[    1.000000] WARNING: possible recursive locking detected",
    "[    1.000000] WARNING: inconsistent lock state",
    "[   60.000000] INFO: task kworker/0:1:42 blocked for more than 30 seconds.",
    "unreferenced object 0xffff888003a5c000 (size 64):",
    "[    2.000000] Kernel panic - not syncing: Fatal exception",
    "[    2.000000] Oops: general protection fault, probably for non-canonical address",
    "[    2.000000] ODEBUG: free active (active state 0) object: 0000 object type: work_struct",
    "[    2.000000] Call Trace:",
    "[    2.000000] ------------[ cut here ]------------",
    "[   30.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
    "[   30.000000] rcu: INFO: rcu_sched self-detected stall on CPU",
    "[   30.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [kworker/0:1:42]",
    "[   30.000000] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1",
    "[   40.000000] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
]
# The guest's first and last console lines (guest/init, guest/lib.sh).
BANNER_RE = re.compile(r"^guest: running ")
DONE_RE = re.compile(r"^guest: done \d+ \d+ \d+ \d+$")
SPLAT_RE = re.compile("|".join(SPLATS))
# Guest TAP lines start at column 0; KUnit's are indented or "# "-led.
TAP_RE = re.compile(r"^(ok|not ok) \d+ (.*?)(?: # (TODO|SKIP)\b(.*))?$")


def read_lines(path):
    with open(path, "rb") as f:
        return f.read().decode(errors="replace").replace("\r", "").split("\n")


def clean_verdict(path, name):
    """(verdict, result name) for "the console of run @name is clean":
    it shows the guest's banner and its last line, so the guest ran
    (an empty log proves nothing), and no splat line."""
    lines = read_lines(path) if os.path.exists(path) else []
    bad = [l for l in lines if SPLAT_RE.search(l)]
    ran = any(BANNER_RE.match(l) for l in lines) and any(DONE_RE.match(l) for l in lines)
    for line in bad[:5]:
        print("#   " + line)
    return ("PASS" if ran and not bad else "FAIL",
            "%s: console clean (%s, %d splat lines, %s)"
            % (name, "banner and done seen" if ran else "NO banner or done: the guest "
               "did not run to its end", len(bad), path))


def self_test():
    """Each sample splat is caught, and a clean run is clean."""
    missed = [s for s in SAMPLES if not SPLAT_RE.search(s)]
    for s in missed:
        print("console.py: not caught: %s" % s)
    clean = ["guest: running boot on 6.12", "ok 1 boot: up", "guest: done 1 1 0 0"]
    false = [l for l in clean if SPLAT_RE.search(l)]
    for l in false:
        print("console.py: caught, but clean: %s" % l)
    return 1 if missed or false else 0

