#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Assemble the kernel tree in $TREE: the pristine base as the first
# commit (tag "base"), then our files and one commit per entry of
# patches/series (branch "ours").  The commits are built in a scratch index
# with fixed dates, so the same inputs always give the same commit, and
# the final "git checkout" rewrites only files that really changed: an
# unchanged repo costs nothing and an edit rebuilds only what it touches.
# With MUTANT=NAME, ours also gets mutants/NAME.patch, a deliberately
# broken core that the tests must catch.
# Also keeps $STOCK, a worktree of branch "stock" for BASE=stock builds:
# the base with our tests but not our core (see build_commits).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

unpack_base()
{
	local ver
	ver=$(base_package_version)
	echo "assemble: unpacking $BASE_PACKAGE $ver (once per version)"
	rm -rf "$TREE" "$STOCK" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf $BASE_TARBALL -C "$TREE.tmp" --strip-components=1
	git -C "$TREE.tmp" init -q -b base-import
	git -C "$TREE.tmp" add -A -f .
	git -C "$TREE.tmp" commit -q -m "$(base_subject "$ver")"
	git -C "$TREE.tmp" tag base
	mv "$TREE.tmp" "$TREE"
}

# apply_series TAG HEAD: commit each patches/series entry whose "# stock"
# tag is TAG (yes or no) on HEAD; print the new head.
apply_series()
{
	local tag=$1 head=$2 p rest subject
	while read -r p rest; do
		case $p in ''|'#'*) continue ;; esac
		[ "$([ "$rest" = "# stock" ] && echo yes || echo no)" = "$tag" ] || continue
		git apply --cached "$TOP/patches/$p" >&2 ||
			die "patches/$p does not apply"
		subject=$(sed -n 's/^Subject: *\(\[PATCH[^]]*\] *\)\?//p' \
			"$TOP/patches/$p" | head -n1)
		head=$(commit_index "$head" "${subject:-$p}")
	done < "$TOP/patches/series"
	echo "$head"
}

# Print two commits: the stock head (base + the files we add + patches
# tagged "# stock": our tests, not our core) and ours (stock + the files
# that replace upstream ones + the other patches).
build_commits()
{
	local head stock f replaced=()
	scratch_index assemble

	for f in $(cd "$TOP" && git ls-files -co --exclude-standard -- $OWNED_DIRS); do
		[ -f "$TOP/$f" ] || continue
		if git cat-file -e "base:$f" 2>/dev/null; then
			replaced+=("$f")
		else
			stage_file "$f"
		fi
	done
	head=$(commit_index base "disk-events: our tests, tools and documentation")
	stock=$(apply_series yes "$head")

	for f in "${replaced[@]}"; do
		stage_file "$f"
	done
	head=$(commit_index "$stock" "disk-events: our core")
	head=$(apply_series no "$head")
	if [ -n "${MUTANT:-}" ]; then
		git apply --cached "$HARNESS/mutants/$MUTANT.patch" >&2 ||
			die "mutant $MUTANT does not apply"
		head=$(commit_index "$head" "MUTANT: $MUTANT")
	fi
	rm -f "$GIT_INDEX_FILE"
	echo "$stock $head"
}

base_is_current || unpack_base
cd "$TREE"
read -r stock head < <(build_commits)
git checkout -q -f -B ours "$head"
git clean -q -fd
git branch -q -f stock "$stock"
[ -d "$STOCK" ] || git worktree add -q --detach "$STOCK" base
git -C "$STOCK" checkout -q -f --detach "$stock"
git -C "$STOCK" clean -q -fd
ver=$(base_package_version)
echo "Debian $BASE_PACKAGE $ver, Linux $(make -s kernelversion)" > "$BUILD/base-version"
echo "assemble: base $(cat "$BUILD/base-version"), ours at $(git rev-parse --short HEAD)"
