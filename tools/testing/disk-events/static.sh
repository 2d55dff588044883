#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# static.sh: the checks that need no guest.  Appends PASS/FAIL lines to
# $RESULTS.  checkpatch --strict on every kernel C file and header we own,
# the user tool built with -Werror, the harness scripts parsed.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULTS=${RESULTS:-/dev/null}

result()
{
	local status=$1
	shift
	if [ "$status" -eq 0 ]; then v=PASS; else v=FAIL; fi
	echo "$v static: $*" | tee -a "$RESULTS"
}

cd "$TOP"
for f in $(git ls-files -co --exclude-standard -- 'block/*.[ch]' 'include/*.h' \
	   'drivers/*.[ch]' 'tools/disk-events/*.c'); do
	out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --terse -q -f "$f" 2>&1)
	result $? "checkpatch --strict $f" || true
	[ -n "$out" ] && echo "$out" | head -n 20
done

out=$(make -s -C tools/disk-events OUTPUT="$BUILD/" CFLAGS="-O2 -Werror" 2>&1)
result $? "tools/disk-events builds with -Werror"
[ -n "$out" ] && echo "$out"

for f in $(git ls-files -co --exclude-standard -- '*.sh' .ci/run tools/testing/disk-events/guest/init); do
	bash -n "$f"
	result $? "bash -n $f"
done
for f in $(git ls-files -co --exclude-standard -- '*.py'); do
	python3 -m py_compile "$f"
	result $? "py_compile $f"
done
exit 0
