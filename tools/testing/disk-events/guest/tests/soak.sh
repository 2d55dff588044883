# SPDX-License-Identifier: GPL-2.0
#
# make soak: the storm, swaps and suspend tests over and over, for
# ${dsoak:-600} seconds (a round started before the end is finished).
# Rounds are shorter than make check's runs of those tests (25 hot-plug
# cycles, 10 swaps, 2 suspends; dcycles=, dswaps=, dsuspends= on the
# command line change that), so the duration is kept to within minutes.
# Boot with block.events_dfl_poll_msecs=1000.

dcycles=${dcycles:-25} dswaps=${dswaps:-10} dsuspends=${dsuspends:-2}
start=$(now_ms)
end=$((start + ${dsoak:-600} * 1000))
round=0
while [ "$(now_ms)" -lt $end ]; do
	round=$((round + 1))
	diag "soak: round $round, $((($(now_ms) - start) / 1000)) s in"
	for t in storm swaps suspend; do
		. /lib/disk-events/tests/$t.sh
	done
done
tap 0 "soak: $round rounds in $((($(now_ms) - start) / 1000)) s"
