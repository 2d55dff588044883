#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# static.sh [TREE]: the checks that need no guest.  Appends PASS/FAIL
# lines to $RESULTS.  checkpatch --strict and kernel-doc -Wall on every
# kernel C file and header we own; for TREE=ours, sparse (C=2) and W=1 on
# the kernel C files we own, in the debug build; the user tool built with
# -Werror; the harness scripts parsed (one result for all).

set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULT_PREFIX="static: "

cd "$TOP"
c_files=$(git ls-files -co --exclude-standard -- 'block/*.[ch]' 'include/*.h' \
	  'drivers/*.[ch]' 'tools/disk-events/*.c' 'tools/testing/disk-events/guest/src/*.c')
kernel_files=$(git ls-files -co --exclude-standard -- 'block/*.[ch]' 'include/*.h' 'drivers/*.[ch]')
kernel_objs=$(for f in $(git ls-files -co --exclude-standard -- 'block/*.c' 'drivers/*.c'); do
	is_included "$f" . || echo "${f%.c}.o"
done)
scripts=$(git ls-files -co --exclude-standard -- '*.sh' .ci/run \
	  tools/testing/disk-events/guest/init)
pys=$(git ls-files -co --exclude-standard -- '*.py')
lint=0
[ "${1:-ours}" = ours ] && lint=1
plan $(($(echo $c_files $kernel_files | wc -w) + lint + 2)) "checks of the files we own"

for f in $c_files; do
	out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --terse -q -f "$f" 2>&1)
	result $? "checkpatch --strict $f" || echo "$out" | head -n 20
done

# kernel-doc of the kernel sources we own: every comment well formed.
for f in $kernel_files; do
	out=$("$TREE/scripts/kernel-doc" -none -Wall "$f" 2>&1)
	[ -z "$out" ]
	result $? "kernel-doc -none -Wall $f" || true
	[ -n "$out" ] && echo "$out" | head -n 20
done

# Every kernel object of a C file we own, compiled afresh with sparse and
# W=1 in a scratch O= dir with the debug config (so the real build's
# objects and their recorded command lines stay as they are).  make
# skips an object that is up to date, and with it the warnings this
# checks for: so the objects go first, and each must be there again,
# newer than the stamp, for the check to count.
if [ $lint = 1 ]; then
	mkdir -p "$OBJ/ours-static"
	cmp -s "$OBJ/ours-debug/.config" "$OBJ/ours-static/.config" ||
		cp "$OBJ/ours-debug/.config" "$OBJ/ours-static/.config"
	(cd "$OBJ/ours-static" && rm -f $kernel_objs && touch .static-stamp)
	out=$(make -s -C "$TREE" O="$OBJ/ours-static" ARCH=x86_64 CC="ccache gcc" \
		C=2 W=1 $kernel_objs 2>&1 | grep -v '^make\|^  [A-Z]')
	stale=$(cd "$OBJ/ours-static" && for o in $kernel_objs; do
		[ "$o" -nt .static-stamp ] || echo "$o"; done)
	[ -z "$out" ] && [ -z "$stale" ]
	result $? "sparse and W=1 clean, compiled afresh: $(echo $kernel_objs)"
	[ -n "$out" ] && echo "$out" | head -n 20
	[ -n "$stale" ] && echo "not compiled afresh: $stale"
fi

out=$(make -s -C tools/disk-events OUTPUT="$BUILD/" CFLAGS="-O2 -Werror" 2>&1)
result $? "tools/disk-events builds with -Werror"
[ -n "$out" ] && echo "$out"

# The harness's own scripts parse: one result for all of them.
out=$(for f in $scripts; do bash -n "$f" 2>&1 || echo "bash -n $f failed"; done
      for f in $pys; do python3 -m py_compile "$f" 2>&1 || echo "py_compile $f failed"; done)
[ -z "$out" ]
result $? "$(echo $scripts | wc -w) shell and $(echo $pys | wc -w) Python scripts parse"
[ -n "$out" ] && echo "$out" | head -n 20
exit 0
