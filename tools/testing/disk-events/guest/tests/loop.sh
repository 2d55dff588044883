# SPDX-License-Identifier: GPL-2.0
#
# disk_force_media_change() as loop calls it: detaching the file sends a
# change uevent with DISK_MEDIA_CHANGE=1 that carries the disk sequence
# number of the file that went away, and the number moves on after it,
# as in mainline (udev's by-diskseq links and systemd's loop code key on
# it).  Attaching suppresses uevents while loop reconfigures: no media
# change uevent then.

dd if=/dev/zero of=/tmp/loop.img bs=1k count=1024 2>/dev/null
watch_events
losetup /dev/loop0 /tmp/loop.img
seq=$(cat /sys/block/loop0/diskseq)
check "loop: attached loop0 (diskseq $seq)" -- test -n "$seq"
losetup -d /dev/loop0
check "loop: detach sends one media change uevent" -- \
	wait_events loop0 media_change 1 10
check "loop: attach sent none (uevents suppressed)" -- \
	test "$(count_events loop0 media_change)" -eq 1
check "loop: the uevent carries the detached file's diskseq $seq" -- \
	grep -q " loop0 .*media_change *diskseq=$seq$" $EVENTS_LOG
check "loop: diskseq moves on after the uevent" -- \
	test "$(cat /sys/block/loop0/diskseq)" -gt "$seq"
kill $WATCHER
