# SPDX-License-Identifier: GPL-2.0
#
# Media changes on the drivers other than sr: a removable SCSI disk (sd)
# and the floppy.  Boot with block.events_dfl_poll_msecs=1000.

# first_line DEV: the first line of DEV's medium; the harness writes the
# medium's name there.  After a floppy swap the first read may fail once.
first_line()
{
	local line i
	for i in 1 2; do
		line=$(head -c 64 "/dev/$1" 2>/dev/null | head -n1)
		[ -n "$line" ] && break
	done
	echo "$line"
}

watch_events

# sd: a removable disk reports media changes like a CD drive.
d=$(devof rsd0)
ack "$d"
base=$(count_events "$d" media_change)
host change rsd0 rsd0-a >/dev/null
ms=$(wait_events "$d" media_change $((base + 1)) 3)
tap $? "drivers: removable sd $d media change within 3 s (${ms:-timeout} ms)"
check "drivers: $d reads the new medium" -- \
	test "$(first_line "$d")" = "disk-events medium rsd0-a"

# floppy: no DISK_EVENT_FLAG_UEVENT, so no polling at the default and no
# uevents; an open finds the change.
host change fd0 floppy-a >/dev/null
check "drivers: fd0 open after a swap reads the new image" -- \
	test "$(first_line fd0)" = "disk-events medium floppy-a"

# With its own interval the floppy is polled: the disk sequence number
# moves without any open.  User space gets no uevent (see the events
# file): it can read diskseq.
echo 500 > /sys/block/fd0/events_poll_msecs
sleep 1
seq=$(cat /sys/block/fd0/diskseq)
host change fd0 floppy-b >/dev/null
i=0
while [ "$(cat /sys/block/fd0/diskseq)" = "$seq" ] && [ $i -lt 30 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "drivers: fd0 polled at 500 ms finds the swap without an open ($((i * 100)) ms)" -- \
	test "$(cat /sys/block/fd0/diskseq)" != "$seq"
check "drivers: fd0 sends no uevent" -- test "$(count_events fd0 media_change)" -eq 0
line=$(first_line fd0)
check "drivers: fd0 reads the new image ('$line')" -- \
	test "$line" = "disk-events medium floppy-b"
kill $WATCHER
