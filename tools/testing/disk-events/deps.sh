#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [PACKAGE...]: install the Debian packages the harness needs,
# and those named (a target's extras), if any is missing.  Runs as root
# on a fresh Debian 12 machine; a no-op when all are present.

set -euo pipefail

pkgs=(
	linux-source-6.12	# the base we build on
	build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
	lz4			# the guest kernels' compression (base.config)
	ccache sparse git
	qemu-system-x86		# the guest machine
	busybox-static udev	# guest user space
	kexec-tools		# the guest's kexec (not for the host's reboots)
	mmdebstrap e2fsprogs	# the distro guest: Debian 12 on an ext4 disk,
	kmod			# with the distro kernel's modules (depmod)
	genisoimage		# ISO 9660 media
	python3			# host driver, kunit.py
	python3-ply python3-git	# checkpatch.pl runs scripts/spdxcheck.py on patches
	"$@"
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# kexec-tools must not take over this machine's reboots.
echo "kexec-tools kexec-tools/load_kexec boolean false" | $sudo debconf-set-selections
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
