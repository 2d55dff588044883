# SPDX-License-Identifier: GPL-2.0
#
# Suspend cycles: with /sys/power/pm_test set to "freezer", suspend
# ${dsuspends:-5} times; each time user space, kernel threads and
# freezable workqueues stay frozen for 3 s while cd0 polls every 200 ms,
# and the host swaps cd0's disc 1.5 s into the freeze.  From the trace:
# no disk events work runs between the end of freeze_processes and the
# start of thaw_processes, and checks run after.  Every swap is reported
# once, after the thaw.  Boot with block.events_dfl_poll_msecs=1000.

# frozen_figures: "FROZEN AFTER" from the trace: disk events work items
# started while frozen, and after the last thaw.
frozen_figures()
{
	echo 0 > $TRACING/tracing_on
	awk '
	/suspend_resume: freeze_processes\[0\] end/ { frozen = 1; after = 0 }
	/suspend_resume: thaw_processes\[0\] begin/ { frozen = 0 }
	/workqueue_execute_start:/ && /disk_events_workfn/ {
		if (frozen)
			in_freeze++
		else
			after++
	}
	END { printf "%d %d\n", in_freeze, after }' $TRACING/trace
}

watch_events
d=$(devof cd0)
echo freezer > /sys/power/pm_test
echo 3 > /sys/module/suspend/parameters/pm_test_delay
echo 200 > "/sys/block/$d/events_poll_msecs"
echo 0 > $TRACING/tracing_on
echo mono > $TRACING/trace_clock
echo > $TRACING/trace
echo workqueue:workqueue_execute_start power:suspend_resume > $TRACING/set_event
echo 1 > $TRACING/tracing_on

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
check "suspend: $suspended of $cycles freezer suspend cycles" -- test "$suspended" -eq "$cycles"
check "suspend: no check while frozen ($1 work items)" -- test "$1" -eq 0
check "suspend: polling resumed after the last thaw ($2 checks)" -- test "$2" -ge 2
check "suspend: every swap made while frozen reported after ($reported of $cycles)" -- \
	test "$reported" -eq "$cycles"
check "suspend: and once only" -- \
	test "$(($(count_events "$d" media_change) - base))" -eq "$cycles"
kill $WATCHER
