# SPDX-License-Identifier: GPL-2.0
#
# Beyond mainline, on real drives: polling aligned on a grid (the four
# drives polled at the default share one wake-up per interval), and the
# core's debugfs statistics agree with what the device and user space
# saw.  Boot with block.events_dfl_poll_msecs=1000.

watch_events
d=$(devof cd0)
for id in cd0 cd1 atapi0 rsd0; do ack "$(devof $id)"; done
sleep 3

# sr (3 drives) and removable sd poll at the default: 4 drives, about
# 10 s, as many grid ticks as whole seconds in the traced window, give
# or take one at each end.  On the grid one timer per tick (our core's
# tick, which queues the four checks) expires: one wake-up serves four
# checks.
trace_start
sleep 10
trace_figures > /tmp/figures
figure() { awk -v k="$1" '$1 == k { print $2 }' /tmp/figures; }
wakeups=$(figure wakeups) checks=$(figure checks) window=$(figure window_ms)
low=$((4 * (window / 1000 - 1))) high=$((4 * (window / 1000 + 2)))
check "beyond: 4 drives at 1000 ms made $checks checks in $window ms ($low to $high)" -- \
	test "$checks" -ge $low -a "$checks" -le $high
most=$(((checks + 3) / 4 + 2))
woke="their timers woke the machine $wakeups times for $checks checks"
check "$(beyond "beyond: $woke (at most $most)")" -- test "$wakeups" -le $most

# Statistics against the device: one GESN per check of an idle sr.
c0=$(disk_stat "$d" checks)
n=$(polls_in cd0 5)
c1=$(disk_stat "$d" checks)
check "$(beyond "beyond: debugfs counted $((c1 - c0)) checks of $d, the device saw $n GESN")" -- \
	test -n "$c0" -a $((c1 - c0 - n)) -ge -1 -a $((c1 - c0 - n)) -le 1
check "$(beyond "beyond: $d polled at 1000 ms from the default")" -- \
	test "$(disk_stat "$d" poll_msecs) $(disk_stat "$d" poll_source)" = "1000 default"

# A change: found, one uevent, pending until an open.
u0=$(disk_stat "$d" uevents)
f0=$(disk_stat "$d" found_media_change)
base=$(count_events "$d" media_change)
host change cd0 stats-disc >/dev/null
wait_events "$d" media_change $((base + 1)) 3 >/dev/null
check "$(beyond "beyond: debugfs counts the uevent of the change")" -- \
	test "$(disk_stat "$d" uevents)" = $((u0 + 1))
check "$(beyond "beyond: debugfs counts the media change found")" -- \
	test "$(disk_stat "$d" found_media_change)" = $((f0 + 1))
check "$(beyond "beyond: the change is pending until an open")" -- \
	test "$(disk_stat "$d" pending)" = media_change
ack "$d"
check "$(beyond "beyond: nothing pending after the open")" -- \
	test "$(disk_stat "$d" pending)" = none

# A burner blocks: depth 1 while it holds, blocked time grows.
b0=$(disk_stat "$d" blocked_ms)
holding burn "$d"
check "$(beyond "beyond: block depth 1 while a burner holds $d")" -- \
	test "$(disk_stat "$d" block_depth)" = 1
sleep 2
release
b1=$(disk_stat "$d" blocked_ms)
check "$(beyond "beyond: blocked time grew by $((b1 - b0)) ms over a 2 s burn")" -- \
	test $((b1 - b0)) -ge 2000
check "$(beyond "beyond: block depth 0 after the burner left")" -- \
	test "$(disk_stat "$d" block_depth)" = 0
kill $WATCHER
