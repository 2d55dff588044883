# SPDX-License-Identifier: GPL-2.0
#
# The diskevents tool: list, poll with its errors, watch with --json.
# Boot with block.events_dfl_poll_msecs=1000.

# status_is N COMMAND...: COMMAND exits with status N.
status_is()
{
	local want=$1
	shift
	"$@" >/tmp/tool.out 2>&1
	[ $? -eq "$want" ]
}

d=$(devof cd0)
check "tool: --help exits 0" -- status_is 0 diskevents --help
check "tool: --help names the commands" -- grep -q "watch \[--json\]" /tmp/tool.out
check "tool: an unknown command exits 2" -- status_is 2 diskevents frobnicate

diskevents list > /tmp/list.out
check "tool: list shows $d with its events" -- \
	grep -q "^$d  *media_change eject_request " /tmp/list.out
# At -1 only the core's statistics tell whether it polls a disk.
check "$(beyond "tool: list shows $d polled at the default")" -- \
	grep -q "^$d  *media_change eject_request  *1000 ms (default) " /tmp/list.out
check "$(beyond "tool: list shows loop0 as not polled: loop sends its events")" -- \
	grep -q "^loop0  *media_change  *not polled (driver sends its events) " /tmp/list.out
check "tool: list leaves out fd0 at -1: nothing shows it has events" -- \
	sh -c "! grep -q '^fd0' /tmp/list.out"
diskevents poll fd0 500
check "tool: list shows fd0 once it has its own interval" -- \
	sh -c "diskevents list | grep -q '^fd0  *-  *500 ms (own)'"
diskevents poll fd0 -1

for bad in abc -5 1e3 "" "12 "; do
	check "tool: poll refuses '$bad' with status 2" -- status_is 2 diskevents poll "$d" "$bad"
	check "tool: poll says why for '$bad'" -- grep -q "want milliseconds" /tmp/tool.out
done
check "tool: poll of a missing disk exits 1" -- status_is 1 diskevents poll nosuch 100
check "tool: poll of a missing disk names the file" -- grep -q "/sys/block/nosuch" /tmp/tool.out
check "tool: poll of a path exits 2" -- status_is 2 diskevents poll /dev/$d 100
check "tool: poll $d 700" -- status_is 0 diskevents poll "$d" 700
check "tool: sysfs has 700" -- test "$(cat /sys/block/$d/events_poll_msecs)" = 700
check "tool: list says 700 ms (own)" -- sh -c "diskevents list | grep -q '^$d .*700 ms (own)'"
diskevents poll "$d" -1

# PENDING and --stats come from the core's debugfs statistics.
ack "$d"
check "$(beyond "tool: list shows nothing pending on $d after an open")" -- \
	sh -c "diskevents list | grep -q '^$d .* none$'"
host change cd0 tool-pending >/dev/null
sleep 2
check "$(beyond "tool: list shows the unacknowledged media_change pending on $d")" -- \
	sh -c "diskevents list | grep -q '^$d .* media_change$'"
diskevents list --stats > /tmp/stats.out
check "$(beyond "tool: list --stats shows checks and uevents of $d")" -- \
	sh -c "grep -A12 '^$d ' /tmp/stats.out | grep -q '^    checks: [1-9]' &&
	       grep -A12 '^$d ' /tmp/stats.out | grep -q '^    uevents: [1-9]'"
check "tool: list --x exits 2" -- status_is 2 diskevents list --x

ack "$d"
diskevents watch --json --count 1 --timeout 10 > /tmp/watch.out 2>/tmp/watch1.err &
w=$!
check "tool: watch says when it is listening" -- listening /tmp/watch1.err $w
host change cd0 tool-disc >/dev/null
wait $w
check "tool: watch --json prints the change as JSON" -- \
	grep -q "^{\"time\":[0-9.]*,\"device\":\"$d\",\"action\":\"change\",$(
		)\"events\":\"media_change\",\"diskseq\":[0-9]*}$" /tmp/watch.out
check "tool: watch --timeout ends without events" -- \
	status_is 0 timeout 10 diskevents watch --timeout 1

# Without debugfs, list cannot tell whether the default applies.
umount -l /sys/kernel/debug
check "tool: list without debugfs shows $d's interval and pending as unknown" -- \
	sh -c "diskevents list |
	       grep -q '^$d  *media_change eject_request  *? (no statistics)  *?$'"
mount -t debugfs none /sys/kernel/debug
