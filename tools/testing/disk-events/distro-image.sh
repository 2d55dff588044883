#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-image.sh TREE: the root disk of the distro scenarios, an ext4
# image in $BUILD/distro/TREE.img: Debian 12 (distro-root.sh), TREE's
# distro kernel's modules, our guest programs and tests, and the systemd
# unit that runs them once the system is up (guest/distro/).  The guest
# boots it with snapshot=on, so every boot starts from the same disk.
# Cached, keyed by what goes into it (inputs_key): made again only when
# one of those changed.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$1
modules=$OBJ/$tree-distro.modules
[ -d "$modules/lib/modules" ] || die "no modules in $modules: build.sh $tree distro first"
tar=$("$HARNESS/distro-root.sh")
root=$BUILD/distro/$tree-root
img=$BUILD/distro/$tree.img

# inputs_key: a hash of the image's inputs: Debian's root (its archive's
# name holds its own key), the modules' files, the sources of our guest
# programs and tests, and this script with the helpers it uses.
inputs_key()
{
	{
		basename "$tar"
		(cd "$modules" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
		(cd "$TOP" && find tools/disk-events "${HARNESS#"$TOP"/}/guest" -type f |
			LC_ALL=C sort | xargs -d '\n' sha256sum)
		cat "$0" "$HARNESS/lib.sh"
	} | sha256sum | cut -c1-16
}

key=$(inputs_key)
if [ -f "$img" ] && [ "$(cat "$img.key" 2>/dev/null)" = "$key" ]; then
	echo "$img"
	exit 0
fi
rm -f "$img.key"
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
echo "$key" > "$img.key"
rm -rf "$root"
echo "$img"
