#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The harness's own tests: can a result be wrong without going red?

selftest.py TREE: each case below feeds the harness a failure it must
see (a guest that lies about its counts, a crashed parser, an empty
log, a QEMU that never answers, ...) and checks that it does.  Most run
on the host alone, with vm.run replaced by a fake guest; "wedged_qemu"
boots TREE's debug kernel and stops QEMU under it.  Results go to
$RESULTS as "selftest: CASE" lines, declared first.
"""

import importlib
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

import console
import e2e
import kunit
import qmp
import vm

HERE = os.path.dirname(os.path.abspath(__file__))


class Collect:
    """A Results that keeps its lines."""

    def __init__(self):
        self.lines = []

    def add(self, verdict, name):
        self.lines.append((verdict, name))

    def plan(self, n, what):
        self.lines.append(("PLAN", "%d %s" % (n, what)))

    def verdicts(self, word):
        return [v for v, n in self.lines if word in n]


def fake_guest(console_lines, control_lines, status=0):
    """A vm.run that "boots" a guest printing @console_lines and sending
    @control_lines (TAP and done) on its control channel."""
    def run(argv):
        args = vm.parser().parse_args(argv)
        if console_lines is not None:       # None: the log is lost
            with vm.open_output(args.log) as f:
                f.write("\n".join(console_lines) + "\n")
        if args.results:
            with vm.open_output(args.results) as f:
                f.write("\n".join(control_lines) + "\n")
        return status
    return run


GOOD_CONSOLE = ["guest: running t on 6.12", "ok 1 t: a", "ok 2 t: b",
                "guest: done 2 2 0 0"]
GOOD_CONTROL = ["ok 1 t: a", "ok 2 t: b", "done 2 2 0 0"]


class Scenario(unittest.TestCase):
    """e2e.py's account of one guest run."""

    def setUp(self):
        self.build = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, self.build)

    def run_guest(self, console_lines, control_lines, declared=2, status=0):
        results = Collect()
        with mock.patch.object(e2e, "BUILD", self.build), \
                mock.patch.object(vm, "run", fake_guest(console_lines, control_lines, status)):
            e2e.run_scenario("ours", "t", results, ("t", "standard", "", 60, declared))
        return results

    def test_good_run_passes(self):
        r = self.run_guest(GOOD_CONSOLE, GOOD_CONTROL)
        self.assertEqual([v for v, _ in r.lines], ["PASS"] * 5)

    def test_not_ok_split_on_the_console_still_fails(self):
        # A kernel message cut into the failing line on the console.
        con = GOOD_CONSOLE[:2] + ["not ok 2 t[   3.1] sr 0:0:0:0: x", ": b"] + GOOD_CONSOLE[3:]
        ctl = ["ok 1 t: a", "not ok 2 t: b", "done 2 1 1 0"]
        r = self.run_guest(con, ctl)
        self.assertIn("FAIL", r.verdicts("t: b"))

    def test_guest_counts_unlike_the_results_received_fail(self):
        r = self.run_guest(GOOD_CONSOLE, ["ok 1 t: a", "done 2 2 0 0"])
        self.assertIn("FAIL", r.verdicts("guest said done"))

    def test_skip_is_a_skip_not_a_pass(self):
        r = self.run_guest(GOOD_CONSOLE, ["ok 1 t: a", "ok 2 t: b # SKIP no drive",
                                          "done 2 1 0 1"])
        self.assertEqual(r.verdicts("t: b"), ["SKIP"])

    def test_crashed_guest_fails_each_missing_result(self):
        r = self.run_guest(GOOD_CONSOLE[:2], ["ok 1 t: a"], declared=5, status=1)
        self.assertEqual(len(r.verdicts("never came")), 4)
        self.assertNotIn("PASS", r.verdicts("never came"))

    def test_empty_console_is_not_clean(self):
        r = self.run_guest([], GOOD_CONTROL)
        self.assertEqual(r.verdicts("console clean"), ["FAIL"])

    def test_missing_qemu_fails_every_result_by_name(self):
        results = Collect()
        with mock.patch.object(e2e, "BUILD", self.build), \
                mock.patch.dict(os.environ, {"PATH": self.build}):
            e2e.run_scenario("ours", "t", results, ("t", "standard", "", 60, 3))
        self.assertEqual(len(results.lines), 3 + e2e.HOST_RESULTS)
        self.assertTrue(all(v == "FAIL" for v, n in results.lines if n.startswith("t")))
        self.assertTrue(all(v == "FAIL" for v, _ in results.lines))

    def run_lanes(self, specs, kinds=None, build=None):
        results = Collect()
        guest = fake_guest(GOOD_CONSOLE, GOOD_CONTROL)
        both = threading.Barrier(2, timeout=10)

        def side_by_side(argv):
            both.wait()         # raises if the other never starts
            return guest(argv)

        with mock.patch.object(e2e, "BUILD", self.build), \
                mock.patch.dict(e2e.EVERY_SCENARIO, specs), \
                mock.patch.dict(e2e.KERNEL_KINDS, kinds or {}), \
                mock.patch.object(e2e.subprocess, "run", side_effect=build), \
                mock.patch.object(vm, "run", side_by_side if build is None else guest):
            e2e.run_scenarios("ours", list(specs), results)
        return results

    def test_scenarios_run_side_by_side_and_report_whole(self):
        r = self.run_lanes({"a": ("t", "standard", "", 60, 2),
                            "b": ("t", "standard", "", 90, 3)})
        names = [n for v, n in r.lines if v != "PLAN"]
        self.assertEqual(r.lines[0], ("PLAN", "11 a b"))
        self.assertEqual(len(names), 11)
        self.assertEqual(r.verdicts("b: result 3 of 3 never came"), ["FAIL"])
        for name in "ab":
            self.assertEqual(r.verdicts(name + ": guest finished (status 0)"), ["PASS"])
        # Each ends with its console's verdict; the guest's own lines
        # ("t: ...") name no scenario.
        end = next(i for i, n in enumerate(names) if "console" in n) + 1
        owners = [{n.split(":")[0] for n in part} - {"t"}
                  for part in (names[:end], names[end:])]
        self.assertEqual(sorted(map(sorted, owners)), [["a"], ["b"]], names)

    def test_scenario_alone_runs_with_no_other_beside_it(self):
        guest = fake_guest(GOOD_CONSOLE, GOOD_CONTROL)
        spans, lock = {}, threading.Lock()

        def timed(argv):
            name = os.path.basename(vm.parser().parse_args(argv).rundir)
            start = time.monotonic()
            time.sleep(0.2)
            with lock:
                spans[name] = (start, time.monotonic())
            return guest(argv)

        specs = {n: ("t", "standard", "", t, 2) for n, t in
                 (("a", 90), ("b", 60), ("c", 60), ("d", 30))}
        with mock.patch.object(e2e, "BUILD", self.build), \
                mock.patch.dict(e2e.EVERY_SCENARIO, specs), \
                mock.patch.object(e2e, "ALONE", {"c"}), \
                mock.patch.object(vm, "run", timed):
            e2e.run_scenarios("ours", list(specs), Collect())
        c0, c1 = spans.pop("c")
        self.assertEqual([n for n, (s0, s1) in spans.items() if s0 < c1 and c0 < s1], [])
        a0, a1 = spans["a"]
        self.assertLess(spans["b"][0], a1)  # the others do run side by side

    def test_kernel_that_does_not_build_fails_its_scenarios(self):
        failed = subprocess.CalledProcessError(2, "build.sh")
        r = self.run_lanes({"a": ("t", "standard", "", 60, 2),
                            "b": ("t", "standard", "", 90, 2)},
                           kinds={"b": "preempt"}, build=failed)
        self.assertEqual(r.verdicts("a: guest finished (status 0)"), ["PASS"])
        b = [v for v, n in r.lines if n.startswith("b: ")]
        self.assertEqual(len(b), 2 + e2e.HOST_RESULTS)
        self.assertEqual(set(b), {"FAIL"})


class KUnit(unittest.TestCase):
    """kunit.py's reading of the parser's result."""

    def setUp(self):
        self.build = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, self.build)
        self.results = os.path.join(self.build, "results")
        os.makedirs(os.path.join(self.build, "run", "ours"))
        # The real parser, from the assembled tree.
        os.symlink(os.path.join(e2e.BUILD, "linux"), os.path.join(self.build, "linux"))

    def run_kunit(self, log_lines):
        with mock.patch.object(e2e, "BUILD", self.build), \
                mock.patch.object(vm, "run", fake_guest(log_lines, [])), \
                mock.patch.dict(os.environ, {"RESULTS": self.results,
                                             "KUNIT_FILTER": "klist.*"}), \
                mock.patch.object(sys, "argv", ["kunit.py", "ours"]), \
                mock.patch("sys.stdout", new_callable=io.StringIO):
            kunit.main()
        with open(self.results) as f:
            return [l.split(" ", 1) for l in f.read().splitlines()]

    @staticmethod
    def klist_log(cases):
        out = ["guest: running boot on 6.12", "KTAP version 1", "1..1",
               "    KTAP version 1", "    # Subtest: klist", "    1..%d" % cases]
        out += ["    ok %d klist_case_%d" % (i, i) for i in range(1, cases + 1)]
        return out + ["ok 1 klist", "guest: done 1 1 0 0"]

    def test_full_suite_passes(self):
        lines = self.run_kunit(self.klist_log(8))
        self.assertFalse([l for l in lines if l[0] == "FAIL"], lines)

    def test_stale_json_is_not_read(self):
        stale = {"sub_groups": [{"name": "klist", "test_cases": [
            {"name": "klist_case_%d" % i, "status": "PASS"} for i in range(1, 9)]}]}
        with open(os.path.join(self.build, "run", "ours", "kunit.json"), "w") as f:
            json.dump(stale, f)
        # No log: the parser fails, and writes nothing.
        lines = self.run_kunit(None)
        self.assertIn("FAIL", [l[0] for l in lines if "parse read" in l[1]])

    def test_missing_cases_fail(self):
        lines = self.run_kunit(self.klist_log(5))
        self.assertEqual(len([l for l in lines if l[0] == "FAIL"]) >= 3, True, lines)


class Accounting(unittest.TestCase):
    """account.sh and tally.sh: the total is what was declared."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.results = os.path.join(self.dir, "results")

    def tally(self, lines, account=None):
        """tally.sh of @lines, after account.sh @account if given:
        (last line, exit status)."""
        with open(self.results, "w") as f:
            f.write("\n".join(lines) + "\n")
        if account:
            subprocess.run([os.path.join(HERE, "account.sh"), self.results] + account,
                           stdout=subprocess.DEVNULL, check=True)
        run = subprocess.run([os.path.join(HERE, "tally.sh"), self.results],
                             stdout=subprocess.PIPE, text=True)
        return run.stdout.splitlines()[-1], run.returncode

    def test_runner_that_dies_leaves_its_missing_results_failed(self):
        last, status = self.tally(["PLAN 5 r", "PASS r: a", "PASS r: b"], ["1", "r", "1"])
        self.assertEqual((last, status != 0), ("2 passed, 4 failed, 0 skipped", True))

    def test_tally_counts_skips_apart(self):
        last, status = self.tally(["PLAN 2 r", "PASS r: a", "SKIP r: b"])
        self.assertEqual((last, status), ("1 passed, 0 failed, 1 skipped", 0))

    def test_tally_fails_results_unlike_the_plan(self):
        self.assertNotEqual(self.tally(["PLAN 3 r", "PASS r: a"])[1], 0)


class Timeouts(unittest.TestCase):
    """No read waits for ever on QEMU."""

    def test_qmp_command_to_a_silent_qemu_times_out(self):
        ours, qemu = socket.socketpair()
        self.addCleanup(ours.close)
        self.addCleanup(qemu.close)

        def serve():        # greet, take capabilities, then say nothing
            qemu.sendall(b'{"QMP": {}}\n')
            qemu.recv(4096)
            qemu.sendall(b'{"return": {}}\n')
        threading.Thread(target=serve, daemon=True).start()
        signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(
            AssertionError("QMP read hung past 10 s")))
        signal.alarm(10)
        try:
            q = qmp.QMP(ours, timeout=2)
            t0 = time.monotonic()
            with self.assertRaises(TimeoutError):
                q.execute("query-status")
            self.assertLess(time.monotonic() - t0, 5)
        finally:
            signal.alarm(0)


class Splats(unittest.TestCase):
    """console.py catches every kind of splat, and needs a guest that ran."""

    def test_every_sample_splat_is_caught(self):
        self.assertEqual(console.self_test(), 0)



class Repeats(unittest.TestCase):
    """make check-long runs make check's scenarios with their regression
    guards at full count; make check at fewer."""

    def scenarios(self, long):
        with mock.patch.dict(os.environ, {"E2E_LONG": "1" if long else ""}):
            importlib.reload(e2e)
        self.addCleanup(importlib.reload, e2e)
        return e2e.EVERY_SCENARIO, e2e.DEFAULT_SCENARIOS

    def test_check_long_runs_the_guards_at_full_count(self):
        every, default = self.scenarios(long=True)
        self.assertIn("drestarts=30", every["reboots"][2])
        self.assertEqual(every["kexecs"][4], 30 + 1)
        self.assertIn("dremovals=50", every["removal"][2])
        self.assertIn("dcycles=100", every["storm"][2])
        self.assertIn("dswaps=50", every["swaps"][2])
        self.assertIn("dcycles=20", every["distro"][2])
        self.assertEqual(default, self.scenarios(long=False)[1])

    def test_check_repeats_them_fewer_times(self):
        every, _ = self.scenarios(long=False)
        self.assertIn("drestarts=5", every["reboots"][2])
        self.assertEqual(every["reboots"][4], 5 + 1)
        self.assertIn("dremovals=10", every["removal"][2])
        self.assertIn("dcycles=2", every["distro"][2])


class Folders(unittest.TestCase):
    """The entry points make the folders they write to."""

    def test_vm_with_no_build_folder_writes_its_log(self):
        # make run's vm.py command line on a clean clone: nothing of
        # build/ exists.  PATH has no QEMU, so the run fails at once,
        # with vm.py's own status and its log written.
        top = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, top)
        build = os.path.join(top, "build")
        run = subprocess.run(
            [sys.executable, os.path.join(HERE, "vm.py"), "--drives", "demo",
             "--kernel", os.path.join(build, "bzImage"),
             "--initrd", os.path.join(build, "guest.cpio"),
             "--rundir", os.path.join(build, "run", "demo"),
             "--log", os.path.join(build, "run", "demo.log"),
             "--results", os.path.join(build, "run", "demo.tap"),
             "--stamps", os.path.join(build, "run", "demo.stamps")],
            env={"PATH": top}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, timeout=60)
        self.assertNotIn("Traceback", run.stdout)
        self.assertEqual(run.returncode, 3, run.stdout)
        self.assertTrue(os.path.exists(os.path.join(build, "run", "demo.log")))

    def test_shell_entry_points_with_no_build_folder_have_one(self):
        # make mutants redirects into build/ before its first script ran.
        top = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, top)
        build = os.path.join(top, "build")
        subprocess.run(["bash", "-c", ". %s/lib.sh" % HERE], check=True,
                       env=dict(os.environ, BUILD=build))
        self.assertTrue(os.path.isdir(build))


class Caches(unittest.TestCase):
    """A cache is used only for the inputs it was made from."""

    def base_is_current(self, version):
        """lib.sh's base_is_current on a $TREE unpacked from @version of
        the base package (None: the version installed)."""
        build = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, build)
        tree = os.path.join(build, "linux")
        lib = ". %s/lib.sh; " % HERE
        subject = subprocess.run(
            ["bash", "-c", lib + 'base_subject "${1:-$(base_package_version)}"',
             "-", version or ""], check=True, stdout=subprocess.PIPE, text=True).stdout
        git = ["git", "-C", tree, "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
        subprocess.run(["git", "init", "-q", tree], check=True)
        subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", subject], check=True)
        subprocess.run(git + ["tag", "base"], check=True)
        return subprocess.run(["bash", "-c", lib + "base_is_current"],
                              env=dict(os.environ, BUILD=build)).returncode == 0

    def test_unpacked_base_of_the_installed_package_is_kept(self):
        self.assertTrue(self.base_is_current(None))

    def test_new_base_package_is_unpacked_again(self):
        self.assertFalse(self.base_is_current("6.12.0-0"))


class Handshake(unittest.TestCase):
    """Tests wait for a listener to say it listens, not for a while."""

    def test_diskevents_watch_says_when_it_listens(self):
        if os.geteuid() != 0:
            self.skipTest("the uevent socket needs root")
        out = tempfile.mkdtemp(prefix="selftest-")
        self.addCleanup(shutil.rmtree, out)
        subprocess.run(["make", "-s", "-C", os.path.join(HERE, "../../disk-events"),
                        "OUTPUT=%s/" % out], check=True)
        run = subprocess.run([os.path.join(out, "diskevents"), "watch", "--timeout", "1"],
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.assertIn("listening", run.stderr)


class Wedged(unittest.TestCase):
    """A wedged QEMU under a real guest ends the run with FAILs, in time."""

    def test_wedged_qemu_ends_in_fails_within_the_limit(self):
        if os.environ.get("SELFTEST_TREE") is None:
            self.skipTest("boots a kernel: selftest.py TREE")
        results = Collect()
        t0 = time.monotonic()
        e2e.run_scenario(os.environ["SELFTEST_TREE"], "wedge", results,
                         ("wedge", "none", "", 120, 2))
        took = time.monotonic() - t0
        self.assertLess(took, 120 + 10)
        self.assertIn("FAIL", results.verdicts("wedge: guest finished"))
        self.assertIn("FAIL", results.verdicts("never came"))
        self.assertEqual(results.verdicts("wedge: the guest is up"), ["PASS"])


def main():
    tree = sys.argv[1] if len(sys.argv) > 1 else None
    if tree:
        os.environ["SELFTEST_TREE"] = tree
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    tests = list(iter_tests(suite))
    out = e2e.Results(os.environ.get("RESULTS", "/dev/null"), "selftest: ")
    with open(os.environ.get("RESULTS", "/dev/null"), "a") as f:
        f.write("PLAN %d selftest: the harness's own tests\n" % len(tests))
    for test in tests:
        res = unittest.TestResult()
        test.run(res)
        name = test.id().split(".", 1)[1]
        bad = res.failures + res.errors
        verdict = "FAIL" if bad else "SKIP" if res.skipped else "PASS"
        out.add(verdict, name)
        for _, trace in bad:
            print("#   " + trace.strip().splitlines()[-1])
    return 0


def iter_tests(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from iter_tests(t)
        else:
            yield t


if __name__ == "__main__":
    sys.exit(main())
