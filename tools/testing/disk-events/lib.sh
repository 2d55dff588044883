# SPDX-License-Identifier: GPL-2.0
#
# Paths shared by the harness scripts; sourced, never run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HARNESS=$TOP/tools/testing/disk-events
BUILD=${BUILD:-$TOP/build}
# Every entry point writes under $BUILD, some before anything made it (a
# clean clone has none): it exists from the first script on.
mkdir -p "$BUILD"
TREE=$BUILD/linux		# git repo: base commit, then our change
STOCK=$BUILD/stock		# worktree of the pristine base commit
OBJ=$BUILD/obj			# one O= directory per variant
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_PACKAGE=linux-source-6.12

# Files we own: everything tracked (or new, not ignored) under these dirs.
OWNED_DIRS="block include drivers Documentation tools"
# Of those, the core: the files that make series builds up step by step.
CORE_FILES="block/disk-events.c include/trace/events/disk_events.h"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# is_included FILE ROOT: another C file in FILE's directory under ROOT
# #includes C file FILE (the core includes its static functions' KUnit
# file): it is compiled with that one, never as an object of its own.
is_included()
{
	grep -qsF "#include \"$(basename "$1")\"" "$2/$(dirname "$1")"/*.c
}

base_package_version() { dpkg-query -W -f='${Version}' $BASE_PACKAGE; }

# base_subject VERSION: the subject of the base commit unpacked from
# version VERSION of the base package: the key of that cache.
base_subject() { echo "Debian $BASE_PACKAGE $1 (pristine base)"; }

# base_is_current: $TREE holds the base unpacked from the package
# installed now (a new version of it must be unpacked again).
base_is_current()
{
	[ "$(git -C "$TREE" log -1 --format=%s base 2>/dev/null)" = \
	  "$(base_subject "$(base_package_version)")" ]
}

# guest_files ROOT: put into the guest root ROOT our programs (static,
# so they need nothing from it) in /bin, and the guest's test library
# and tests in /lib/disk-events.
guest_files()
{
	local c
	mkdir -p "$1/bin" "$1/lib/disk-events"
	make -s -C "$TOP/tools/disk-events" OUTPUT="$1/bin/" LDFLAGS=-static
	for c in "$HARNESS"/guest/src/*.c; do
		gcc -O2 -Wall -Wextra -Werror -static -o "$1/bin/$(basename "$c" .c)" "$c"
	done
	cp -r "$HARNESS/guest/lib.sh" "$HARNESS/guest/tests" "$1/lib/disk-events/"
}

# result STATUS NAME...: one PASS (STATUS 0) or FAIL line, echoed and
# appended to $RESULTS, named with $RESULT_PREFIX; returns STATUS.
result()
{
	local status=$1 v=PASS
	shift
	[ "$status" -eq 0 ] || v=FAIL
	echo "$v ${RESULT_PREFIX:-}$*" | tee -a "${RESULTS:-/dev/null}"
	return "$status"
}

# plan N WHAT...: declare that N results are to come, named with
# $RESULT_PREFIX (check.sh holds each runner to its declarations).
plan()
{
	local n=$1
	shift
	echo "PLAN $n ${RESULT_PREFIX:-}$*" >> "${RESULTS:-/dev/null}"
}

# scratch_index NAME: build commits in $TREE in a scratch index of their
# own, with a fixed identity and date, so the same inputs always give the
# same commits.  Starts from the base commit's tree.
scratch_index()
{
	export GIT_INDEX_FILE=$TREE/.git/$1-index
	export GIT_AUTHOR_NAME="Disk Events Test" GIT_AUTHOR_EMAIL="test@disk-events.invalid"
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE="2010-12-08 00:00 +0000" GIT_COMMITTER_DATE="2010-12-08 00:00 +0000"
	git -C "$TREE" read-tree base
}

# stage_file PATH: write our file PATH (relative to the repo) into the
# scratch index.
stage_file()
{
	local mode=100644
	[ -x "$TOP/$1" ] && mode=100755
	git update-index --add --cacheinfo "$mode,$(git hash-object -w "$TOP/$1"),$1"
}

# commit_index PARENT MESSAGE: commit the scratch index; prints the commit.
commit_index()
{
	git commit-tree "$(git write-tree)" -p "$1" -m "$2"
}
