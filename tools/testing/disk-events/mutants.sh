#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh [NAME...]: check each deliberately broken core in mutants/
# (default: all) and show which tests caught it.  A mutant that passes
# every test is a hole in the tests: exit 1.  To keep a round short,
# each mutant runs the KUnit suites and the end-to-end scenarios its
# patch names on a "Scenarios:" line (those that exercise what it
# breaks); RUNNERS=all runs everything "make check" runs.  Ends with the
# real core assembled and built.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$HARNESS/mutants" && ls *.patch | sed 's/\.patch$//'))

# check_mutant NAME: "make check" of mutant NAME, narrowed unless $all.
check_mutant()
{
	local scenarios

	[ -n "$all" ] && { MUTANT=$1 "$HARNESS/check.sh" ours; return; }
	scenarios=$(sed -n 's/^Scenarios: *//p' "$HARNESS/mutants/$1.patch" | head -n1)
	MUTANT=$1 RUNNERS="kunit.py${scenarios:+ e2e.py}" SCENARIOS="$scenarios" \
		"$HARNESS/check.sh" ours
}

all=
[ "${RUNNERS:-}" = all ] && all=1
unset RUNNERS SCENARIOS
survivors=0
for m in "${names[@]}"; do
	echo "=== mutant $m: $(head -n1 "$HARNESS/mutants/$m.patch")"
	check_mutant "$m" > "$BUILD/mutant-$m.log" 2>&1
	caught=$(grep -c '^FAIL' "$BUILD/mutant-$m.log")
	grep '^FAIL' "$BUILD/mutant-$m.log" | head -n 15
	echo "mutant $m: caught by $caught failing results ($(tail -n1 "$BUILD/mutant-$m.log"))"
	[ "$caught" -gt 0 ] || survivors=$((survivors + 1))
done
# The real core again, in the tree and in the debug kernel, so that a
# later e2e.py or kunit.py run (which do not build) tests it.
"$HARNESS/assemble.sh" >/dev/null
"$HARNESS/build.sh" ours debug >/dev/null
echo "$survivors of ${#names[@]} mutants survived"
[ "$survivors" -eq 0 ]
