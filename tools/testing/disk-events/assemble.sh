#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Assemble the kernel tree in $TREE: the pristine base as the first
# commit (tag "base"), our owned files as the next commit, then one commit
# per entry of patches/series.  The commits are built in a scratch index
# with fixed dates, so the same inputs always give the same commit, and
# the final "git checkout" rewrites only files that really changed: an
# unchanged repo costs nothing and an edit rebuilds only what it touches.
# Also keeps $STOCK, a worktree of the base, for BASE=stock builds.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

unpack_base()
{
	local ver
	ver=$(dpkg-query -W -f='${Version}' $BASE_PACKAGE)
	echo "assemble: unpacking $BASE_PACKAGE $ver (once)"
	rm -rf "$TREE" "$STOCK" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf $BASE_TARBALL -C "$TREE.tmp" --strip-components=1
	git -C "$TREE.tmp" init -q -b base-import
	git -C "$TREE.tmp" add -A -f .
	git -C "$TREE.tmp" commit -q -m "Debian $BASE_PACKAGE $ver (pristine base)"
	git -C "$TREE.tmp" tag base
	mv "$TREE.tmp" "$TREE"
}

# Write $1 (a path in the repo) into the scratch index.
stage_file()
{
	local mode=100644
	[ -x "$TOP/$1" ] && mode=100755
	git update-index --add --cacheinfo "$mode,$(git hash-object -w "$TOP/$1"),$1"
}

commit_index()
{
	git commit-tree "$(git write-tree)" -p "$1" -m "$2"
}

build_commits()
{
	local head files p subject
	export GIT_INDEX_FILE=$TREE/.git/assemble-index
	export GIT_AUTHOR_NAME="disk-events" GIT_AUTHOR_EMAIL="disk-events@localhost"
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE="2010-12-08 00:00 +0000" GIT_COMMITTER_DATE="2010-12-08 00:00 +0000"
	git read-tree base
	head=$(git rev-parse base)

	files=$(cd "$TOP" && git ls-files -co --exclude-standard -- $OWNED_DIRS)
	for f in $files; do
		[ -f "$TOP/$f" ] && stage_file "$f"
	done
	head=$(commit_index "$head" "disk-events: our files")

	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		git apply --cached "$TOP/patches/$p" ||
			die "patches/$p does not apply"
		subject=$(sed -n 's/^Subject: *//p' "$TOP/patches/$p" | head -n1)
		head=$(commit_index "$head" "${subject:-$p}")
	done < "$TOP/patches/series"
	rm -f "$GIT_INDEX_FILE"
	unset GIT_INDEX_FILE
	echo "$head"
}

[ -d "$TREE/.git" ] || unpack_base
cd "$TREE"
head=$(build_commits)
git checkout -q -f -B ours "$head"
git clean -q -fd
[ -d "$STOCK" ] || git worktree add -q --detach "$STOCK" base
echo "assemble: $(git log -1 --format=%s base), ours at $(git rev-parse --short HEAD)"
