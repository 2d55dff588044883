# SPDX-License-Identifier: GPL-2.0
#
# block.events_dfl_poll_msecs and events_poll_msecs set the polling rate
# as documented, counted on the device side: GET EVENT STATUS
# NOTIFICATION commands in QEMU's SCSI trace, one per idle poll, in a
# window the host times.  Boot with block.events_dfl_poll_msecs=1000.
# Polls come every interval, so a window of W ms holds W / interval of
# them, give or take the one at either edge: a count off by more is a
# wrong rate.  (The timer wheel may run a poll up to 1/8 of its interval
# late; a drift that small stays within the one.)

GESN=74
WINDOW=10

# polls ID...: "MS N..." for a window of about $WINDOW s: its length in
# ms, timed by the host, and the GESN commands each drive received in it.
# Starts a second after the last interval write, which itself checks at
# once.
polls()
{
	sleep 1
	host scsi-mark >/dev/null
	sleep $WINDOW
	host scsi-counts $GESN "$@"
}

# rate_is N MS MSECS: N polls in a window of MS ms fit an interval of
# MSECS (0: none at all), to within one poll.
rate_is()
{
	[ "$3" -eq 0 ] && { [ "$1" -eq 0 ]; return; }
	[ $(($1 * $3)) -ge $(($2 - $3)) ] && [ $(($1 * $3)) -le $(($2 + $3)) ]
}

# expect_rates WHAT ID MSECS ID MSECS: measure both drives at once.
expect_rates()
{
	local what=$1
	set -- $(polls "$2" "$4") "$@"
	check "rates: $what: cd0 at $6 ms ($2 polls in $1 ms)" -- rate_is "$2" "$1" "$6"
	check "rates: $what: cd1 at $8 ms ($3 polls in $1 ms)" -- rate_is "$3" "$1" "$8"
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
