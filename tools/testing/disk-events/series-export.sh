#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-export.sh: after reworking branch "series" of $TREE (git rebase
# -i base series, one commit per series/NN-*.txt, in order), write the
# core files back: each step's series/NN-*.diff from its commit, and the
# files themselves as of the last commit.  Messages and Files: lines stay
# in the .txt files, edited by hand.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..series)
txts=("$HARNESS"/series/[0-9]*-*.txt)
[ ${#commits[@]} -eq ${#txts[@]} ] ||
	die "branch series has ${#commits[@]} commits for ${#txts[@]} series/*.txt"
for i in "${!txts[@]}"; do
	c=${commits[$i]} diff=${txts[$i]%.txt}.diff
	# The rewrite's state is what the diffs of the steps after it leave.
	grep -qx 'Core: rewrite' "${txts[$i]}" && continue
	if [ -n "$(git -C "$TREE" diff "$c^" "$c" -- $CORE_FILES)" ]; then
		# Blank context lines without their space: the diffs go into
		# the series as files, where checkpatch refuses trailing blanks.
		git -C "$TREE" diff "$c^" "$c" -- $CORE_FILES | sed 's/^ $//' > "$diff"
	else
		rm -f "$diff"
	fi
done
for f in $CORE_FILES; do
	git -C "$TREE" show "series:$f" > "$TOP/$f"
done
echo "series-export: wrote $CORE_FILES and $(ls "$HARNESS"/series/*.diff | wc -l) step diffs"
