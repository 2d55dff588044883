#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-check.sh [TREE]: "make series-check", and part of "make check"
# for TREE=ours.  Write the series (series.sh) as a fixed test identity,
# apply it with git am onto a fresh branch at the pristine base, and for
# every patch: checkpatch --strict; if it touches kernel sources, build
# the debug kernel, and compile the C files it touches again with W=1
# and sparse, and run kernel-doc -Wall on its C files and headers; if it
# touches the tool, build it with -Werror.  Then:
#   - the rewrite (the step that says "Core: rewrite"), with the KUnit
#     suites of a later patch added, passes the "disk_events" suite
#     (mainline's behaviour), as the base does;
#   - the patches after the KUnit one change no kernel source, so the
#     KUnit results of our tree (kunit.py, both kinds) are theirs too.
# PASS/FAIL lines go to $RESULTS.  Leaves the tree on branch "ours",
# rebuilt.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULT_PREFIX="series: "
[ "${1:-ours}" = ours ] || exit 0

# The kernel's scripts/spdxcheck.py wants Debian's python3-ply and -git.
export PATH=/usr/bin:$PATH
# A test identity, for these test commits only (git config, not the user's).
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="Disk Events Test"
export GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="test@disk-events.invalid"
obj=$OBJ/ours-debug
lint=$OBJ/series-lint
kmake() { make -s -C "$TREE" ARCH=x86_64 CC="ccache gcc" "$@"; }

# build_here NAME: build the checked-out tree with the debug config, as
# far as its Kconfig knows the options.
build_here()
{
	cp "$obj.kconfig/.config" "$obj/.config"
	kmake O="$obj" olddefconfig >/dev/null &&
		kmake O="$obj" -j"$(nproc)" bzImage >/dev/null 2>"$BUILD/series-build.err"
	result $? "kernel builds after $1" || head -n 20 "$BUILD/series-build.err"
}

# kdoc_warnings REV FILE: kernel-doc -Wall's warnings on FILE as of REV,
# without line numbers, sorted.
kdoc_warnings()
{
	git -C "$TREE" show "$1:$2" 2>/dev/null > "$lint/kdoc.in" || return 0
	"$TREE/scripts/kernel-doc" -none -Wall "$lint/kdoc.in" 2>&1 |
		sed 's/^[^ ]*:[0-9]*: //' | sort
}

# lint_here NAME FILE...: W=1 and sparse on the kernel C files, compiled
# afresh, and no kernel-doc -Wall warning on them and the headers that
# the file did not have before the patch.
lint_here()
{
	local name=$1 f out objs=
	shift
	mkdir -p "$lint"
	cmp -s "$obj/.config" "$lint/.config" || cp "$obj/.config" "$lint/.config"
	for f; do
		case $f in
		*.c)	is_included "$f" "$TREE" ||
			{ objs+=" ${f%.c}.o"; rm -f "$lint/${f%.c}.o"; } ;;
		esac
		out=$(comm -13 <(kdoc_warnings HEAD^ "$f") <(kdoc_warnings HEAD "$f"))
		[ -z "$out" ]
		result $? "no new kernel-doc -Wall warning in $f after $name" ||
			echo "$out" | head -n 20
	done
	[ -n "$objs" ] || return 0
	touch "$lint/.lint-stamp"
	out=$(kmake O="$lint" olddefconfig 2>&1 >/dev/null &&
	      kmake O="$lint" C=1 W=1 $objs 2>&1 | grep -v '^make\|^  [A-Z]')
	# Judged only if compiled afresh: each object newer than the stamp.
	for f in $objs; do
		[ "$lint/$f" -nt "$lint/.lint-stamp" ] || out+=" $f was not compiled afresh"
	done
	[ -z "$out" ]
	result $? "W=1 and sparse clean after $name, compiled afresh:$objs" ||
		echo "$out" | head -n 20
}

# kernel_files COMMIT: the kernel sources (not docs, tools, MAINTAINERS)
# that COMMIT changes, and still exist.
kernel_files()
{
	git -C "$TREE" diff --name-only --diff-filter=d "$1^" "$1" -- . \
		':!Documentation' ':!tools' ':!MAINTAINERS'
}

# patch_results PATCH: the results the loop below gives for PATCH: git
# am and checkpatch; for kernel sources it leaves (kernel_files), a
# build, kernel-doc per C file and header, W=1 if any is C; a tool build.
patch_results()
{
	awk '
	/^diff --git / { f = substr($3, 3); file[f] = 1 }
	/^deleted file mode/ { delete file[f] }
	END {
		n = 2
		for (f in file) {
			if (f ~ /^tools\/disk-events\//) tool = 1
			if (f ~ /^(Documentation|tools)\// || f == "MAINTAINERS") continue
			kernel = 1
			if (f ~ /\.[ch]$/) n++
			if (f ~ /\.c$/) c = 1
		}
		print n + kernel + c + tool
	}' "$1"
}

plan 1 "the series is written"
"$HARNESS/series.sh" >/dev/null
result $? "make series writes the series" || exit 0
n=0
for p in "$BUILD"/series/00[0-9][0-9]-*.patch; do
	case $p in */0000-*) continue ;; esac
	n=$((n + $(patch_results "$p")))
done
plan $((n + 6)) "each patch, the series as a whole, the rewrite"
git -C "$TREE" checkout -q -f -B series-check base
n=0 kunit_at=
for p in "$BUILD"/series/00[0-9][0-9]-*.patch; do
	name=$(basename "$p")
	case $name in 0000-*) continue ;; esac
	git -C "$TREE" am -q --whitespace=nowarn "$p"
	result $? "git am $name onto the pristine base" || break
	n=$((n + 1))
	out=$("$TREE/scripts/checkpatch.pl" --strict --terse -q "$p" 2>&1)
	result $? "checkpatch --strict $name" || echo "$out" | head -n 20
	files=$(kernel_files HEAD)
	if [ -n "$files" ]; then
		build_here "$name"
		lint_here "$name" $(echo "$files" | grep -E '\.[ch]$')
	fi
	if ! git -C "$TREE" diff --quiet HEAD^ HEAD -- tools/disk-events; then
		out=$(make -s -C "$TREE/tools/disk-events" OUTPUT="$lint/" \
			CFLAGS="-O2 -Werror" 2>&1)
		result $? "tools/disk-events builds with -Werror after $name" || echo "$out"
	fi
	git -C "$TREE" cat-file -e HEAD:block/disk-events-test-suites.c 2>/dev/null &&
		[ -z "$kunit_at" ] && kunit_at=$(git -C "$TREE" rev-parse HEAD)
done
[ "$n" -ge 8 ] && [ "$n" -le 16 ]
result $? "the series has 8 to 16 patches ($n)"
# series.sh checked that branch series ends at our tree (untracked files
# aside): git am must give exactly that branch.
git -C "$TREE" diff --quiet series series-check
result $? "git am gives exactly the series"

# The patches after the one that adds the KUnit suites change no kernel
# source, so the suites' results on our tree are theirs.
[ -n "$kunit_at" ] && git -C "$TREE" diff --quiet "$kunit_at" series-check -- . \
	':!Documentation' ':!tools' ':!MAINTAINERS'
result $? "no kernel source changes after the KUnit patch: kunit/ours* results hold for them"

# The rewrite, with the suites added: mainline's suite passes.
nth=$(ls "$HARNESS"/series/[0-9]*-*.txt | grep -n . | while IFS=: read -r i f; do
	grep -qx 'Core: rewrite' "$f" && echo "$i"; done)
rewrite=$(git -C "$TREE" rev-list --reverse base..series-check | sed -n "${nth}p")
git -C "$TREE" checkout -q -f -B series-rewrite "$rewrite" &&
	git -C "$TREE" checkout -q "$kunit_at" -- \
		'block/disk-events-test*' block/Kconfig block/Makefile &&
	git -C "$TREE" commit -q -m "the rewrite, with the KUnit suites"
result $? "the KUnit suites added to the rewrite"
build_here "the rewrite, with the KUnit suites"
KUNIT_FILTER="disk_events.*" KUNIT_NAME=rewrite "$HARNESS/kunit.py" ours debug

git -C "$TREE" am --abort 2>/dev/null
git -C "$TREE" checkout -q -f ours
"$HARNESS/build.sh" ours debug >/dev/null
result $? "the debug kernel of our tree builds again"
