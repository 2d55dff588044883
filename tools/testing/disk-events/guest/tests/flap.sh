# SPDX-License-Identifier: GPL-2.0
#
# A flapping drive under real udev (issue 13).  The host changes cd0's
# medium every 500 ms for 60 s (a forced eject and an insert, so that
# udev's tray lock never makes an eject request of it), while Debian's
# systemd-udevd with its stock rules handles every uevent: each one makes
# udev open the disk, whose check finds the next change.  Figures, as
# TAP comments: cd0's uevents (DISK_MEDIA_CHANGE, and all change
# uevents), opens of sr (a kprobe on sr_block_open), checks (GET EVENT
# STATUS NOTIFICATION commands, device side) and the CPU time of udevd
# and its workers (/proc).  Then, once the drive is quiet, a user's swaps
# are reported as before.  Boot with block.events_dfl_poll_msecs=2000.

FLAP_MS=500
FLAP_S=60
KPROBES=$TRACING/kprobe_events

# udev_cpu_ms: CPU time of systemd-udevd and its workers so far, theirs
# and their children's (a worker's exit adds its own to udevd's).
udev_cpu_ms()
{
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk '$2 ~ /udev/ { t += $14 + $15 + $16 + $17 } END { print t * 10 }'
}

# opens_so_far: calls of sr_block_open since the probe was set.
opens_so_far()
{
	awk '$1 == "flap_opens" { print $2 }' $TRACING/kprobe_profile
}

watch_events
start_udev
d=$(devof cd0)
echo 'p:flap_opens sr_block_open' >> $KPROBES &&
	echo 1 > $TRACING/events/kprobes/flap_opens/enable
tap $? "flap: a kprobe counts the opens of sr"

changes0=$(count_events "$d" media_change) all0=$(count_events "$d" change)
cpu0=$(udev_cpu_ms) opens0=$(opens_so_far)
host scsi-mark >/dev/null
n=$(host flap cd0 $FLAP_MS $FLAP_S)
tap $? "flap: the host changes cd0's medium every $FLAP_MS ms for $FLAP_S s ($n changes)"
sleep $((FLAP_S + 1))
set -- $(host scsi-counts $GESN cd0)
ms=$1 checks=$2
changes=$(($(count_events "$d" media_change) - changes0))
all=$(($(count_events "$d" change) - all0))
opens=$(($(opens_so_far) - opens0))
cpu=$(($(udev_cpu_ms) - cpu0))
diag "flap figures: $changes DISK_MEDIA_CHANGE uevents, $all change uevents," \
	"$opens opens, $checks checks, udevd ${cpu} ms CPU in $ms ms"
diag "flap figures: debugfs flapping=$(disk_stat "$d" flapping)" \
	"uevents_held=$(disk_stat "$d" uevents_held) damp_level=$(disk_stat "$d" damp_level)"

check "$(beyond "flap: the kernel log names $d as flapping")" -- \
	sh -c "dmesg | grep -q '$d: media changes keep coming'"
check "$(beyond "flap: debugfs counts $d found flapping")" -- \
	test "$(disk_stat "$d" flapping)" -ge 1
check "$(beyond "flap: $changes DISK_MEDIA_CHANGE uevents of $d, at most one per poll")" -- \
	test "$changes" -le $((ms / 2000))

# Quiet again: back to normal within two damped periods (2 x 16 s).
t0=$(now_ms)
while [ "$(disk_stat "$d" damp_level)" != 0 ] && [ -n "$(disk_stat "$d" damp_level)" ] &&
	[ $(($(now_ms) - t0)) -lt 40000 ]; do
	sleep 1
done
diag "flap: damping over after $(($(now_ms) - t0)) ms"
udevadm settle
user_swaps cd0 "$d" after "flap: a swap after the flapping reported:"
check "flap: the last medium is read as it is" -- \
	test "$(label "$d")" = "disk-events medium after-3"
echo 0 > $TRACING/events/kprobes/flap_opens/enable
echo '-:flap_opens' >> $KPROBES
kill $WATCHER
