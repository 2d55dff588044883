#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh [NAME...]: check each deliberately broken core in mutants/
# (default: all) and attribute each kill.  A mutant's header names what
# it breaks ("Mutant:"), the end-to-end scenarios that exercise it
# ("Scenarios:", run with the KUnit suites) and the test that must catch
# it ("Caught-by:", an extended regex for grep -E on the FAIL lines).
# First the same narrowed set runs on the real core, and must be green:
# otherwise a failure says nothing about a mutant.  A mutant is killed
# only when its Caught-by test fails; one that fails elsewhere only, or
# not at all, is a hole in the tests: exit 1.  RUNNERS=all runs
# everything "make check" runs.  Ends with the real core assembled and
# built.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$HARNESS/mutants" && ls *.patch | sed 's/\.patch$//'))

# header NAME KEY: the value of KEY: in mutant NAME's header.
header() { sed -n "1,/^---\$/s/^$2: *//p" "$HARNESS/mutants/$1.patch" | head -n1; }

# narrowed CHECK-ENV...: check.sh ours with the narrowed runners (all of
# them with $all) and the scenarios in $scenarios.
narrowed()
{
	if [ -n "$all" ]; then
		env "$@" "$HARNESS/check.sh" ours
	else
		env "$@" RUNNERS="kunit.py${scenarios:+ e2e.py}" SCENARIOS="$scenarios" \
			"$HARNESS/check.sh" ours
	fi
}

all=
[ "${RUNNERS:-}" = all ] && all=1
unset RUNNERS SCENARIOS
scenarios=$(for m in "${names[@]}"; do header "$m" Scenarios; done | tr ' ' '\n' |
	    sort -u | xargs)
for m in "${names[@]}"; do
	[ -n "$(header "$m" Caught-by)" ] || die "mutant $m has no Caught-by: line"
done

echo "=== baseline: the real core, scenarios: ${scenarios:-none}"
narrowed RESULTS_TAG=baseline > "$BUILD/mutant-baseline.log" 2>&1 ||
	die "the baseline is not green: $(tail -n1 "$BUILD/mutant-baseline.log")" \
	    "(build/mutant-baseline.log)"
echo "baseline: $(tail -n1 "$BUILD/mutant-baseline.log")"

survivors=0
for m in "${names[@]}"; do
	echo "=== mutant $m: $(header "$m" Mutant)"
	scenarios=$(header "$m" Scenarios)
	narrowed MUTANT="$m" RESULTS_TAG="mutant-$m" > "$BUILD/mutant-$m.log" 2>&1
	by=$(header "$m" Caught-by)
	fails=$(grep '^FAIL' "$BUILD/results-ours-mutant-$m.txt")
	caught=$(echo "$fails" | grep -E -- "$by")
	if [ -n "$caught" ]; then
		echo "mutant $m: killed by $(echo "$caught" | head -n1 | cut -d' ' -f2-)"
	else
		survivors=$((survivors + 1))
		echo "mutant $m: SURVIVED: its Caught-by test ($by) did not fail"
	fi
	echo "$fails" | grep -vE -- "$by" | grep . | head -n 5 | sed 's/^/  also: /'
done
# The real core again, in the tree and in the debug kernel, so that a
# later e2e.py or kunit.py run (which do not build) tests it.
"$HARNESS/assemble.sh" >/dev/null
"$HARNESS/build.sh" ours debug >/dev/null
echo "$survivors of ${#names[@]} mutants survived"
[ "$survivors" -eq 0 ]
