# SPDX-License-Identifier: GPL-2.0
#
# make bench, the guest's side: nd= CD drives (0 for the baseline),
# each with a disc, polled every poll= ms (default 2000) either by the
# kernel (mode=kernel, boot with block.events_dfl_poll_msecs set alike)
# or by halpoll, user-space polling as hal did it (mode=poller, kernel
# polling off).  Counts an idle window of window= seconds with the same counters
# for every kernel and mode; then changes cd0's medium changes= times,
# whose latency the host measures from its QMP command to the event line
# on this console.  Figures are "bench: KEY VALUE" lines.
#
# The changes come at phases spread evenly over the interval:
# change i, one interval and (i + 1/2) / changes of one after the last
# was seen, so a few changes sample the latency's whole range, as many
# random phases would.  Never in consecutive intervals, and a few
# changes only: a drive whose changes keep coming is flapping, and our
# core slows its uevents down.

window=${window:-15}
changes=${changes:-6}
poll=${poll:-2000}
CPUS=$(grep -c ^processor /proc/cpuinfo)

# bench KEY VALUE: one figure for the host.
bench() { echo "bench: $1 $2"; }

# wait_drives N: wait up to 60 s until N sr disks exist; print how many.
wait_drives()
{
	local i=0
	while [ "$(ls -d /sys/block/sr* 2>/dev/null | wc -l)" -lt "$1" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ls -d /sys/block/sr* 2>/dev/null | wc -l
}

# interrupt_rows: "NAME:N,..." for every row of /proc/interrupts, summed
# over the CPUs.
interrupt_rows()
{
	awk -v cpus="$CPUS" 'NR > 1 {
		sub(/:$/, "", $1)
		n = 0
		for (i = 2; i <= cpus + 1 && $i ~ /^[0-9]+$/; i++)
			n += $i
		printf "%s%s:%d", (NR > 2 ? "," : ""), $1, n
	}' /proc/interrupts
}

# row_deltas BEFORE AFTER: AFTER's rows minus BEFORE's, the non-zero ones.
row_deltas()
{
	echo "$1 $2" | awk '{
		n = split($1, a, ","); split($2, b, ",")
		for (i = 1; i <= n; i++) {
			split(a[i], x, ":"); split(b[i], y, ":")
			if (y[2] - x[2])
				printf "%s%s:%d", (out++ ? "," : ""), x[1], y[2] - x[2]
		}
	}'
}

# row_sum ROWS [NAME]: the sum of "NAME:N,..." ROWS, or NAME's alone.
row_sum()
{
	printf '%s' "$1" | awk -v RS=, -F: -v only="${2:-}" '
	only == "" || $1 == only { n += $2 }
	END { print n + 0 }'
}

# idle_figures: from the trace between the markers bench-start and
# bench-end, "window_ns N" (between them), "idle_ns N" (all CPUs' time
# in idle), "wakeups N" (idle exits), "timer_wakeups N" (those whose
# idle period took a local timer interrupt), "poll_timers N" (distinct
# timer wheel buckets from which a timer queued disk events work: the
# base's disks' own timers, our core's tick) and "idle_timers F:N,..."
# (the functions of the timers that expired in idle periods).
idle_figures()
{
	awk -v cpus="$CPUS" '
	{
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/)
				cpu = $i
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				ts = substr($i, 1, length($i) - 1) + 0
		}
	}
	/tracing_mark_write: bench-start/ { t0 = ts; on = 1; next }
	/tracing_mark_write: bench-end/ { t1 = ts; on = 0; done = 1; next }
	done { next }
	/cpu_idle: state=4294967295/ {
		if (on) {
			from = (cpu in since) ? since[cpu] : t0
			idle += ts - (from > t0 ? from : t0)
			exits++
			timer_exits += (cpu in timer)
		}
		delete since[cpu]
		delete timer[cpu]
		next
	}
	/cpu_idle: state=/ { since[cpu] = ts; next }
	/local_timer_entry/ && (cpu in since) { timer[cpu] = 1 }
	# What the timers that ran in idle periods were, for the raw log.
	/(hrtimer|timer)_expire_entry:/ && on && (cpu in since) {
		match($0, /function=[^ ]+/)
		fired[substr($0, RSTART + 9, RLENGTH - 9)]++
	}
	# A timer that queues polling work: keyed by the wheel bucket it
	# expired from (baseclk), as timers of one bucket run one by one.
	/timer_expire_entry:/ && /function=delayed_work_timer_fn/ {
		match($0, /baseclk=[0-9]+/)
		expiry[cpu] = substr($0, RSTART + 8, RLENGTH - 8)
		next
	}
	/workqueue_queue_work:/ && /function=disk_events_(workfn|tick_fn)/ &&
	    on && expiry[cpu] != "" {
		polling[expiry[cpu]] = 1
	}
	{ expiry[cpu] = "" }
	END {
		for (f in fired)
			list = list (list == "" ? "" : ",") f ":" fired[f]
		for (c in since)
			idle += t1 - (since[c] > t0 ? since[c] : t0)
		printf "window_ns %.0f\nidle_ns %.0f\n", (t1 - t0) * 1e9, idle * 1e9
		for (b in polling)
			poll_timers++
		printf "wakeups %d\ntimer_wakeups %d\n", exits, timer_exits
		printf "poll_timers %d\n", poll_timers
		printf "idle_timers %s\n", (list == "" ? "none" : list)
	}' $TRACING/trace
}

bench drives "$(wait_drives "$nd")"
bench mode "$mode"
bench cpus "$CPUS"
for d in /sys/block/sr*; do [ -e "$d" ] && ack "${d##*/}"; done
if [ "$mode" = poller ] && [ "$nd" -gt 0 ]; then
	halpoll "$poll" /dev/sr* | tee -a $EVENTS_LOG &
else
	watch_events show
fi
sleep 3

# The window: the counters are read right around it, and the trace's
# markers frame it for the idle figures.
echo 4096 > $TRACING/buffer_size_kb
trace_events power:cpu_idle irq_vectors:local_timer_entry \
	timer:timer_expire_entry timer:hrtimer_expire_entry \
	workqueue:workqueue_queue_work
k0=$(kworkers)
host scsi-mark >/dev/null
echo bench-start > $TRACING/trace_marker
r0=$(interrupt_rows)
sleep "$window"
r1=$(interrupt_rows)
echo bench-end > $TRACING/trace_marker
echo 0 > $TRACING/tracing_on
k1=$(kworkers)
rows=$(row_deltas "$r0" "$r1")
bench interrupts "$(row_sum "$rows")"
bench local_timer "$(row_sum "$rows" LOC)"
bench interrupt_rows "$rows"
bench kworkers $((k0 > k1 ? k0 : k1))
idle_figures | sed 's/^/bench: /'
[ "$nd" -gt 0 ] || return 0

# GESN per drive, device side: "MS N0 N1 ..."
ids=$(drive_ids "$nd")
bench gesn_per_drive "$(host scsi-counts $GESN $ids | tr ' ' ,)"

d=$(devof cd0)
bench cd0_dev "$d"
# change_seen MEDIUM: change cd0's medium to MEDIUM, wait until the
# change is seen (for two intervals and 10 s: a check comes within one);
# the last seen is the moment the next phase counts from.
change_seen()
{
	local base
	base=$(count_events "$d" media_change)
	host change cd0 "$1" >/dev/null
	wait_events "$d" media_change $((base + 1)) $((poll * 2 / 1000 + 10)) >/dev/null
}
# An untimed change first, so that the first timed one too comes at
# its phase after a change seen, not after the window.
change_seen sync
tap $? "bench: untimed change on $d seen"
[ "$mode" = kernel ] && ack "$d"
i=0
while [ $i -lt "$changes" ]; do
	usleep $((poll * 1000 + (i * 2 + 1) * poll * 500 / changes))
	i=$((i + 1))
	change_seen "lat-$i"
	tap $? "bench: change $i on $d seen"
	[ "$mode" = kernel ] && ack "$d"
done
