# SPDX-License-Identifier: GPL-2.0
#
# A media change on each CD drive gives exactly one DISK_MEDIA_CHANGE=1
# uevent once the previous one was acknowledged by an open, within 3 s
# (boot with block.events_dfl_poll_msecs=1000).  A change made while one
# is still pending is latched: no second uevent until an open clears it.

watch_events
n=0
for id in ${cds:-cd0 cd1 atapi0}; do
	d=$(devof $id)
	ack "$d"
	sleep 1.5
	base=$(count_events "$d" media_change)

	host change "$id" "$id-a" >/dev/null
	ms=$(wait_events "$d" media_change $((base + 1)) 3)
	tap $? "media: $id change reported within 3 s (${ms:-timeout} ms)"
	sleep 2
	check "media: $id change reported once" -- \
		test "$(count_events "$d" media_change)" -eq $((base + 1))

	host change "$id" "$id-b" >/dev/null
	sleep 3
	check "media: $id unacknowledged change stays latched" -- \
		test "$(count_events "$d" media_change)" -eq $((base + 1))

	ack "$d"
	sleep 1.5
	host change "$id" "$id-c" >/dev/null
	ms=$(wait_events "$d" media_change $((base + 2)) 3)
	tap $? "media: $id change after open reported (${ms:-timeout} ms)"
done

# Nothing changes, nothing is reported: 20 s of polling, no uevent.
for id in ${cds:-cd0 cd1 atapi0}; do ack "$(devof $id)"; done
sleep 1
before=$(grep -c change $EVENTS_LOG)
sleep 20
check "media: no uevent in 20 s without a change" -- \
	test "$(grep -c change $EVENTS_LOG)" -eq "$before"
kill $WATCHER
