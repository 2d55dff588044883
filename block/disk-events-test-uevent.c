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

void media_change_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_EJECT_REQUEST"));
}

void eject_request_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_MEDIA_CHANGE"));
}

void pending_event_reported_once(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	spin_lock(&fd->lock);
	fd->steady = DISK_EVENT_MEDIA_CHANGE;	/* a drive that keeps saying so */
	spin_unlock(&fd->lock);
	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 5));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

void open_clears_pending_so_next_change_is_reported(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));

	close_disk(open_disk(fd, BLK_OPEN_READ, NULL));
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
}

void change_while_pending_is_not_reported(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 3));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

void check_media_change_reports_pending_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void check_media_change_finds_unpolled_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_TRUE(test, test_bit(GD_NEED_PART_SCAN, &fd->disk->state));
}

void check_media_change_false_without_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void check_media_change_clears_both_events(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	int n = fake_calls(fd);

	disk_check_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, n), ALL_EVENTS);
}

/* The polled path: a new sequence number first, then the uevent. */
void media_change_gets_new_diskseq_before_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq + 1);
}

/*
 * A forced change (loop, nbd): the uevent first, carrying the sequence
 * number the disk had, then a new one.
 */
void forced_change_sends_uevent_then_bumps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	disk_force_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq);
}

void eject_request_keeps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq);
}

void no_uevent_without_uevent_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, 0);
	struct listener *l;

	fake_add(fd);
	l = listener_open(test);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
}

void undeclared_event_sends_no_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_MEDIA_CHANGE);
	struct listener *l = listener_open(test);

	check_now_answering(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_EJECT_REQUEST",
					    QUIET_MS), 0);
}

/* With the disk's uevents suppressed, a change is still found and cleared. */
void suppressed_change_still_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	suppress_uevents(test, fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

/* --- undeclared events, beyond mainline --- */

void undeclared_event_never_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

void stray_bits_reach_neither_uevent_nor_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);
	struct listener *l = listener_open(test);

	fake_answer(fd, ~0U);	/* every bit, declared or not, known or not */
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}
