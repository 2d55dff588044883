# SPDX-License-Identifier: GPL-2.0
#
# block.events_dfl_poll_msecs and events_poll_msecs set the polling rate
# as documented, counted on the device side: GET EVENT STATUS
# NOTIFICATION commands in QEMU's SCSI trace, one per idle poll, in a
# window of about 10 s that the host times.  Boot with
# block.events_dfl_poll_msecs=1000.
#
# Two results per drive and interval.  "at MSECS": the interval that
# applies is MSECS and no other.  Mainline re-arms each poll after the
# last one ended, so its polls drift late by the check's time and the
# timer wheel's rounding (measured on the debug base under TCG: 36 polls
# in 10.1 s at 250 ms, 19 at 500 ms); the count must lie between the
# window over MSECS plus 20%, less one, and the window over MSECS, plus
# one: half or double the rate, or another interval, is far outside.
# "exactly": our polls sit on a grid of MSECS, so a window holds its
# length over MSECS of them, give or take the one at either edge.  Every
# interval here is a whole number of jiffies at HZ=250 and at 1000: 250
# ms is 63 jiffies at HZ=250, a grid of 252 ms, which lost that one poll
# in a 10.3 s window.

# expect_rates WHAT ID MSECS ID MSECS: measure both drives at once.
expect_rates()
{
	local what=$1 ms n0 n1
	set -- $(polls "$2" "$4") "$@"
	ms=$1 n0=$2 n1=$3
	shift 3
	check "rates: $what: cd0 at $3 ms ($n0 polls in $ms ms)" -- rate_within "$n0" "$ms" "$3" 20
	check "rates: $what: cd1 at $5 ms ($n1 polls in $ms ms)" -- rate_within "$n1" "$ms" "$5" 20
	check "$(beyond "rates: $what: cd0 exactly every $3 ms, to one poll")" -- \
		rate_within "$n0" "$ms" "$3" 0
	check "$(beyond "rates: $what: cd1 exactly every $5 ms, to one poll")" -- \
		rate_within "$n1" "$ms" "$5" 0
}

c0=/sys/block/$(devof cd0)/events_poll_msecs
host change cd1 cd1-disc >/dev/null
ack "$(devof cd0)"; ack "$(devof cd1)"

expect_rates "boot default 1000" cd0 1000 cd1 1000
echo 500 > $DFL_POLL
expect_rates "default 500 at run time" cd0 500 cd1 500
echo 0 > $c0
expect_rates "cd0 own 0 stops it only" cd0 0 cd1 500
echo 200 > $c0
expect_rates "cd0 own 200 wins over the default" cd0 200 cd1 500
echo -1 > $c0
echo 0 > $DFL_POLL
expect_rates "cd0 back to the default, default 0" cd0 0 cd1 0
echo 2000 > $DFL_POLL
expect_rates "default 2000" cd0 2000 cd1 2000
