# SPDX-License-Identifier: GPL-2.0
#
# Polling at scale (issue 16): $nd virtio-scsi CD drives with a disc
# (drive set "bench$nd"), polled every 2000 ms.  Every drive is polled:
# each gets its GET EVENT STATUS NOTIFICATIONs in a window, counted by
# QEMU (device side), no fewer and no more than its interval allows, to
# within a poll at each end and one missed tick.  Polling them all adds
# a bounded number of kworker threads, counted before polling starts and
# at the end of the window.  (This is a guard, not the test of the bound:
# on the debug kernel a check returns before many overlap, so even a
# per-CPU workqueue without a bound added 8 here; KUnit's
# checks_of_many_drives_run_side_by_side_but_bounded parks the checks
# and fails it.)  And (beyond mainline)
# one timer a tick wakes the machine for all of them: the distinct timer
# wheel buckets from which a timer queued disk events work are as many
# as the grid ticks in the window, give or take one at each end.  Boot
# with scsi_mod.scan=manual, so that only the drives' targets are
# probed.

WINDOW_S=20
POLL_MS=2000
# kworkers polling may add: the core's DISK_EVENTS_MAX_ACTIVE (8), the
# tick's, and the per-CPU pools' own comings and goings.
MORE_WORKERS=16

scan_virtio_scsi "$nd"
ids=$(drive_ids "$nd")
for id in $ids; do wait_for_disk "$id" yes 60 || break; done
found=$(ls -d /sys/block/sr* | wc -l)
check "scale: $found of $nd CD drives found" -- test "$found" -eq "$nd"
for d in /sys/block/sr*; do ack "${d##*/}"; done
sleep 3

k0=$(kworkers)
echo $POLL_MS > $DFL_POLL
sleep 4
trace_start
host scsi-mark >/dev/null
sleep $WINDOW_S
set -- $(host scsi-counts $GESN $ids)
ms=$1
shift
trace_figures > /tmp/figures
k1=$(kworkers)
wakeups=$(awk '$1 == "wakeups" { print $2 }' /tmp/figures)

# Polls a window of $ms holds: one per grid tick in it, give or take one
# at each end, and one tick a loaded debug guest may miss.
low=$((ms / POLL_MS - 2)) high=$((ms / POLL_MS + 1))
few=0 many=0 least=$1 most=$1
for n in "$@"; do
	[ "$n" -lt $low ] && few=$((few + 1))
	[ "$n" -gt $high ] && many=$((many + 1))
	[ "$n" -lt "$least" ] && least=$n
	[ "$n" -gt "$most" ] && most=$n
done
diag "scale: $# drives, $least to $most polls each in $ms ms; kworkers $k0, then $k1"
check "scale: every one of $# drives polled at least $low times in $ms ms ($few fewer)" -- \
	test $# -eq "$nd" -a $few -eq 0
check "scale: no drive polled more than $high times in $ms ms ($many more)" -- \
	test $# -eq "$nd" -a $many -eq 0
check "scale: polling $nd drives added $((k1 - k0)) kworkers (at most $MORE_WORKERS)" -- \
	test $((k1 - k0)) -le $MORE_WORKERS
woke="timers woke the machine $wakeups times to poll $nd drives in $ms ms"
check "$(beyond "scale: $woke (at most $((high + 1)))")" -- \
	test "$wakeups" -le $((high + 1))
echo 0 > $DFL_POLL
