#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# account.sh RESULTS FROM RUNNER STATUS: hold RUNNER, which wrote lines
# FROM.. of RESULTS and exited with STATUS, to what it declared.  Its
# "PLAN N" lines add up to the results it promised: each one it never
# gave is appended as a FAIL of its own, and results beyond the promise
# fail it once, with a PLAN line that accounts for them.  A non-zero
# STATUS is a FAIL too.  So the tally's total always equals the sum of
# the PLAN lines.

set -uo pipefail
results=$1 from=$2 runner=$3 status=$4

read -r planned produced < <(tail -n +"$from" "$results" | awk '
	$1 == "PLAN" { planned += $2 }
	$1 ~ /^(PASS|FAIL|XFAIL|SKIP)$/ { produced++ }
	END { print planned + 0, produced + 0 }')
{
	for ((i = produced + 1; i <= planned; i++)); do
		echo "FAIL $runner: result $i of $planned never came"
	done
	if [ "$produced" -gt "$planned" ]; then
		echo "PLAN $((produced - planned + 1)) $runner: results beyond its plan"
		echo "FAIL $runner: $produced results, $planned declared"
	fi
	if [ "$status" -ne 0 ]; then
		echo "PLAN 1 $runner: its exit status"
		echo "FAIL $runner exited with status $status"
	fi
} | tee -a "$results"
