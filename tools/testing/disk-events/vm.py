#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot one guest under QEMU (TCG) and serve its requests.

The guest's console (ttyS0) goes to --log, and with --echo to stdout.
Its control channel (ttyS1) carries one request per line, which this
driver carries out over QMP before it answers "ok [DATA]" or
"err MESSAGE"; so guest and host move in lock step, never by sleeping.
Requests:
    change ID MEDIUM        insert MEDIUM (made on first use; "iso-NAME": an
                            ISO 9660 image), closing the tray
    medium-size MEDIUM ID   the size in bytes of MEDIUM, made for drive ID
    eject ID [force]        press eject (a locked tray answers "err ... locked")
    open-tray ID [force], close-tray ID, remove ID
    tray ID                 "open|closed locked|unlocked"
    wait-tray ID open|closed SECS
                            wait for QEMU's DEVICE_TRAY_MOVED event
    plug ID                 hot-plug an empty virtio-scsi CD drive ID
    plug-usb ID             plug USB card reader ID in again, with the
                            medium it booted with
    unplug ID               hot-unplug drive ID, wait until QEMU removed it
    scsi-mark               start counting SCSI commands (QEMU's trace)
    scsi-count ID [OPCODE]  commands to virtio-scsi drive ID (or "all"
                            drives) since the mark, all or those with
                            OPCODE (decimal: 74 is GET EVENT STATUS
                            NOTIFICATION, 0 TEST UNIT READY)
    scsi-counts OPCODE ID...
                            "MS N..." at one instant: the ms since the mark
                            and each drive's commands with OPCODE
    later MS REQUEST...     answer at once, carry out REQUEST in MS ms
                            (while the guest cannot ask: suspended)
    flap ID MS SECS         change ID's medium every MS ms for SECS s, from
                            now on (a forced eject and an insert); answers
                            how many changes
    reboots reset|shutdown  what the guest's restart does: boot again, or
                            end QEMU (the default, -no-reboot)
    reboot-cycle            count a boot of the guest; answers "BOOT N P F
                            S": which boot of the run this is, and the TAP
                            counts the boot before it kept
    keep N P F S            keep the TAP counts for the next boot
    deadline SECS           fail the run unless another request comes
                            within SECS s (a restart that hangs)
    now                     the host's monotonic clock in ms
    tap LINE                a TAP result line ("ok N NAME", "not ok N
                            NAME", with "# SKIP" or "# TODO" directives)
    done PLANNED PASSED FAILED SKIPPED
                            the guest is finished, and counted its results
    wedge                   (the harness's self-test) stop QEMU with
                            SIGSTOP, then ask it something over QMP
The results travel on the control channel, where no kernel message can
split them: each "tap" and "done" line is appended to --results.
The run ends when QEMU exits (the guest reboots with -no-reboot) or at
--timeout, when QEMU is killed.  Exit status 0 only after "done".
Every read of QMP and of the serial lines has a timeout: a wedged QEMU
ends the run with a non-zero status, never hangs it.
With --stamps FILE, every request and every console line is written to
FILE with the host's monotonic clock in ms: "MS request LINE" and
"MS console LINE", for latencies measured on the host (make bench).
"""

import argparse
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import machine
import qmp as qmplib


def open_output(path, mode="w"):
    """Open @path for writing, making its folders first: every file the
    harness writes may be the first in a build/ that does not exist yet
    (a clean clone's "make run")."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return open(path, mode)


def listen(path):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(1)
    return s


class Guest:
    def __init__(self, args):
        self.args = args
        self.done = False
        self.trace_mark = 0
        self.mark_time = time.monotonic()
        self.results = open_output(args.results) if args.results else None
        self.later = []                 # (due, request line), by "later"
        self.log = open_output(args.log, "wb")
        self.ctl_buf = b""
        self.con_buf = b""
        self.stamps = open_output(args.stamps) if args.stamps else None
        self.boots = 0
        self.kept = "0 0 0 0"           # TAP counts across restarts
        self.deadline = None            # (monotonic s, SECS) by "deadline"

    def stamp(self, kind, line):
        if self.stamps:
            self.stamps.write("%d %s %s\n" % (time.monotonic() * 1000, kind, line))
            self.stamps.flush()

    def request(self, line):
        """Carry out one guest request; return the answer line."""
        words = line.split()
        if not words:
            return "err empty request"
        self.stamp("request", line)
        self.deadline = None
        try:
            data = self.dispatch(words[0], words[1:])
            return "ok" + (" %s" % data if data is not None else "")
        except (qmplib.QMPError, ValueError, IndexError, StopIteration) as e:
            return "err %s" % str(e).replace("\n", " ")

    def dispatch(self, cmd, argv):
        q, rundir = self.qmp, self.args.rundir
        if cmd == "change":
            qid, medium = argv
            path = machine.image(rundir, medium,
                                 machine.kind_of(self.args.drives, qid))
            q.execute("blockdev-change-medium", filename=path, format="raw",
                      **machine.medium_target(qid))
        elif cmd == "medium-size":
            return os.path.getsize(machine.image(
                rundir, argv[0], machine.kind_of(self.args.drives, argv[1])))
        elif cmd == "eject":
            q.execute("eject", force=argv[1:] == ["force"],
                      **machine.medium_target(argv[0]))
        elif cmd == "open-tray":
            q.execute("blockdev-open-tray", force=argv[1:] == ["force"],
                      **machine.medium_target(argv[0]))
        elif cmd == "close-tray":
            q.execute("blockdev-close-tray", **machine.medium_target(argv[0]))
        elif cmd == "remove":
            q.execute("blockdev-remove-medium", **machine.medium_target(argv[0]))
        elif cmd == "plug":
            q.execute("device_add", driver="scsi-cd", bus="scsi0.0",
                      id=argv[0], product=argv[0])
        elif cmd == "plug-usb":
            q.execute("device_add", driver="usb-storage",
                      **machine.usb_storage(argv[0]))
        elif cmd == "unplug":
            q.execute("device_del", id=argv[0])
            q.wait_event("DEVICE_DELETED", 30, device=argv[0])
        elif cmd == "wait-tray":
            q.wait_event("DEVICE_TRAY_MOVED", int(argv[2]), id=argv[0],
                         **{"tray-open": argv[1] == "open"})
        elif cmd == "tray":
            return self.tray_state(argv[0])
        elif cmd == "scsi-mark":
            self.trace_mark = os.path.getsize(self.trace_path())
            self.mark_time = time.monotonic()
        elif cmd == "scsi-counts":
            ms = int((time.monotonic() - self.mark_time) * 1000)
            return " ".join(str(n) for n in [ms] + [
                self.scsi_count(self.scsi_target(qid), int(argv[0]))
                for qid in argv[1:]])
        elif cmd == "scsi-count":
            return self.scsi_count(self.scsi_target(argv[0]),
                                   *[int(x) for x in argv[1:]])
        elif cmd == "later":
            self.later.append((time.monotonic() + int(argv[0]) / 1000,
                               " ".join(argv[1:])))
        elif cmd == "flap":
            return self.flap(argv[0], int(argv[1]), int(argv[2]))
        elif cmd == "reboots":
            q.execute("set-action", reboot={"reset": "reset",
                                            "shutdown": "shutdown"}[argv[0]])
        elif cmd == "reboot-cycle":
            self.boots += 1
            return "%d %s" % (self.boots, self.kept)
        elif cmd == "keep":
            self.kept = " ".join(str(int(x)) for x in argv[:4])
        elif cmd == "deadline":
            self.deadline = (time.monotonic() + int(argv[0]), int(argv[0]))
        elif cmd == "now":
            return int(time.monotonic() * 1000)
        elif cmd == "tap":
            self.record(" ".join(argv))
        elif cmd == "wedge":
            os.kill(self.qemu_pid, signal.SIGSTOP)
            q.execute("query-status")
        elif cmd == "done":
            self.record("done " + " ".join(argv))
            self.done = True
        else:
            raise ValueError("unknown request %r" % cmd)
        return None

    def flap(self, qid, ms, secs):
        """Change @qid's medium every @ms ms for @secs s, from now on: a
        forced eject (which a guest's tray lock cannot turn into an eject
        request) and an insert, of two media in turn.  Returns how many."""
        t0, n = time.monotonic(), secs * 1000 // ms
        for i in range(n):
            due = t0 + (i + 1) * ms / 1000
            self.later.append((due, "eject %s force" % qid))
            self.later.append((due, "change %s flap-%d" % (qid, i % 2)))
        return n

    def record(self, line):
        if self.results:
            self.results.write(line + "\n")
            self.results.flush()

    def scsi_target(self, qid):
        """The SCSI target number of drive @qid; None for "all"."""
        return None if qid == "all" else self.qmp.execute(
            "qom-get", path="/machine/peripheral/" + qid, property="scsi-id")

    def trace_path(self):
        return os.path.join(self.args.rundir, "scsi-trace.log")

    def scsi_count(self, target, opcode=None):
        """SCSI commands QEMU parsed for @target (None: any) since the mark."""
        with open(self.trace_path(), errors="replace") as f:
            f.seek(self.trace_mark)
            words = [l.split() for l in f if "scsi_req_parsed " in l]
        pairs = [(int(w[w.index("target") + 1]), int(w[w.index("command") + 1]))
                 for w in words if "target" in w and "command" in w]
        return sum(1 for t, op in pairs
                   if target in (None, t) and opcode in (None, op))

    def tray_state(self, qid):
        for b in self.qmp.execute("query-block"):
            if b.get("qdev", "").split("/")[-1] == qid or \
                    "/%s/" % qid in b.get("qdev", ""):
                return "%s %s" % ("open" if b.get("tray_open") else "closed",
                                  "locked" if b.get("locked") else "unlocked")
        raise ValueError("no drive %s" % qid)

    def run_later(self):
        """Carry out the "later" requests that are due."""
        now = time.monotonic()
        for due in [l for l in self.later if l[0] <= now]:
            self.later.remove(due)
            answer = self.request(due[1])
            if answer != "ok":
                print("vm: later %s: %s" % (due[1], answer), file=sys.stderr)

    def on_console(self, data):
        self.log.write(data)
        self.log.flush()
        if self.stamps:
            self.con_buf += data
            *lines, self.con_buf = self.con_buf.split(b"\n")
            for line in lines:
                self.stamp("console", line.decode(errors="replace").rstrip("\r"))
        if self.args.echo:
            sys.stdout.buffer.write(data.replace(b"\r", b""))
            sys.stdout.flush()

    def on_control(self, data):
        self.ctl_buf += data
        while b"\n" in self.ctl_buf:
            line, self.ctl_buf = self.ctl_buf.split(b"\n", 1)
            answer = self.request(line.decode(errors="replace").strip())
            self.ctl.sendall(answer.encode() + b"\n")

    def run(self):
        a = self.args
        os.makedirs(a.rundir, exist_ok=True)
        # Sockets live in a short temporary path: a unix socket path may
        # not exceed 107 bytes, and a CI checkout can be deep.
        sockdir = tempfile.mkdtemp(prefix="disk-events-")
        paths = {n: os.path.join(sockdir, n) for n in ("console", "control", "qmp")}
        servers = {n: listen(p) for n, p in paths.items()}
        cmd = machine.qemu_args(a.drives, a.rundir, a.kernel, a.initrd,
                                a.append, paths) + a.qemu_extra
        cmd += ["-trace", "enable=scsi_req_parsed", "-D", self.trace_path()]
        with open(os.path.join(a.rundir, "qemu.cmd"), "w") as f:
            f.write(" ".join(cmd) + "\n")
        qemu = None
        try:
            qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                    stdout=open(os.path.join(a.rundir, "qemu.out"), "wb"),
                                    stderr=subprocess.STDOUT)
            self.qemu_pid = qemu.pid
            return self.serve(qemu, servers)
        except (OSError, EOFError, qmplib.QMPError) as e:
            # OSError includes QMPTimeout and a QEMU that is not there.
            print("vm: %s; QEMU said:" % e, file=sys.stderr)
            if qemu:
                qemu.kill()
                qemu.wait()
            with open(os.path.join(a.rundir, "qemu.out"), "a+", errors="replace") as f:
                f.seek(0)
                sys.stderr.write(f.read()[-2000:])
            self.log.write(("\nvm: %s\n" % e).encode())
            return 3
        finally:
            if qemu:
                if qemu.poll() is None:
                    qemu.kill()
                qemu.wait()
            shutil.rmtree(sockdir, ignore_errors=True)

    def accept_all(self, qemu, servers):
        conns = {}
        for name, s in servers.items():
            s.settimeout(30)
            conns[name], _ = s.accept()
            s.close()
        return conns

    def serve(self, qemu, servers):
        deadline = time.monotonic() + self.args.timeout
        conns = self.accept_all(qemu, servers)
        self.ctl = conns["control"]
        # A QEMU that stops reading its serial line fails the send.
        self.ctl.settimeout(qmplib.ANSWER_TIMEOUT)
        self.qmp = qmplib.QMP(conns["qmp"])
        sel = selectors.DefaultSelector()
        sel.register(conns["console"], selectors.EVENT_READ, self.on_console)
        sel.register(conns["control"], selectors.EVENT_READ, self.on_control)
        sel.register(conns["qmp"], selectors.EVENT_READ, None)
        open_conns = 3
        while open_conns and time.monotonic() < deadline:
            if self.deadline and time.monotonic() > self.deadline[0]:
                print("vm: no request within %d s of the deadline, QEMU killed"
                      % self.deadline[1], file=sys.stderr)
                self.log.write(b"\nvm: DEADLINE\n")
                return 1
            self.run_later()
            for key, _ in sel.select(timeout=0.05 if self.later else 1):
                if key.data is None:
                    try:
                        self.qmp.poll_event()
                        while self.qmp.pending():
                            self.qmp.poll_event()
                    except EOFError:
                        sel.unregister(key.fileobj)
                        open_conns -= 1
                    continue
                data = key.fileobj.recv(65536)
                if not data:
                    sel.unregister(key.fileobj)
                    open_conns -= 1
                else:
                    key.data(data)
        if time.monotonic() >= deadline:
            print("vm: timeout after %d s, QEMU killed" % self.args.timeout,
                  file=sys.stderr)
            self.log.write(b"\nvm: TIMEOUT\n")
            return 1
        return 0 if self.done else 2


def parser():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True,
                   help="an initramfs, or a root disk image (.img)")
    p.add_argument("--append", default="")
    p.add_argument("--drives", default="standard",
                   help="a drive set of machine.py: %s, or benchN" % ", ".join(machine.DRIVE_SETS))
    p.add_argument("--rundir", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--echo", action="store_true")
    p.add_argument("--stamps", help="host-timed log of requests and console lines")
    p.add_argument("--results", help="where the guest's TAP and done lines go")
    p.add_argument("qemu_extra", nargs="*", help="more QEMU arguments")
    return p


def run(argv):
    """Boot a guest as the command line @argv says; its exit status."""
    return Guest(parser().parse_args(argv)).run()


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
