// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: blocking and flushing.  Blocks
 * nest and wait for a running check, exclusive writers block polling, and
 * a flush checks at once, with its mask as the clearing argument.
 */
#include "disk-events-test.h"

/* --- blocking --- */

static void do_block(struct fake_disk *fd)
{
	disk_block_events(fd->disk);
}

void det_block_waits_for_running_check(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *blocker;

	det_hold_checks(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_check_entered(fd));
	blocker = det_start_side_call(test, do_block, fd);
	KUNIT_EXPECT_FALSE(test, det_side_call_done(blocker, QUIET_MS));
	det_release_checks(fd);
	KUNIT_ASSERT_TRUE(test, det_side_call_done(blocker, WAIT_MS));
	disk_unblock_events(fd->disk);
}

void det_blocked_disk_is_not_polled(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, det_calls_in_quiet_period(fd), 0);
	disk_unblock_events(fd->disk);
}

void det_last_unblock_resumes_polling(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
}

void det_blocks_nest(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, det_calls_in_quiet_period(fd), 0);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
}

void det_exclusive_writer_stops_polling(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct file *burner;

	det_set_poll_msecs(fd, FAST_POLL);
	burner = det_open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	KUNIT_EXPECT_EQ(test, det_calls_in_quiet_period(fd), 0);
	det_close_disk(burner);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
}

void det_change_during_exclusive_write_reported_after(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct listener *l = det_listener_open(test);
	struct file *burner;

	det_set_poll_msecs(fd, FAST_POLL);
	burner = det_open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	det_fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						QUIET_MS), 0);
	det_close_disk(burner);
	KUNIT_EXPECT_TRUE(test, det_wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
}

void det_exclusive_writer_polled_without_flag(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_UEVENT);
	struct file *writer;

	det_fake_add(fd);
	det_set_poll_msecs(fd, FAST_POLL);
	writer = det_open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
	det_close_disk(writer);
}

void det_reader_does_not_stop_polling(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct file *reader;

	det_set_poll_msecs(fd, FAST_POLL);
	reader = det_open_disk(fd, BLK_OPEN_READ, test);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
	det_close_disk(reader);
}

/* --- flush --- */

void det_flush_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, det_fake_wait_calls(fd, 2));
}

void det_flush_mask_reaches_driver_as_clearing(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, 2));
	KUNIT_EXPECT_EQ(test, det_fake_clearing(fd, 1), DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, 3));
	KUNIT_EXPECT_EQ(test, det_fake_clearing(fd, 2), 0);
}

void det_flush_while_blocked_waits_for_unblock(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	int n;

	det_set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_calls_in_quiet_period(fd), 0);
	n = det_fake_calls(fd);
	disk_unblock_events(fd->disk);
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, n + 1));
	KUNIT_EXPECT_EQ(test, det_fake_clearing(fd, n), DISK_EVENT_MEDIA_CHANGE);
}

void det_flush_during_open_check_is_not_lost(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *opener;
	int n;

	det_hold_checks(fd);
	opener = det_start_side_call(test, det_do_check_media_change, fd);
	KUNIT_ASSERT_TRUE(test, det_check_entered(fd));
	/* Blocked by the opener: queued for its unblock, not run yet. */
	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	n = det_fake_calls(fd);
	det_release_checks(fd);
	KUNIT_ASSERT_TRUE(test, det_side_call_done(opener, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, det_fake_wait_calls(fd, n + 2));
	KUNIT_EXPECT_EQ(test, det_fake_clearing(fd, n + 1), DISK_EVENT_MEDIA_CHANGE);
}

void det_checks_never_overlap_under_opens_and_flushes(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	int i;

	det_set_poll_msecs(fd, "1");
	for (i = 0; i < 50; i++) {
		det_close_disk(det_open_disk(fd, BLK_OPEN_READ, NULL));
		disk_flush_events(fd->disk, i & 1 ? DISK_EVENT_MEDIA_CHANGE : 0);
	}
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
}
