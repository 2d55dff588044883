# SPDX-License-Identifier: GPL-2.0
#
# Suspend cycles: with /sys/power/pm_test set to "freezer", suspend
# ${dsuspends:-5} times; each time user space, kernel threads and
# freezable workqueues stay frozen for 3 s while cd0 polls every 200 ms,
# and the host swaps cd0's disc 1.5 s into the freeze.  Every cycle
# completes, every swap is reported once, after the thaw, and checks run
# after the last thaw.  Boot with block.events_dfl_poll_msecs=1000.
#
# From the trace: no disk events work starts while frozen.  That needs
# the guest's second CPU: pm_test's mdelay() holds the CPU that
# suspends, and (PREEMPT_NONE) nothing else runs there; polling work on
# a workqueue that is not freezable runs on the other.

# frozen_figures: "WINDOWS FROZEN AFTER" from the trace: freeze windows
# (end of freeze_processes to start of thaw_processes), disk events work
# items started in them, and started after the last one.  The trace
# merges two CPUs' buffers, and at the coarse clock of a TCG guest an
# event on one CPU can share its time stamp with the window's edge on
# the other and be listed before it: so windows are compared by time.
frozen_figures()
{
	echo 0 > $TRACING/tracing_on
	awk '
	function stamp(	i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				return $i + 0
	}
	NR == FNR {
		if (/suspend_resume: freeze_processes\[0\] end/)
			start[++windows] = stamp()
		if (/suspend_resume: thaw_processes\[0\] begin/)
			stop[windows] = stamp()
		next
	}
	/workqueue_execute_start:/ && /disk_events_(workfn|tick_fn)/ {
		t = stamp()
		for (i = 1; i <= windows; i++)
			if (t > start[i] && t < stop[i])
				in_freeze++
		if (windows && t > stop[windows])
			after++
	}
	END { printf "%d %d %d\n", windows, in_freeze, after }
	' $TRACING/trace $TRACING/trace
}

watch_events
d=$(devof cd0)
echo freezer > /sys/power/pm_test
echo 3 > /sys/module/suspend/parameters/pm_test_delay
echo 200 > "/sys/block/$d/events_poll_msecs"
trace_events workqueue:workqueue_execute_start power:suspend_resume

cycles=${dsuspends:-5}
i=0 suspended=0 reported=0
base=$(count_events "$d" media_change)
while [ $i -lt "$cycles" ]; do
	i=$((i + 1))
	ack "$d"
	sleep 1
	n=$(count_events "$d" media_change)
	host later 1500 change cd0 "frozen-$i" >/dev/null
	echo freeze > /sys/power/state && suspended=$((suspended + 1))
	wait_events "$d" media_change $((n + 1)) 5 >/dev/null && reported=$((reported + 1))
done
sleep 1
set -- $(frozen_figures)
echo > $TRACING/set_event
echo -1 > "/sys/block/$d/events_poll_msecs"
echo none > /sys/power/pm_test
check "suspend: $suspended of $cycles freezer suspend cycles ($1 in the trace)" -- \
	test "$suspended" -eq "$cycles" -a "$1" -eq "$cycles"
check "suspend: no disk events work ran while frozen ($2 did)" -- test "$2" -eq 0
check "suspend: polling resumed after the last thaw ($3 checks)" -- test "$3" -ge 2
check "suspend: every swap made while frozen reported after ($reported of $cycles)" -- \
	test "$reported" -eq "$cycles"
check "suspend: and once only" -- \
	test "$(($(count_events "$d" media_change) - base))" -eq "$cycles"
kill $WATCHER
