# SPDX-License-Identifier: GPL-2.0
#
# block.events_dfl_poll_msecs and events_poll_msecs set the polling rate
# as documented, counted on the device side: GET EVENT STATUS
# NOTIFICATION commands in QEMU's SCSI trace, one per idle poll.  Boot
# with block.events_dfl_poll_msecs=1000.  Bounds are loose (TCG timing):
# the point is which interval applies, not its precision.

GESN=74
WINDOW=4

# polls ID...: GESN commands each drive received in $WINDOW seconds.
polls()
{
	local id
	host scsi-mark >/dev/null
	sleep $WINDOW
	for id in "$@"; do
		echo "$(host scsi-count "$id" $GESN)"
	done
}

# rate_is N MSECS: N polls in $WINDOW s fit an interval of MSECS
# (0: none at all).
rate_is()
{
	local want
	[ "$2" -eq 0 ] && { [ "$1" -eq 0 ]; return; }
	want=$((WINDOW * 1000 / $2))
	[ "$1" -ge $((want / 2)) ] && [ "$1" -le $((want * 3 / 2 + 1)) ]
}

# expect_rates WHAT ID MSECS ID MSECS: measure both drives at once.
expect_rates()
{
	local what=$1
	set -- $(polls "$2" "$4") "$@"
	check "rates: $what: cd0 at $5 ms ($1 polls in $WINDOW s)" -- rate_is "$1" "$5"
	check "rates: $what: cd1 at $7 ms ($2 polls in $WINDOW s)" -- rate_is "$2" "$7"
}

c0=/sys/block/$(devof cd0)/events_poll_msecs
host change cd1 cd1-disc >/dev/null
ack "$(devof cd0)"; ack "$(devof cd1)"

expect_rates "boot default 1000" cd0 1000 cd1 1000
echo 500 > $DFL_POLL
expect_rates "default 500 at run time" cd0 500 cd1 500
echo 0 > $c0
expect_rates "cd0 own 0 stops it only" cd0 0 cd1 500
echo 250 > $c0
expect_rates "cd0 own 250 wins over the default" cd0 250 cd1 500
echo -1 > $c0
echo 0 > $DFL_POLL
expect_rates "cd0 back to the default, default 0" cd0 0 cd1 0
echo 2000 > $DFL_POLL
expect_rates "default 2000" cd0 2000 cd1 2000
