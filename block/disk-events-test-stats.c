// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the per-disk statistics in
 * debugfs, beyond mainline, read through a kernel mount of debugfs.
 */
#include <linux/delay.h>
#include "disk-events-test.h"

/* --- debugfs statistics --- */

void det_stats_count_checks(struct kunit *test)
{
	struct fake_disk *fd;
	long long before;
	int n;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	before = det_stat_of(fd, "checks");
	n = det_fake_calls(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_wait_checked(fd, n + 1));
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "checks"), (long long)det_fake_calls(fd));
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "checks"), before + 1);
}

void det_stats_count_found_events_and_uevents(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "found_eject_request"), 0);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "uevents"), 1);
}

void det_stats_show_block_depth(struct kunit *test)
{
	struct fake_disk *fd;

	det_needs_debugfs(test);
	fd = det_fake_cdrom(test);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "block_depth"), 0);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "block_depth"), 1);
	msleep(50);
	KUNIT_EXPECT_GE(test, det_stat_of(fd, "blocked_ms"), 50);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, det_stat_of(fd, "block_depth"), 0);
}

/* The interval a disk is polled at: the running default, its own, or none. */
void det_stats_show_effective_interval(struct kunit *test)
{
	struct fake_disk *polled, *unpolled;

	det_needs_debugfs(test);
	polled = det_fake_polled_cdrom(test);
	unpolled = det_fake_cdrom(test);
	KUNIT_EXPECT_EQ(test, det_stat_of(polled, "poll_msecs"), (long long)det_get_dfl());
	KUNIT_EXPECT_EQ(test, det_stat_of(unpolled, "poll_msecs"), 0);
	det_set_poll_msecs(polled, "700");
	KUNIT_EXPECT_EQ(test, det_stat_of(polled, "poll_msecs"), 700);
}
