# SPDX-License-Identifier: GPL-2.0
#
# make run: a CD-ROM and a floppy, block.events_dfl_poll_msecs=2000.
# Change media and press eject from the host (QMP) and show the uevents
# as "diskevents watch" prints them: seconds since boot, device, action,
# events, disk sequence number.

step() { echo; echo "=== $*"; }

# insert N: put disc-N into cd0 and wait for the N-th media change uevent.
insert()
{
	step "host: insert disc-$1 into $cd"
	host change cd0 "disc-$1" >/dev/null
	ms=$(wait_events "$cd" media_change "$1" 10)
	tap $? "demo: media change on $cd after ${ms:-?} ms"
	udevadm settle
}

cd=$(devof cd0)
start_udev
dfl=$(cat $DFL_POLL)
step "drives with disk events (udev running, polling every $dfl ms)"
diskevents list
watch_events show

insert 1
echo "udev: $(udevadm info -q property -n /dev/$cd |
	grep -E 'ID_CDROM_MEDIA=|ID_FS_LABEL=' | tr '\n' ' ')"

step "host: eject $cd (forced: the tray opens with the disc out)"
host eject cd0 force >/dev/null
insert 2

step "host: press the eject button of $cd while udev holds the tray locked"
echo "QMP: $(host eject cd0)"
ms=$(wait_events "$cd" eject_request 1 10)
tap $? "demo: eject request on $cd after ${ms:-?} ms"
udevadm settle
step "udev ran cdrom_id --eject-media: host sees the tray $(host tray cd0 | cut -d" " -f1)"

step "host: swap the floppy; fd0 sends no uevents (no DISK_EVENT_FLAG_UEVENT)," \
	"an open finds the change"
host change fd0 floppy-2 >/dev/null
echo "fd0 reads: $(head -c 40 /dev/fd0 2>/dev/null | head -n1)"
echo "fd0 reads: $(head -c 40 /dev/fd0 | head -n1)"
kill $WATCHER
