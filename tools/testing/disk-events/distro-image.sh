#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-image.sh TREE: the root disk of the distro scenarios, an ext4
# image in $BUILD/distro/TREE.img: Debian 12 (distro-root.sh), TREE's
# distro kernel's modules, our guest programs and tests, and the systemd
# unit that runs them once the system is up (guest/distro/).  The guest
# boots it with snapshot=on, so every boot starts from the same disk.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$1
modules=$OBJ/$tree-distro.modules
[ -d "$modules/lib/modules" ] || die "no modules in $modules: build.sh $tree distro first"
tar=$("$HARNESS/distro-root.sh")
root=$BUILD/distro/$tree-root
img=$BUILD/distro/$tree.img

rm -rf "$root"
mkdir -p "$root"
tar -xf "$tar" -C "$root"
# bookworm's /lib is a link to usr/lib.
cp -a "$modules/lib/modules" "$root/usr/lib/"
guest_files "$root"
install -m 755 "$HARNESS/guest/distro/distro-run" "$root/lib/disk-events/"
cp "$HARNESS/guest/distro/disk-events.service" "$root/etc/systemd/system/"
ln -s ../disk-events.service "$root/etc/systemd/system/multi-user.target.wants/"
echo disk-events > "$root/etc/hostname"
echo "/dev/vda / ext4 rw 0 1" > "$root/etc/fstab"
passwd -R "$root" -d root >/dev/null

rm -f "$img.new"
truncate -s 2G "$img.new"
mkfs.ext4 -q -L root -d "$root" "$img.new"
mv "$img.new" "$img"
rm -rf "$root"
echo "$img"
