#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-root.sh: Debian 12's user space for the distro scenarios, made
# by mmdebstrap from Debian's packages (bookworm with its updates and
# security), as a tar archive.  Cached in $BUILD/distro, keyed by the
# package list and this script, so a second run reuses it.  Prints the
# archive's path.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

# What a Debian system with a desktop's disk handling runs: systemd as
# PID 1 and its udev, the D-Bus system bus, udisks2 with polkit, and
# the tools the tests use.
packages=(
	systemd-sysv udev dbus udisks2 polkitd
	util-linux eject kmod procps
)

key=$(printf '%s\n' "${packages[@]}" | cat - "$0" | sha256sum | cut -c1-16)
out=$BUILD/distro/root-$key.tar
if [ ! -f "$out" ]; then
	mkdir -p "$BUILD/distro"
	rm -f "$BUILD"/distro/root-*.tar
	t0=$SECONDS
	mmdebstrap --quiet --variant=minbase --format=tar \
		--include="$(IFS=,; echo "${packages[*]}")" \
		bookworm "$out.new" >&2
	mv "$out.new" "$out"
	echo "distro-root: built in $((SECONDS - t0)) s, $(du -m "$out" | cut -f1) MiB" >&2
fi
echo "$out"
