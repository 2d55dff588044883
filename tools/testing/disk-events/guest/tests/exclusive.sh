# SPDX-License-Identifier: GPL-2.0
#
# An exclusive writer (a CD burner: O_RDWR | O_EXCL) stops polling of an
# sr drive: the device sees no command while it holds the drive, counted
# from QEMU's trace.  A change made meanwhile is reported after release.
# Readers and non-exclusive writers do not stop polling.  Boot with
# block.events_dfl_poll_msecs=1000.

watch_events
d=$(devof cd0)
ack "$d"
n=$(polls_in cd0 4)
check "exclusive: $d polled before ($n polls in 4 s)" -- test "$n" -ge 2

holding burn "$d"
tap $? "exclusive: burner holds $d"
n=$(polls_in cd0 4)
check "exclusive: no command while the burner holds $d ($n in 4 s)" -- test "$n" -eq 0
base=$(count_events "$d" media_change)
host change cd0 burned >/dev/null
sleep 2
check "exclusive: change during the hold not reported yet" -- \
	test "$(count_events "$d" media_change)" -eq "$base"
release
ms=$(wait_events "$d" media_change $((base + 1)) 3)
tap $? "exclusive: change reported after release (${ms:-timeout} ms)"
n=$(polls_in cd0 4)
check "exclusive: polling resumed ($n polls in 4 s)" -- test "$n" -ge 2

for mode in read write; do
	holding $mode "$d"
	n=$(polls_in cd0 4)
	check "exclusive: a $mode opener does not stop polling ($n in 4 s)" -- test "$n" -ge 2
	release
done
kill $WATCHER
