# SPDX-License-Identifier: GPL-2.0
#
# Guest-side helpers, sourced by init and the tests: TAP output, the
# host control channel, drive lookup and uevent waits.

TAP_N=0
TAP_PASSED=0
TAP_FAILED=0
TAP_SKIPPED=0
EVENTS_LOG=/tmp/events.log
TRACING=/sys/kernel/tracing
DFL_POLL=/sys/module/block/parameters/events_dfl_poll_msecs

echo "TAP version 13"

# tap_line LINE: print a TAP result line on the console, for people, and
# send it to the host on the control channel, where kernel messages
# cannot split it: the host's tally reads it there.
tap_line()
{
	echo "$*"
	host tap "$*" >/dev/null
}

# tap STATUS NAME...: one TAP result, "ok" if STATUS is 0.
tap()
{
	local status=$1
	shift
	TAP_N=$((TAP_N + 1))
	if [ "$status" -eq 0 ]; then
		TAP_PASSED=$((TAP_PASSED + 1))
		tap_line "ok $TAP_N $*"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		tap_line "not ok $TAP_N $*"
	fi
}

# skip NAME REASON: a test that could not run here; the tally shows it
# as skipped, never as passed.
skip()
{
	TAP_N=$((TAP_N + 1))
	TAP_SKIPPED=$((TAP_SKIPPED + 1))
	tap_line "ok $TAP_N $1 # SKIP $2"
}

# check NAME -- COMMAND...: run COMMAND and report it as test NAME.
check()
{
	local name=$1
	shift 2
	"$@"
	tap $? "$name"
}

# beyond NAME: NAME marked as behaviour mainline lacks ("# TODO" in
# TAP): a failure on the stock tree is expected there (XFAIL).
beyond() { echo "$* # TODO beyond mainline"; }

# diag MESSAGE: a TAP comment.
diag() { echo "# $*"; }

# tap_done: the plan, at the end (TAP allows it there), and the closing
# line the host checks against the results it received.
tap_done()
{
	echo "1..$TAP_N"
	echo "guest: done $TAP_N $TAP_PASSED $TAP_FAILED $TAP_SKIPPED"
	host done $TAP_N $TAP_PASSED $TAP_FAILED $TAP_SKIPPED >/dev/null
}

# host COMMAND...: ask the host driver to act (QMP) and print its answer.
# The answer is "ok [DATA]" or "err MESSAGE"; the status says which.
host()
{
	local reply
	echo "$*" >&3
	read -r reply <&3
	case $reply in *" "*) echo "${reply#* }" ;; esac
	[ "${reply%% *}" = ok ]
}

# devof QEMU-ID: the guest disk name of a drive.  The harness sets each
# SCSI drive's product string to its QEMU id; QEMU's ATAPI drives all say
# "QEMU DVD-ROM", so atapi0 (PIIX) or ahci0 (q35) is the first sr disk
# behind libata, and usb0 the disk behind USB, the only one of a
# machine.  Shell builtins only where it
# can: a fork costs a loaded debug guest up to a quarter of a second.
devof()
{
	local d m
	for d in /sys/block/*; do
		m=
		read -r m 2>/dev/null < "$d/device/model"
		[ "${m%% *}" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	case $1 in atapi0 | ahci0 | fd0 | usb0) ;; *) return 1 ;; esac
	for d in /sys/block/*; do
		case "$1:$(readlink "$d")" in
		atapi0:*/ata* | ahci0:*/ata*) echo "${d##*/}"; return 0 ;;
		fd0:*/floppy*) echo fd0; return 0 ;;
		usb0:*/usb*) echo "${d##*/}"; return 0 ;;
		esac
	done
	return 1
}

# size_of FILE: how many bytes reading FILE gives (sysfs sizes say 4096).
size_of() { wc -c < "$1"; }

# listening ERRFILE PID: wait until the "diskevents watch" whose standard
# error goes to ERRFILE says it is listening; fail if PID is gone first.
listening()
{
	until grep -q listening "$1" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
}

# watch_events [show]: start logging block uevents to $EVENTS_LOG, and
# with "show" print them on the console too, as they arrive; return once
# the watcher listens.
watch_events()
{
	: > $EVENTS_LOG
	: > /tmp/watch.err
	if [ "${1:-}" = show ]; then
		diskevents watch 2>/tmp/watch.err | tee -a $EVENTS_LOG &
	else
		diskevents watch >> $EVENTS_LOG 2>/tmp/watch.err &
	fi
	WATCHER=$!
	listening /tmp/watch.err $WATCHER
}

# count_events DEV EVENT: how many uevents with EVENT the log has for DEV.
# None is a count too: it fails only if there is no log.
count_events()
{
	grep -c " $1 .*$2" $EVENTS_LOG || [ -e $EVENTS_LOG ]
}

# wait_events DEV EVENT N SECS: wait until DEV has N EVENT uevents; fail
# after SECS.  Prints the latency in ms from the call (made right after
# the action) to the Nth uevent, by the watcher's timestamp of it, not by
# how often this loop looked; 0 if the uevent came before the call.
wait_events()
{
	local t0 at
	t0=$(now_ms)
	while [ "$(count_events "$1" "$2")" -lt "$3" ]; do
		[ $(($(now_ms) - t0)) -ge $(($4 * 1000)) ] && return 1
		sleep 0.05
	done
	at=$(grep " $1 .*$2" $EVENTS_LOG |
		awk -v n="$3" 'NR == n { printf "%d", $1 * 1000 }')
	echo $((at > t0 ? at - t0 : 0))
}

# user_swaps QID DEV PREFIX NAME: three swaps of discs PREFIX-1..3 in
# drive QID (disk DEV) as a user makes them under udev, which locks the
# tray: eject (forced, which unlocks), then insert.  A result NAME each:
# DEV's media change uevent came within 5 s (with its latency).
user_swaps()
{
	local i base ms
	for i in 1 2 3; do
		base=$(count_events "$2" media_change)
		host eject "$1" force >/dev/null
		udevadm settle
		host change "$1" "$3-$i" >/dev/null
		ms=$(wait_events "$2" media_change $((base + 1)) 5)
		tap $? "$4 swap $i (${ms:-timeout} ms)"
		udevadm settle
	done
}

# now_ms: ms since boot, read by the shell itself (no fork).
now_ms()
{
	local up rest
	read -r up rest < /proc/uptime
	# Two decimals, maybe with a leading 0, which $(( )) would read
	# as octal: "1" in front keeps them decimal.
	echo $((${up%.*} * 1000 + 1${up#*.} * 10 - 1000))
}

# ack DEV: open DEV, as udev does after an event, which clears what is
# pending.  The open may fail (no medium); that clears it too.
ack()
{
	dd if="/dev/$1" of=/dev/null count=0 2>/dev/null
	return 0
}

# leak_scan: the final kmemleak scan, as a result, on kernels that have
# kmemleak; its findings go to the console, where the host's splat check
# sees them.  6.12 keeps no scan count, so the proof that it scanned is
# the write itself: kmemleak scans within it, and fails it (EPERM) once
# disabled.  Two scans, as kmemleak reports an object only when a
# second scan still finds it unreferenced.
leak_scan()
{
	local f=/sys/kernel/debug/kmemleak t0 ok=0
	[ -e $f ] || return 0
	t0=$(now_ms)
	{ echo scan > $f && echo scan > $f; } 2>/dev/null || ok=1
	tap $ok "kmemleak: final scan ran ($(($(now_ms) - t0)) ms for two scans)"
	cat $f
}

# start_udevd: Debian's systemd-udevd, for the uevents from now on only.
start_udevd()
{
	mkdir -p /run/udev
	/lib/systemd/systemd-udevd --daemon --resolve-names=never 2>/dev/null
}

# start_udev: Debian's systemd-udevd with its stock rules, as a system
# runs it; it opens disks on change events (acknowledging them), locks
# CD trays and ejects them on DISK_EJECT_REQUEST.
start_udev()
{
	start_udevd
	udevadm trigger --type=subsystems --action=add
	udevadm trigger --type=devices --action=add
	udevadm settle --timeout=60
}

GESN=74		# GET EVENT STATUS NOTIFICATION, one per idle poll

# polls_in ID SECS: GESN commands drive ID received in SECS seconds.
polls_in()
{
	host scsi-mark >/dev/null
	sleep "$2"
	host scsi-count "$1" $GESN
}

WINDOW=10	# s, for polls()

# polls ID...: "MS N..." for a window of about $WINDOW s: its length in
# ms, timed by the host, and the GESN commands each drive received in it.
# Starts a second after the last interval write, which itself checks at
# once.
polls()
{
	sleep 1
	host scsi-mark >/dev/null
	sleep $WINDOW
	host scsi-counts $GESN "$@"
}

# rate_within N MS MSECS SLACK: N polls in a window of MS ms come every
# MSECS (0: none at all), to within one poll, with each period up to
# SLACK percent longer.
rate_within()
{
	local late=$(($3 * (100 + $4) / 100))

	[ "$3" -eq 0 ] && { [ "$1" -eq 0 ]; return; }
	[ $(($1 * late)) -ge $(($2 - late)) ] && [ $(($1 * $3)) -le $(($2 + $3)) ]
}

# holding MODE DEV: start "hold" (guest/src/hold.c), wait until it has
# the device open.
holding()
{
	hold "/dev/$2" "$1" > /tmp/hold.out &
	HOLDER=$!
	while ! grep -q held /tmp/hold.out; do
		kill -0 $HOLDER 2>/dev/null || return 1
		sleep 0.1
	done
}

release() { kill $HOLDER; wait $HOLDER 2>/dev/null; }

# disk_stat DEV KEY: KEY's value in DEV's debugfs statistics of the
# disk events core (ours only); empty if there is none.
disk_stat()
{
	awk -v k="$2:" '$1 == k { $1 = ""; sub(/^ /, ""); print }' \
		"/sys/kernel/debug/block/$1/disk_events" 2>/dev/null
}

# trace_events EVENT...: record EVENTs only, from now on, in an empty
# trace.
trace_events()
{
	echo 0 > $TRACING/tracing_on
	# Under TCG the default clock can tick in jiffies; mono does not.
	echo mono > $TRACING/trace_clock
	echo > $TRACING/trace
	echo "$*" > $TRACING/set_event
	echo 1 > $TRACING/tracing_on
}

# trace_start: record timer expiries and the workqueue's disk events
# work, from now on.
trace_start()
{
	echo 0 > $TRACING/tracing_on
	echo 4096 > $TRACING/buffer_size_kb
	trace_events timer:timer_expire_entry workqueue:workqueue_queue_work \
		workqueue:workqueue_execute_start workqueue:workqueue_execute_end \
		sched:sched_switch
	TRACE_T0=$(now_ms)
}

# trace_figures: stop tracing and print, from the trace, "wakeups N"
# (distinct timer wheel buckets from which a timer queued disk events
# work: a disk's check, or our core's tick that queues them), "checks N"
# (disk events work items run), "work_ns N" (their total time, start to
# end, waits for the drive included) and "cpu_ns N" (the part of it
# their workers spent on a CPU, from the scheduler's switches), and
# "window_ms N" (how long it traced).
trace_figures()
{
	echo 0 > $TRACING/tracing_on
	echo "window_ms $(($(now_ms) - TRACE_T0))"
	awk '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/)
				cpu = $i
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				ts = substr($i, 1, length($i) - 1)
	}
	# Key a timer by the wheel bucket it expired from (baseclk), not
	# by the jiffies it ran at (now): timers of one bucket run one by
	# one, and under TCG a tick can land between them.
	/timer_expire_entry:/ && /function=delayed_work_timer_fn/ {
		match($0, /baseclk=[0-9]+/)
		expiry[cpu] = substr($0, RSTART + 8, RLENGTH - 8)
		next
	}
	/workqueue_queue_work:/ && /function=disk_events_(workfn|tick_fn)/ {
		if (expiry[cpu] != "")
			wake[expiry[cpu]] = 1
	}
	# A work item runs start to end on one worker, named by $1
	# (comm-pid); pointers may print hashed alike, so they are no key.
	/workqueue_execute_start:/ && /disk_events_workfn/ {
		begun[$1] = ts
		oncpu[$1] = ts
	}
	/workqueue_execute_end:/ && /disk_events_workfn/ {
		if ($1 in begun) {
			checks++
			ns += (ts - begun[$1]) * 1e9
			cpu_ns += (ts - oncpu[$1]) * 1e9
			delete begun[$1]
		}
	}
	/sched_switch:/ {
		match($0, /prev_comm=[^ ]* prev_pid=[0-9]+/)
		split(substr($0, RSTART, RLENGTH), p, /[ =]/)
		prev = p[2] "-" p[4]
		match($0, /next_comm=[^ ]* next_pid=[0-9]+/)
		split(substr($0, RSTART, RLENGTH), q, /[ =]/)
		next_task = q[2] "-" q[4]
		if (prev in begun)
			cpu_ns += (ts - oncpu[prev]) * 1e9
		if (next_task in begun)
			oncpu[next_task] = ts
	}
	{ expiry[cpu] = "" }
	END {
		n = 0
		for (k in wake)
			n++
		printf "wakeups %d\nchecks %d\nwork_ns %.0f\ncpu_ns %.0f\n", n, checks, ns, cpu_ns
	}' $TRACING/trace
}

# kworkers: how many kworker threads exist.
kworkers()
{
	local n=0 f c
	for f in /proc/[0-9]*/comm; do
		read -r c < "$f" 2>/dev/null || continue
		case $c in kworker*) n=$((n + 1)) ;; esac
	done
	echo $n
}

# drive_ids N: the QEMU ids of drive set benchN's drives, cd0 to cdN-1.
drive_ids()
{
	local i=0
	while [ $i -lt "$1" ]; do echo "cd$i"; i=$((i + 1)); done
}

# scan_virtio_scsi N: booted with scsi_mod.scan=manual, add virtio-scsi
# targets 0 to N-1, the drives of the scenario, and no others: probing
# the other 247 targets of the bus costs a boot about 10 s under TCG.
scan_virtio_scsi()
{
	local h t
	for h in /sys/class/scsi_host/*; do
		[ "$(cat "$h/proc_name")" = virtio_scsi ] || continue
		for t in $(seq 0 $(($1 - 1))); do
			echo "0 $t 0" > "$h/scan"
		done
	done
}

# wait_for_disk ID yes|no SECS: wait until devof ID finds a disk (yes) or
# not (no).
wait_for_disk()
{
	local i=0
	while [ $i -lt $(($3 * 10)) ]; do
		if devof "$1" >/dev/null; then
			[ "$2" = yes ] && return 0
		else
			[ "$2" = no ] && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# --- background load for the stress tests; stop_load ends all of it ---

LOADERS=""

# churn_opens: open every CD disk again and again, whatever disks come
# and go: as a reader, then as a burner (guest/src/churn.c).
churn_opens()
{
	churn 50 > /tmp/churn.out &
	LOADERS="$LOADERS $!"
}

# churn_intervals: write random intervals, -1 to 3 s, to every CD disk's
# events_poll_msecs and to the default; reset_intervals undoes it.
churn_intervals()
{
	(
		while :; do
			for f in /sys/block/sr*/events_poll_msecs; do
				echo $((RANDOM % 3001 - 1)) > "$f"
			done 2>/dev/null
			echo $((RANDOM % 3001)) > $DFL_POLL
			sleep 0.2
		done
	) &
	LOADERS="$LOADERS $!"
}

reset_intervals()
{
	echo 1000 > $DFL_POLL
	for f in /sys/block/*/events_poll_msecs; do
		echo -1 > "$f"
	done 2>/dev/null
}

# cpu_load N: N busy loops.
cpu_load()
{
	local i
	for i in $(seq "$1"); do
		( while :; do :; done ) &
		LOADERS="$LOADERS $!"
	done
}

# io_load DEV: direct reads and writes of disk DEV, and writes to tmpfs.
io_load()
{
	(
		while :; do
			dd if="/dev/$1" of=/dev/null bs=64k iflag=direct 2>/dev/null
			dd if=/dev/zero of="/dev/$1" bs=64k count=4 oflag=direct 2>/dev/null
			dd if=/dev/zero of=/tmp/io-load bs=64k count=64 2>/dev/null
		done
	) &
	LOADERS="$LOADERS $!"
}

stop_load()
{
	kill $LOADERS 2>/dev/null
	wait $LOADERS 2>/dev/null
	LOADERS=""
	rm -f /tmp/io-load
}

# label DEV: the first line of the medium in DEV (the harness writes its
# name there).
label() { dd if="/dev/$1" bs=2048 count=1 2>/dev/null | head -n 1; }
