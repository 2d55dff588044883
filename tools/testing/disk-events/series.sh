#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh: "make series".  Write our change as a numbered patch series
# with a cover letter into $BUILD/series, signed off by whoever runs it
# (git config user.name and user.email).
#
# Each series/NN-*.txt is one commit: an optional "Files:" line (files
# we own, directories, or patches:NAME for an entry of patches/), a
# "Subject:" line and the message.  The core files ($CORE_FILES) grow
# step by step: series/NN-*.diff, where present, is what step NN changed
# in them.  One step says "Core: rewrite": it replaces the base's files.
# Steps before it are fixes to the base's files, their diffs applied in
# turn.  From it on, the tracked files hold the last step and the
# earlier ones are found by taking the diffs back, last first.  So an
# edit of a core file lands in the rewrite unless it touches what a
# later diff changes or shows as context (then this stops), and a new
# feature is a new NN-*.txt with its NN-*.diff.  To rework a step,
# rebase branch "series" of $TREE and run series-export.sh.
#
# Only files git tracks go into the series; it must end at the
# assembled tree but for files git does not track.  The cover letter is
# series/cover.txt with the figures of bench/results.md.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$(git -C "$TOP" config user.name || true)
email=$(git -C "$TOP" config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die "the patches are signed off as you: set git config user.name and user.email"

out=$BUILD/series
states=$(mktemp -d)
trap 'rm -rf "$states"' EXIT
"$HARNESS/assemble.sh" >/dev/null

# core_states: $states/NN-name/ holds the core files as of step NN.
core_states()
{
	local txt step f diff rewrite

	rewrite=$(grep -lx 'Core: rewrite' "$HARNESS"/series/[0-9]*-*.txt) ||
		die "no series/*.txt says 'Core: rewrite'"
	mkdir -p "$states/now"
	for f in $CORE_FILES; do
		install -D -m 644 "$TOP/$f" "$states/now/$f"
	done
	for txt in $(ls -r "$HARNESS"/series/[0-9]*-*.txt); do
		[[ $txt < $rewrite ]] && break
		step=$(basename "$txt" .txt)
		cp -a "$states/now" "$states/$step"
		diff=${txt%.txt}.diff
		[ -f "$diff" ] || continue
		(cd "$states/now" && git apply -R "$diff") ||
			die "series/$step.diff does not take back from the core files:" \
				"rebase branch series and run series-export.sh"
	done

	rm -rf "$states/now"
	mkdir -p "$states/now"
	for f in $CORE_FILES; do
		git -C "$TREE" cat-file -e "base:$f" 2>/dev/null || continue
		mkdir -p "$states/now/$(dirname "$f")"
		git -C "$TREE" show "base:$f" > "$states/now/$f"
	done
	for txt in "$HARNESS"/series/[0-9]*-*.txt; do
		[[ $txt < $rewrite ]] || break
		step=$(basename "$txt" .txt)
		diff=${txt%.txt}.diff
		if [ -f "$diff" ]; then
			(cd "$states/now" && git apply "$diff") ||
				die "series/$step.diff does not apply to the base"
		fi
		cp -a "$states/now" "$states/$step"
	done
}

# stage_core STEP: the core files as of STEP into the index.
stage_core()
{
	local f

	for f in $CORE_FILES; do
		if [ -f "$states/$1/$f" ]; then
			git update-index --add --cacheinfo \
				"100644,$(git hash-object -w "$states/$1/$f"),$f"
		else
			git update-index --force-remove "$f"
		fi
	done
}

# stage_entry ENTRY: stage one entry of a Files: line, tracked files only.
stage_entry()
{
	local f

	case $1 in
	patches:*)
		git apply --cached "$TOP/patches/${1#patches:}" ;;
	*)
		for f in $(env -u GIT_INDEX_FILE git -C "$TOP" ls-files -- "$1"); do
			stage_file "$f"
		done ;;
	esac
}

# message FILE: the commit message of series file FILE.
message()
{
	sed -n 's/^Subject: //p' "$1"
	echo
	sed '0,/^Subject: /d' "$1" | sed '1{/^$/d}'
	echo
	echo "Signed-off-by: $name <$email>"
}

core_states
cd "$TREE"
scratch_index series
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
head=$(git rev-parse base)
for txt in "$HARNESS"/series/[0-9]*-*.txt; do
	stage_core "$(basename "$txt" .txt)"
	for entry in $(sed -n 's/^Files: //p' "$txt"); do
		stage_entry "$entry"
	done
	head=$(git commit-tree "$(git write-tree)" -p "$head" -F <(message "$txt"))
done
rm -f "$GIT_INDEX_FILE"
unset GIT_INDEX_FILE
git branch -q -f series "$head"

untracked=$(cd "$TOP" && git ls-files -o --exclude-standard -- $OWNED_DIRS)
differ=$(git diff --name-only ours series | grep -vxF -e "${untracked:-/}" || true)
[ -z "$differ" ] || die "the series does not end at the assembled tree:
$differ"
[ -z "$untracked" ] || echo "series: left out, not tracked by git:" $untracked

rm -rf "$out"
git format-patch -q --cover-letter --thread -o "$out" base..series
python3 "$HARNESS/cover.py" "$out/0000-cover-letter.patch" \
	"$HARNESS/series/cover.txt" "$TOP/bench/results.md"
echo "series: $(ls "$out" | wc -l) files in $out"
ls "$out"
