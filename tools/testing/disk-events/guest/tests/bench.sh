# SPDX-License-Identifier: GPL-2.0
#
# make bench, the guest's side: nd= CD drives, each with a disc, polled
# every 2000 ms either by the kernel (mode=kernel, boot with
# block.events_dfl_poll_msecs=2000) or by halpoll, user-space polling as
# hal did it (mode=poller, kernel polling off).  First an idle window of
# window= seconds, traced; then 20 media changes on cd0, whose latency
# the host measures from its QMP command to the event line on this
# console.  Figures are printed as "bench: KEY VALUE" lines.

window=${window:-20}

# bench KEY VALUE: one figure for the host.
bench() { echo "bench: $1 $2"; }

# wait_drives N: wait up to 60 s until N sr disks exist.
wait_drives()
{
	local i=0
	while [ "$(ls -d /sys/block/sr* 2>/dev/null | wc -l)" -lt "$1" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ls -d /sys/block/sr* | wc -l
}

# stat_of KEY: KEY's value in halpoll's statistics.
stat_of()
{
	awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' \
		/tmp/halpoll.stats
}

bench drives "$(wait_drives "$nd")"
bench mode "$mode"
for d in /sys/block/sr*; do ack "${d##*/}"; done
if [ "$mode" = poller ]; then
	halpoll 2000 /dev/sr* | tee -a $EVENTS_LOG &
else
	watch_events show
fi
sleep 6

trace_start
[ "$mode" = poller ] && p0=$(stat_of checks) && n0=$(stat_of check_ns) &&
	c0=$(stat_of cpu_ns)
host scsi-mark >/dev/null
sleep "$window"
bench commands "$(host scsi-count all)"
bench gesn "$(host scsi-count all 74)"
trace_figures | sed 's/^/bench: /'
if [ "$mode" = poller ]; then
	bench poller_checks $(($(stat_of checks) - p0))
	bench poller_ns $(($(stat_of check_ns) - n0))
	bench poller_cpu_ns $(($(stat_of cpu_ns) - c0))
fi
bench window_s "$window"

d=$(devof cd0)
bench cd0_dev "$d"
for i in $(seq 1 20); do
	usleep $((RANDOM % 2000 * 1000))
	base=$(count_events "$d" media_change)
	host change cd0 "lat-$i" >/dev/null
	wait_events "$d" media_change $((base + 1)) 10 >/dev/null
	tap $? "bench: change $i on $d seen"
	[ "$mode" = kernel ] && ack "$d"
done
