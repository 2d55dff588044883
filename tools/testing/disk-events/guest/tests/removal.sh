# SPDX-License-Identifier: GPL-2.0
#
# Surprise removal amid udev's churn (issue 13).  $dremovals cycles
# (default 50) for each of the USB card reader usb0 and the virtio-scsi
# CD drive cd1, polled every 100 ms with real udevd opening and probing
# them on every change.  A cycle: the host changes the drive's medium
# and 0 to 290 ms later, a different delay each cycle so that removals
# land before, during and after udev's probe, removes the device
# (device_del); once the disk's "remove" uevent came, it plugs the
# device in again.  After a disk's "remove" uevent no uevent may name it,
# and after del_gendisk() stopped its events no ->check_events() may run
# for it, until it is added again.  The uevents come from diskevents
# watch; the checks from kprobes on the drivers' callbacks
# (sd_check_events, sr_block_check_events), the ends from one on
# blk_unregister_queue(), which del_gendisk() calls after it stopped the
# disk's events, and the starts from one on device_add_disk().  The
# kprobes record the disk's name: struct gendisk begins with three ints
# and disk_name.  Boot with block.events_dfl_poll_msecs=100.

removals=${dremovals:-50}
KPROBES=$TRACING/kprobe_events

# probe NAME SYMBOL REG: a kprobe event NAME on SYMBOL recording the name
# of the struct gendisk that register REG points to.
probe() { echo "p:$1 $2 disk=+12($3):string" >> $KPROBES; }

# cycle QID I PLUG: change QID's medium, remove QID (I picks the delay),
# wait for its disk's remove uevent, plug it in again with PLUG and wait
# for its disk (which may get another name).
cycle()
{
	local d removed t0 t1
	d=$(devof "$1") || return 1
	removed=$(count_events "$d" remove)
	t0=$(now_ms)
	host change "$1" "$1-$2" >/dev/null
	host later $(($2 * 37 % 30 * 10)) unplug "$1" >/dev/null
	wait_events "$d" remove $((removed + 1)) 20 >/dev/null || return 1
	t1=$(now_ms)
	host "$3" "$1" >/dev/null && wait_for_disk "$1" yes 20
	diag "removal: $1 cycle $2: removed $((t1 - t0)) ms after the change," \
		"back $(($(now_ms) - t1)) ms later"
}

# after_removal: how many uevents in $EVENTS_LOG name a disk after its
# "remove" and before its next "add".
after_removal()
{
	awk '$3 == "remove" { gone[$2] = 1; next }
	     $3 == "add" { gone[$2] = 0; next }
	     gone[$2] { n++ } END { print n + 0 }' $EVENTS_LOG
}

# checks_after_end DRIVER: lines of the trace where DRIVER's
# check_events ran for a disk after blk_unregister_queue() and before
# device_add_disk(); and how many of its checks the trace has in all.
checks_after_end()
{
	awk -v chk="de_chk_$1:" '
	     { if (!match($0, /disk="[^"]*"/)) next
	       d = substr($0, RSTART + 6, RLENGTH - 7) }
	     $0 ~ / de_gone:/ { gone[d] = 1 }
	     $0 ~ / de_added:/ { gone[d] = 0 }
	     index($0, " " chk) { all++; if (gone[d]) n++ }
	     END { print n + 0, all + 0 }' $TRACING/trace
}

watch_events
start_udev
echo 0 > $TRACING/tracing_on
echo mono > $TRACING/trace_clock
echo 8192 > $TRACING/buffer_size_kb
echo > $TRACING/trace
probe de_chk_sd sd_check_events %di &&
	probe de_chk_sr sr_block_check_events %di &&
	probe de_gone blk_unregister_queue %di &&
	probe de_added device_add_disk %si &&
	echo 1 > $TRACING/events/kprobes/enable &&
	echo 1 > $TRACING/tracing_on
tap $? "removal: kprobes on check_events, blk_unregister_queue and device_add_disk"

for qid in usb0 cd1; do
	plug=plug
	[ "$qid" = usb0 ] && plug=plug-usb
	done_n=0
	for i in $(seq "$removals"); do
		cycle $qid "$i" $plug && done_n=$((done_n + 1))
	done
	check "removal: $qid changed, removed amid udev's probe, back: $done_n of $removals" -- \
		test "$done_n" -eq "$removals"
done
udevadm settle
echo 0 > $TRACING/tracing_on
n=$(after_removal)
check "removal: no uevent named a disk after its remove uevent ($n did)" -- test "$n" -eq 0
for drv in sd sr; do
	set -- $(checks_after_end $drv)
	check "removal: no $drv check_events once del_gendisk stopped it ($1 of $2)" -- \
		test "$1" -eq 0 -a "$2" -gt 0
done
echo 0 > $TRACING/events/kprobes/enable
echo > $KPROBES
kill $WATCHER
