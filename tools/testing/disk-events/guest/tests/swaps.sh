# SPDX-License-Identifier: GPL-2.0
#
# Nothing lost under load: ${dswaps:-50} disc swaps on cd0, each waited
# for as a DISK_MEDIA_CHANGE=1 uevent and then acknowledged by an open
# that reads the disc, while two busy loops and direct I/O on the
# removable disk load the guest.  Exactly one uevent per swap, each read
# finds the disc just inserted.  Boot with block.events_dfl_poll_msecs=1000.

watch_events
d=$(devof cd0)
ack "$d"
sleep 1.5
base=$(count_events "$d" media_change)
cpu_load 2
io_load "$(devof rsd0)"
swaps=${dswaps:-50}
right=0 slow=0 i=0
while [ $i -lt "$swaps" ]; do
	i=$((i + 1))
	host change cd0 "swap-$i" >/dev/null || break
	wait_events "$d" media_change $((base + i)) 10 >/dev/null || slow=$((slow + 1))
	[ "$(label "$d")" = "disk-events medium swap-$i" ] && right=$((right + 1))
done
stop_load
sleep 3
seen=$(($(count_events "$d" media_change) - base))
diag "swaps: $swaps swaps, $seen uevents, $slow not within 10 s, $right right reads"
check "swaps: exactly one DISK_MEDIA_CHANGE=1 per swap ($seen for $i)" -- \
	test "$seen" -eq "$swaps"
check "swaps: every uevent came within 10 s ($slow late)" -- test "$slow" -eq 0
check "swaps: every read found the disc just inserted ($right of $swaps)" -- \
	test "$right" -eq "$swaps"
check "swaps: the uevents carry rising disk sequence numbers" -- \
	awk -v d="$d" '$2 == d && /media_change/ {
		split($NF, s, "="); if (s[2] + 0 <= last) bad = 1; last = s[2] + 0
	} END { exit bad }' $EVENTS_LOG
kill $WATCHER
