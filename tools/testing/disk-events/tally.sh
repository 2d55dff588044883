#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tally.sh RESULTS...: count PASS/XFAIL (passed), FAIL, SKIP lines; list
# the failures; exit 1 if any.

set -uo pipefail
cat "$@" | awk '
	$1 == "FAIL"  { failed++; bad = bad "  " $0 "\n" }
	$1 == "PASS" || $1 == "XFAIL" { passed++ }
	$1 == "XFAIL" { xfail++ }
	$1 == "SKIP"  { skipped++ }
	END {
		if (bad != "") printf "failures:\n%s", bad
		if (xfail) printf "(%d expected failures: behaviour the base lacks)\n", xfail
		printf "%d passed, %d failed%s\n", passed, failed,
			skipped ? sprintf(", %d skipped", skipped) : ""
		exit failed > 0
	}'
