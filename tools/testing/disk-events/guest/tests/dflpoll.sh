# SPDX-License-Identifier: GPL-2.0
#
# Polling without a udev rule.  Boot the preempt kernel, built with
# CONFIG_BLK_EVENTS_DFL_POLL_MSECS=2000: no udev runs here and nothing
# writes an interval, yet the CD drives are polled every 2000 ms.
# Booted with block.events_dfl_poll_msecs=N, they are polled every N ms:
# the parameter overrides the built-in value, as a write at run time
# does.  Polls are counted on the device side (lib.sh: polls).  The base
# has no such option: the results that rest on the built-in value are
# TODO there, the overrides are not.

param=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^block\.events_dfl_poll_msecs=//p')
want=${param:-2000}
# built_in WHAT: WHAT, marked beyond mainline when it rests on the
# built-in value.
built_in() { if [ -n "$param" ]; then echo "$*"; else beyond "$*"; fi; }

from=${param:+"block.events_dfl_poll_msecs=$param"}
from=${from:-"the built-in default"}
ack "$(devof cd0)"; ack "$(devof cd1)"

check "$(built_in "dflpoll: events_dfl_poll_msecs reads $want from $from")" -- \
	test "$(cat $DFL_POLL)" = "$want"
set -- $(polls cd0 cd1)
check "$(built_in "dflpoll: cd0 polled every $want ms, nothing written ($2 polls in $1 ms)")" -- \
	rate_within "$2" "$1" "$want" 20
check "$(built_in "dflpoll: cd1 polled every $want ms, nothing written ($3 polls in $1 ms)")" -- \
	rate_within "$3" "$1" "$want" 20
echo 0 > $DFL_POLL
set -- $(polls cd0 cd1)
check "dflpoll: a write of 0 at run time stops polling ($2 and $3 polls in $1 ms)" -- \
	test "$2" -eq 0 -a "$3" -eq 0
