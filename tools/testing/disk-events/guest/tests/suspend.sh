# SPDX-License-Identifier: GPL-2.0
#
# Suspend cycles: with /sys/power/pm_test set to "freezer", suspend
# ${dsuspends:-5} times; each time user space, kernel threads and
# freezable workqueues stay frozen for 3 s while cd0 polls every 200 ms,
# and the host swaps cd0's disc 1.5 s into the freeze.  Every cycle
# completes, every swap is reported once, after the thaw, and checks run
# after the last thaw (from the trace).  Boot with
# block.events_dfl_poll_msecs=1000.
#
# The trace also counts disk events work run while frozen, but only as a
# diagnostic: our guests have one CPU and PREEMPT_NONE kernels, so
# pm_test's mdelay() holds the only CPU and nothing else could run then,
# freezable or not.  KUnit's no_polling_while_workqueues_frozen is the
# test that fails for a workqueue that is not freezable.

# frozen_figures: "WINDOWS FROZEN AFTER" from the trace: freeze windows
# (end of freeze_processes to start of thaw_processes), disk events work
# items started in them, and started after the last one.
frozen_figures()
{
	echo 0 > $TRACING/tracing_on
	awk '
	/suspend_resume: freeze_processes\[0\] end/ { frozen = 1; after = 0; windows++ }
	/suspend_resume: thaw_processes\[0\] begin/ { frozen = 0 }
	/workqueue_execute_start:/ && /disk_events_workfn/ {
		if (frozen)
			in_freeze++
		else
			after++
	}
	END { printf "%d %d %d\n", windows, in_freeze, after }' $TRACING/trace
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
diag "suspend: $2 disk events work items ran while frozen (one CPU: see above)"
check "suspend: polling resumed after the last thaw ($3 checks)" -- test "$3" -ge 2
check "suspend: every swap made while frozen reported after ($reported of $cycles)" -- \
	test "$reported" -eq "$cycles"
check "suspend: and once only" -- \
	test "$(($(count_events "$d" media_change) - base))" -eq "$cycles"
kill $WATCHER
