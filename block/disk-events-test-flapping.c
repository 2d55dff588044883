// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: flapping drives, beyond mainline.
 * A drive that reports a change at every check is damped: polled less
 * often, its media change uevents held, until it is quiet again.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include "disk-events-test.h"

/*
 * --- flapping drives ---
 *
 * The core's documented constants: DISK_EVENTS_FLAP_CHECKS changes in a
 * row, of checks or of grid slots, make a disk flapping; its period is
 * at least DAMP_MIN_MS, doubled per level up to DAMP_MAX; a check that
 * finds no change a period after the last one ends the damping.
 */
#define FLAP_CHECKS	4
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

/*
 * Sleep until at least half of the current slot of a @period_ms grid on
 * the jiffies clock is left.  A damped disk sends one media change
 * uevent per slot of its period's grid: a case that must see what one
 * slot allows starts here.
 */
static void start_early_in_slot(unsigned int period_ms)
{
	unsigned long period = msecs_to_jiffies(period_ms);

	while (period - jiffies % period < period / 2)
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
	KUNIT_ASSERT_TRUE(test, det_wait_checked(fd, n + FLAP_CHECKS));
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
	/* All the opens below within one slot of the level 1 period. */
	start_early_in_slot(2 * DAMP_MIN_MS);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	/* Uevents until it is found flapping, the last one included. */
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), FLAP_CHECKS);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 1);

	opens_learn_of_changes(fd, FLAP_CHECKS - 1);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents_held"), FLAP_CHECKS - 1);
	/* The held change is told once, when its 2000 ms period ends. */
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						2 * DAMP_MIN_MS + QUIET_MS), 1);
}

/*
 * udev's opens take each change as soon as it is told, and between them
 * the drive's checks find none: a change in every slot of the grid (at
 * least DAMP_MIN_MS) still makes the disk flapping, at the fourth slot.
 */
void det_changes_in_slots_in_a_row_are_flapping(struct kunit *test)
{
	struct fake_disk *fd;
	int i;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);		/* not polled: slots of DAMP_MIN_MS */
	start_early_in_slot(DAMP_MIN_MS);
	for (i = 1; i <= FLAP_CHECKS; i++) {
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
		KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
		KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"),
				i == FLAP_CHECKS ? 1 : 0);
		msleep(DAMP_MIN_MS);
	}
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 1);
}

/* Like floppy's: no uevents, no loop with udev, no damping. */
void det_drive_without_uevents_is_never_flapping(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_alloc(test, DISK_EVENT_MEDIA_CHANGE, 0);
	det_fake_add(fd);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, 2 * FLAP_CHECKS);
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
		opens_learn_of_changes(fd, FLAP_CHECKS);
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
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	KUNIT_ASSERT_EQ(test, det_stat_of(fd, "damp_level"), 1);

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
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	KUNIT_ASSERT_EQ(test, det_stat_of(fd, "damp_level"), 1);

	l = det_listener_open(test);
	det_fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_EJECT_REQUEST",
						QUIET_MS), 1);
}

/*
 * A disc swapped every 10 s in a drive polled every 2 s: a change every
 * fifth poll, here at 10 ms, and each swap an eject and an insert on two
 * polls in a row, then udev's open.  Every swap is told, none held.
 */
void det_swap_every_ten_seconds_is_never_damped(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int i;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	l = det_listener_open(test);
	det_set_poll_msecs(fd, FAST_POLL);
	for (i = 0; i < 10; i++) {
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
		KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, det_fake_calls(fd) + 2));
		det_close_disk(det_open_disk(fd, BLK_OPEN_READ, NULL));
		KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, det_fake_calls(fd) + 4));
	}
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents_held"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "damp_level"), 0);
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
