// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: uevents that are not sent, because
 * the disk's uevents are suppressed or the uevent failed, are neither
 * traced nor counted, beyond mainline.
 */
#include "disk-events-test.h"

/* --- uevents that are not sent are neither traced nor counted --- */

/**
 * clear_change_failing_uevent - clear a media change whose uevent fails
 * @test: the test
 * @fd: the disk
 * @l: a listener
 *
 * Clears a media change with disk_check_media_change(), which reports
 * it from the calling task, with the task's next slab allocation failed:
 * kobject_uevent_env()'s environment, so that it fails with -ENOMEM.
 * Another allocation may come first now and then (object debugging
 * refills its pool), and the uevent is sent: so up to five tries, until
 * one uevent was lost.
 *
 * Return: how many uevents did arrive, before the lost one.
 */
static int clear_change_failing_uevent(struct kunit *test,
				       struct fake_disk *fd, struct listener *l)
{
	unsigned int left;
	bool changed;
	int i;

	det_fail_nth_for_gfp_kernel(test);
	for (i = 0; i < 5; i++) {
		/* A check without change between: a drive, not a flapping one. */
		KUNIT_ASSERT_FALSE(test, disk_check_media_change(fd->disk));
		det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		det_xchg_fail_nth(1);
		changed = disk_check_media_change(fd->disk);
		left = det_xchg_fail_nth(0);
		KUNIT_ASSERT_TRUE(test, changed);
		KUNIT_ASSERT_EQ_MSG(test, left, 0,
				    "no allocation failed: was a uevent sent?");
		if (!det_count_uevents(l, fd, "DISK_MEDIA_CHANGE", QUIET_MS))
			return i;
	}
	KUNIT_FAIL_AND_ABORT(test, "5 uevents sent despite a failed allocation");
	return i;
}

/* Clear a media change whose uevent is sent; fails the test if it is not. */
static void clear_change_sending_uevent(struct kunit *test,
					struct fake_disk *fd,
					struct listener *l)
{
	KUNIT_ASSERT_FALSE(test, disk_check_media_change(fd->disk));
	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_ASSERT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_ASSERT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 1);
}

void det_failed_uevent_hits_no_tracepoint(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *p = det_tp_attach(test, fd, "disk_events_uevent", det_on_uevent);
	struct listener *l = det_listener_open(test);
	int sent;

	sent = clear_change_failing_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), sent);
	clear_change_sending_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), sent + 1);
}

void det_failed_uevent_not_counted(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int sent;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	l = det_listener_open(test);
	KUNIT_ASSERT_EQ(test, det_stat_of(fd, "uevents"), 0);
	sent = clear_change_failing_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents"), sent);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "found_media_change"), sent + 1);
	clear_change_sending_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents"), sent + 1);
}

void det_suppressed_uevent_hits_no_tracepoint(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *p = det_tp_attach(test, fd, "disk_events_uevent", det_on_uevent);

	det_suppress_uevents(test, fd);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));

	det_allow_uevents(fd);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
}

void det_suppressed_uevent_not_counted(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	det_suppress_uevents(test, fd);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents"), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));

	det_allow_uevents(fd);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents"), 1);
}
