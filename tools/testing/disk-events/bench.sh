#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [SCRIPT]: "make bench".  Build the lean kernels of our core
# and of the pristine base, then measure polling costs side by side with
# SCRIPT (default bench.py): results in bench/results.md, plots in
# bench/*.png at the top.  "make series" quotes them in the cover
# letter, if their method is this tree's.  "make bench-interval" runs
# bench-interval.py: bench/interval.md and interval.png; "make
# bench-polls" runs polltrace.py: bench/polls.md.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$HARNESS/deps.sh" gnuplot-nox
"$HARNESS/assemble.sh"
"$HARNESS/build.sh" ours lean
"$HARNESS/build.sh" stock lean
"$HARNESS/mkinitramfs.sh" "$BUILD/guest.cpio"
exec python3 "$HARNESS/${1:-bench.py}" "$TOP/bench"
