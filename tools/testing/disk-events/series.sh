#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh: "make series".  Write our change as a numbered patch series
# with a cover letter into $BUILD/series.  Each series/N-*.txt is one
# commit: a "Files:" line (files we own, directories, or patches:NAME for
# an entry of patches/), a "Subject:" line and the message.  The commits
# are made on branch "series" from the pristine base, and must end at
# exactly the assembled tree.  The cover letter is series/cover.txt with
# the table of bench/results.md.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/series
"$HARNESS/assemble.sh" >/dev/null
cd "$TREE"
scratch_index series

# stage_entry ENTRY: stage one entry of a Files: line.
stage_entry()
{
	local f
	case $1 in
	patches:*)
		git apply --cached "$TOP/patches/${1#patches:}" ;;
	*)
		for f in $(cd "$TOP" && git ls-files -co --exclude-standard -- "$1"); do
			stage_file "$f"
		done ;;
	esac
}

# message FILE: the commit message of series file FILE.
message()
{
	sed -n 's/^Subject: //p' "$1"
	echo
	sed '1,/^Subject: /d' "$1" | sed '1{/^$/d}'
	echo
	echo "Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
}

head=$(git rev-parse base)
for txt in "$HARNESS"/series/[0-9]*-*.txt; do
	for entry in $(sed -n 's/^Files: //p' "$txt"); do
		stage_entry "$entry"
	done
	head=$(git commit-tree "$(git write-tree)" -p "$head" -F <(message "$txt"))
done
rm -f "$GIT_INDEX_FILE"
unset GIT_INDEX_FILE
git branch -q -f series "$head"
git diff --quiet ours series ||
	die "the series does not end at the assembled tree:
$(git diff --stat ours series)"

rm -rf "$out"
git format-patch -q --cover-letter --thread -o "$out" base..series
python3 "$HARNESS/cover.py" "$out/0000-cover-letter.patch" \
	"$HARNESS/series/cover.txt" "$TOP/bench/results.md"
echo "series: $(ls "$out" | wc -l) files in $out"
ls "$out"
