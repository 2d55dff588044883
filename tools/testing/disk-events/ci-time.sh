#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci-time.sh [REV]: "make ci-time".  Time .ci/run as CI runs it: on a
# clean clone of this repository at REV (default HEAD; committed work
# only), with a ccache of its own that starts empty.  Run it with
# nothing else on the machine, or its time tells little.  Every line of
# its output gets the wall-clock time it came at, so the log shows where
# the minutes go (the build of each kernel, each end-to-end scenario's
# results).  Writes build/ci-time/log, whose last line is "ci-time:
# status S, N s"; exits with .ci/run's status.  The clone and its ccache
# stay in build/ci-time until the next run.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$BUILD/ci-time
rev=$(git -C "$TOP" rev-parse --verify "${1:-HEAD}^{commit}") || exit
rm -rf "$dir"
mkdir -p "$dir"
git clone -q --no-checkout "$TOP" "$dir/clone" &&
	git -C "$dir/clone" checkout -q "$rev" || exit
echo "ci-time: .ci/run at $(git -C "$TOP" log -1 --format='%h %s' "$rev")"
t0=$SECONDS
# CI's environment: none of the harness's knobs (BUILD, RUNNERS, ...).
(cd "$dir/clone" && env -i PATH="$PATH" HOME="$HOME" CCACHE_DIR="$dir/ccache" \
	.ci/run) 2>&1 |
	while IFS= read -r line; do
		printf '%(%T)T %s\n' -1 "$line"
	done > "$dir/log"
status=${PIPESTATUS[0]}
echo "ci-time: status $status, $((SECONDS - t0)) s" | tee -a "$dir/log"
exit "$status"
