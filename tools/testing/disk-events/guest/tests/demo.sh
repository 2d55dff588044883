# SPDX-License-Identifier: GPL-2.0
#
# make run: a CD-ROM and a floppy, block.events_dfl_poll_msecs=2000.
# Change media and press eject from the host (QMP) and show the uevents
# as "diskevents watch" prints them: seconds since boot, device, action,
# events, disk sequence number.  Each event the demo causes is waited
# for, and is a result: make check runs the demo as a scenario too.

step() { echo; echo "=== $*"; }

# media_change N WHAT: wait for cd's N-th media change uevent, caused by WHAT.
media_change()
{
	local ms
	ms=$(wait_events "$cd" media_change "$1" 10)
	tap $? "demo: media change on $cd ($2) after ${ms:-?} ms"
	udevadm settle
}

cd=$(devof cd0)
start_udev
dfl=$(cat $DFL_POLL)
step "drives with disk events (udev running, polling every $dfl ms)"
diskevents list | tee /tmp/demo-list.out
check "$(beyond "demo: diskevents list shows loop0 as not polled")" -- \
	grep -q "^loop0 .* not polled (driver sends its events) " /tmp/demo-list.out
watch_events show

step "host: insert disc-1 into $cd"
host change cd0 disc-1 >/dev/null
media_change 1 "disc-1 in"
echo "udev: $(udevadm info -q property -n /dev/$cd |
	grep -E 'ID_CDROM_MEDIA=|ID_FS_LABEL=' | tr '\n' ' ')"

step "host: eject $cd (forced: the tray opens with the disc out); the drive" \
	"reports the change once its tray is closed again"
host eject cd0 force >/dev/null
echo "host sees the tray $(host tray cd0 | cut -d" " -f1)"
host close-tray cd0 >/dev/null
media_change 2 "disc-1 ejected, the tray closed empty"

step "host: insert disc-2 into $cd"
host change cd0 disc-2 >/dev/null
media_change 3 "disc-2 in"

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
# Four changes about 2 s apart are a person's, not a flapping drive's.
check "demo: the kernel took no drive for a flapping one" -- \
	sh -c "! dmesg | grep 'media changes keep coming'"
