#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# static.sh [TREE]: the checks that need no guest.  Appends PASS/FAIL
# lines to $RESULTS.  checkpatch --strict and kernel-doc -Wall on every
# kernel C file and header we own; for TREE=ours, sparse (C=2) and W=1 on
# the kernel C files we own, in the debug build; the user tool built with
# -Werror; the harness scripts parsed.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULT_PREFIX="static: "

cd "$TOP"
for f in $(git ls-files -co --exclude-standard -- 'block/*.[ch]' 'include/*.h' \
	   'drivers/*.[ch]' 'tools/disk-events/*.c' 'tools/testing/disk-events/guest/src/*.c'); do
	out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --terse -q -f "$f" 2>&1)
	result $? "checkpatch --strict $f" || echo "$out" | head -n 20
done

# kernel-doc of the kernel sources we own: every comment well formed.
for f in $(git ls-files -co --exclude-standard -- 'block/*.[ch]' 'include/*.h' 'drivers/*.[ch]'); do
	out=$("$TREE/scripts/kernel-doc" -none -Wall "$f" 2>&1)
	[ -z "$out" ]
	result $? "kernel-doc -none -Wall $f" || true
	[ -n "$out" ] && echo "$out" | head -n 20
done

# Every kernel object of a C file we own, compiled afresh with sparse and
# W=1 in a scratch O= dir with the debug config (so the real build's objects and
# their recorded command lines stay as they are).
if [ "${1:-ours}" = ours ]; then
	objs=$(git ls-files -co --exclude-standard -- 'block/*.c' 'drivers/*.c' | sed 's/\.c$/.o/')
	mkdir -p "$OBJ/ours-static"
	cmp -s "$OBJ/ours-debug/.config" "$OBJ/ours-static/.config" ||
		cp "$OBJ/ours-debug/.config" "$OBJ/ours-static/.config"
	# Compiled afresh every time: make would skip an object that is up
	# to date, and with it the warnings this checks for.
	(cd "$OBJ/ours-static" && rm -f $objs)
	out=$(make -s -C "$TREE" O="$OBJ/ours-static" ARCH=x86_64 CC="ccache gcc" \
		C=2 W=1 $objs 2>&1 | grep -v '^make\|^  [A-Z]')
	[ -z "$out" ]
	result $? "sparse and W=1 clean: $(echo $objs)"
	[ -n "$out" ] && echo "$out" | head -n 20
fi

out=$(make -s -C tools/disk-events OUTPUT="$BUILD/" CFLAGS="-O2 -Werror" 2>&1)
result $? "tools/disk-events builds with -Werror"
[ -n "$out" ] && echo "$out"

for f in $(git ls-files -co --exclude-standard -- '*.sh' .ci/run \
	   tools/testing/disk-events/guest/init); do
	bash -n "$f"
	result $? "bash -n $f"
done
for f in $(git ls-files -co --exclude-standard -- '*.py'); do
	python3 -m py_compile "$f"
	result $? "py_compile $f"
done
exit 0
