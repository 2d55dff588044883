# SPDX-License-Identifier: GPL-2.0
#
# The loop users rely on, with Debian's systemd-udevd 252 and its stock
# rules and nothing of ours: udev opens the disk on every change uevent
# (so it hears of every change), updates ID_CDROM_MEDIA, locks the tray,
# and on the eject button runs cdrom_id --eject-media, which opens the
# tray.  Boot with block.events_dfl_poll_msecs=1000.

watch_events
start_udev
d=$(devof cd0)

# udev locks the tray, and QEMU's change of a medium in a locked tray is
# also an eject request (on which udev ejects): swap as a user does,
# eject (forced, which unlocks) and then insert.
user_swaps cd0 "$d" disc "udev: swap on $d reported, udev acknowledging:"
check "udev: ID_CDROM_MEDIA=1 after the change" -- \
	udevadm info -q property -n "/dev/$d" | grep -qx ID_CDROM_MEDIA=1

# A medium change on a locked tray is an eject request too (QEMU forces
# the tray), on which udev ejects; so first get a medium in a closed tray
# that udev locked.
for i in 1 2 3 4 5; do
	udevadm settle
	sleep 2
	tray=$(host tray cd0)
	[ "$tray" = "closed locked" ] && break
	[ "${tray% *}" = open ] && host change cd0 "disc-x$i" >/dev/null
done
check "udev: cd0 tray closed and locked by udev ($tray)" -- test "$tray" = "closed locked"

base=$(count_events "$d" eject_request)
reply=$(host eject cd0)
case $reply in *locked*) true ;; *) false ;; esac
tap $? "udev: QEMU's eject button finds the tray locked by udev ($reply)"
ms=$(wait_events "$d" eject_request $((base + 1)) 3)
tap $? "udev: DISK_EJECT_REQUEST reported (${ms:-timeout} ms)"
check "udev: cdrom_id --eject-media opened the tray (QMP DEVICE_TRAY_MOVED)" -- \
	host wait-tray cd0 open 10
kill $WATCHER
