# SPDX-License-Identifier: GPL-2.0
#
# Debian 12 on a distribution-shaped kernel (issue 14): systemd as PID 1
# has started udev with its stock rules, D-Bus and udisks2; the drivers
# of the drives are modules (drive set "distro": a CD drive on
# virtio-scsi, one behind AHCI, a USB card reader).  Boot 1: polling is
# on the way distributions turn it on; udisks2 sees every change of
# medium, timed from the request to the kernel's uevent and to udisks2's
# D-Bus signal; a user mounts a disc, reads it, unmounts it; the eject
# button on a locked tray; the drivers' modules go and come back,
# $CYCLES times each, under 100 ms polling; then "systemctl reboot".
# Boot 2 finds polling on again, and distro-run ends it with "systemctl
# poweroff".

DISTRO_DRIVES="cd0 ahci0 usb0"
UDISKS_LOG=/tmp/udisks.log
UD=/org/freedesktop/UDisks2

DISTRO_MODULES="cdrom sr_mod sd_mod virtio_scsi ahci xhci_pci usb_storage"
# Times each module goes and comes back: dcycles= on the command line,
# or 20.
CYCLES=${dcycles:-20}

# loaded MODULE...: each MODULE is a module, loaded and, within 60 s,
# live (a driver built in has no initstate; virtio_scsi stays "coming"
# while it scans its bus).
loaded()
{
	local m s i bad=0
	for m; do
		for i in $(seq 600); do
			s=
			read -r s 2>/dev/null < /sys/module/$m/initstate
			[ "$s" = coming ] || break
			sleep 0.1
		done
		[ "$s" = live ] || { diag "module $m: ${s:-no initstate}"; bad=1; }
	done
	return $bad
}

# driver_of ID: the module of the driver of drive ID's disk.
driver_of()
{
	local d
	d=$(devof "$1") && basename "$(readlink -f "/sys/block/$d/device/driver/module")"
}

# disk_driver_of ID: the module that drives ID's kind of disk.
disk_driver_of() { case $1 in usb*) echo sd_mod ;; *) echo sr_mod ;; esac; }

# ud_prop DEV INTERFACE PROPERTY: a property of DEV's udisks2 block
# object (INTERFACE Block) or of its drive (Drive), as busctl prints it:
# 's "iso9660"', 't 374784', 'b true'.
ud_prop()
{
	local obj=$UD/block_devices/$1
	if [ "$2" = Drive ]; then
		obj=$(busctl get-property org.freedesktop.UDisks2 "$obj" \
			org.freedesktop.UDisks2.Block Drive) || return 1
		obj=${obj#o \"}
		obj=${obj%\"}
	fi
	busctl get-property org.freedesktop.UDisks2 "$obj" "org.freedesktop.UDisks2.$2" "$3"
}

# udisks_monitor: log udisks2's D-Bus signals, each stamped by
# udisksctl with the time it got it, from now on.
udisks_monitor()
{
	stdbuf -oL udisksctl monitor > $UDISKS_LOG 2>&1 &
	UDISKS_MONITOR=$!
	until grep -q Monitoring $UDISKS_LOG; do
		kill -0 $UDISKS_MONITOR 2>/dev/null || return 1
		sleep 0.1
	done
}

# ms_of_day HH:MM:SS.mmm: that time of day in ms.
ms_of_day()
{
	echo "$1" | awk -F '[:.]' '{ printf "%d", (($1 * 60 + $2) * 60 + $3) * 1000 + $4 }'
}

# signalled DEV PROPERTY VALUE FROM: the time of day (HH:MM:SS.mmm) of
# the first signal in lines FROM on of the monitor's log that changed
# DEV's block object's PROPERTY to VALUE; nothing if none did.
signalled()
{
	awk -v obj="$UD/block_devices/$1:" -v prop="$2:" -v val="$3" -v from="$4" '
	NR < from { next }
	/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+: / {
		t = substr($1, 1, length($1) - 1)
		ours = $2 == obj
		next
	}
	ours && $1 == prop && $2 == val { print t; exit }' $UDISKS_LOG
}

# udisks_sees ID MEDIUM PROPERTY VALUE: change drive ID's medium to
# MEDIUM, or with MEDIUM "-" press its eject button (on a tray that
# udev locked, a request that udev's rule carries out), and wait up to
# 20 s for udisks2's signal that PROPERTY of ID's block device is now
# VALUE.  Prints the ms from just before the request to the signal, and
# to the disk's first uevent of disk events after it (the kernel's part;
# "-" if the watcher saw none).
udisks_sees()
{
	local d t0 t1 from start kernel
	d=$(devof "$1") || return 1
	from=$(($(wc -l < $UDISKS_LOG) + 1))
	t0=$(date +%T.%3N)
	start=$(now_ms)
	if [ "$2" = - ]; then
		host eject "$1" >/dev/null	# "err ... is locked" is a press too
	elif ! host change "$1" "$2" >/dev/null; then
		return 1
	fi
	until t1=$(signalled "$d" "$3" "$4" $from) && [ -n "$t1" ]; do
		if [ $(($(now_ms) - start)) -gt 20000 ]; then
			tail -n 40 $UDISKS_LOG | sed 's/^/# udisks: /' >&2
			return 1
		fi
		sleep 0.05
	done
	kernel=$(awk -v d="$d" -v t="$start" '$2 == d && $1 * 1000 >= t {
		printf "%d", $1 * 1000 - t; exit }' $EVENTS_LOG)
	echo $((($(ms_of_day "$t1") - $(ms_of_day "$t0") + 86400000) % 86400000)) \
		"${kernel:--}"
}

# seen ID MEDIUM PROPERTY VALUE: udisks_sees, its times added to $TIMES
# and $KERNEL_TIMES.
seen()
{
	local times
	times=$(udisks_sees "$@") || return 1
	set -- $times
	TIMES="$TIMES $1"
	KERNEL_TIMES="$KERNEL_TIMES $2"
}

# udisks_has ID MEDIUM: udisks2 shows MEDIUM in ID, whole: the drive
# has media, and the block device its size, ISO 9660 and its label.
udisks_has()
{
	local d size
	d=$(devof "$1") && size=$(host medium-size "$2" "$1") || return 1
	[ "$(ud_prop "$d" Drive MediaAvailable)" = "b true" ] &&
		[ "$(ud_prop "$d" Block Size)" = "t $size" ] &&
		[ "$(ud_prop "$d" Block IdType)" = 's "iso9660"' ] &&
		[ "$(ud_prop "$d" Block IdLabel)" = "s \"$2\"" ] && return 0
	diag "udisks2 on $d: $(ud_prop "$d" Drive MediaAvailable)," \
		"$(ud_prop "$d" Block Size), $(ud_prop "$d" Block IdType)," \
		"$(ud_prop "$d" Block IdLabel); $2 has $size bytes" >&2
	return 1
}

# median N...: the median of the numbers.
median()
{
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# maximum N...: the largest of the numbers.
maximum() { printf '%s\n' "$@" | sort -n | tail -n 1; }

# udisks_follows: every drive's medium in, out (the eject button) and
# in again; udisks2 signals each change and then shows the medium whole.
# The times from the QMP request to the kernel's uevent are told apart
# from the whole, which user space (udev's rules, udisks2's probes) adds
# to.
udisks_follows()
{
	local id ok kernel
	TIMES="" KERNEL_TIMES=""
	for id in $DISTRO_DRIVES; do
		ok=0
		seen $id iso-$id-1 IdType iso9660 || ok=1
		udisks_has $id iso-$id-1 || ok=1
		seen $id - Size 0 || ok=1
		seen $id iso-$id-2 IdType iso9660 || ok=1
		udisks_has $id iso-$id-2 || ok=1
		tap $ok "distro: udisks2 signals $id's medium in, out, in, and shows it whole"
	done
	diag "QMP to the uevent, ms:$KERNEL_TIMES"
	kernel=$(echo $KERNEL_TIMES | tr ' ' '\n' | grep -v -- -)
	set -- $TIMES
	diag "QMP to udisks2 signal, ms: $*"
	tap $(($# != 9)) "distro: udisks2 signalled all 9 changes" \
		"(median $(median "$@") ms, max $(maximum "$@") ms; to the" \
		"uevent: median $(median $kernel) ms, max $(maximum $kernel) ms)"
}

# user_mounts ID MEDIUM: as a user does: mount the disc with udisksctl,
# read its file, unmount it.
user_mounts()
{
	local d dir
	d=$(devof "$1") || return 1
	dir=$(udisksctl mount -b "/dev/$d" | sed -n 's/^Mounted .* at \(.*\)$/\1/p')
	[ -n "$dir" ] && [ "$(cat "$dir/medium.txt")" = "disk-events medium $2" ] &&
		udisksctl unmount -b "/dev/$d" >/dev/null && ! grep -q " $dir " /proc/mounts
}

# eject_locked ID: press eject on ID's tray, which udev locked: its
# rule sees DISK_EJECT_REQUEST and opens it; udisks2 finds no medium.
eject_locked()
{
	local d reply
	d=$(devof "$1") || return 1
	[ "$(host tray "$1")" = "closed locked" ] || return 1
	reply=$(host eject "$1")
	case $reply in *locked*) ;; *) return 1 ;; esac
	host wait-tray "$1" open 10 >/dev/null || return 1
	for _ in $(seq 100); do
		[ "$(ud_prop "$d" Drive MediaAvailable)" = "b false" ] && return 0
		sleep 0.1
	done
	return 1
}

# unload MODULE: modprobe -r MODULE, once udev is done with its drives
# (its workers open them for a moment); retried for up to 10 s.
unload()
{
	local i
	for i in $(seq 50); do
		udevadm settle
		modprobe -r "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	modprobe -r "$1"
}

# cycle_medium ID I: the medium that cycle I swaps into drive ID; two
# in turn, so that every swap is a change.
cycle_medium() { echo "iso-$1-$(($2 % 2 + 3))"; }

# reported I ID...: swap each drive ID's medium for cycle I's, all at
# once, as user_swaps does (a forced eject, which a tray that udev
# locked needs, then the insert); each disk's DISK_MEDIA_CHANGE uevent
# comes within 5 s.  The disks have just come back: each is opened
# first, as udev did on its arrival, so that nothing of that is pending
# when the change comes, nor counted for it.  Returns how many failed.
reported()
{
	local i=$1 id d base swapped= bad=0
	shift
	udevadm settle
	for id; do
		d=$(devof "$id") && ack "$d" &&
			base=$(count_events "$d" media_change) &&
			host eject "$id" force >/dev/null &&
			host change "$id" "$(cycle_medium "$id" "$i")" >/dev/null &&
			swapped="$swapped $id:$d:$base" && continue
		bad=$((bad + 1))
		diag "$id: not swapped"
	done
	for id in $swapped; do
		set -- ${id//:/ }
		wait_events "$2" media_change $(($3 + 1)) 5 >/dev/null && continue
		bad=$((bad + 1))
		diag "$1 ($2): change not reported:" \
			"$(grep " $2 " $EVENTS_LOG | tail -n 3 | tr '\n' ';')"
	done
	return $bad
}

# module_cycles MODULE ID...: MODULE out and in again, $CYCLES times;
# each time drives ID go and come back, and report the next change
# (found by polling: QEMU's drives have no other way to say it).
module_cycles()
{
	local mod=$1 i id back bad=0 t0
	shift
	t0=$(now_ms)
	# No count, no cycle: that must not pass as 0 failures.
	[ "$CYCLES" -ge 1 ] 2>/dev/null || { bad=1; diag "dcycles=$CYCLES: not a count"; }
	for i in $(seq $CYCLES); do
		diag "$mod: cycle $i"
		unload $mod || { bad=$((bad + 1)); diag "$mod $i: not unloaded"; continue; }
		for id; do
			wait_for_disk $id no 10 || { bad=$((bad + 1)); diag "$mod $i: $id stayed"; }
		done
		modprobe $mod || { bad=$((bad + 1)); diag "$mod $i: not loaded"; continue; }
		back=
		for id; do
			wait_for_disk $id yes 30 && back="$back $id" && continue
			bad=$((bad + 1))
			diag "$mod $i: $id did not come back"
		done
		reported $i $back || bad=$((bad + $?))
	done
	tap $bad "distro: $mod out and in $CYCLES times: $* came back and" \
		"reported the next change ($bad failures, $((($(now_ms) - t0) / 1000)) s)"
}

# polled ID: drive ID's disk is polled, device side: GET EVENT STATUS
# NOTIFICATION commands reach it in 2 s.
polled() { [ "$(polls_in "$1" 2)" -gt 0 ]; }

set -- $(host reboot-cycle)
boot=$1 TAP_N=$2 TAP_PASSED=$3 TAP_FAILED=$4 TAP_SKIPPED=$5
if [ "$boot" -eq 1 ]; then
	check "distro: the block module has a uevent file (CONFIG_MODULES)" -- \
		test -e /sys/module/block/uevent
	test "$(cat $DFL_POLL)" = 2000
	tap $? "distro: polling on after boot: events_dfl_poll_msecs" \
		"$(cat $DFL_POLL), set by udev's 60-block.rules"
	check "distro: drivers loaded as modules: $DISTRO_MODULES" -- loaded $DISTRO_MODULES
	for id in $DISTRO_DRIVES; do
		d=$(devof $id)
		check "distro: $id's disk ${d:-not found}, driven by $(driver_of $id)" -- \
			test "$(driver_of $id)" = "$(disk_driver_of $id)"
	done
	udisks_monitor
	tap $? "distro: udisksctl monitor listening"
	watch_events
	udisks_follows
	check "distro: udisksctl mounts cd0's disc, reads its file, unmounts it" -- \
		user_mounts cd0 iso-cd0-2
	for id in cd0 ahci0; do
		eject_locked $id
		tap $? "distro: eject pressed on $id's locked tray: udev opens it," \
			"udisks2 finds no medium"
	done
	echo 100 > $DFL_POLL
	module_cycles sr_mod cd0 ahci0
	module_cycles virtio_scsi cd0
	module_cycles usb_storage usb0
	check "distro: cd0 polled after the cycles" -- polled cd0
	for id in $DISTRO_DRIVES; do
		check "distro: udisks2 shows $id's medium after the cycles" -- \
			udisks_has $id "$(cycle_medium $id $CYCLES)"
	done
	kill $WATCHER $UDISKS_MONITOR
	leak_scan
	host keep $TAP_N $TAP_PASSED $TAP_FAILED $TAP_SKIPPED >/dev/null
	host reboots reset >/dev/null
	host deadline 300 >/dev/null
	systemctl reboot
	sleep 300
fi
host reboots shutdown >/dev/null
tap 0 "distro: systemctl reboot with polling active came back"
check "distro: polling on again after the reboot ($(cat $DFL_POLL) ms)" -- \
	test "$(cat $DFL_POLL)" = 2000
check "distro: cd0 polled after the reboot" -- polled cd0
