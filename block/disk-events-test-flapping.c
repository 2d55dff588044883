// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: flapping drives, beyond mainline.
 * A drive that reports a change at every check is damped: polled less
 * often, its media change uevents held, until it is quiet again.  These
 * cases run on fake disks in real time; disk-events-test-rule.c tries
 * the rule itself over minutes and days of simulated time.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include "disk-events-test.h"

/*
 * --- flapping drives ---
 *
 * The core's documented constants: DISK_EVENTS_FLAP_QUICK changes in a
 * row, each less than a second after the one before, make a disk
 * flapping; its period is at least DAMP_MIN_MS, doubled per level up to
 * DAMP_MAX; a period without a change ends the damping.
 */
#define FLAP_QUICK	4
#define DAMP_MAX	3
#define DAMP_MIN_MS	1000

static void on_damp(void *data, struct gendisk *disk, unsigned int level,
		    unsigned long period_ms)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_mask = level;
	p->last_u64 = period_ms;
	atomic_inc(&p->hits);
}

/* From now on, @fd's drive answers "changed" at every check. */
static void start_flapping(struct fake_disk *fd, unsigned int events)
{
	spin_lock(&fd->lock);
	fd->steady = events;
	spin_unlock(&fd->lock);
}

/* @n opens' checks, as udev's would make; each must learn of a change. */
static void opens_learn_of_changes(struct fake_disk *fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(fd->test, disk_check_media_change(fd->disk));
}

/* Quick opens, each finding a change, until @fd is damped at level 1. */
static void damp_by_quick_opens(struct fake_disk *fd)
{
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_QUICK);
	KUNIT_ASSERT_EQ(fd->test, det_stat_of(fd, "damp_level"), 1);
}

/*
 * Sleep until less than a quarter of the current slot of a @period_ms
 * grid on the jiffies clock is left, so that a grid point comes soon.
 */
static void start_late_in_slot(unsigned int period_ms)
{
	unsigned long period = msecs_to_jiffies(period_ms);

	while (period - jiffies % period > period / 4)
		msleep(20);
}

void det_flapping_found_by_polls_slows_polling(struct kunit *test)
{
	struct fake_disk *fd;
	struct tp_probe *p;
	int n;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	p = det_tp_attach(test, fd, "disk_events_damp", on_damp);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	n = det_fake_calls(fd);
	det_set_poll_msecs(fd, FAST_POLL);
	/* The interval write's check and then polls, all "changed". */
	KUNIT_ASSERT_TRUE(test, det_wait_checked(fd, n + FLAP_QUICK));
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 1);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 1);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_period_ms"), 2 * DAMP_MIN_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
	KUNIT_EXPECT_EQ(test, p->last_u64, 2 * DAMP_MIN_MS);
	/* Polled every 2000 ms now, not every 10: one check in 1 s at most. */
	KUNIT_EXPECT_LE(test, det_calls_in(fd, 1000), 1);
}

void det_flapping_found_by_opens_holds_uevents(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);		/* not polled */
	l = det_listener_open(test);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_QUICK);
	/* Uevents until it is found flapping, the last one included. */
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), FLAP_QUICK);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 1);

	/* A check that is not an open finds a change: it is held ... */
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents_held"), 1);
	/* ... and told once, when its 2000 ms period ends. */
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						2 * DAMP_MIN_MS + QUIET_MS), 1);
}

/*
 * A damped disk's opener learns of a held change itself: no uevent
 * tells of it later.
 */
void det_held_change_is_dropped_once_an_opener_learns_of_it(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);		/* not polled */
	damp_by_quick_opens(fd);
	start_flapping(fd, 0);

	l = det_listener_open(test);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_ASSERT_EQ(test, det_stat_of(fd, "uevents_held"), 1);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						2 * DAMP_MIN_MS + QUIET_MS), 0);
}

/*
 * At most one media change uevent per period: damped just before a grid
 * point of its 2000 ms period, a disk holds the next change for the
 * whole period, not only up to that grid point.
 */
void det_damped_disk_tells_one_change_per_period(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);		/* not polled */
	l = det_listener_open(test);
	start_late_in_slot(2 * DAMP_MIN_MS);
	damp_by_quick_opens(fd);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), FLAP_QUICK);
	start_flapping(fd, 0);

	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						3 * DAMP_MIN_MS / 2), 0);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						DAMP_MIN_MS), 1);
}

/*
 * Damping ends on a disk that nothing checks, as on any: a period after
 * the last change, even if the user stopped polling it while it still
 * flapped, as the old message advised.
 */
void det_damping_ends_on_an_unpolled_disk(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	damp_by_quick_opens(fd);
	det_set_poll_msecs(fd, "0");
	start_flapping(fd, 0);

	msleep(2 * DAMP_MIN_MS + QUIET_MS);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_period_ms"), 0);
}

/*
 * A person in a hurry at the interval udev sets, 2000 ms: a disc at
 * every poll, each change told and found again by udev's open.  Never
 * damped.
 */
void det_disc_at_every_2000_ms_poll_is_never_damped(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int i;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	l = det_listener_open(test);
	det_set_poll_msecs(fd, "2000");
	for (i = 0; i < 6; i++) {
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		opens_learn_of_changes(fd, 1);
	}
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents_held"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
}

/* Like floppy's: no uevents, no loop with udev, no damping. */
void det_drive_without_uevents_is_never_flapping(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_alloc(test, DISK_EVENT_MEDIA_CHANGE, 0);
	det_fake_add(fd);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, 2 * FLAP_QUICK);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
}

void det_damping_rises_a_level_per_run_up_to_its_cap(struct kunit *test)
{
	struct fake_disk *fd;
	struct tp_probe *p;
	int level;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	p = det_tp_attach(test, fd, "disk_events_damp", on_damp);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	for (level = 1; level <= DAMP_MAX + 2; level++) {
		opens_learn_of_changes(fd, FLAP_QUICK);
		KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"),
				min(level, DAMP_MAX));
	}
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_period_ms"),
			DAMP_MIN_MS << DAMP_MAX);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), DAMP_MAX);
	KUNIT_EXPECT_EQ(test, p->last_mask, DAMP_MAX);
}

void det_damping_ends_after_a_quiet_stretch(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	struct tp_probe *p;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	p = det_tp_attach(test, fd, "disk_events_damp", on_damp);
	damp_by_quick_opens(fd);

	start_flapping(fd, 0);
	msleep(2 * DAMP_MIN_MS + QUIET_MS);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_period_ms"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 2);
	KUNIT_EXPECT_EQ(test, p->last_mask, 0);

	/* The next change is told at once again. */
	l = det_listener_open(test);
	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 1);
}

void det_damping_never_holds_eject_requests(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	damp_by_quick_opens(fd);

	l = det_listener_open(test);
	det_fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_EJECT_REQUEST",
						QUIET_MS), 1);
}

/*
 * sr tells of a change twice: the poll's GET EVENT STATUS NOTIFICATION
 * finds it, then udev's open, whose check sends TEST UNIT READY, gets
 * the drive's unit attention for it.  An eject and an insert in quick
 * succession are thus four checks in a row that find a change, and
 * still one swap: both told, nothing damped.
 */
void det_change_found_again_by_the_open_is_one_change(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int i;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);		/* not polled: the checks below only */
	l = det_listener_open(test);
	for (i = 0; i < 2; i++) {	/* the eject, then the insert */
		det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		opens_learn_of_changes(fd, 1);
	}
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents_held"), 0);
}
