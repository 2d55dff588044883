#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT.cpio: the guest's initramfs.  Debian's busybox-static,
# Debian's systemd-udevd 252 and kexec-tools' kexec with their
# libraries, udev's stock rules, our static guest programs, and the guest
# test scripts.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$1
root=$BUILD/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,lib/udev/rules.d,lib/systemd}
mkdir -p "$root"/usr/bin

cp /bin/busybox "$root/bin/busybox"
install -m 755 "$HARNESS/guest/init" "$root/init"
guest_files "$root"

cp /sbin/kexec "$root/sbin/"

# udev: the binaries, the libraries ldd names, and the stock rules.
cp /bin/udevadm "$root/bin/"
ln -s /bin/udevadm "$root/lib/systemd/systemd-udevd"
cp /lib/udev/cdrom_id /lib/udev/scsi_id /lib/udev/ata_id "$root/lib/udev/"
for r in 50-udev-default 60-block 60-cdrom_id 60-persistent-storage; do
	cp "/lib/udev/rules.d/$r.rules" "$root/lib/udev/rules.d/"
done
for bin in /bin/udevadm /lib/udev/cdrom_id /lib/udev/scsi_id /lib/udev/ata_id \
	/sbin/kexec; do
	libs=$(ldd "$bin")
	! grep 'not found' <<< "$libs" >&2 || die "$bin: libraries missing"
	grep -o '/[^ ]*' <<< "$libs"
done | sort -u | while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' \
	> "$root/etc/passwd"
for g in root:0 nogroup:65534 disk:6 cdrom:24 floppy:25 tape:26 audio:29 video:44 kvm:104; do
	echo "${g%%:*}:x:${g#*:}:"
done > "$root/etc/group"

# Whole or not at all: a guest that starts meanwhile reads the old one.
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.new"
mv "$out.new" "$out"
