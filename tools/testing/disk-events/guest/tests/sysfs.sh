# SPDX-License-Identifier: GPL-2.0
#
# The sysfs files read back as documented: Documentation/ABI/stable/
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

# Parsing (Documentation/ABI/stable/sysfs-block): events_poll_msecs as
# kstrtol() reads a decimal number, the default as every unsigned long
# parameter; above INT_MAX ms (what msecs_to_jiffies() converts) neither.  A refused write fails and
# changes nothing.  (Error codes per input: the KUnit tables.)

# write_sets FILE VALUE WANT: writing VALUE as one write() leaves FILE
# reading WANT, and fails if and only if WANT is what FILE read before.
write_sets()
{
	local before st
	before=$(cat "$1")
	(printf '%s' "$2" > "$1") 2>/dev/null
	st=$?
	[ "$(cat "$1")" = "$3" ] || { diag "$1 <- '$2': reads $(cat "$1"), want $3"; return 1; }
	if [ "$3" = "$before" ]; then [ $st -ne 0 ]; else [ $st -eq 0 ]; fi
}

f=/sys/block/$d/events_poll_msecs
echo 700 > $f
check "sysfs: events_poll_msecs reads 010 as 10" -- write_sets $f 010 10
check "sysfs: events_poll_msecs takes a newline" -- write_sets $f "$(printf '20\n')" 20
check "sysfs: events_poll_msecs refuses -2" -- write_sets $f -2 20
check "sysfs: events_poll_msecs refuses abc" -- write_sets $f abc 20
check "sysfs: events_poll_msecs takes a day and more" -- write_sets $f 86400001 86400001
check "sysfs: events_poll_msecs takes INT_MAX" -- write_sets $f 2147483647 2147483647
for bad in 12abc 1e3 0x10 " 5" 2147483648 4294967296; do
	echo 700 > $f
	check "$(beyond "sysfs: events_poll_msecs refuses '$bad'")" -- write_sets $f "$bad" 700
done
check "$(beyond "sysfs: events_poll_msecs takes +5")" -- write_sets $f +5 5
echo -1 > $f

check "sysfs: default reads 0x7d0 as 2000" -- write_sets $p 0x7d0 2000
check "sysfs: default reads 010 as 8" -- write_sets $p 010 8
check "sysfs: default reads +1500" -- write_sets $p +1500 1500
check "sysfs: default refuses -1" -- write_sets $p -1 1500
check "sysfs: default takes INT_MAX" -- write_sets $p 2147483647 2147483647
echo 1500 > $p
check "$(beyond "sysfs: default refuses above INT_MAX")" -- write_sets $p 2147483648 1500
echo 1000 > $p
