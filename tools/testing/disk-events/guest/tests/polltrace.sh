# SPDX-License-Identifier: GPL-2.0
#
# make bench-polls, the guest's side: one CD drive polled every poll= ms
# (default 2000) by the kernel, booted with block.events_dfl_poll_msecs
# set alike.  After a pause, traces tsecs= seconds (default 80) of CPU
# idle periods, timer expiries, interrupts, the workqueue and the
# scheduler's wake-ups, and prints the trace as "T: " lines:
# polltrace.py attributes each wake-up to a poll or to the rest of the
# idle guest.

poll=${poll:-2000}
tsecs=${tsecs:-80}

wait_for_disk cd0 yes 60
tap $? "polltrace: cd0 is there"
# Let the boot's own work (the first checks, the partition scan) end.
sleep $((poll * 3 / 1000 + 2))
echo 8192 > $TRACING/buffer_size_kb
trace_events power:cpu_idle irq_vectors:local_timer_entry \
	irq_vectors:reschedule_entry irq_vectors:call_function_single_entry \
	irq:irq_handler_entry timer:timer_expire_entry timer:hrtimer_expire_entry \
	workqueue:workqueue_queue_work workqueue:workqueue_execute_start \
	sched:sched_wakeup
sleep "$tsecs"
echo 0 > $TRACING/tracing_on
grep -v '^#' $TRACING/trace | sed 's/^/T: /'
