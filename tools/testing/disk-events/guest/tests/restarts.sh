# SPDX-License-Identifier: GPL-2.0
#
# Restarts with polling active (issue 13).  $drestarts restarts in a row
# (default 30), by "reboot -f" (drestart=reboot, the default) or by kexec
# into the same kernel and initramfs (drestart=kexec), of a guest whose
# CD drives (8 on virtio-scsi, 2 ATAPI: drive set "shutdown") are polled
# every 20 ms under reads, with real udevd running (from boot on, without
# replaying the boot's uevents: under TCG that coldplug takes some 100 s
# with ten drives polled every 20 ms, while udevd's handling of the
# media change races the restart all the same).  Polling starts once
# the boot is set up (a second before the restart): under TCG, ten
# drives polled every 20 ms from the start slow every boot by seconds.
# Odd restarts come right after a media change, even ones while a burner
# holds a drive.  Each boot reports that the restart before it came
# back.  A restart that hangs sends nothing for 60 s, and the host ends
# the run there ("deadline"): the rest of the results fail as never
# sent.  Hung tasks and splats fail the console check.  Boot with
# scsi_mod.scan=manual, each boot adding its nine virtio-scsi targets
# itself, and retain_initrd, so that kexec finds the initramfs in
# /sys/firmware/initrd.

how=${drestart:-reboot}
restarts=${drestarts:-30}

# moment N: what restart N interrupts.
moment()
{
	if [ $(($1 % 2)) = 1 ]; then echo "right after a media change"
	else echo "while a burner holds a drive"; fi
}

# kexec_load: load the kernel of the kexec0 disk's archive and this
# boot's initramfs, with this boot's command line.
kexec_load()
{
	wait_for_disk kexec0 yes 20 && mkdir -p /tmp/kexec &&
		tar -xf "/dev/$(devof kexec0)" -C /tmp/kexec &&
		kexec -l /tmp/kexec/bzImage --initrd=/sys/firmware/initrd \
			--command-line="$(cat /proc/cmdline)"
}

scan_virtio_scsi 9
set -- $(host reboot-cycle)
boot=$1 TAP_N=$2 TAP_PASSED=$3 TAP_FAILED=$4 TAP_SKIPPED=$5
[ "$boot" -gt 1 ] &&
	tap 0 "restarts: $how $((boot - 1)) of $restarts, $(moment $((boot - 1))), came back"
if [ "$boot" -le "$restarts" ]; then
	host reboots reset >/dev/null
	if [ "$how" = kexec ]; then
		kexec_load || tap 1 "restarts: kexec $boot of $restarts loaded"
	fi
	start_udevd
	echo 20 > $DFL_POLL
	io_load "$(devof cd0)"
	io_load "$(devof cd1)"
	sleep 1
	if [ $((boot % 2)) = 1 ]; then
		host change cd2 "restart-$boot" >/dev/null
	else
		holding burn "$(devof cd7)"
	fi
	host keep $TAP_N $TAP_PASSED $TAP_FAILED $TAP_SKIPPED >/dev/null
	host deadline 60 >/dev/null
	if [ "$how" = kexec ]; then kexec -e; else reboot -f; fi
	sleep 60
fi
host reboots shutdown >/dev/null
