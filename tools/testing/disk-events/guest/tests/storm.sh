# SPDX-License-Identifier: GPL-2.0
#
# Hot-plug storm: ${dcycles:-100} cycles of hot-plugging a polled CD drive
# (virtio-scsi), inserting a disc and hot-unplugging the drive, while the
# guest opens every CD drive as reader and burner and writes random
# per-disk and default intervals.  Afterwards, with the intervals reset,
# every CD drive left is polled: a swap on each is reported within 3 s,
# and so is one on a drive plugged after the storm.  The console check
# fails the run on any splat or hung task, and kmemleak scans at its end.
# Boot with block.events_dfl_poll_msecs=1000.

watch_events
churn_opens
churn_intervals
cycles=${dcycles:-100}
t0=$(now_ms)
i=0 plug_ms=0 unplug_ms=0
while [ $i -lt "$cycles" ]; do
	id=hp$i
	t=$(now_ms)
	host plug $id >/dev/null || break
	wait_for_disk $id yes 30 || break
	plug_ms=$((plug_ms + $(now_ms) - t))
	host change $id "hp-$((i % 4))" >/dev/null || break
	sleep "0.$((RANDOM % 5))"
	t=$(now_ms)
	host unplug $id >/dev/null || break
	wait_for_disk $id no 30 || break
	unplug_ms=$((unplug_ms + $(now_ms) - t))
	i=$((i + 1))
done
stop_load
diag "storm: $i cycles, on average plug to disk $((plug_ms / (i + 1))) ms," \
	"unplug to gone $((unplug_ms / (i + 1))) ms"
check "storm: $i of $cycles plug, insert, unplug cycles ($((($(now_ms) - t0) / 1000)) s)" -- \
	test "$i" -eq "$cycles"

diag "$(cat /tmp/churn.out)"
reset_intervals
host plug hp-last >/dev/null
check "storm: a drive plugged after the storm appears" -- wait_for_disk hp-last yes 30
for id in cd0 cd1 atapi0 hp-last; do
	d=$(devof $id)
	ack "$d"
	sleep 1.5
	n=$(count_events "$d" media_change)
	host change $id "$id-after-storm" >/dev/null
	ms=$(wait_events "$d" media_change $((n + 1)) 3)
	tap $? "storm: $id ($d) still polled: swap reported (${ms:-timeout} ms)"
done
host unplug hp-last >/dev/null
kill $WATCHER
