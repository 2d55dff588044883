// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: what user space hears.  The uevents
 * a check sends, pending events and the clears of
 * disk_check_media_change(), the disk sequence number, and the events a
 * disk does not declare.
 */
#include <linux/kstrtox.h>
#include "disk-events-test.h"

/* --- what user space hears --- */

void det_media_change_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_NULL(test, det_uevent_var(l, "DISK_EJECT_REQUEST"));
}

void det_eject_request_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	det_fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, det_uevent_var(l, "DISK_MEDIA_CHANGE"));
}

void det_pending_event_reported_once(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	spin_lock(&fd->lock);
	fd->steady = DISK_EVENT_MEDIA_CHANGE;	/* a drive that keeps saying so */
	spin_unlock(&fd->lock);
	det_set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(fd, det_fake_calls(fd) + 5));
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 1);
}

void det_open_clears_pending_so_next_change_is_reported(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));

	det_close_disk(det_open_disk(fd, BLK_OPEN_READ, NULL));
	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
}

void det_change_while_pending_is_not_reported(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, 2));
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, 3));
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 1);
}

void det_check_media_change_reports_pending_change(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void det_check_media_change_finds_unpolled_change(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_TRUE(test, test_bit(GD_NEED_PART_SCAN, &fd->disk->state));
}

void det_check_media_change_false_without_change(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void det_check_media_change_clears_both_events(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	int n = det_fake_calls(fd);

	disk_check_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, det_fake_clearing(fd, n), ALL_EVENTS);
}

/* The polled path: a new sequence number first, then the uevent. */
void det_media_change_gets_new_diskseq_before_uevent(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_NOT_NULL(test, det_uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(det_uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq + 1);
}

/*
 * A forced change (loop, nbd): the uevent first, carrying the sequence
 * number the disk had, then a new one.
 */
void det_forced_change_sends_uevent_then_bumps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	disk_force_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_ASSERT_NOT_NULL(test, det_uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(det_uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq);
}

void det_eject_request_keeps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);
	u64 seq = fd->disk->diskseq;

	det_fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq);
}

void det_no_uevent_without_uevent_flag(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS, 0);
	struct listener *l;

	det_fake_add(fd);
	l = det_listener_open(test);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
}

void det_undeclared_event_sends_no_uevent(struct kunit *test)
{
	struct fake_disk *fd = det_fake_drive_of(test, DISK_EVENT_MEDIA_CHANGE);
	struct listener *l = det_listener_open(test);

	det_check_now_answering(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_EJECT_REQUEST",
						QUIET_MS), 0);
}

/* With the disk's uevents suppressed, a change is still found and cleared. */
void det_suppressed_change_still_pending(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);

	det_suppress_uevents(test, fd);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

/* --- undeclared events, beyond mainline --- */

void det_undeclared_event_never_pending(struct kunit *test)
{
	struct fake_disk *fd = det_fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);

	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void det_stray_bits_reach_neither_uevent_nor_pending(struct kunit *test)
{
	struct fake_disk *fd = det_fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);
	struct listener *l = det_listener_open(test);

	det_fake_answer(fd, ~0U);	/* every bit, declared or not, known or not */
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, det_uevent_var(l, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}
