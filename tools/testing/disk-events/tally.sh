#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tally.sh RESULTS...: count the results: PASS and XFAIL pass, FAIL
# fails, SKIP is skipped (never a pass); list the failures.  The results
# must add up to the sum of the runners' "PLAN N" declarations, or the
# tally itself fails.  Exit 1 on any failure.

set -uo pipefail
cat "$@" | awk '
	$1 == "PLAN"  { planned += $2 }
	$1 == "FAIL"  { failed++; bad = bad "  " $0 "\n" }
	$1 == "PASS" || $1 == "XFAIL" { passed++ }
	$1 == "XFAIL" { xfail++ }
	$1 == "SKIP"  { skipped++ }
	END {
		total = passed + failed + skipped
		if (bad != "") printf "failures:\n%s", bad
		if (xfail) printf "(%d expected failures: behaviour the base lacks)\n", xfail
		if (total != planned)
			printf "tally: %d results, but %d declared\n", total, planned
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
		exit failed > 0 || total != planned
	}'
