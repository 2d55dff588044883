// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: when checks run.  A disk's own
 * interval, the running default and the DISK_EVENT_FLAG_POLL flag that
 * makes a disk follow it.
 */
#include <linux/delay.h>
#include <linux/minmax.h>
#include "disk-events-test.h"

/* --- interval --- */

/* The longest running default whose polls a case waits to see. */
#define MAX_WATCHED_DFL_MS	1000

/*
 * Wait until no check has run for a while: for the immediate check that
 * a write or flush queued, before watching for calls that must not come.
 */
static void settle(struct fake_disk *fd)
{
	int i, n;

	for (i = 0; i < 20; i++) {
		n = det_fake_calls(fd);
		msleep(QUIET_MS / 3);
		if (det_fake_calls(fd) == n)
			return;
	}
}

/*
 * How long to watch for polls at the running default that must not
 * come: three of its intervals, at least QUIET_MS and at most three
 * MAX_WATCHED_DFL_MS (a longer default is not watched for).
 */
static unsigned int dfl_watch_ms(void)
{
	return clamp(3 * det_get_dfl(), (unsigned long)QUIET_MS,
		     3UL * MAX_WATCHED_DFL_MS);
}

void det_add_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);

	KUNIT_EXPECT_EQ(test, det_fake_calls(fd), 0);
	det_fake_add(fd);
	KUNIT_EXPECT_EQ(test, det_fake_calls(fd), 1);
}

/*
 * A disk with DISK_EVENT_FLAG_POLL and no interval of its own is polled
 * at the running default: not at all if it is 0 (mainline's default),
 * else at that interval.
 */
void det_poll_flag_disk_follows_the_default(struct kunit *test)
{
	unsigned long dfl = det_get_dfl();
	struct fake_disk *fd = det_fake_polled_cdrom(test);

	kunit_info(test, "block.events_dfl_poll_msecs is %lu\n", dfl);
	if (dfl > MAX_WATCHED_DFL_MS)
		kunit_skip(test, "a default of %lu ms is too long to watch", dfl);
	if (dfl)
		KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
	else
		KUNIT_EXPECT_EQ(test, det_calls_in_quiet_period(fd), 0);
}

void det_own_interval_polls(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(fd, det_fake_calls(fd) + 3));
}

void det_own_zero_disables_despite_default(struct kunit *test)
{
	struct fake_disk *fd = det_fake_polled_cdrom(test);

	det_set_poll_msecs(fd, FAST_POLL);
	KUNIT_ASSERT_TRUE(test, det_keeps_polling(fd));
	det_set_poll_msecs(fd, "0");
	settle(fd);
	KUNIT_EXPECT_EQ(test, det_calls_in(fd, dfl_watch_ms()), 0);
}

void det_own_interval_wins_over_default(struct kunit *test)
{
	struct fake_disk *fd = det_fake_polled_cdrom(test);

	det_set_poll_msecs(fd, "3600000");
	settle(fd);
	KUNIT_EXPECT_EQ(test, det_calls_in(fd, dfl_watch_ms()), 0);
	det_set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
}

void det_default_ignored_without_poll_flag(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_UEVENT);

	det_fake_add(fd);
	KUNIT_EXPECT_EQ(test, det_calls_in(fd, dfl_watch_ms()), 0);
}

/* Any write of the default checks every disk at once, even of the same value. */
void det_default_write_checks_every_disk_at_once(struct kunit *test)
{
	struct fake_disk *a = det_fake_cdrom(test), *b = det_fake_cdrom(test);
	int na = det_fake_calls(a), nb = det_fake_calls(b);

	det_rewrite_dfl(test, "%lu");
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(a, na + 1));
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(b, nb + 1));
}

void det_own_interval_change_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, "3600000");
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(fd, 2));
}
