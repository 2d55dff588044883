// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: aligned polling, beyond mainline.
 * Periodic checks fall on a grid shared by every disk, and the checks of
 * many drives run side by side, but not all at once.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include "disk-events-test.h"

/* --- aligned polling --- */

/* A poll interval (ms) long enough to tell grid points from other times. */
#define GRID_POLL_MS	1000
/* What a worker may add to the timer's lateness, under emulation. */
#define GRID_LATENCY_MS	50

/**
 * grid_slack_ms - how far a periodic check may run from its grid point
 * @interval_ms: the poll interval
 *
 * A periodic check is queued by a timer armed up to one interval ahead.
 * The timer wheel fires a timer late by up to the granularity of the
 * level its delay falls in: 1 jiffy below 63 jiffies, 8 times more
 * from each level to the next, whose delays start 8 times further out
 * (LVL_START() and calc_index() in kernel/time/timer.c).  One more
 * jiffy, as each check reads jiffies, and the worker's latency.  At
 * HZ=250 a 1000 ms interval gives 36 + 50 ms; at HZ=1000, 65 + 50 ms.
 *
 * Return: the slack in milliseconds.
 */
static unsigned int grid_slack_ms(unsigned int interval_ms)
{
	unsigned long delay = msecs_to_jiffies(interval_ms);
	unsigned long gran = 1, level_start = 63;

	while (delay >= level_start) {
		gran <<= 3;
		level_start <<= 3;
	}
	return jiffies_to_msecs(gran + 1) + GRID_LATENCY_MS;
}

/* The jiffies at check number @n (0 is the first); fails if none comes. */
static unsigned long check_time(struct fake_disk *fd, int n)
{
	KUNIT_ASSERT_TRUE(fd->test, det_fake_wait_calls(fd, n + 1));
	return fd->when[n];
}

/* Set @fd's own interval and wait for the immediate check it makes. */
static void poll_every(struct fake_disk *fd, unsigned int msecs)
{
	int n = det_fake_calls(fd);
	char val[16];

	snprintf(val, sizeof(val), "%u", msecs);
	det_set_poll_msecs(fd, val);
	KUNIT_ASSERT_TRUE(fd->test, det_fake_wait_calls(fd, n + 1));
}

/* Started a third of an interval apart, two disks meet on the grid. */
void det_equal_intervals_share_a_tick(struct kunit *test)
{
	struct fake_disk *a = det_fake_cdrom(test), *b = det_fake_cdrom(test);
	unsigned long ta, tb, half = msecs_to_jiffies(GRID_POLL_MS / 2);
	unsigned int slack = grid_slack_ms(GRID_POLL_MS);
	int na, nb;

	poll_every(a, GRID_POLL_MS);
	msleep(GRID_POLL_MS / 3);
	poll_every(b, GRID_POLL_MS);
	na = det_fake_calls(a);
	nb = det_fake_calls(b);
	ta = check_time(a, na);
	tb = check_time(b, nb);
	/* One may have had its check of this tick before we looked. */
	if (time_after(ta, tb + half))
		tb = check_time(b, nb + 1);
	else if (time_after(tb, ta + half))
		ta = check_time(a, na + 1);
	KUNIT_EXPECT_LE_MSG(test, jiffies_to_msecs(abs_diff(ta, tb)), slack,
			    "periodic checks %u ms apart, HZ=%d",
			    jiffies_to_msecs(abs_diff(ta, tb)), HZ);
}

/* Drives whose checks are all parked at once, more than run together. */
#define MANY_DRIVES	16

/*
 * The checks of many drives run side by side, but not all at once: a
 * few workers serve any number of drives (see "One tick" in the core).
 */
/*
 * How many of @fds have a check parked in ->check_events(), without
 * taking their completions as det_check_entered() does.
 */
static int checks_entered(struct fake_disk **fds, int nr)
{
	int i, entered = 0;

	for (i = 0; i < nr; i++)
		entered += completion_done(&fds[i]->entered);
	return entered;
}

void det_checks_of_many_drives_run_side_by_side_but_bounded(struct kunit *test)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(WAIT_MS);
	struct fake_disk *fds[MANY_DRIVES];
	int i, entered = 0, before;

	for (i = 0; i < MANY_DRIVES; i++) {
		fds[i] = det_fake_cdrom(test);
		det_hold_checks(fds[i]);
	}
	for (i = 0; i < MANY_DRIVES; i++)
		disk_flush_events(fds[i]->disk, 0);
	/* Until no more start: a workqueue may be slow to add workers. */
	do {
		before = entered;
		msleep(QUIET_MS);
		entered = checks_entered(fds, MANY_DRIVES);
	} while ((!entered || entered != before) && entered < MANY_DRIVES &&
		 time_before(jiffies, deadline));
	for (i = 0; i < MANY_DRIVES; i++)
		det_release_checks(fds[i]);
	KUNIT_EXPECT_GE_MSG(test, entered, 2, "checks run one at a time");
	KUNIT_EXPECT_LT_MSG(test, entered, MANY_DRIVES,
			    "a worker for every one of %d drives", MANY_DRIVES);
}

/* A flush a third of an interval after a periodic check moves no other. */
void det_check_after_flush_rejoins_the_grid(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	unsigned int gap, slack = grid_slack_ms(GRID_POLL_MS);
	unsigned long before, after;
	int n;

	poll_every(fd, GRID_POLL_MS);
	before = check_time(fd, det_fake_calls(fd));
	msleep(GRID_POLL_MS / 3);
	n = det_fake_calls(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, n + 1));
	after = check_time(fd, n + 1);
	/* One interval from the periodic check before: not from the flush. */
	gap = jiffies_to_msecs(after - before);
	KUNIT_EXPECT_LE_MSG(test, abs_diff(gap, (unsigned int)GRID_POLL_MS), slack,
			    "periodic checks %u ms apart across a flush, HZ=%d",
			    gap, HZ);
}

/*
 * A disk polled twice as often as another, started a quarter of the
 * longer interval after it, meets it on the longer interval's ticks.
 */
void det_commensurate_intervals_meet_on_the_longer_tick(struct kunit *test)
{
	struct fake_disk *fast = det_fake_cdrom(test), *slow = det_fake_cdrom(test);
	unsigned int apart, closest = UINT_MAX;
	unsigned int slack = grid_slack_ms(GRID_POLL_MS);
	long from_slow[4];
	unsigned long t;
	int i, n;

	poll_every(slow, GRID_POLL_MS);
	msleep(GRID_POLL_MS / 4);
	poll_every(fast, GRID_POLL_MS / 2);
	n = det_fake_calls(fast);
	t = check_time(slow, det_fake_calls(slow));
	/*
	 * One of the fast disk's checks around it shares the slow one's
	 * tick: the last before we looked (on another CPU, the fast check
	 * of that tick may have returned before the slow one), or one of
	 * the next three.
	 */
	for (i = 0; i < ARRAY_SIZE(from_slow); i++) {
		from_slow[i] = (long)(check_time(fast, n - 1 + i) - t);
		apart = jiffies_to_msecs(abs(from_slow[i]));
		closest = min(closest, apart);
	}
	KUNIT_EXPECT_LE_MSG(test, closest, slack,
			    "fast checks %ld, %ld, %ld, %ld jiffies from the slow one, HZ=%d",
			    from_slow[0], from_slow[1], from_slow[2], from_slow[3],
			    HZ);
}
