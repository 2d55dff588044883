#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh [NAME...]: check each deliberately broken core in mutants/
# (default: all) and show which tests caught it.  A mutant that passes
# every test is a hole in the tests: exit 1.  Ends by re-assembling the
# real core.  To keep a round under an hour, each mutant runs the KUnit
# suites and the scenarios in $SCENARIOS (default below); RUNNERS=all
# runs everything "make check" runs.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$HARNESS/mutants" && ls *.patch | sed 's/\.patch$//'))
survivors=0
if [ "${RUNNERS:-}" = all ]; then
	unset RUNNERS SCENARIOS
else
	export RUNNERS=${RUNNERS:-kunit.py e2e.py}
	export SCENARIOS=${SCENARIOS:-boot media exclusive}
fi
for m in "${names[@]}"; do
	echo "=== mutant $m: $(head -n1 "$HARNESS/mutants/$m.patch")"
	MUTANT=$m "$HARNESS/check.sh" ours > "$BUILD/mutant-$m.log" 2>&1
	caught=$(grep -c '^FAIL' "$BUILD/mutant-$m.log")
	grep '^FAIL' "$BUILD/mutant-$m.log" | head -n 15
	echo "mutant $m: caught by $caught failing results ($(tail -n1 "$BUILD/mutant-$m.log"))"
	[ "$caught" -gt 0 ] || survivors=$((survivors + 1))
done
"$HARNESS/assemble.sh" >/dev/null
echo "$survivors of ${#names[@]} mutants survived"
[ "$survivors" -eq 0 ]
