#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [ours|stock]: every test, on our core (default) or on the
# pristine base (with our tests).  Installs what is missing, assembles
# and builds the debug kernel, then runs the static checks, the
# harness's own tests, the KUnit suites, the end-to-end scenarios (which
# first build the other kernels they boot, and Debian's root disk of the
# distro scenario), the KUnit suites again on the preemptible kernel and
# (ours) the patch series check.
# Ends with "N passed, N failed, N skipped" and a non-zero status if
# anything failed.  Each runner declares its results ("PLAN N" lines);
# account.sh turns every one it did not give into a FAIL.
#
# MUTANT=NAME checks ours with mutants/NAME.patch applied (a deliberately
# broken core, which must fail); RUNNERS and SCENARIOS narrow the run to
# some of the runners and end-to-end scenarios; RESULTS_TAG names the
# results file of such a run (make soak: build/results-TREE-soak.txt).
# A runner NAME:KIND is NAME run on TREE's KIND kernel (build.sh), which
# is built right before it: "kunit.py:preempt" runs the KUnit suites on
# the preemptible kernel; every other runner uses the debug kernel.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${1:-ours}
runners=${RUNNERS:-static.sh selftest.py kunit.py e2e.py kunit.py:preempt series-check.sh}
"$HARNESS/deps.sh"
"$HARNESS/assemble.sh"
"$HARNESS/build.sh" "$tree" debug
"$HARNESS/mkinitramfs.sh" "$BUILD/guest.cpio"

export RESULTS=$BUILD/results-$tree${RESULTS_TAG:+-$RESULTS_TAG}.txt
: > "$RESULTS"
t0=$SECONDS
# A runner that dies still leaves its missing results in the tally.
for runner in $runners; do
	kind=
	[ "${runner#*:}" = "$runner" ] || kind=${runner#*:}
	from=$(($(wc -l < "$RESULTS") + 1))
	status=0
	[ -z "$kind" ] || "$HARNESS/build.sh" "$tree" "$kind" || status=$?
	[ $status -ne 0 ] || "$HARNESS/${runner%%:*}" "$tree" ${kind:+"$kind"} || status=$?
	"$HARNESS/account.sh" "$RESULTS" "$from" "$runner $tree" "$status"
done
echo "check: $tree, $(cat "$BUILD/base-version"), tests took $((SECONDS - t0)) s"
exec "$HARNESS/tally.sh" "$RESULTS"
