#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-check.sh [TREE]: "make series-check", and part of "make check"
# for TREE=ours.  Write the series (series.sh), apply it with git am onto
# a fresh branch at the pristine base, build the debug kernel after every
# patch (bisectable: ccache keeps it cheap) and run checkpatch --strict
# on every patch.  PASS/FAIL lines go to $RESULTS.  Leaves the tree on
# branch "ours", rebuilt.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULT_PREFIX="series: "
[ "${1:-ours}" = ours ] || exit 0

# The kernel's scripts/spdxcheck.py wants Debian's python3-ply and -git.
export PATH=/usr/bin:$PATH
export GIT_COMMITTER_NAME=disk-events GIT_COMMITTER_EMAIL=disk-events@localhost
obj=$OBJ/ours-debug

# build_here NAME: build the checked-out tree with the debug config, as
# far as its Kconfig knows the options.
build_here()
{
	cp "$obj.kconfig/.config" "$obj/.config"
	make -s -C "$TREE" O="$obj" ARCH=x86_64 CC="ccache gcc" olddefconfig >/dev/null &&
		make -s -C "$TREE" O="$obj" ARCH=x86_64 CC="ccache gcc" \
			-j"$(nproc)" bzImage >/dev/null 2>"$BUILD/series-build.err"
	result $? "kernel builds after $1" || head -n 20 "$BUILD/series-build.err"
}

"$HARNESS/series.sh" >/dev/null
result $? "make series writes the series" || exit 0
git -C "$TREE" checkout -q -f -B series-check base
for p in "$BUILD"/series/00[0-9][1-9]-*.patch; do
	name=$(basename "$p")
	git -C "$TREE" am -q --whitespace=nowarn "$p"
	result $? "git am $name onto the pristine base" || break
	out=$("$TREE/scripts/checkpatch.pl" --strict --terse -q "$p" 2>&1)
	result $? "checkpatch --strict $name" || echo "$out" | head -n 20
	build_here "$name"
done
git -C "$TREE" diff --quiet ours series-check
result $? "the applied series is exactly our tree"
git -C "$TREE" am --abort 2>/dev/null
git -C "$TREE" checkout -q -f ours
"$HARNESS/build.sh" ours debug >/dev/null
result $? "the debug kernel of our tree builds again"
