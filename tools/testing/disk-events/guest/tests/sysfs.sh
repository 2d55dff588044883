# SPDX-License-Identifier: GPL-2.0
#
# The sysfs files read back as documented: Documentation/ABI/testing/
# sysfs-block.  Boot with block.events_dfl_poll_msecs=1000.

# attr_is DEV ATTR EXPECTED: the file reads back EXPECTED exactly
# (command substitution drops the trailing newline, checked separately).
attr_is()
{
	local got
	got=$(cat "/sys/block/$1/$2")
	[ "$got" = "$3" ] || { diag "$1/$2: '$got', want '$3'"; return 1; }
}

# ends_in_newline FILE: its last byte is a newline (read through a pipe:
# tail would seek by the size sysfs claims, 4096).
ends_in_newline()
{
	[ "$(cat "$1" | tail -c1 | od -An -tx1 | tr -d ' ')" = 0a ]
}

for id in cd0 cd1 atapi0; do
	d=$(devof $id)
	check "sysfs: $id is a disk ($d)" -- test -n "$d"
	check "sysfs: $id events" -- attr_is "$d" events "media_change eject_request"
	check "sysfs: $id events ends in newline" -- ends_in_newline /sys/block/$d/events
	check "sysfs: $id events_async empty" -- test "$(size_of /sys/block/$d/events_async)" -eq 0
	check "sysfs: $id events_poll_msecs follows default" -- attr_is "$d" events_poll_msecs -1
done

d=$(devof rsd0)
check "sysfs: removable sd is a disk ($d)" -- test -n "$d"
check "sysfs: removable sd events" -- attr_is "$d" events media_change
check "sysfs: removable sd removable" -- attr_is "$d" removable 1

# The floppy driver checks events but sends no uevents: its events file
# is empty (no DISK_EVENT_FLAG_UEVENT) while polling can still be set.
check "sysfs: floppy events empty" -- test "$(size_of /sys/block/fd0/events)" -eq 0
check "sysfs: floppy events_poll_msecs" -- attr_is fd0 events_poll_msecs -1

p=/sys/module/block/parameters/events_dfl_poll_msecs
check "sysfs: default from the command line" -- test "$(cat $p)" = 1000

# Writes take effect and read back.
d=$(devof cd0)
echo 500 > /sys/block/$d/events_poll_msecs
check "sysfs: events_poll_msecs write reads back" -- attr_is "$d" events_poll_msecs 500
echo -1 > /sys/block/$d/events_poll_msecs
check "sysfs: events_poll_msecs back to default" -- attr_is "$d" events_poll_msecs -1
echo 1500 > $p
check "sysfs: default write reads back" -- test "$(cat $p)" = 1500
echo 1000 > $p

# Only root may write either file: EACCES for anybody else, no change.
for f in /sys/block/$d/events_poll_msecs $p; do
	before=$(cat "$f")
	su -s /bin/sh nobody -c "echo 100 > $f" 2>/tmp/su.err
	check "sysfs: non-root write of ${f##*/} refused" -- grep -q "Permission denied" /tmp/su.err
	check "sysfs: non-root write of ${f##*/} changed nothing" -- test "$(cat "$f")" = "$before"
done
