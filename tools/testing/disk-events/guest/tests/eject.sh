# SPDX-License-Identifier: GPL-2.0
#
# The eject button without udev: with the tray locked by the guest (as
# udev's "cdrom_id --lock-media" does), QEMU's eject without force is a
# press of the button, and DISK_EJECT_REQUEST=1 reaches user space within
# the poll interval + 1 s.  Boot with block.events_dfl_poll_msecs=1000.

watch_events
for id in ${cds:-cd0 atapi0}; do
	d=$(devof $id)
	/lib/udev/cdrom_id --lock-media "/dev/$d" >/dev/null
	check "eject: $id tray locked by the guest" -- test "$(host tray $id)" = "closed locked"
	ack "$d"
	base=$(count_events "$d" eject_request)
	reply=$(host eject $id)
	case $reply in *locked*) true ;; *) false ;; esac
	tap $? "eject: $id button pressed on a locked tray ($reply)"
	ms=$(wait_events "$d" eject_request $((base + 1)) 2)
	tap $? "eject: $id DISK_EJECT_REQUEST within 2 s (${ms:-timeout} ms)"
	check "eject: $id tray stays closed: nobody ejected it" -- \
		test "$(host tray $id)" = "closed locked"
done
kill $WATCHER
