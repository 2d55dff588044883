#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cover.py COVER TEXT [RESULTS]: fill in git format-patch's cover letter.

COVER is the 0000-cover-letter.patch to rewrite; TEXT holds a
"Subject:" line and the blurb; RESULTS, if it exists, is make bench's
Markdown, whose method line, table and verdicts are quoted after the
blurb, unless they were measured by another method than this tree's
(bench.py's method_id()).
"""

import os
import sys
import textwrap

import bench


def bench_table(path):
    if not os.path.exists(path):
        return "(no bench results yet: run make bench)\n"
    with open(path) as f:
        lines = f.read().splitlines()
    method = next((l for l in lines if l.startswith("Written by")), "")
    if "method %s;" % bench.method_id() not in method:
        return "(bench results of another method: run make bench)\n"
    keep = [l for l in lines if l.startswith("|") or l.startswith("- ")]
    head = textwrap.fill("Measured by make bench (%s). %s" % (
        os.path.basename(path), method), 72)
    return "%s\n\n%s\n" % (head, "\n".join(keep))


def main():
    cover, text = sys.argv[1], sys.argv[2]
    results = sys.argv[3] if len(sys.argv) > 3 else ""
    with open(text) as f:
        subject, _, blurb = f.read().partition("\n")
    blurb = blurb.strip("\n") + "\n\n" + bench_table(results)
    with open(cover) as f:
        letter = f.read()
    letter = letter.replace("*** SUBJECT HERE ***", subject.replace("Subject: ", ""))
    letter = letter.replace("*** BLURB HERE ***", blurb)
    with open(cover, "w") as f:
        f.write(letter)
    return 0


if __name__ == "__main__":
    sys.exit(main())
