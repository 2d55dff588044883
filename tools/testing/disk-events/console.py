# SPDX-License-Identifier: GPL-2.0
"""Read a guest's console log: the TAP results it printed, and splats.

A run fails on a splat whatever its tests said: the debug kernel's
reports of lockdep, KASAN, object debugging, hung tasks and kmemleak all
print one of these markers.
"""

import re

SPLATS = [
    r"WARNING:", r"BUG:", r"KASAN:", r"possible circular locking",
    r"possible recursive locking", r"inconsistent lock state",
    r"INFO: task .* blocked", r"unreferenced object", r"Kernel panic",
    r"Oops", r"general protection fault", r"ODEBUG:", r"Call Trace:",
]
SPLAT_RE = re.compile("|".join(SPLATS))
# Guest TAP lines start at column 0; KUnit's are indented or "# "-led.
TAP_RE = re.compile(r"^(ok|not ok) \d+ (.*?)(?: # (TODO|SKIP)\b(.*))?$")


def read_lines(path):
    with open(path, "rb") as f:
        return f.read().decode(errors="replace").replace("\r", "").split("\n")


def splats(path):
    """Console lines that show a kernel splat."""
    return [l for l in read_lines(path) if SPLAT_RE.search(l)]


def tap_results(path):
    """(passed, name, directive) for each guest TAP result line."""
    out = []
    for line in read_lines(path):
        m = TAP_RE.match(line)
        if m:
            out.append((m.group(1) == "ok", m.group(2), m.group(3)))
    return out
