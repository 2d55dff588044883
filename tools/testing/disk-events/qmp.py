# SPDX-License-Identifier: GPL-2.0
"""A small QMP client over an already connected socket."""

import json
import socket
import time


class QMPError(Exception):
    """QEMU answered a command with an error."""


class QMPTimeout(TimeoutError):
    """QEMU did not answer in time: it is wedged, and the run is over."""


# No QMP command of ours takes QEMU longer than this to answer.
ANSWER_TIMEOUT = 30


class QMP:
    """Send QMP commands one at a time; keep the events seen meanwhile."""

    def __init__(self, sock, timeout=ANSWER_TIMEOUT):
        self.sock = sock
        self.timeout = timeout
        self.buf = b""
        self.events = []
        self._read(timeout)                 # the greeting
        self.execute("qmp_capabilities")

    def _read(self, timeout):
        """One message; QMPTimeout if none is complete within @timeout s."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise QMPTimeout("QEMU sent no QMP message within %d s" % timeout)
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, TimeoutError):
                continue
            finally:
                self.sock.settimeout(None)
            if not data:
                raise EOFError("QEMU closed the QMP socket")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def pending(self):
        """Whether a whole message is already buffered."""
        return b"\n" in self.buf

    def execute(self, command, **arguments):
        """Run @command; return its "return" value, raise QMPError."""
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.sock.settimeout(self.timeout)
        try:
            self.sock.sendall(json.dumps(msg).encode() + b"\n")
        except (socket.timeout, TimeoutError):
            raise QMPTimeout("QEMU took no QMP command within %d s" % self.timeout)
        finally:
            self.sock.settimeout(None)
        while True:
            reply = self._read(self.timeout)
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise QMPError(reply["error"]["desc"])
            elif "return" in reply:
                return reply["return"]

    def wait_event(self, name, timeout, **data):
        """Wait for event @name whose data has @data; pop and return it."""
        deadline = time.monotonic() + timeout
        while True:
            for ev in self.events:
                if ev["event"] == name and \
                        all(ev.get("data", {}).get(k) == v for k, v in data.items()):
                    self.events.remove(ev)
                    return ev
            left = deadline - time.monotonic()
            if left <= 0:
                raise QMPError("no %s event within %d s" % (name, timeout))
            try:
                self.poll_event(left)
            except QMPTimeout:
                pass

    def poll_event(self, timeout=ANSWER_TIMEOUT):
        """Read one event (the caller knows one is on its way)."""
        reply = self._read(timeout)
        if "event" in reply:
            self.events.append(reply)
