# SPDX-License-Identifier: GPL-2.0
"""A small QMP client over an already connected socket."""

import json
import socket
import time


class QMPError(Exception):
    """QEMU answered a command with an error."""


class QMP:
    """Send QMP commands one at a time; keep the events seen meanwhile."""

    def __init__(self, sock):
        self.sock = sock
        self.file = sock.makefile("rwb", buffering=0)
        self.events = []
        self._read()                        # the greeting
        self.execute("qmp_capabilities")

    def _read(self):
        line = self.file.readline()
        if not line:
            raise EOFError("QEMU closed the QMP socket")
        return json.loads(line)

    def execute(self, command, **arguments):
        """Run @command; return its "return" value, raise QMPError."""
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self._read()
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
            self.sock.settimeout(left)
            try:
                self.poll_event()
            except (socket.timeout, TimeoutError):
                pass
            finally:
                self.sock.settimeout(None)

    def poll_event(self):
        """Read one pending event (the caller knows one is waiting)."""
        reply = self._read()
        if "event" in reply:
            self.events.append(reply)
