#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: "make run".  Build the lean kernel of our core and boot it with
# a CD-ROM and a floppy, polled every 2000 ms; the guest's demo changes
# media, presses eject and prints the uevents as they arrive.  Fails
# unless the guest finished and every event it caused arrived (make
# check boots the same demo as its "demo" scenario).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$HARNESS/deps.sh"
"$HARNESS/assemble.sh"
"$HARNESS/build.sh" ours lean
"$HARNESS/mkinitramfs.sh" "$BUILD/guest.cpio"
echo "run: booting $(cat "$BUILD/base-version") with our core (TCG, about a minute)"
# The drives and command line of make check's "demo" scenario (e2e.py).
read -r drives extra < <(cd "$HARNESS" && python3 -c \
	'import e2e; _, d, x, *_ = e2e.SCENARIOS["demo"]; print(d, x)')
results=$BUILD/run/demo.tap
python3 "$HARNESS/vm.py" --echo --drives "$drives" --timeout 300 \
	--kernel "$OBJ/ours-lean/arch/x86/boot/bzImage" \
	--initrd "$BUILD/guest.cpio" --rundir "$BUILD/run/demo" \
	--log "$BUILD/run/demo.log" --results "$results" \
	--append "console=ttyS0 loglevel=5 panic=1 dtest=demo $extra"
! grep '^not ok' "$results" || die "the demo failed (not ok above)"
